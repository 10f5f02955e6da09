// RUN: ipu-opt %s -p 'ipu-tile-partition{arch=ipu1}' --split-input-file | filecheck %s

// A three-point stencil over the interior of a vector (DaCe's B[1:-1] = A[:-2] + A[1:-1] +
// A[2:], fused): the map writes B[1:15], so its tile map is B's layout cut to elements
// [1, 15) (`from 1:`, the first and last blocks one shorter), its points are the written
// elements, and A is read one element either side of each point, so it is connected
// `neighbours` (ipu-plan-exchange sizes that halo: see ipu-plan-exchange.mlir).

sdfg.sdfg @jacobi args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<16 x f32>
  %B = sdfg.container "B" : !sdfg.array<16 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (14) step (1) {
      %l = sdfg.read %A[%i] : !sdfg.array<16 x f32>
      %c = sdfg.read %A[%i + 1] : !sdfg.array<16 x f32>
      %r = sdfg.read %A[%i + 2] : !sdfg.array<16 x f32>
      %v = sdfg.tasklet "sum" ins(a = %l, b = %c, d = %r) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32, %d: f32):
        %s = arith.addf %a, %b : f32
        %t = arith.addf %s, %d : f32
        sdfg.yield %t : f32
      }
      sdfg.write %v to %B[%i + 1] : !sdfg.array<16 x f32>
    }
  }
}

// CHECK:      ipu.graph "jacobi" arch "ipu1" args ["A", "B"] {
// CHECK-NEXT:   %A = ipu.variable "A" mapping <0 to 8 x 2> : memref<16xf32>
// CHECK-NEXT:   %B = ipu.variable "B" mapping <0 to 8 x 2> : memref<16xf32>
// CHECK-NEXT:   ipu.from_host %A : memref<16xf32>
// CHECK-NEXT:   ipu.from_host %B : memref<16xf32>
// CHECK-NEXT:   ipu.tiled_map "m" over <from 1: 0 to 1 x 1, 1 to 7 x 2, 7 to 8 x 1> ins(%A neighbours : memref<16xf32>) outs(%B block : memref<16xf32>) {
// CHECK-NEXT:   ^bb0(%A_1: memref<16xf32>):
// CHECK-NEXT:     %0 = ipu.access %A_1[-1] : memref<16xf32>
// CHECK-NEXT:     %1 = ipu.access %A_1[0] : memref<16xf32>
// CHECK-NEXT:     %2 = ipu.access %A_1[1] : memref<16xf32>
// CHECK-NEXT:     %s = arith.addf %0, %1 : f32
// CHECK-NEXT:     %t = arith.addf %s, %2 : f32
// CHECK-NEXT:     ipu.yield %t : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host %B : memref<16xf32>
// CHECK-NEXT: }

// -----

// Whole rows 1..6 of an 8x8 matrix, each the sum of the rows above and below. The
// arrays are cut into a grid of boxes, since a box reads the rows above and below it
// where a strip of rows would read a whole row either side: 4x1 boxes on 16 tiles (the
// 6 workers of a tile take a box's rows in turn, so smaller boxes would not finish
// sooner). The map's grid is the arrays' cut to the rows it writes (`from 1:`).

sdfg.sdfg @rows args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<8 x 8 x f32>
  %B = sdfg.container "B" : !sdfg.array<8 x 8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (1, 0) to (7, 8) step (1, 1) {
      %u = sdfg.read %A[%i - 1, %j] : !sdfg.array<8 x 8 x f32>
      %d = sdfg.read %A[%i + 1, %j] : !sdfg.array<8 x 8 x f32>
      %v = sdfg.tasklet "sum" ins(a = %u, b = %d) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        sdfg.yield %s : f32
      }
      sdfg.write %v to %B[%i, %j] : !sdfg.array<8 x 8 x f32>
    }
  }
}

// CHECK:      ipu.graph "rows" arch "ipu1" args ["A", "B"] {
// CHECK-NEXT:   %A = ipu.variable "A" mapping grid<<0 to 2 x 4> * 8, <0 to 8 x 1> * 1> : memref<8x8xf32>
// CHECK-NEXT:   %B = ipu.variable "B" mapping grid<<0 to 2 x 4> * 8, <0 to 8 x 1> * 1> : memref<8x8xf32>
// CHECK-NEXT:   ipu.from_host %A : memref<8x8xf32>
// CHECK-NEXT:   ipu.from_host %B : memref<8x8xf32>
// CHECK-NEXT:   ipu.tiled_map "m" over grid<<from 1: 0 to 2 x 3> * 8, <0 to 8 x 1> * 1> ins(%A neighbours : memref<8x8xf32>) outs(%B block : memref<8x8xf32>) {
// CHECK-NEXT:   ^bb0(%A_1: memref<8x8xf32>):
// CHECK-NEXT:     %0 = ipu.access %A_1[-1, 0] : memref<8x8xf32>
// CHECK-NEXT:     %1 = ipu.access %A_1[1, 0] : memref<8x8xf32>
// CHECK-NEXT:     %s = arith.addf %0, %1 : f32
// CHECK-NEXT:     ipu.yield %s : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host %B : memref<8x8xf32>
// CHECK-NEXT: }

// -----

// The interior of a 6x6 matrix (DaCe's B[1:-1, 1:-1] = A[1:-1, :-2] + A[1:-1, 2:]) is not
// contiguous in memory: the map runs over the span from B[1, 1] to B[4, 4] (elements
// [7, 29)), B is read at the point too, and a point whose column (its index % 6) lies
// outside [1, 5) yields the value B already holds. (Strips cost less than a grid here:
// a point a tile and a halo of 2 elements, against a 1x1 box and its ring of 8.)

sdfg.sdfg @interior args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<6 x 6 x f32>
  %B = sdfg.container "B" : !sdfg.array<6 x 6 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %l = sdfg.read %A[%i + 1, %j] : !sdfg.array<6 x 6 x f32>
      %r = sdfg.read %A[%i + 1, %j + 2] : !sdfg.array<6 x 6 x f32>
      %v = sdfg.tasklet "sum" ins(a = %l, b = %r) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        sdfg.yield %s : f32
      }
      sdfg.write %v to %B[%i + 1, %j + 1] : !sdfg.array<6 x 6 x f32>
    }
  }
}

// CHECK:      ipu.graph "interior" arch "ipu1" args ["A", "B"] {
// CHECK-NEXT:   %A = ipu.variable "A" mapping <0 to 18 x 2> : memref<6x6xf32>
// CHECK-NEXT:   %B = ipu.variable "B" mapping <0 to 18 x 2> : memref<6x6xf32>
// CHECK-NEXT:   ipu.from_host %A : memref<6x6xf32>
// CHECK-NEXT:   ipu.from_host %B : memref<6x6xf32>
// CHECK-NEXT:   ipu.tiled_map "m" over <from 7: 3 to 4 x 1, 4 to 14 x 2, 14 to 15 x 1> ins(%B block, %A neighbours : memref<6x6xf32>, memref<6x6xf32>) outs(%B block : memref<6x6xf32>) {
// CHECK-NEXT:   ^bb0(%B_1: memref<6x6xf32>, %A_1: memref<6x6xf32>):
// CHECK-NEXT:     %0 = ipu.access %B_1[0, 0] : memref<6x6xf32>
// CHECK-NEXT:     %1 = ipu.access %A_1[0, -1] : memref<6x6xf32>
// CHECK-NEXT:     %2 = ipu.access %A_1[0, 1] : memref<6x6xf32>
// CHECK-NEXT:     %s = arith.addf %1, %2 : f32
// CHECK-NEXT:     %3 = ipu.point
// CHECK-NEXT:     %4 = arith.constant 6 : index
// CHECK-NEXT:     %5 = arith.remui %3, %4 : index
// CHECK-NEXT:     %6 = arith.constant 1 : index
// CHECK-NEXT:     %7 = arith.cmpi uge, %5, %6 : index
// CHECK-NEXT:     %8 = arith.constant 5 : index
// CHECK-NEXT:     %9 = arith.cmpi ult, %5, %8 : index
// CHECK-NEXT:     %10 = arith.andi %7, %9 : i1
// CHECK-NEXT:     %11 = arith.select %10, %s, %0 : f32
// CHECK-NEXT:     ipu.yield %11 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host %B : memref<6x6xf32>
// CHECK-NEXT: }
