// RUN: ipu-opt %s -p convert-ipu-to-poplar | filecheck %s

// Grid maps carry over to the poplar dialect: each variable is mapped box by box, the
// vertices are placed over the grid of the interior, and the codelet's block extents
// become vertex members (`poplar.block_extent`). There is one cycle estimate per
// combination of per-dimension runs, row-major: the boxes of rows 1-8 (8x3) take 617
// cycles as emitted, as the busiest of the 6 workers does 2 of their rows; those of rows
// 9-14 (6x3) 389, one row each.

ipu.graph "jacobi" arch "ipu1" args ["A", "B"] {
  %A = ipu.variable "A" mapping grid<<0 to 1 x 9, 1 to 2 x 7> * 2, <0 to 2 x 4> * 1> : memref<16x8xf32>
  %B = ipu.variable "B" mapping grid<<0 to 1 x 9, 1 to 2 x 7> * 2, <0 to 2 x 4> * 1> : memref<16x8xf32>
  ipu.codelet @jacobi_m(%A_1: memref<?xf32> input "A", %B_1: memref<?xf32> output "B") {
    %extent0 = ipu.block_extent 0
    %extent1 = ipu.block_extent 1
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    %0 = arith.constant 2 : index
    %1 = arith.addi %extent1, %0 : index
    %2 = arith.constant 1 : index
    %3 = arith.constant 0 : index
    scf.for %row = %worker to %extent0 step %workers {
      %4 = arith.muli %row, %1 : index
      %5 = arith.addi %2, %4 : index
      %6 = arith.addi %row, %2 : index
      %7 = arith.muli %6, %1 : index
      %8 = arith.addi %3, %7 : index
      %9 = arith.addi %row, %2 : index
      %10 = arith.muli %9, %1 : index
      %11 = arith.addi %0, %10 : index
      %12 = arith.addi %row, %0 : index
      %13 = arith.muli %12, %1 : index
      %14 = arith.addi %2, %13 : index
      %15 = arith.muli %row, %extent1 : index
      %16 = arith.addi %3, %15 : index
      scf.for %i = %3 to %extent1 step %2 {
        %17 = arith.addi %5, %i : index
        %18 = memref.load %A_1[%17] : memref<?xf32>
        %19 = arith.addi %8, %i : index
        %20 = memref.load %A_1[%19] : memref<?xf32>
        %21 = arith.addi %11, %i : index
        %22 = memref.load %A_1[%21] : memref<?xf32>
        %23 = arith.addi %14, %i : index
        %24 = memref.load %A_1[%23] : memref<?xf32>
        %25 = arith.addf %18, %20 : f32
        %26 = arith.addf %25, %22 : f32
        %27 = arith.addf %26, %24 : f32
        %28 = arith.addi %16, %i : index
        memref.store %27, %B_1[%28] : memref<?xf32>
      }
    }
  }
  ipu.from_host %A : memref<16x8xf32>
  ipu.from_host %B : memref<16x8xf32>
  ipu.compute_set "jacobi_m" {
    ipu.vertices @jacobi_m over grid<<from 1: 0 to 1 x 8, 1 to 2 x 6> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> (%A halo<1, 1>, %B block : memref<16x8xf32>, memref<16x8xf32>)
  }
  ipu.to_host %B : memref<16x8xf32>
}


// CHECK:      poplar.codelet @jacobi_m(%A: memref<?xf32> input "A", %B: memref<?xf32> output "B") {
// CHECK-NEXT:   %extent0 = poplar.block_extent 0
// CHECK-NEXT:   %extent1 = poplar.block_extent 1
// CHECK:        %A = poplar.add_variable "A" : !poplar.tensor<16x8xf32>
// CHECK-NEXT:   poplar.map_tensor %A over grid<<0 to 1 x 9, 1 to 2 x 7> * 2, <0 to 2 x 4> * 1> : !poplar.tensor<16x8xf32>
// CHECK:        poplar.add_vertices %{{.*}} @jacobi_m over grid<<from 1: 0 to 1 x 8, 1 to 2 x 6> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> ["A" = %A halo<1, 1>, "B" = %B block] cycles [617, 617, 389, 389] : !poplar.tensor<16x8xf32>, !poplar.tensor<16x8xf32>
