// RUN: ipu-opt %s -p 'sdfg-chunk-reductions{arch=ipu1}' | filecheck %s
// RUN: ipu-opt %s -p sdfg-chunk-reductions | filecheck %s --check-prefix=FITS
// RUN: not ipu-opt %s -p 'sdfg-chunk-reductions{arch=ipu9}' 2>&1 | filecheck %s --check-prefix=ARCH
// ARCH: error: unknown IPU architecture 'ipu9' (known: ipu1, ipu2, ipu21)

// A reduction whose inputs reach its points through views (`A[i, k + 1]` and `B[k, j]`
// broadcast over the points of a matrix product) would receive 216^3 / 1216 points x 8
// bytes per ipu1 tile, more than a quarter of its 256 KiB: it runs in 2 chunks of 108
// values of k. The loop copies each chunk's slices into buffers (at the loop variable:
// dynamic slices later); the ops before and after the map stay in states around it.
// On ipu2 (624 KiB per tile) the points fit at once: nothing changes.

sdfg.sdfg @product args ["A", "B", "C"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<216 x 217 x f32>
  %B = sdfg.container "B" : !sdfg.array<216 x 216 x f32>
  %C = sdfg.container "C" : !sdfg.array<216 x 216 x f32>
  sdfg.state "s0" {
    sdfg.map "init" (%i, %j) = (0, 0) to (216, 216) step (1, 1) {
      %z = sdfg.tasklet "zero" ins() outs(out) : () -> (f32) {
        %c = arith.constant 0.000000e+00 : f32
        sdfg.yield %c : f32
      }
      sdfg.write %z to %C[%i, %j] : !sdfg.array<216 x 216 x f32>
    }
    sdfg.map "mm" (%i, %j, %k) = (0, 0, 0) to (216, 216, 216) step (1, 1, 1) {
      %a = sdfg.read %A[%i, %k + 1] : !sdfg.array<216 x 217 x f32>
      %b = sdfg.read %B[%k, %j] : !sdfg.array<216 x 216 x f32>
      %p = sdfg.tasklet "mul" ins(a = %a, b = %b) outs(c) : (f32, f32) -> (f32) {
      ^bb0(%0: f32, %1: f32):
        %2 = arith.mulf %0, %1 : f32
        sdfg.yield %2 : f32
      }
      sdfg.accumulate add %p to %C[%i, %j] : !sdfg.array<216 x 216 x f32>
    }
    sdfg.map "double" (%i, %j) = (0, 0) to (216, 216) step (1, 1) {
      %c = sdfg.read %C[%i, %j] : !sdfg.array<216 x 216 x f32>
      %d = sdfg.tasklet "twice" ins(a = %c) outs(out) : (f32) -> (f32) {
      ^bb0(%0: f32):
        %1 = arith.addf %0, %0 : f32
        sdfg.yield %1 : f32
      }
      sdfg.write %d to %C[%i, %j] : !sdfg.array<216 x 216 x f32>
    }
  }
}

// CHECK:      %A_chunk = sdfg.container "A_chunk" transient : !sdfg.array<216 x 108 x f32>
// CHECK-NEXT: %B_chunk = sdfg.container "B_chunk" transient : !sdfg.array<108 x 216 x f32>
// CHECK-NEXT: sdfg.state "s0_before" {
// CHECK-NEXT:   sdfg.map "init"
// CHECK:      sdfg.for "mm_chunks" %[[T:.*]] = 0 to 2 step 1 {
// CHECK-NEXT:   sdfg.state "mm_chunk" {
// CHECK-NEXT:     sdfg.copy %A[0:216, 108 * %[[T]] + 1:108 * %[[T]] + 109] to %A_chunk[0:216, 0:108]
// CHECK-NEXT:     sdfg.copy %B[108 * %[[T]]:108 * %[[T]] + 108, 0:216] to %B_chunk[0:108, 0:216]
// CHECK-NEXT:     sdfg.map "mm" (%[[I:.*]], %[[J:.*]], %[[K:.*]]) = (0, 0, 0) to (216, 216, 108) step (1, 1, 1) {
// CHECK-NEXT:       %a = sdfg.read %A_chunk[%[[I]], %[[K]]] : !sdfg.array<216 x 108 x f32>
// CHECK-NEXT:       %b = sdfg.read %B_chunk[%[[K]], %[[J]]] : !sdfg.array<108 x 216 x f32>
// CHECK:            sdfg.accumulate add %p to %C[%[[I]], %[[J]]]
// CHECK:      sdfg.state "s0_after" {
// CHECK-NEXT:   sdfg.map "double"

// FITS-NOT:   sdfg.for
// FITS-NOT:   _chunk
// FITS:       sdfg.map "mm" (%[[I:.*]], %[[J:.*]], %[[K:.*]]) = (0, 0, 0) to (216, 216, 216) step (1, 1, 1) {
// FITS-NEXT:    %a = sdfg.read %A[%[[I]], %[[K]] + 1]
