// RUN: ipu-opt %s -p ipu-vertex-extraction | filecheck %s

// A tiled map over a grid map becomes a codelet whose vertices each compute a box. The
// host sets each vertex's box extents (`ipu.block_extent 0`, `1`) and the index of its
// first element (`ipu.block_start`); the fields are boxes, flattened: B the box itself,
// A the box with its halo<1, 1> ring, rows of extent1 + 2 elements. Workers take rows
// in turn (worker w rows w, w + workers, ...); per row, the start of each access's row
// in its field is computed once (A[-1, 0]: row * (extent1 + 2) + 1; A[0, 1]: (row + 1) *
// (extent1 + 2) + 2; B: row * extent1), and the row is a loop over its elements. The
// point (`ipu.point`, used here as a number) is the box's first element plus row * 8 + i
// in the whole 8x8 array. The whole scalar c is loaded once, before the loops.

ipu.graph "grid" arch "ipu1" args ["c", "A", "B"] {
  %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<f32>
  %A = ipu.variable "A" mapping grid<<0 to 2 x 4> * 2, <0 to 2 x 4> * 1> : memref<8x8xf32>
  %B = ipu.variable "B" mapping grid<<0 to 2 x 4> * 2, <0 to 2 x 4> * 1> : memref<8x8xf32>
  ipu.tiled_map "m" over grid<<from 1: 0 to 1 x 3, 1 to 2 x 3> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> ins(%c whole, %A halo<1, 1> : memref<f32>, memref<8x8xf32>) outs(%B block : memref<8x8xf32>) {
  ^bb0(%vc: memref<f32>, %vA: memref<8x8xf32>):
    %k = ipu.access %vc[] : memref<f32>
    %n = ipu.access %vA[-1, 0] : memref<8x8xf32>
    %e = ipu.access %vA[0, 1] : memref<8x8xf32>
    %s = arith.addf %n, %e : f32
    %p = ipu.point
    %pi = arith.index_cast %p : index to i32
    %pf = arith.sitofp %pi : i32 to f32
    %t = arith.mulf %k, %s : f32
    %r = arith.addf %t, %pf : f32
    ipu.yield %r : f32
  }
}

// CHECK:      ipu.codelet @grid_m(%c_1: memref<f32> input "c", %A_1: memref<?xf32> input "A", %B_1: memref<?xf32> output "B") {
// CHECK-NEXT:   %extent0 = ipu.block_extent 0
// CHECK-NEXT:   %extent1 = ipu.block_extent 1
// CHECK-NEXT:   %worker = ipu.worker_id
// CHECK-NEXT:   %workers = ipu.num_workers
// CHECK-NEXT:   %0 = memref.load %c_1[] : memref<f32>
// CHECK-NEXT:   %1 = arith.constant 2 : index
// CHECK-NEXT:   %2 = arith.addi %extent1, %1 : index
// CHECK-NEXT:   %3 = arith.constant 1 : index
// CHECK-NEXT:   %block_start = ipu.block_start
// CHECK-NEXT:   %4 = arith.constant 8 : index
// CHECK-NEXT:   %5 = arith.constant 0 : index
// CHECK-NEXT:   scf.for %row = %worker to %extent0 step %workers {
// CHECK-NEXT:     %6 = arith.muli %row, %2 : index
// CHECK-NEXT:     %7 = arith.addi %3, %6 : index
// CHECK-NEXT:     %8 = arith.addi %row, %3 : index
// CHECK-NEXT:     %9 = arith.muli %8, %2 : index
// CHECK-NEXT:     %10 = arith.addi %1, %9 : index
// CHECK-NEXT:     %11 = arith.muli %row, %4 : index
// CHECK-NEXT:     %12 = arith.addi %block_start, %11 : index
// CHECK-NEXT:     %13 = arith.muli %row, %extent1 : index
// CHECK-NEXT:     %14 = arith.addi %5, %13 : index
// CHECK-NEXT:     scf.for %i = %5 to %extent1 step %3 {
// CHECK-NEXT:       %15 = arith.addi %7, %i : index
// CHECK-NEXT:       %16 = memref.load %A_1[%15] : memref<?xf32>
// CHECK-NEXT:       %17 = arith.addi %10, %i : index
// CHECK-NEXT:       %18 = memref.load %A_1[%17] : memref<?xf32>
// CHECK-NEXT:       %s = arith.addf %16, %18 : f32
// CHECK-NEXT:       %19 = arith.addi %12, %i : index
// CHECK-NEXT:       %pi = arith.index_cast %19 : index to i32
// CHECK-NEXT:       %pf = arith.sitofp %pi : i32 to f32
// CHECK-NEXT:       %t = arith.mulf %0, %s : f32
// CHECK-NEXT:       %r = arith.addf %t, %pf : f32
// CHECK-NEXT:       %20 = arith.addi %14, %i : index
// CHECK-NEXT:       memref.store %r, %B_1[%20] : memref<?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: ipu.compute_set "grid_m" {
// CHECK-NEXT:   ipu.vertices @grid_m over grid<<from 1: 0 to 1 x 3, 1 to 2 x 3> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> (%c whole, %A halo<1, 1>, %B block : memref<f32>, memref<8x8xf32>, memref<8x8xf32>)
// CHECK-NEXT: }
