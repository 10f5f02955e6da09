// RUN: ipu-opt %s -p 'ipu-tile-partition{arch=ipu1}' --split-input-file | filecheck %s

// Stencils that read neighbours in several dimensions get a grid map: the arrays are cut
// into boxes, block (i, j) on tile i * stride0 + j * stride1, and the map runs over the
// boxes cut to the box it writes, so no point needs a mask. A box reads the ring of
// its neighbours (ipu-plan-exchange sizes it), where a strip of rows would read a whole
// row either side. Each grid minimises the busiest tile's points plus the elements it
// reads, and is kept only when that beats strips (see passes/tile_partition_grid.py).

// A five-point stencil over the interior of a 40x40 array on 1216 tiles: 20 x 40 boxes
// of 2x1 elements (800 tiles); the interior's boxes in the first and last row of boxes
// hold one row.

sdfg.sdfg @five_point args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<40 x 40 x f32>
  %B = sdfg.container "B" : !sdfg.array<40 x 40 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (1, 1) to (39, 39) step (1, 1) {
      %c = sdfg.read %A[%i, %j] : !sdfg.array<40 x 40 x f32>
      %u = sdfg.read %A[%i - 1, %j] : !sdfg.array<40 x 40 x f32>
      %d = sdfg.read %A[%i + 1, %j] : !sdfg.array<40 x 40 x f32>
      %l = sdfg.read %A[%i, %j - 1] : !sdfg.array<40 x 40 x f32>
      %r = sdfg.read %A[%i, %j + 1] : !sdfg.array<40 x 40 x f32>
      %v = sdfg.tasklet "avg" ins(a = %c, b = %u, c = %d, d = %l, e = %r) outs(o) : (f32, f32, f32, f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32, %cc: f32, %dd: f32, %e: f32):
        %s0 = arith.addf %a, %b : f32
        %s1 = arith.addf %s0, %cc : f32
        %s2 = arith.addf %s1, %dd : f32
        %s3 = arith.addf %s2, %e : f32
        sdfg.yield %s3 : f32
      }
      sdfg.write %v to %B[%i, %j] : !sdfg.array<40 x 40 x f32>
    }
  }
}

// CHECK:      ipu.graph "five_point" arch "ipu1" args ["A", "B"] {
// CHECK-NEXT:   %A = ipu.variable "A" mapping grid<<0 to 20 x 2> * 40, <0 to 40 x 1> * 1> : memref<40x40xf32>
// CHECK-NEXT:   %B = ipu.variable "B" mapping grid<<0 to 20 x 2> * 40, <0 to 40 x 1> * 1> : memref<40x40xf32>
// CHECK:        ipu.tiled_map "m" over grid<<from 1: 0 to 1 x 1, 1 to 19 x 2, 19 to 20 x 1> * 40, <from 1: 1 to 39 x 1> * 1> ins(%A neighbours : memref<40x40xf32>) outs(%B block : memref<40x40xf32>) {
// CHECK-NEXT:   ^bb0(%A_1: memref<40x40xf32>):
// CHECK-NEXT:     %0 = ipu.access %A_1[0, 0] : memref<40x40xf32>
// CHECK-NEXT:     %1 = ipu.access %A_1[-1, 0] : memref<40x40xf32>
// CHECK-NEXT:     %2 = ipu.access %A_1[1, 0] : memref<40x40xf32>
// CHECK-NEXT:     %3 = ipu.access %A_1[0, -1] : memref<40x40xf32>
// CHECK-NEXT:     %4 = ipu.access %A_1[0, 1] : memref<40x40xf32>
// CHECK-NOT:      ipu.point

// -----

// 3-D, read asymmetrically (the point, one plane back, one element ahead): 6 x 12 x 12
// boxes of 2x1x1.

sdfg.sdfg @heat args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<12 x 12 x 12 x f32>
  %B = sdfg.container "B" : !sdfg.array<12 x 12 x 12 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j, %k) = (1, 1, 1) to (11, 11, 11) step (1, 1, 1) {
      %c = sdfg.read %A[%i, %j, %k] : !sdfg.array<12 x 12 x 12 x f32>
      %u = sdfg.read %A[%i - 1, %j, %k] : !sdfg.array<12 x 12 x 12 x f32>
      %d = sdfg.read %A[%i, %j, %k + 1] : !sdfg.array<12 x 12 x 12 x f32>
      %v = sdfg.tasklet "t" ins(a = %c, b = %u, e = %d) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32, %e: f32):
        %s0 = arith.addf %a, %b : f32
        %s1 = arith.addf %s0, %e : f32
        sdfg.yield %s1 : f32
      }
      sdfg.write %v to %B[%i, %j, %k] : !sdfg.array<12 x 12 x 12 x f32>
    }
  }
}

// CHECK:      ipu.graph "heat" arch "ipu1" args ["A", "B"] {
// CHECK-NEXT:   %A = ipu.variable "A" mapping grid<<0 to 6 x 2> * 144, <0 to 12 x 1> * 12, <0 to 12 x 1> * 1> : memref<12x12x12xf32>
// CHECK:        ipu.tiled_map "m" over grid<<from 1: 0 to 1 x 1, 1 to 5 x 2, 5 to 6 x 1> * 144, <from 1: 1 to 11 x 1> * 12, <from 1: 1 to 11 x 1> * 1> ins(%A neighbours : memref<12x12x12xf32>) outs(%B block : memref<12x12x12xf32>) {

// -----

// A scalar step that reads an element of A: only maps in the stencil frame and whole
// copies may touch a grid's arrays, so A and B stay in strips (and the interior is
// masked).

sdfg.sdfg @with_scalar args ["A", "B", "s"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<40 x 40 x f32>
  %B = sdfg.container "B" : !sdfg.array<40 x 40 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s" {
    %corner = sdfg.read %A[0, 0] : !sdfg.array<40 x 40 x f32>
    %twice = sdfg.tasklet "twice" ins(a = %corner) outs(o) : (f32) -> (f32) {
    ^bb0(%a: f32):
      %t = arith.addf %a, %a : f32
      sdfg.yield %t : f32
    }
    sdfg.write %twice to %s[] : !sdfg.array<f32>
    sdfg.map "m" (%i, %j) = (1, 1) to (39, 39) step (1, 1) {
      %c = sdfg.read %A[%i, %j] : !sdfg.array<40 x 40 x f32>
      %u = sdfg.read %A[%i - 1, %j] : !sdfg.array<40 x 40 x f32>
      %d = sdfg.read %A[%i + 1, %j] : !sdfg.array<40 x 40 x f32>
      %l = sdfg.read %A[%i, %j - 1] : !sdfg.array<40 x 40 x f32>
      %r = sdfg.read %A[%i, %j + 1] : !sdfg.array<40 x 40 x f32>
      %v = sdfg.tasklet "avg" ins(a = %c, b = %u, c = %d, d = %l, e = %r) outs(o) : (f32, f32, f32, f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32, %cc: f32, %dd: f32, %e: f32):
        %s0 = arith.addf %a, %b : f32
        %s1 = arith.addf %s0, %cc : f32
        %s2 = arith.addf %s1, %dd : f32
        %s3 = arith.addf %s2, %e : f32
        sdfg.yield %s3 : f32
      }
      sdfg.write %v to %B[%i, %j] : !sdfg.array<40 x 40 x f32>
    }
  }
}

// CHECK:      ipu.graph "with_scalar" arch "ipu1" args ["A", "B", "s"] {
// CHECK-NEXT:   %A = ipu.variable "A" mapping <0 to 800 x 2> : memref<40x40xf32>
// CHECK:        ipu.tiled_map "m" over <from 41: 20 to 21 x 1, 21 to 779 x 2, 779 to 780 x 1> ins(%B block, %A neighbours : memref<40x40xf32>, memref<40x40xf32>) outs(%B block : memref<40x40xf32>) {
// CHECK:          ipu.point
