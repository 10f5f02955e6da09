// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The checks of grid maps in the poplar dialect (those of the attribute itself are
// shared with the ipu dialect: ipu-grid-invalid.mlir).

poplar.host_program @p arch "ipu1" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<6x8xf32>
  poplar.map_tensor %A over grid<<0 to 2 x 3> * 2, <0 to 1 x 8> * 1> : !poplar.tensor<6x8xf32>
  poplar.map_tensor %A over grid<<0 to 2 x 3> * 2, <0 to 2 x 3> * 1> : !poplar.tensor<6x8xf32>
  %s = poplar.sequence()
  poplar.engine %s
} run {
^bb0:
}

// CHECK: grid map covers the box [0:6, 0:6] but the tensor has shape [6, 8]

// -----

// One cycle estimate per combination of runs: 2 x 2 here.
poplar.codelet @c(%a: memref<?xf32> inout "A") {
}
poplar.host_program @p arch "ipu1" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<6x8xf32>
  %cs = poplar.add_compute_set "c"
  poplar.add_vertices %cs @c over grid<<0 to 1 x 2, 1 to 2 x 4> * 2, <0 to 1 x 4, 1 to 2 x 4> * 1> ["A" = %A block] cycles [10, 10] : !poplar.tensor<6x8xf32>
  %s = poplar.sequence()
  poplar.engine %s
} run {
^bb0:
}

// CHECK: poplar.add_vertices needs one non-negative cycle estimate per run (4)

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
  %e = poplar.block_extent 1
}
poplar.host_program @p arch "ipu1" args [] : [] build {
  %x = poplar.add_variable "x" : !poplar.tensor<8xf32>
  %cs = poplar.add_compute_set "c"
  poplar.add_vertices %cs @c over <0 to 8 x 1> ["x" = %x block] cycles [10] : !poplar.tensor<8xf32>
  %s = poplar.sequence()
  poplar.engine %s
} run {
^bb0:
}

// CHECK: codelet @c reads block extents, which only vertices over a grid map have
