// RUN: ipu-opt %s -p ipu-vertex-extraction --split-input-file | filecheck %s

// Each tiled map becomes a codelet and a compute set holding one ipu.vertices over the
// map's tile map, whatever the tile count. The codelet has one field per tensor: the
// scalar a is a scalar input (memref<f32>), x a vector input, y is read and written
// (inout), __tmp0 only written (output; field names drop DaCe's `__`). Its body is the
// worker's share of the points. Every block holds a whole number of float2 vectors and
// every access is a whole number of vectors from the point (x[i] and x[i + 2]), so the
// points run two at a time: worker w takes vectors w, w + workers, ... of its block
// (units = n / 2), loading, computing and storing vector<2xf32>; the element after the
// last whole vector (n odd) is done by worker units % workers. The load of the whole
// scalar, and the product that depends only on it, are hoisted before the loop, then
// broadcast. The second map (no inputs, a scalar output written from its one point)
// gets a fresh codelet name, n = 1 and a store with no index.

ipu.graph "g" arch "ipu2" args ["a", "x", "y"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 7, 2 to 3 x 3> : memref<17xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 6, 2 to 3 x 3> : memref<15xf32>
  %t = ipu.variable "__tmp0" mapping <0 to 2 x 6, 2 to 3 x 3> : memref<15xf32>
  %k = ipu.variable "k" mapping <5 to 6 x 1> : memref<i32>
  ipu.from_host %a : memref<f32>
  ipu.from_host %x : memref<17xf32>
  ipu.from_host %y : memref<15xf32>
  ipu.tiled_map "m" over <0 to 2 x 6, 2 to 3 x 3> ins(%a whole, %x halo<0, 2>, %y block : memref<f32>, memref<17xf32>, memref<15xf32>) outs(%y block, %t block : memref<15xf32>, memref<15xf32>) {
  ^bb0(%va: memref<f32>, %vx: memref<17xf32>, %vy: memref<15xf32>):
    %s = ipu.access %va[] : memref<f32>
    %s2 = arith.mulf %s, %s : f32
    %x0 = ipu.access %vx[0] : memref<17xf32>
    %x2 = ipu.access %vx[2] : memref<17xf32>
    %y0 = ipu.access %vy[0] : memref<15xf32>
    %sum = arith.addf %x0, %x2 : f32
    %r = arith.mulf %s2, %sum : f32
    %o = arith.addf %r, %y0 : f32
    ipu.yield %o, %r : f32, f32
  }
  ipu.tiled_map "m" over <5 to 6 x 1> ins() outs(%k whole : memref<i32>) {
    %c = arith.constant 7 : i32
    ipu.yield %c : i32
  }
  ipu.to_host %y : memref<15xf32>
}

// CHECK:      ipu.graph "g" arch "ipu2" args ["a", "x", "y"] {
// CHECK-NEXT:   %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
// CHECK-NEXT:   %x = ipu.variable "x" mapping <0 to 2 x 7, 2 to 3 x 3> : memref<17xf32>
// CHECK-NEXT:   %y = ipu.variable "y" mapping <0 to 2 x 6, 2 to 3 x 3> : memref<15xf32>
// CHECK-NEXT:   %t = ipu.variable "__tmp0" mapping <0 to 2 x 6, 2 to 3 x 3> : memref<15xf32>
// CHECK-NEXT:   %k = ipu.variable "k" mapping <5 to 6 x 1> : memref<i32>
// CHECK-NEXT:   ipu.codelet @g_m(%a_1: memref<f32> input "a", %x_1: memref<?xf32> input "x", %y_1: memref<?xf32> inout "y", %tmp0: memref<?xf32> output "tmp0") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %y_1, %0 : memref<?xf32>
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     %1 = memref.load %a_1[] : memref<f32>
// CHECK-NEXT:     %s2 = arith.mulf %1, %1 : f32
// CHECK-NEXT:     %2 = arith.constant 2 : index
// CHECK-NEXT:     %units = arith.divui %n, %2 : index
// CHECK-NEXT:     %s2_v = vector.broadcast %s2 : f32 to vector<2xf32>
// CHECK-NEXT:     scf.for %u = %worker to %units step %workers {
// CHECK-NEXT:       %first = arith.muli %u, %2 : index
// CHECK-NEXT:       %3 = vector.load %x_1[%first] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:       %4 = arith.addi %first, %2 : index
// CHECK-NEXT:       %5 = vector.load %x_1[%4] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:       %6 = vector.load %y_1[%first] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:       %7 = arith.addf %3, %5 : vector<2xf32>
// CHECK-NEXT:       %8 = arith.mulf %s2_v, %7 : vector<2xf32>
// CHECK-NEXT:       %9 = arith.addf %8, %6 : vector<2xf32>
// CHECK-NEXT:       vector.store %9, %y_1[%first] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:       vector.store %8, %tmp0[%first] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %done = arith.muli %units, %2 : index
// CHECK-NEXT:     %10 = arith.remui %units, %workers : index
// CHECK-NEXT:     %11 = arith.cmpi eq, %worker, %10 : index
// CHECK-NEXT:     %12 = arith.constant 1 : index
// CHECK-NEXT:     scf.if %11 {
// CHECK-NEXT:       scf.for %i = %done to %n step %12 {
// CHECK-NEXT:         %13 = memref.load %x_1[%i] : memref<?xf32>
// CHECK-NEXT:         %14 = arith.addi %i, %2 : index
// CHECK-NEXT:         %15 = memref.load %x_1[%14] : memref<?xf32>
// CHECK-NEXT:         %16 = memref.load %y_1[%i] : memref<?xf32>
// CHECK-NEXT:         %sum = arith.addf %13, %15 : f32
// CHECK-NEXT:         %r = arith.mulf %s2, %sum : f32
// CHECK-NEXT:         %o = arith.addf %r, %16 : f32
// CHECK-NEXT:         memref.store %o, %y_1[%i] : memref<?xf32>
// CHECK-NEXT:         memref.store %r, %tmp0[%i] : memref<?xf32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.codelet @g_m_1(%k_1: memref<i32> output "k") {
// CHECK-NEXT:     %n = arith.constant 1 : index
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     %c = arith.constant 7 : i32
// CHECK-NEXT:     scf.for %i = %worker to %n step %workers {
// CHECK-NEXT:       memref.store %c, %k_1[] : memref<i32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.from_host %a : memref<f32>
// CHECK-NEXT:   ipu.from_host %x : memref<17xf32>
// CHECK-NEXT:   ipu.from_host %y : memref<15xf32>
// CHECK-NEXT:   ipu.compute_set "g_m" {
// CHECK-NEXT:     ipu.vertices @g_m over <0 to 2 x 6, 2 to 3 x 3> (%a whole, %x halo<0, 2>, %y block, %t block : memref<f32>, memref<17xf32>, memref<15xf32>, memref<15xf32>)
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.compute_set "g_m_1" {
// CHECK-NEXT:     ipu.vertices @g_m_1 over <5 to 6 x 1> (%k whole : memref<i32>)
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host %y : memref<15xf32>
// CHECK-NEXT: }

// -----

// y = a * x + y in float16: vectors of 4 halves, the product with the broadcast scalar
// feeding one add is a vector.fma (one f16v4mix on the IPU).

ipu.graph "axpy" arch "ipu2" args ["a", "x", "y"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f16>
  %x = ipu.variable "x" mapping <0 to 3 x 8> : memref<24xf16>
  %y = ipu.variable "y" mapping <0 to 3 x 8> : memref<24xf16>
  ipu.tiled_map "m" over <0 to 3 x 8> ins(%a whole, %x block, %y block : memref<f16>, memref<24xf16>, memref<24xf16>) outs(%y block : memref<24xf16>) {
  ^bb0(%va: memref<f16>, %vx: memref<24xf16>, %vy: memref<24xf16>):
    %s = ipu.access %va[] : memref<f16>
    %e = ipu.access %vx[0] : memref<24xf16>
    %f = ipu.access %vy[0] : memref<24xf16>
    %p = arith.mulf %s, %e : f16
    %q = arith.addf %p, %f : f16
    ipu.yield %q : f16
  }
}

// CHECK:      ipu.graph "axpy" arch "ipu2" args ["a", "x", "y"] {
// CHECK-NEXT:   %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f16>
// CHECK-NEXT:   %x = ipu.variable "x" mapping <0 to 3 x 8> : memref<24xf16>
// CHECK-NEXT:   %y = ipu.variable "y" mapping <0 to 3 x 8> : memref<24xf16>
// CHECK-NEXT:   ipu.codelet @axpy_m(%a_1: memref<f16> input "a", %x_1: memref<?xf16> input "x", %y_1: memref<?xf16> inout "y") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %x_1, %0 : memref<?xf16>
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     %1 = memref.load %a_1[] : memref<f16>
// CHECK-NEXT:     %2 = arith.constant 4 : index
// CHECK-NEXT:     %units = arith.divui %n, %2 : index
// CHECK-NEXT:     %a_v = vector.broadcast %1 : f16 to vector<4xf16>
// CHECK-NEXT:     scf.for %u = %worker to %units step %workers {
// CHECK-NEXT:       %first = arith.muli %u, %2 : index
// CHECK-NEXT:       %3 = vector.load %x_1[%first] : memref<?xf16>, vector<4xf16>
// CHECK-NEXT:       %4 = vector.load %y_1[%first] : memref<?xf16>, vector<4xf16>
// CHECK-NEXT:       %5 = vector.fma %a_v, %3, %4 : vector<4xf16>
// CHECK-NEXT:       vector.store %5, %y_1[%first] : memref<?xf16>, vector<4xf16>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.compute_set "axpy_m" {
// CHECK-NEXT:     ipu.vertices @axpy_m over <0 to 3 x 8> (%a whole, %x block, %y block : memref<f16>, memref<24xf16>, memref<24xf16>)
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Blocks of 5 floats do not all start on a vector boundary (tile 1's starts at element
// 5), so the points run one at a time, interleaved over the workers: 32-bit stores
// never share a word.

ipu.graph "odd" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.tiled_map "m" over <0 to 2 x 5> ins(%x block : memref<10xf32>) outs(%x block : memref<10xf32>) {
  ^bb0(%vx: memref<10xf32>):
    %e = ipu.access %vx[0] : memref<10xf32>
    %d = arith.addf %e, %e : f32
    ipu.yield %d : f32
  }
}

// CHECK:      ipu.graph "odd" arch "ipu2" args ["x"] {
// CHECK-NEXT:   %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
// CHECK-NEXT:   ipu.codelet @odd_m(%x_1: memref<?xf32> inout "x") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %x_1, %0 : memref<?xf32>
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     scf.for %i = %worker to %n step %workers {
// CHECK-NEXT:       %1 = memref.load %x_1[%i] : memref<?xf32>
// CHECK-NEXT:       %d = arith.addf %1, %1 : f32
// CHECK-NEXT:       memref.store %d, %x_1[%i] : memref<?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.compute_set "odd_m" {
// CHECK-NEXT:     ipu.vertices @odd_m over <0 to 2 x 5> (%x block : memref<10xf32>)
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// int16 and int8 have no vector arithmetic: the unit is one 32-bit word (2 shorts, 4
// bytes), a loop over its elements, so that no two workers write into one word; the
// elements after the last whole word are done by one worker.

ipu.graph "ints" arch "ipu2" args ["s", "b"] {
  %s = ipu.variable "s" mapping <0 to 1 x 8, 1 to 2 x 6> : memref<14xi16>
  %b = ipu.variable "b" mapping <0 to 1 x 8, 1 to 2 x 6> : memref<14xi8>
  ipu.tiled_map "m" over <0 to 1 x 8, 1 to 2 x 6> ins(%s block : memref<14xi16>) outs(%b block : memref<14xi8>) {
  ^bb0(%vs: memref<14xi16>):
    %e = ipu.access %vs[0] : memref<14xi16>
    %t = arith.trunci %e : i16 to i8
    ipu.yield %t : i8
  }
}

// CHECK:      ipu.graph "ints" arch "ipu2" args ["s", "b"] {
// CHECK-NEXT:   %s = ipu.variable "s" mapping <0 to 1 x 8, 1 to 2 x 6> : memref<14xi16>
// CHECK-NEXT:   %b = ipu.variable "b" mapping <0 to 1 x 8, 1 to 2 x 6> : memref<14xi8>
// CHECK-NEXT:   ipu.codelet @ints_m(%s_1: memref<?xi16> input "s", %b_1: memref<?xi8> output "b") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %s_1, %0 : memref<?xi16>
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     %1 = arith.constant 4 : index
// CHECK-NEXT:     %units = arith.divui %n, %1 : index
// CHECK-NEXT:     %2 = arith.constant 1 : index
// CHECK-NEXT:     scf.for %u = %worker to %units step %workers {
// CHECK-NEXT:       %first = arith.muli %u, %1 : index
// CHECK-NEXT:       scf.for %k = %0 to %1 step %2 {
// CHECK-NEXT:         %i = arith.addi %first, %k : index
// CHECK-NEXT:         %3 = memref.load %s_1[%i] : memref<?xi16>
// CHECK-NEXT:         %t = arith.trunci %3 : i16 to i8
// CHECK-NEXT:         memref.store %t, %b_1[%i] : memref<?xi8>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     %done = arith.muli %units, %1 : index
// CHECK-NEXT:     %4 = arith.remui %units, %workers : index
// CHECK-NEXT:     %5 = arith.cmpi eq, %worker, %4 : index
// CHECK-NEXT:     scf.if %5 {
// CHECK-NEXT:       scf.for %i_1 = %done to %n step %2 {
// CHECK-NEXT:         %6 = memref.load %s_1[%i_1] : memref<?xi16>
// CHECK-NEXT:         %t_1 = arith.trunci %6 : i16 to i8
// CHECK-NEXT:         memref.store %t_1, %b_1[%i_1] : memref<?xi8>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.compute_set "ints_m" {
// CHECK-NEXT:     ipu.vertices @ints_m over <0 to 1 x 8, 1 to 2 x 6> (%s block, %b block : memref<14xi16>, memref<14xi8>)
// CHECK-NEXT:   }
// CHECK-NEXT: }
