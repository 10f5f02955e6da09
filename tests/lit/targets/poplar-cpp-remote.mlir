// RUN: ipu-opt %s -t poplar-cpp | filecheck %s

// Remote buffers in host.cpp: Graph::addRemoteBuffer(handle, type, elements, repeats),
// program::Copy of one repeat at an offset tensor (the i32 counter seen as
// UNSIGNED_INT) both ways, and the run function filling the buffer from the argument
// and reading it back one repeat at a time (Engine::copyToRemoteBuffer(data, handle,
// repeat), copyFromRemoteBuffer(handle, data, repeat)). The estimate in program.json
// counts each copy as 48 bytes over the 15.75 GB/s link at 1.33 GHz (5 cycles) and a
// sync (150): 155 x 2 x 4.

poplar.host_program @rows arch "ipu2" args ["A"] : [memref<12x4xf32>] build {
  %A = poplar.add_remote_buffer "A" : !poplar.remote_buffer<4x12xf32>
  %L = poplar.add_variable "L" : !poplar.tensor<3x4xf32>
  poplar.map_tensor %L over <0 to 6 x 2> : !poplar.tensor<3x4xf32>
  %c = poplar.add_variable "c" : !poplar.tensor<i32>
  poplar.map_tensor %c over <0 to 1 x 1> : !poplar.tensor<i32>
  %load = poplar.remote_load %A at %c into %L : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>
  %store = poplar.remote_store %L into %A at %c : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>
  %body = poplar.sequence(%load, %store)
  %loop = poplar.repeat 4 times %body
  %p = poplar.sequence(%loop)
  poplar.engine %p
} run {
  poplar.copy_to_remote_buffer "A" from "A"
  poplar.run 0
  poplar.copy_from_remote_buffer "A" to "A"
}

// CHECK:      poplar::RemoteBuffer A_buffer = graph.addRemoteBuffer("A", poplar::FLOAT, 12, 4);
// CHECK:      poplar::program::Copy load(A_buffer, L.flatten(), c.reinterpret(poplar::UNSIGNED_INT));
// CHECK-NEXT: poplar::program::Copy store(L.flatten(), A_buffer, c.reinterpret(poplar::UNSIGNED_INT));
// CHECK:      extern "C" int rows_run(float *A, std::size_t A_count) {
// CHECK:        poplar::Engine &engine = rows_state->engine;
// CHECK-NEXT:   for (std::size_t repeat = 0; repeat < 4; ++repeat) {
// CHECK-NEXT:     engine.copyToRemoteBuffer(A + repeat * 12, "A", repeat);
// CHECK-NEXT:   }
// CHECK-NEXT:   engine.run(0);
// CHECK-NEXT:   for (std::size_t repeat = 0; repeat < 4; ++repeat) {
// CHECK-NEXT:     engine.copyFromRemoteBuffer("A", A + repeat * 12, repeat);
// CHECK-NEXT:   }
// CHECK:      "name": "A",
// CHECK:      "output": true
// CHECK:      "cycles": 1240,
