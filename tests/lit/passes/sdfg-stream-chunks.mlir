// RUN: ipu-opt %s --split-input-file -p 'sdfg-stream-chunks{chunk=2}' | filecheck %s
// RUN: ipu-opt %s --split-input-file -p sdfg-stream-chunks | filecheck %s --check-prefix=PLANNED

// sdfg-stream-chunks. A map over the rows of streaming containers runs as a loop over
// chunks of 2 rows (forced): x is copied into its landing container, y is written whole
// and only copied back; the scalar a and the row z broadcast over the rows stay where
// they are. The ops before and after the map keep their own states.

sdfg.sdfg @rows args ["a", "x", "y", "z", "b"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<12 x 4 x f32>
  %y = sdfg.container "y" storage "IPU_Streaming" : !sdfg.array<12 x 4 x f32>
  %z = sdfg.container "z" : !sdfg.array<4 x f32>
  %b = sdfg.container "b" : !sdfg.array<f32>
  sdfg.state "s0" {
    %v = sdfg.read %a[] : !sdfg.array<f32>
    sdfg.write %v to %b[] : !sdfg.array<f32>
    sdfg.map "m" (%i, %j) = (0, 0) to (12, 4) step (1, 1) {
      %va = sdfg.read %a[] : !sdfg.array<f32>
      %vx = sdfg.read %x[%i, %j] : !sdfg.array<12 x 4 x f32>
      %vz = sdfg.read %z[%j] : !sdfg.array<4 x f32>
      %r = sdfg.tasklet "axpy" ins(a = %va, x = %vx, z = %vz) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%aa: f32, %xx: f32, %zz: f32):
        %p = arith.mulf %aa, %xx : f32
        %s = arith.addf %p, %zz : f32
        sdfg.yield %s : f32
      }
      sdfg.write %r to %y[%i, %j] : !sdfg.array<12 x 4 x f32>
    }
    %w = sdfg.read %b[] : !sdfg.array<f32>
    sdfg.write %w to %a[] : !sdfg.array<f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @rows
// CHECK:         %x_chunk = sdfg.container "x_chunk" transient : !sdfg.array<2 x 4 x f32>
// CHECK-NEXT:    %y_chunk = sdfg.container "y_chunk" transient : !sdfg.array<2 x 4 x f32>
// CHECK-NEXT:    sdfg.state "s0_before" {
// CHECK-NEXT:      %v = sdfg.read %a[] : !sdfg.array<f32>
// CHECK-NEXT:      sdfg.write %v to %b[] : !sdfg.array<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.for "m_chunks" %c = 0 to 6 step 1 {
// CHECK-NEXT:      sdfg.state "m_chunk" {
// CHECK-NEXT:        sdfg.copy %x[2 * %c:2 * %c + 2, 0:4] to %x_chunk[0:2, 0:4] : !sdfg.array<12 x 4 x f32>, !sdfg.array<2 x 4 x f32>
// CHECK-NEXT:        sdfg.map "m" (%i, %j) = (0, 0) to (2, 4) step (1, 1) {
// CHECK-NEXT:          %va = sdfg.read %a[] : !sdfg.array<f32>
// CHECK-NEXT:          %vx = sdfg.read %x_chunk[%i, %j] : !sdfg.array<2 x 4 x f32>
// CHECK-NEXT:          %vz = sdfg.read %z[%j] : !sdfg.array<4 x f32>
// CHECK:               sdfg.write %r to %y_chunk[%i, %j] : !sdfg.array<2 x 4 x f32>
// CHECK-NEXT:        }
// CHECK-NEXT:        sdfg.copy %y_chunk[0:2, 0:4] to %y[2 * %c:2 * %c + 2, 0:4] : !sdfg.array<2 x 4 x f32>, !sdfg.array<12 x 4 x f32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.state "s0_after" {
// CHECK-NEXT:      %w = sdfg.read %b[] : !sdfg.array<f32>
// CHECK-NEXT:      sdfg.write %w to %a[] : !sdfg.array<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// Planned, 12 rows fit in one chunk.
// PLANNED-LABEL: sdfg.sdfg @rows
// PLANNED: %x_chunk = sdfg.container "x_chunk" transient : !sdfg.array<12 x 4 x f32>
// PLANNED: sdfg.for "m_chunks" %c = 0 to 1 step 1 {

// -----

// Planned: two streamed arrays of 2^20 rows of 512 bytes take 1 KiB a row; half of an
// ipu2's 1472 x 624 KiB of tile memory holds 459,263 such rows, and the largest
// divisor of 2^20 below that is 2^18: four chunks.

sdfg.sdfg @big args ["x", "y"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<1048576 x 128 x f32>
  %y = sdfg.container "y" storage "IPU_Streaming" : !sdfg.array<1048576 x 128 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (1048576, 128) step (1, 1) {
      %vx = sdfg.read %x[%i, %j] : !sdfg.array<1048576 x 128 x f32>
      sdfg.write %vx to %y[%i, %j] : !sdfg.array<1048576 x 128 x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @big
// CHECK: sdfg.for "m_chunks" %c = 0 to 524288 step 1 {
// PLANNED-LABEL: sdfg.sdfg @big
// PLANNED:      %x_chunk = sdfg.container "x_chunk" transient : !sdfg.array<262144 x 128 x f32>
// PLANNED:      sdfg.for "m_chunks" %c = 0 to 4 step 1 {
// PLANNED-NEXT:   sdfg.state "m_chunk" {
// PLANNED-NEXT:     sdfg.copy %x[262144 * %c:262144 * %c + 262144, 0:128] to %x_chunk[0:262144, 0:128]

// -----

// Column sums of a streaming array accumulate into s, in tile memory, across chunks;
// w, in tile memory but read at the streamed row, is chunked too (a dynamic slice
// later); a map that writes only part of each row of its output loads the rows first.

sdfg.sdfg @sums args ["A", "w", "s", "B"] symbols [] {
  %A = sdfg.container "A" storage "IPU_Streaming" : !sdfg.array<6 x 4 x f32>
  %w = sdfg.container "w" : !sdfg.array<6 x f32>
  %s = sdfg.container "s" : !sdfg.array<4 x f32>
  %B = sdfg.container "B" storage "IPU_Streaming" : !sdfg.array<6 x 4 x f32>
  sdfg.state "sum" {
    sdfg.map "m" (%i, %j) = (0, 0) to (6, 4) step (1, 1) {
      %va = sdfg.read %A[%i, %j] : !sdfg.array<6 x 4 x f32>
      %vw = sdfg.read %w[%i] : !sdfg.array<6 x f32>
      %p = sdfg.tasklet "scale" ins(a = %va, w = %vw) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%aa: f32, %ww: f32):
        %q = arith.mulf %aa, %ww : f32
        sdfg.yield %q : f32
      }
      sdfg.accumulate add %p to %s[%j] : !sdfg.array<4 x f32>
    }
  }
  sdfg.state "half" {
    sdfg.map "h" (%i, %j) = (0, 0) to (6, 2) step (1, 1) {
      %va = sdfg.read %A[%i, %j] : !sdfg.array<6 x 4 x f32>
      sdfg.write %va to %B[%i, %j] : !sdfg.array<6 x 4 x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @sums
// CHECK:         %A_chunk = sdfg.container "A_chunk" transient : !sdfg.array<2 x 4 x f32>
// CHECK-NEXT:    %w_chunk = sdfg.container "w_chunk" transient : !sdfg.array<2 x f32>
// CHECK-NEXT:    %B_chunk = sdfg.container "B_chunk" transient : !sdfg.array<2 x 4 x f32>
// CHECK-NEXT:    sdfg.for "m_chunks" %c = 0 to 3 step 1 {
// CHECK-NEXT:      sdfg.state "m_chunk" {
// CHECK-NEXT:        sdfg.copy %A[2 * %c:2 * %c + 2, 0:4] to %A_chunk[0:2, 0:4]
// CHECK-NEXT:        sdfg.copy %w[2 * %c:2 * %c + 2] to %w_chunk[0:2]
// CHECK-NEXT:        sdfg.map "m" (%i, %j) = (0, 0) to (2, 4) step (1, 1) {
// CHECK-NEXT:          %va = sdfg.read %A_chunk[%i, %j]
// CHECK-NEXT:          %vw = sdfg.read %w_chunk[%i]
// CHECK:               sdfg.accumulate add %p to %s[%j] : !sdfg.array<4 x f32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.for "h_chunks" %c_1 = 0 to 3 step 1 {
// CHECK-NEXT:      sdfg.state "h_chunk" {
// CHECK-NEXT:        sdfg.copy %A[2 * %c_1:2 * %c_1 + 2, 0:4] to %A_chunk[0:2, 0:4]
// CHECK-NEXT:        sdfg.copy %B[2 * %c_1:2 * %c_1 + 2, 0:4] to %B_chunk[0:2, 0:4]
// CHECK-NEXT:        sdfg.map "h" (%i_1, %j_1) = (0, 0) to (2, 2) step (1, 1) {
// CHECK:             sdfg.copy %B_chunk[0:2, 0:4] to %B[2 * %c_1:2 * %c_1 + 2, 0:4]
