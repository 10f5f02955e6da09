// RUN: ipu-opt %s -p ipu-vertex-extraction | filecheck %s

// The map body becomes a codelet with one field per tensor (y is read and written:
// inout; the scalar a is a scalar input); each tile holding work gets one vertex
// connected to its own slices. Field names drop the `__` DaCe puts on temporaries.

ipu.graph "axpy" arch "ipu2" args ["a", "x", "y"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 4, 2 to 3 x 2> : memref<10xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 4, 2 to 3 x 2> : memref<10xf32>
  %t = ipu.variable "__tmp0" mapping <0 to 2 x 4, 2 to 3 x 2> : memref<10xf32>
  ipu.from_host %a : memref<f32>
  ipu.from_host %x : memref<10xf32>
  ipu.from_host %y : memref<10xf32>
  ipu.tiled_map "axpy" over #ipu.tile_map<0 to 2 x 4, 2 to 3 x 2> ins(%a, %x, %y : memref<f32>, memref<10xf32>, memref<10xf32>) outs(%t, %y : memref<10xf32>, memref<10xf32>) {
  ^bb0(%va: f32, %vx: f32, %vy: f32):
    %p = arith.mulf %va, %vx : f32
    %s = arith.addf %p, %vy : f32
    ipu.yield %p, %s : f32, f32
  }
  ipu.to_host %y : memref<10xf32>
}

// CHECK:      ipu.graph "axpy" arch "ipu2" args ["a", "x", "y"] {
// CHECK-NEXT:   [[A:%.*]] = ipu.variable "a"
// CHECK-NEXT:   [[X:%.*]] = ipu.variable "x"
// CHECK-NEXT:   [[Y:%.*]] = ipu.variable "y"
// CHECK-NEXT:   [[T:%.*]] = ipu.variable "__tmp0"
// CHECK-NEXT:   ipu.codelet @axpy_axpy fields [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<inout "y" vector f32>, #ipu.field<output "tmp0" vector f32>] {
// CHECK-NEXT:   ^{{.*}}([[VA:%.*]]: f32, [[VX:%.*]]: f32, [[VY:%.*]]: f32):
// CHECK-NEXT:     [[P:%.*]] = arith.mulf [[VA]], [[VX]] : f32
// CHECK-NEXT:     [[S:%.*]] = arith.addf [[P]], [[VY]] : f32
// CHECK-NEXT:     ipu.yield [[S]], [[P]] : f32, f32
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.from_host [[A]]
// CHECK-NEXT:   ipu.from_host [[X]]
// CHECK-NEXT:   ipu.from_host [[Y]]
// CHECK-NEXT:   ipu.compute_set "axpy_axpy" {
// CHECK-NEXT:     ipu.vertex @axpy_axpy tile 0 ([[A]], [[X]][0:4], [[Y]][0:4], [[T]][0:4]) : memref<f32>, memref<10xf32>, memref<10xf32>, memref<10xf32>
// CHECK-NEXT:     ipu.vertex @axpy_axpy tile 1 ([[A]], [[X]][4:8], [[Y]][4:8], [[T]][4:8])
// CHECK-NEXT:     ipu.vertex @axpy_axpy tile 2 ([[A]], [[X]][8:10], [[Y]][8:10], [[T]][8:10])
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host [[Y]]
// CHECK-NEXT: }
