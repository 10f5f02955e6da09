// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Remote buffers at the Poplar level: graph.addRemoteBuffer, program::Copy of one
// repeat at an offset tensor both ways, and the host's copies of an argument into and
// out of the buffer.

poplar.host_program @rows arch "ipu2" args ["A"] : [memref<12x4xf32>] build {
  %A = poplar.add_remote_buffer "A" : !poplar.remote_buffer<4x12xf32>
  %L = poplar.add_variable "L" : !poplar.tensor<3x4xf32>
  poplar.map_tensor %L over <0 to 6 x 2> : !poplar.tensor<3x4xf32>
  %c = poplar.add_variable "c" : !poplar.tensor<i32>
  poplar.map_tensor %c over <0 to 1 x 1> : !poplar.tensor<i32>
  %load = poplar.remote_load %A at %c into %L : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>
  %store = poplar.remote_store %L into %A at %c : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>
  %p = poplar.sequence(%load, %store)
  poplar.engine %p
} run {
  poplar.copy_to_remote_buffer "A" from "A"
  poplar.run 0
  poplar.copy_from_remote_buffer "A" to "A"
}

// CHECK:      %A = poplar.add_remote_buffer "A" : !poplar.remote_buffer<4x12xf32>
// CHECK:      %load = poplar.remote_load %A at %c into %L : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>
// CHECK-NEXT: %store = poplar.remote_store %L into %A at %c : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>
// CHECK:      } run {
// CHECK-NEXT:   poplar.copy_to_remote_buffer "A" from "A"
// CHECK-NEXT:   poplar.run 0
// CHECK-NEXT:   poplar.copy_from_remote_buffer "A" to "A"
// CHECK-NEXT: }

// GENERIC: %A = "poplar.add_remote_buffer"() <{handle = "A"}> : () -> !poplar.remote_buffer<4x12xf32>
// GENERIC: "poplar.remote_load"(%A, %c, %L) : (!poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>) -> !poplar.program
// GENERIC: "poplar.copy_to_remote_buffer"() <{handle = "A", argument = "A"}> : () -> ()
// GENERIC: "poplar.copy_from_remote_buffer"() <{handle = "A", argument = "A"}> : () -> ()
