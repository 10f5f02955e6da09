// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p convert-ipu-to-poplar | filecheck %s
// RUN: rm -rf %t && not ipu-opt %s --split-input-file -p convert-ipu-to-poplar -o %t.mlir 2>&1 | filecheck %s --check-prefix=CLI
// RUN: test ! -e %t.mlir

// The pass converts codelets and placements: a tiled map left in a graph is reported
// at its place, not as the verifier errors its half-converted neighbours would give.

ipu.graph "g" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 2> : memref<2xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 2> : memref<2xf32>
  ipu.from_host %x : memref<2xf32>
  ipu.tiled_map "m" over <0 to 1 x 2> ins(%x block : memref<2xf32>) outs(%y block : memref<2xf32>) {
  ^bb0(%v: memref<2xf32>):
    %e = ipu.access %v[0] : memref<2xf32>
    ipu.yield %e : f32
  }
}

// CHECK: convert-ipu-to-poplar-invalid.mlir:[[# @LINE - 7]]:3: error: 'ipu.tiled_map' cannot be converted to Poplar; run ipu-vertex-extraction first
// CLI: ipu-opt: {{.*}}convert-ipu-to-poplar-invalid.mlir:[[# @LINE - 8]]:3: error: 'ipu.tiled_map' cannot be converted to Poplar; run ipu-vertex-extraction first
// CLI-NOT: error

// -----

// Whichever graph of the module holds it.
ipu.graph "first" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 2> : memref<2xf32>
}
ipu.graph "second" arch "ipu2" args [] {
  %y = ipu.variable "y" mapping <0 to 1 x 2> : memref<2xf32>
  ipu.tiled_map "fill" over <0 to 1 x 2> ins() outs(%y block : memref<2xf32>) {
    %c = arith.constant 1.000000e+00 : f32
    ipu.yield %c : f32
  }
}

// CHECK: convert-ipu-to-poplar-invalid.mlir:[[# @LINE - 6]]:3: error: 'ipu.tiled_map' cannot be converted to Poplar; run ipu-vertex-extraction first
