// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of poplar.slice_box, poplar.reshape and poplar.dim_shuffle.

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x7xf32>
  %b = poplar.slice_box %A [3] to [4] : !poplar.tensor<5x7xf32> -> !poplar.tensor<1xf32>
} run {
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 4]]:3: error: poplar.slice_box of !poplar.tensor<5x7xf32> needs one begin and one end per dimension

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x7xf32>
  %b = poplar.slice_box %A [3, 5] to [4, 8] : !poplar.tensor<5x7xf32> -> !poplar.tensor<1x3xf32>
} run {
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 4]]:3: error: box [3, 5] to [4, 8] is empty or outside !poplar.tensor<5x7xf32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x7xf32>
  %b = poplar.slice_box %A [3, 0] to [4, 7] : !poplar.tensor<5x7xf32> -> !poplar.tensor<7xf32>
} run {
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 4]]:3: error: poplar.slice_box of !poplar.tensor<5x7xf32> gives !poplar.tensor<1x7xf32>, not !poplar.tensor<7xf32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x7xf32>
  %b = poplar.reshape %A : !poplar.tensor<5x7xf32> -> !poplar.tensor<36xf32>
} run {
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 4]]:3: error: cannot reshape !poplar.tensor<5x7xf32> to !poplar.tensor<36xf32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x7xf32>
  %b = poplar.dim_shuffle %A [0, 0] : !poplar.tensor<5x7xf32> -> !poplar.tensor<5x5xf32>
} run {
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 4]]:3: error: [0, 0] is not a permutation of the dimensions of !poplar.tensor<5x7xf32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x7xf32>
  %b = poplar.dim_shuffle %A [1, 0] : !poplar.tensor<5x7xf32> -> !poplar.tensor<5x7xf32>
} run {
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 4]]:3: error: poplar.dim_shuffle of !poplar.tensor<5x7xf32> gives !poplar.tensor<7x5xf32>, not !poplar.tensor<5x7xf32>

// -----

// Views belong to the build region.
poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x7xf32>
} run {
  %A = "test.op"() : () -> !poplar.tensor<5x7xf32>
  %b = poplar.reshape %A : !poplar.tensor<5x7xf32> -> !poplar.tensor<35xf32>
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 3]]:3: error: 'poplar.reshape' must be in the build region of a poplar.host_program

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<1x7xf32>
  %b = poplar.broadcast %A 3 along 2 : !poplar.tensor<1x7xf32> -> !poplar.tensor<3x7xf32>
} run {
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 4]]:3: error: cannot broadcast !poplar.tensor<1x7xf32> 3 times along dimension 2

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<1x7xf32>
  %b = poplar.broadcast %A 3 along 0 : !poplar.tensor<1x7xf32> -> !poplar.tensor<3x1xf32>
} run {
}

// CHECK: poplar-views-invalid.mlir:[[# @LINE - 4]]:3: error: poplar.broadcast of !poplar.tensor<1x7xf32> gives !poplar.tensor<3x7xf32>, not !poplar.tensor<3x1xf32>
