// The issue's acceptance case: saxpy with N=100000 on ipu2 (1472 tiles). 50000 float
// pairs over 1472 tiles: 1424 tiles hold 68 elements and 48 hold 66, so every tile
// works and the busiest holds ceil(100000 / 1472) = 68, already a multiple of 2.
// RUN: ipu-opt %examples/saxpy.sdfg --symbols N=100000 -p sdfg-specialize,ipu-tile-partition | filecheck %s
// RUN: ipu-opt %examples/saxpy.sdfg --symbols N=100000 --arch ipu1 -p sdfg-specialize,ipu-tile-partition | filecheck %s --check-prefix=IPU1

// CHECK: ipu.graph "saxpy" arch "ipu2" args ["a", "x", "y"]
// CHECK: ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
// CHECK: ipu.variable "x" mapping <0 to 1424 x 68, 1424 to 1472 x 66> : memref<100000xf32>
// CHECK: ipu.variable "y" mapping <0 to 1424 x 68, 1424 to 1472 x 66> : memref<100000xf32>

// The two maps run over the same blocks: the scalar a whole, the vectors by block, each
// read at the point; the copy of the result into y is a whole-container copy.
// CHECK:      ipu.tiled_map "_Mult__map" over <0 to 1424 x 68, 1424 to 1472 x 66> ins(%a whole, %x block : memref<f32>, memref<100000xf32>) outs(%__tmp0 block : memref<100000xf32>) {
// CHECK-NEXT: ^{{.*}}([[A:%.*]]: memref<f32>, [[X:%.*]]: memref<100000xf32>):
// CHECK-DAG:    ipu.access [[A]][] : memref<f32>
// CHECK-DAG:    ipu.access [[X]][0] : memref<100000xf32>
// CHECK:      ipu.tiled_map "_Add__map" over <0 to 1424 x 68, 1424 to 1472 x 66> ins(%__tmp0 block, %y block : memref<100000xf32>, memref<100000xf32>) outs(%__tmp1 block : memref<100000xf32>) {
// CHECK:      ipu.copy %__tmp1[0:100000] to %y[0:100000] : memref<100000xf32>, memref<100000xf32>
// CHECK-NEXT: ipu.to_host %y : memref<100000xf32>

// 1216 tiles: 50000 = 1216 * 41 + 144 units, so 144 tiles hold 84 and 1072 hold 82.
// IPU1: ipu.graph "saxpy" arch "ipu1"
// IPU1: ipu.variable "x" mapping <0 to 144 x 84, 144 to 1216 x 82> : memref<100000xf32>
