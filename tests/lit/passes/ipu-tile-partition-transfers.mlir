// RUN: ipu-opt %s -p ipu-tile-partition --split-input-file | filecheck %s

// Arguments the program overwrites completely before reading them are not copied from
// the host (B, and F, written whole before it is updated in place); the others are, so
// that what the program does not write keeps the caller's values: a partly written C, a
// D only read, an E written first inside a loop (which might not run). Only written
// arguments go back.

sdfg.sdfg @transfers args ["A", "B", "C", "D", "E", "F"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<8 x f32>
  %B = sdfg.container "B" : !sdfg.array<8 x f32>
  %C = sdfg.container "C" : !sdfg.array<8 x f32>
  %D = sdfg.container "D" : !sdfg.array<8 x f32>
  %E = sdfg.container "E" : !sdfg.array<8 x f32>
  %F = sdfg.container "F" : !sdfg.array<8 x f32>
  sdfg.state "s0" {
    sdfg.map "whole" (%i) = (0) to (8) step (1) {
      %a = sdfg.read %A[%i] : !sdfg.array<8 x f32>
      sdfg.write %a to %B[%i] : !sdfg.array<8 x f32>
    }
    sdfg.map "part" (%i) = (0) to (4) step (1) {
      %a = sdfg.read %A[%i] : !sdfg.array<8 x f32>
      sdfg.write %a to %C[%i] : !sdfg.array<8 x f32>
    }
    sdfg.map "update" (%i) = (0) to (8) step (1) {
      %d = sdfg.read %D[%i] : !sdfg.array<8 x f32>
      sdfg.write %d to %F[%i] : !sdfg.array<8 x f32>
    }
    sdfg.map "in_place" (%i) = (0) to (8) step (1) {
      %f = sdfg.read %F[%i] : !sdfg.array<8 x f32>
      sdfg.write %f to %F[%i] : !sdfg.array<8 x f32>
    }
  }
  sdfg.for "loop" %t = 0 to 2 step 1 {
    sdfg.state "s1" {
      sdfg.copy %A[0:8] to %E[0:8] : !sdfg.array<8 x f32>, !sdfg.array<8 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "transfers"
// CHECK:         ipu.from_host %A
// CHECK-NEXT:    ipu.from_host %C
// CHECK-NEXT:    ipu.from_host %D
// CHECK-NEXT:    ipu.from_host %E
// CHECK-NOT:     ipu.from_host
// CHECK:         ipu.to_host %B
// CHECK-NEXT:    ipu.to_host %C
// CHECK-NEXT:    ipu.to_host %E
// CHECK-NEXT:    ipu.to_host %F
// CHECK-NEXT:  }

// -----

// A whole copy overwrites its destination.

sdfg.sdfg @copied args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<2 x 3 x f32>
  %B = sdfg.container "B" : !sdfg.array<2 x 3 x f32>
  sdfg.state "s0" {
    sdfg.copy %A[0:2, 0:3] to %B[0:2, 0:3] : !sdfg.array<2 x 3 x f32>, !sdfg.array<2 x 3 x f32>
  }
}

// CHECK-LABEL: ipu.graph "copied"
// CHECK:         ipu.from_host %A
// CHECK-NOT:     ipu.from_host
// CHECK:         ipu.to_host %B
