// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of grid maps in the poplar dialect: a tensor mapped box by box, vertices
// placed over the boxes of its interior with one cycle estimate per combination of runs
// (2 x 2 here), and the block extents a codelet reads (vertex members the host sets).

poplar.codelet @grid_m(%a: memref<?xf32> input "A", %b: memref<?xf32> output "B") {
  %rows = poplar.block_extent 0
  %columns = poplar.block_extent 1 {note}
}
poplar.host_program @grid arch "ipu1" args ["A", "B"] : [memref<6x8xf32>, memref<6x8xf32>] attributes {g = #poplar.grid_map<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1>} build {
  %A = poplar.add_variable "A" : !poplar.tensor<6x8xf32>
  poplar.map_tensor %A over grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : !poplar.tensor<6x8xf32>
  %B = poplar.add_variable "B" : !poplar.tensor<6x8xf32>
  poplar.map_tensor %B over grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> {note} : !poplar.tensor<6x8xf32>
  %cs = poplar.add_compute_set "m"
  poplar.add_vertices %cs @grid_m over grid<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> ["A" = %A halo<1, 1>, "B" = %B block] cycles [40, 41, 42, 43] : !poplar.tensor<6x8xf32>, !poplar.tensor<6x8xf32>
  %p = poplar.execute %cs
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar.codelet @grid_m(%a: memref<?xf32> input "A", %b: memref<?xf32> output "B") {
// CHECK-NEXT:   %rows = poplar.block_extent 0
// CHECK-NEXT:   %columns = poplar.block_extent 1 {note}
// CHECK-NEXT: }
// CHECK-NEXT: poplar.host_program @grid arch "ipu1" args ["A", "B"] : [memref<6x8xf32>, memref<6x8xf32>] attributes {g = #poplar.grid_map<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1>} build {
// CHECK-NEXT:   %A = poplar.add_variable "A" : !poplar.tensor<6x8xf32>
// CHECK-NEXT:   poplar.map_tensor %A over grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : !poplar.tensor<6x8xf32>
// CHECK-NEXT:   %B = poplar.add_variable "B" : !poplar.tensor<6x8xf32>
// CHECK-NEXT:   poplar.map_tensor %B over grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> {note} : !poplar.tensor<6x8xf32>
// CHECK-NEXT:   %cs = poplar.add_compute_set "m"
// CHECK-NEXT:   poplar.add_vertices %cs @grid_m over grid<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> ["A" = %A halo<1, 1>, "B" = %B block] cycles [40, 41, 42, 43] : !poplar.tensor<6x8xf32>, !poplar.tensor<6x8xf32>

// GENERIC: "poplar.block_extent"() <{dim = 0 : i64}> : () -> index
// GENERIC: "poplar.map_tensor"(%A) <{tile_map = #poplar.grid_map<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1>}> : (!poplar.tensor<6x8xf32>) -> ()
// GENERIC: "poplar.add_vertices"(%cs, %A, %B) <{codelet = @grid_m, tile_map = #poplar.grid_map<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1>
