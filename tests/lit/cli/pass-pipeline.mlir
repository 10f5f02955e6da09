// --pass-pipeline takes MLIR syntax; --symbols and --arch fill the options left unset.
// RUN: ipu-opt %inputs/axpy.mlir --pass-pipeline 'builtin.module(sdfg-specialize{symbols="N=6"},ipu-tile-partition{arch=ipu1})' | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir -p 'sdfg-specialize{symbols="N=6"},ipu-tile-partition{arch=ipu1}' | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 --arch ipu1 --pass-pipeline 'builtin.module(sdfg-specialize, ipu-tile-partition)' | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 --arch ipu21 -p 'sdfg-specialize,ipu-tile-partition{arch=ipu1}' | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 --arch ipu21 -p sdfg-to-poplar | filecheck %s --check-prefix=IPU21

// CHECK: ipu.graph "axpy" arch "ipu1" args ["a", "x", "y"]
// CHECK: ipu.variable "x" mapping <0 to 3 x 2> : memref<6xf32>
// IPU21: poplar.host_program @axpy arch "ipu21"

// xdsl-opt's flags keep working.
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 -p sdfg-specialize,ipu-tile-partition,ipu-vertex-extraction --print-between-passes | filecheck %s --check-prefix=BETWEEN
// BETWEEN: IR after sdfg-specialize:
// BETWEEN: sdfg.container "x" : !sdfg.array<6 x f32>
// BETWEEN: IR after ipu-tile-partition:
// BETWEEN: ipu.tiled_map "m"
// BETWEEN: ipu.codelet @axpy_m
