// RUN: ipu-opt %s -p ipu-plan-exchange --split-input-file | filecheck %s
// RUN: ipu-opt %s -p ipu-plan-exchange --split-input-file | ipu-opt -p ipu-plan-exchange --split-input-file | filecheck %s

// ipu-plan-exchange sizes the halo of every input connected `neighbours` from the
// flat offsets its body reads: the vertex of a block [b, e) is connected to [b - before,
// e + after), so Poplar's exchange brings it only the neighbours' elements it reads.
// Planned rules, scalars and outputs are left alone, and a second run changes nothing.

// A five-point stencil on the interior of a 6x6 array (strips of the flat array): the
// rows above and below are 6 elements away, so each vertex receives 6 + 6 elements
// from its neighbours. B, read at the point, stays `block`.
ipu.graph "jacobi_2d" arch "ipu1" args ["A", "B"] {
  %A = ipu.variable "A" mapping <0 to 18 x 2> : memref<6x6xf32>
  %B = ipu.variable "B" mapping <0 to 18 x 2> : memref<6x6xf32>
  ipu.tiled_map "m" over <from 7: 3 to 4 x 1, 4 to 14 x 2, 14 to 15 x 1> ins(%B block, %A neighbours : memref<6x6xf32>, memref<6x6xf32>) outs(%B block : memref<6x6xf32>) {
  ^bb0(%B_1: memref<6x6xf32>, %A_1: memref<6x6xf32>):
    %old = ipu.access %B_1[0, 0] : memref<6x6xf32>
    %n = ipu.access %A_1[-1, 0] : memref<6x6xf32>
    %w = ipu.access %A_1[0, -1] : memref<6x6xf32>
    %c = ipu.access %A_1[0, 0] : memref<6x6xf32>
    %e = ipu.access %A_1[0, 1] : memref<6x6xf32>
    %s = ipu.access %A_1[1, 0] : memref<6x6xf32>
    %0 = arith.addf %n, %w : f32
    %1 = arith.addf %0, %c : f32
    %2 = arith.addf %1, %e : f32
    %3 = arith.addf %2, %s : f32
    %p = ipu.point
    %six = arith.constant 6 : index
    %col = arith.remui %p, %six : index
    %one = arith.constant 1 : index
    %lo = arith.cmpi uge, %col, %one : index
    %five = arith.constant 5 : index
    %hi = arith.cmpi ult, %col, %five : index
    %in = arith.andi %lo, %hi : i1
    %r = arith.select %in, %3, %old : f32
    ipu.yield %r : f32
  }
}

// CHECK-LABEL: ipu.graph "jacobi_2d"
// CHECK:         ipu.tiled_map "m" over <from 7: 3 to 4 x 1, 4 to 14 x 2, 14 to 15 x 1> ins(%B block, %A halo<6, 6> : memref<6x6xf32>, memref<6x6xf32>) outs(%B block : memref<6x6xf32>) {

// -----

// Asymmetric: B[i] = A[i + 3] - A[i] reads only ahead of the point: halo<0, 3>. The
// scalar c stays `whole`; x, already planned, keeps its rule.
ipu.graph "forward" arch "ipu1" args ["c", "x", "A", "B"] {
  %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 4 x 2> : memref<8xf32>
  %A = ipu.variable "A" mapping <0 to 4 x 2> : memref<8xf32>
  %B = ipu.variable "B" mapping <0 to 4 x 2> : memref<8xf32>
  ipu.tiled_map "m" over <0 to 2 x 2, 2 to 3 x 1> ins(%c whole, %x halo<0, 1>, %A neighbours : memref<f32>, memref<8xf32>, memref<8xf32>) outs(%B block : memref<8xf32>) {
  ^bb0(%c_1: memref<f32>, %x_1: memref<8xf32>, %A_1: memref<8xf32>):
    %k = ipu.access %c_1[] : memref<f32>
    %xv = ipu.access %x_1[0] : memref<8xf32>
    %ahead = ipu.access %A_1[3] : memref<8xf32>
    %here = ipu.access %A_1[0] : memref<8xf32>
    %d = arith.subf %ahead, %here : f32
    %m = arith.mulf %d, %k : f32
    %r = arith.addf %m, %xv : f32
    ipu.yield %r : f32
  }
}

// CHECK-LABEL: ipu.graph "forward"
// CHECK:         ipu.tiled_map "m" over <0 to 2 x 2, 2 to 3 x 1> ins(%c whole, %x halo<0, 1>, %A halo<0, 3> : memref<f32>, memref<8xf32>, memref<8xf32>) outs(%B block : memref<8xf32>) {

// -----

// Only behind the point (A[i - 2], a 3-D neighbour one plane back, planes of 2 x 2
// elements = 4 back): halo<4, 0>; a `neighbours` input read only at the point needs no
// halo: block.
ipu.graph "backward" arch "ipu1" args ["A", "C", "B"] {
  %A = ipu.variable "A" mapping <0 to 4 x 2> : memref<2x2x2xf32>
  %C = ipu.variable "C" mapping <0 to 4 x 2> : memref<2x2x2xf32>
  %B = ipu.variable "B" mapping <0 to 4 x 2> : memref<2x2x2xf32>
  ipu.tiled_map "m" over <from 4: 2 to 4 x 2> ins(%A neighbours, %C neighbours : memref<2x2x2xf32>, memref<2x2x2xf32>) outs(%B block : memref<2x2x2xf32>) {
  ^bb0(%A_1: memref<2x2x2xf32>, %C_1: memref<2x2x2xf32>):
    %a = ipu.access %A_1[-1, 0, 0] : memref<2x2x2xf32>
    %c = ipu.access %C_1[0, 0, 0] : memref<2x2x2xf32>
    %r = arith.addf %a, %c : f32
    ipu.yield %r : f32
  }
}

// CHECK-LABEL: ipu.graph "backward"
// CHECK:         ipu.tiled_map "m" over <from 4: 2 to 4 x 2> ins(%A halo<4, 0>, %C block : memref<2x2x2xf32>, memref<2x2x2xf32>) outs(%B block : memref<2x2x2xf32>) {

// -----

// Over a grid map the halo widens each vertex's box in each dimension by the farthest
// accesses in it, before and after: here one row back and two columns ahead,
// halo<[1, 0], [0, 2]>.
ipu.graph "grid" arch "ipu1" args ["A", "B"] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 4> * 2, <0 to 2 x 4> * 1> : memref<8x8xf32>
  %B = ipu.variable "B" mapping grid<<0 to 2 x 4> * 2, <0 to 2 x 4> * 1> : memref<8x8xf32>
  ipu.tiled_map "m" over grid<<from 1: 0 to 1 x 3, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 2> * 1> ins(%A neighbours : memref<8x8xf32>) outs(%B block : memref<8x8xf32>) {
  ^bb0(%A_1: memref<8x8xf32>):
    %n = ipu.access %A_1[-1, 0] : memref<8x8xf32>
    %e = ipu.access %A_1[0, 2] : memref<8x8xf32>
    %s = arith.addf %n, %e : f32
    ipu.yield %s : f32
  }
}

// CHECK-LABEL: ipu.graph "grid"
// CHECK:         ipu.tiled_map "m" over grid<<from 1: 0 to 1 x 3, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 2> * 1> ins(%A halo<[1, 0], [0, 2]> : memref<8x8xf32>) outs(%B block : memref<8x8xf32>) {
