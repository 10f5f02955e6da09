// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The verifiers of !poplar.remote_buffer, poplar.remote_load / remote_store and the
// run region's copies into and out of remote buffers.

poplar.host_program @g arch "ipu2" args [] : [] build {
  %A = poplar.add_remote_buffer "A" : !poplar.remote_buffer<0x12xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
}

// CHECK: !poplar.remote_buffer needs a positive number of repeats and of elements: <repeats x elements x type>

// -----

poplar.host_program @g arch "ipu2" args [] : [] build {
  %A = poplar.add_remote_buffer "A" : !poplar.remote_buffer<4x12xf32>
  %L = poplar.add_variable "L" : !poplar.tensor<2x4xf32>
  poplar.map_tensor %L over <0 to 4 x 2> : !poplar.tensor<2x4xf32>
  %c = poplar.add_variable "c" : !poplar.tensor<i32>
  poplar.map_tensor %c over <0 to 1 x 1> : !poplar.tensor<i32>
  %load = poplar.remote_load %A at %c into %L : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<2x4xf32>
  poplar.engine %load
} run {
}

// CHECK: poplar-remote-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.remote_load' between a repeat of !poplar.remote_buffer<4x12xf32> and !poplar.tensor<2x4xf32>: element types or counts differ

// -----

poplar.host_program @g arch "ipu2" args [] : [] build {
  %A = poplar.add_remote_buffer "A" : !poplar.remote_buffer<4x12xf32>
  %L = poplar.add_variable "L" : !poplar.tensor<3x4xf32>
  poplar.map_tensor %L over <0 to 6 x 2> : !poplar.tensor<3x4xf32>
  %c = poplar.add_variable "c" : !poplar.tensor<2xi32>
  poplar.map_tensor %c over <0 to 1 x 2> : !poplar.tensor<2xi32>
  %store = poplar.remote_store %L into %A at %c : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<2xi32>, !poplar.tensor<3x4xf32>
  poplar.engine %store
} run {
}

// CHECK: poplar-remote-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.remote_store' needs a scalar integer offset tensor, got !poplar.tensor<2xi32>

// -----

poplar.host_program @g arch "ipu2" args ["A"] : [memref<12x4xf32>] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
  poplar.copy_to_remote_buffer "A" from "A"
}

// CHECK: poplar-remote-invalid.mlir:[[# @LINE - 3]]:3: error: 'poplar.copy_to_remote_buffer' names no poplar.add_remote_buffer 'A'

// -----

poplar.host_program @g arch "ipu2" args ["A"] : [memref<12x3xf32>] build {
  %A = poplar.add_remote_buffer "A" : !poplar.remote_buffer<4x12xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
  poplar.copy_from_remote_buffer "A" to "A"
}

// CHECK: poplar-remote-invalid.mlir:[[# @LINE - 3]]:3: error: 'poplar.copy_from_remote_buffer' between argument 'A' (memref<12x3xf32>) and !poplar.remote_buffer<4x12xf32>: element types or counts differ
