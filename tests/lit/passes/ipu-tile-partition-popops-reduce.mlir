// RUN: ipu-opt %s --symbols M=4,N=6 -p sdfg-specialize,ipu-tile-partition | filecheck %s

// sdfg-specialize and ipu-tile-partition on popops reductions: the boxes of sdfg.reduce
// take the symbols' values; sdfg.reduce becomes ipu.reduce of the variables, with no
// tile map (popops splits the work itself), a box that is not the whole container an
// ipu.view of it (a Poplar slice), made at the graph's level when the reduction is in a
// loop. A reduction ties no layouts: its input and output keep the balanced blocks
// planned for them, so the map after it reads the result where it lies. Its output is
// written, so an argument it writes goes back to the host.

sdfg.sdfg @sums args ["A", "s", "c", "r"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  %c = sdfg.container "c" : !sdfg.array<M x f32>
  %r = sdfg.container "r" : !sdfg.array<3 x N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<M x f32>
  sdfg.state "s0" {
    sdfg.reduce "whole" add %A[0:M, 0:N] to %s[0:1] dims [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
    sdfg.reduce "rows" max %A[0:M, 0:N] to %t[0:M] dims [1] : !sdfg.array<M x N x f32>, !sdfg.array<M x f32>
    sdfg.map "twice" (%i) = (0) to (M) step (1) {
      %0 = sdfg.read %t[%i] : !sdfg.array<M x f32>
      %1 = sdfg.tasklet "double" ins(a = %0) outs(o) : (f32) -> (f32) {
      ^bb0(%u: f32):
        %d = arith.addf %u, %u : f32
        sdfg.yield %d : f32
      }
      sdfg.write %1 to %c[%i] : !sdfg.array<M x f32>
    }
  }
  sdfg.for "loop" %k = 0 to 2 step 1 {
    sdfg.state "s1" {
      sdfg.reduce "interior" add %A[1:M - 1, 0:N] to %r[2:3, 0:N] dims [0] update : !sdfg.array<M x N x f32>, !sdfg.array<3 x N x f32>
    }
  }
}

// CHECK:      %A = ipu.variable "A" mapping <0 to 12 x 2> : memref<4x6xf32>
// CHECK:      %t = ipu.variable "t" mapping <0 to 2 x 2> : memref<4xf32>
// CHECK:      ipu.reduce "whole" add %A to %s dims [0, 1] : memref<4x6xf32>, memref<1xf32>
// CHECK-NEXT: ipu.reduce "rows" max %A to %t dims [1] : memref<4x6xf32>, memref<4xf32>
// CHECK-NEXT: ipu.tiled_map "twice" over <0 to 2 x 2> ins(%t block : memref<4xf32>) outs(%c block : memref<4xf32>) {
// CHECK:      %A_box = ipu.view %A[1:3, 0:6] : memref<4x6xf32> -> memref<2x6xf32>
// CHECK-NEXT: %r_box = ipu.view %r[2:3, 0:6] : memref<3x6xf32> -> memref<1x6xf32>
// CHECK-NEXT: ipu.repeat 2 {
// CHECK-NEXT:   ipu.reduce "interior" add %A_box to %r_box dims [0] update : memref<2x6xf32>, memref<1x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: ipu.to_host %s : memref<1xf32>
// CHECK-NEXT: ipu.to_host %c : memref<4xf32>
// CHECK-NEXT: ipu.to_host %r : memref<3x6xf32>
