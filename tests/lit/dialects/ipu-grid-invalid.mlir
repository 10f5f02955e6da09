// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier check of grid maps in the ipu dialect, one case each.

// #ipu.grid_map: at least two dimensions, one stride each ...
ipu.graph "g" arch "ipu2" args [] attributes {m = #ipu.grid_map<<0 to 2 x 3> * 1>} {
^bb0:
}

// CHECK: #ipu.grid_map needs one tile map and one stride for each of at least two dimensions

// -----

// ... whose tile numbers never collide.
ipu.graph "g" arch "ipu2" args [] attributes {m = #ipu.grid_map<<0 to 2 x 3> * 1, <0 to 2 x 4> * 1>} {
^bb0:
}

// CHECK: #ipu.grid_map strides [1, 1] give two blocks one tile

// -----

ipu.graph "g" arch "ipu1" args [] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 3> * 1> : memref<6x8xf32>
}

// CHECK: grid map of 'A' covers the box [0:6, 0:6] but the tensor has shape [6, 8]

// -----

ipu.graph "g" arch "ipu1" args [] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 1215, <0 to 2 x 4> * 1> : memref<6x8xf32>
}

// CHECK: uses tile 1216 but ipu1 has 1216 tiles

// -----

// A halo ring of the boxes at the array's edge lies outside it.
ipu.graph "g" arch "ipu1" args [] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  %B = ipu.variable "B" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  ipu.tiled_map "m" over grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> ins(%A halo<1, 1> : memref<6x8xf32>) outs(%B block : memref<6x8xf32>) {
  ^bb0(%a: memref<6x8xf32>):
    %0 = ipu.access %a[-1, 0] : memref<6x8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: the halo<1, 1> box [-1:4, -1:5] of 'A' on tile 0 is outside its shape [6, 8]

// -----

// Over a grid, the halo bounds the offset in every dimension.
ipu.graph "g" arch "ipu1" args [] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  %B = ipu.variable "B" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  ipu.tiled_map "m" over grid<<from 2: 0 to 1 x 2> * 2, <from 2: 0 to 1 x 2> * 1> ins(%A halo<1, 1> : memref<6x8xf32>) outs(%B block : memref<6x8xf32>) {
  ^bb0(%a: memref<6x8xf32>):
    %0 = ipu.access %a[0, -2] : memref<6x8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: access at offset [0, -2] of 'A' is outside its halo <1, 1>

// -----

ipu.graph "g" arch "ipu1" args [] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  %x = ipu.variable "x" mapping <0 to 8 x 1> : memref<8xf32>
  ipu.tiled_map "m" over grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> ins(%x block : memref<8xf32>) outs(%A block : memref<6x8xf32>) {
  ^bb0(%v: memref<8xf32>):
    %0 = ipu.access %v[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: 'x' has 1 dimensions, the grid map 2

// -----

ipu.graph "g" arch "ipu1" args [] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  %p = ipu.variable "p" mapping <0 to 4 x 1> : memref<4xf32>
  ipu.codelet @c(%a: memref<?xf32> input "A", %q: memref<f32> output "p") {
  }
  ipu.compute_set "c" {
    ipu.vertices @c over grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> (%A block, %p partial : memref<6x8xf32>, memref<4xf32>)
  }
}

// CHECK: 'p' is connected partial, which a grid map has no meaning for

// -----

// Only the vertices of a grid map have box extents.
ipu.graph "g" arch "ipu1" args [] {
  %x = ipu.variable "x" mapping <0 to 8 x 1> : memref<8xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
    %e = ipu.block_extent 0
  }
  ipu.compute_set "c" {
    ipu.vertices @c over <0 to 8 x 1> (%x block : memref<8xf32>)
  }
}

// CHECK: codelet @c reads block extents, which only vertices over a grid map have

// -----

ipu.graph "g" arch "ipu1" args [] {
  ipu.codelet @c() {
    %e = "ipu.block_extent"() <{dim = -1 : i64}> : () -> index
  }
}

// CHECK: block extent of dimension -1

// -----

// A halo with widths per dimension has one (before, after) pair for each dimension of
// the grid ...
ipu.graph "g" arch "ipu1" args [] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1> : memref<6x8xf32>
  ipu.codelet @c(%a: memref<?xf32> inout "A") {
  }
  ipu.compute_set "c" {
    ipu.vertices @c over grid<<from 1: 0 to 1 x 2> * 2, <from 1: 0 to 1 x 2> * 1> (%A halo<[1, 1]> : memref<6x8xf32>)
  }
}

// CHECK: 'A' is connected halo<[1, 1]>, widths for a grid map of 2 dimensions

// -----

// ... and only over a grid map.
ipu.graph "g" arch "ipu1" args [] {
  %x = ipu.variable "x" mapping <0 to 8 x 1> : memref<8xf32>
  %y = ipu.variable "y" mapping <0 to 8 x 1> : memref<8xf32>
  ipu.tiled_map "m" over <from 1: 1 to 7 x 1> ins(%x halo<[1, 1]> : memref<8xf32>) outs(%y block : memref<8xf32>) {
  ^bb0(%v: memref<8xf32>):
    %0 = ipu.access %v[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: 'x' is connected halo<[1, 1]>: widths per dimension need a grid map
