// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of grid maps in the ipu dialect: a 6x8 array cut into 3x4 boxes on tiles
// 0..3 (`* 2`, `* 1`: block (i, j) on tile 2 i + j), a 3-D grid whose boxes skip tiles,
// a tiled map over the interior boxes (`from 1:`) reading a halo ring, the vertices of
// the codelet it becomes (also with a halo of its own widths per dimension) and
// `ipu.block_extent`; #ipu.grid_map and a halo per dimension standalone too.

ipu.graph "grid" arch "ipu1" args ["A", "B"] attributes {g = #ipu.grid_map<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1>, h = #ipu.slice<halo<[1, 0], [0, 2]>>} {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  %B = ipu.variable "B" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  %C = ipu.variable "C" mapping grid<<0 to 2 x 2> * 100, <0 to 1 x 3, 1 to 2 x 2> * 10, <0 to 3 x 1> * 1> : memref<4x5x3xi32>
  ipu.codelet @grid_m(%a: memref<?xf32> input "A", %b: memref<?xf32> output "B") {
    %rows = ipu.block_extent 0
    %columns = ipu.block_extent 1 {note}
  }
  ipu.tiled_map "m" over grid<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> ins(%A halo<1, 1> : memref<6x8xf32>) outs(%B block : memref<6x8xf32>) {
  ^bb0(%a: memref<6x8xf32>):
    %0 = ipu.access %a[-1, 0] : memref<6x8xf32>
    %1 = ipu.access %a[0, 1] : memref<6x8xf32>
    %s = arith.addf %0, %1 : f32
    ipu.yield %s : f32
  }
  ipu.compute_set "m" {
    ipu.vertices @grid_m over grid<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> (%A halo<1, 1>, %B block : memref<6x8xf32>, memref<6x8xf32>)
    ipu.vertices @grid_m over grid<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <0 to 1 x 3, 1 to 2 x 3> * 1> (%A halo<[1, 0], [0, 2]>, %B block : memref<6x8xf32>, memref<6x8xf32>)
  }
}

// CHECK:      ipu.graph "grid" arch "ipu1" args ["A", "B"] attributes {g = #ipu.grid_map<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1>, h = #ipu.slice<halo<[1, 0], [0, 2]>>} {
// CHECK-NEXT:   %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
// CHECK-NEXT:   %B = ipu.variable "B" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
// CHECK-NEXT:   %C = ipu.variable "C" mapping grid<<0 to 2 x 2> * 100, <0 to 1 x 3, 1 to 2 x 2> * 10, <0 to 3 x 1> * 1> : memref<4x5x3xi32>
// CHECK-NEXT:   ipu.codelet @grid_m(%a: memref<?xf32> input "A", %b: memref<?xf32> output "B") {
// CHECK-NEXT:     %rows = ipu.block_extent 0
// CHECK-NEXT:     %columns = ipu.block_extent 1 {note}
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.tiled_map "m" over grid<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> ins(%A halo<1, 1> : memref<6x8xf32>) outs(%B block : memref<6x8xf32>) {
// CHECK-NEXT:   ^bb0(%a: memref<6x8xf32>):
// CHECK-NEXT:     %0 = ipu.access %a[-1, 0] : memref<6x8xf32>
// CHECK-NEXT:     %1 = ipu.access %a[0, 1] : memref<6x8xf32>
// CHECK-NEXT:     %s = arith.addf %0, %1 : f32
// CHECK-NEXT:     ipu.yield %s : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.compute_set "m" {
// CHECK-NEXT:     ipu.vertices @grid_m over grid<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> (%A halo<1, 1>, %B block : memref<6x8xf32>, memref<6x8xf32>)
// CHECK-NEXT:     ipu.vertices @grid_m over grid<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <0 to 1 x 3, 1 to 2 x 3> * 1> (%A halo<[1, 0], [0, 2]>, %B block : memref<6x8xf32>, memref<6x8xf32>)
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC:      "ipu.variable"() <{var_name = "A", tile_map = #ipu.grid_map<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1>}> : () -> memref<6x8xf32>
// GENERIC:      "ipu.block_extent"() <{dim = 0 : i64}> : () -> index
// GENERIC:      "ipu.tiled_map"(%A, %B) <{label = "m", tile_map = #ipu.grid_map<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1>, in_rules = [#ipu.slice<halo<1, 1>>], out_rules = [#ipu.slice<block>], operandSegmentSizes = array<i32: 1, 1>}>
// GENERIC:      "ipu.vertices"(%A, %B) <{codelet = @grid_m, tile_map = #ipu.grid_map<<from 1: 0 to 1 x 2, 1 to 2 x 2> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1>, rules = [#ipu.slice<halo<1, 1>>, #ipu.slice<block>]}>
