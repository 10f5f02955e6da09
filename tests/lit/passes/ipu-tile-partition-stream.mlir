// RUN: ipu-opt %s -p 'sdfg-stream-chunks{chunk=3},ipu-tile-partition' | filecheck %s
// RUN: ipu-opt %s -p 'sdfg-stream-chunks{chunk=3},ipu-tile-partition,ipu-plan-exchange,ipu-vertex-extraction,convert-ipu-to-poplar' | filecheck %s --check-prefix=POPLAR

// ipu-tile-partition on chunks of streamed rows: a streaming container is a remote
// buffer of one repeat per chunk (no tile memory, no tile map), the copies of its chunk
// are remote copies at the loop counter (the repeat), and the landing containers are
// ordinary variables the map is laid out with. convert-ipu-to-poplar makes them
// addRemoteBuffer, program::Copy with an offset, and per-repeat host copies.

sdfg.sdfg @rows args ["x", "y"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<12 x 4 x f32>
  %y = sdfg.container "y" storage "IPU_Streaming" : !sdfg.array<12 x 4 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (12, 4) step (1, 1) {
      %vx = sdfg.read %x[%i, %j] : !sdfg.array<12 x 4 x f32>
      %r = sdfg.tasklet "double" ins(x = %vx) outs(o) : (f32) -> (f32) {
      ^bb0(%xx: f32):
        %s = arith.addf %xx, %xx : f32
        sdfg.yield %s : f32
      }
      sdfg.write %r to %y[%i, %j] : !sdfg.array<12 x 4 x f32>
    }
  }
}

// CHECK:      ipu.graph "rows" arch "ipu2" args ["x", "y"] {
// CHECK-NEXT:   %x = ipu.remote_buffer "x" repeats 4 : memref<12x4xf32>
// CHECK-NEXT:   %y = ipu.remote_buffer "y" repeats 4 : memref<12x4xf32>
// CHECK-NEXT:   %x_chunk = ipu.variable "x_chunk" mapping <0 to 6 x 2> : memref<3x4xf32>
// CHECK-NEXT:   %y_chunk = ipu.variable "y_chunk" mapping <0 to 6 x 2> : memref<3x4xf32>
// CHECK-NEXT:   %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<i32>
// CHECK-NEXT:   ipu.from_host %x : memref<12x4xf32>
// CHECK-NEXT:   ipu.from_host %y : memref<12x4xf32>
// CHECK-NEXT:   ipu.tiled_map "m_chunks_init" over <0 to 1 x 1> ins() outs(%c whole : memref<i32>) {
// CHECK:        ipu.repeat 4 {
// CHECK-NEXT:     ipu.remote_load %x at %c into %x_chunk : memref<12x4xf32>, memref<i32>, memref<3x4xf32>
// CHECK-NEXT:     ipu.tiled_map "m" over <0 to 6 x 2> ins(%x_chunk block : memref<3x4xf32>) outs(%y_chunk block : memref<3x4xf32>) {
// CHECK:          ipu.remote_store %y_chunk into %y at %c : memref<12x4xf32>, memref<i32>, memref<3x4xf32>
// CHECK-NEXT:     ipu.tiled_map "m_chunks_step" over <0 to 1 x 1> ins(%c whole : memref<i32>) outs(%c whole : memref<i32>) {
// CHECK:        ipu.to_host %y : memref<12x4xf32>
// CHECK-NEXT: }

// POPLAR:      %x = poplar.add_remote_buffer "x" : !poplar.remote_buffer<4x12xf32>
// POPLAR-NEXT: %y = poplar.add_remote_buffer "y" : !poplar.remote_buffer<4x12xf32>
// POPLAR:      %{{.*}} = poplar.remote_load %x at %c into %x_chunk : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>
// POPLAR:      %{{.*}} = poplar.remote_store %y_chunk into %y at %c : !poplar.remote_buffer<4x12xf32>, !poplar.tensor<i32>, !poplar.tensor<3x4xf32>
// POPLAR:      } run {
// POPLAR-NEXT:   poplar.copy_to_remote_buffer "x" from "x"
// POPLAR-NEXT:   poplar.copy_to_remote_buffer "y" from "y"
// POPLAR-NEXT:   poplar.run 0
// POPLAR-NEXT:   poplar.copy_from_remote_buffer "y" to "y"
// POPLAR-NEXT: }
