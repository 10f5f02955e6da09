// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p ipu-tile-partition | filecheck %s
// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p 'ipu-tile-partition{arch=ipu9}' | filecheck %s --check-prefix=ARCH

// What ipu-tile-partition does not partition yet, and data that does not fit: one
// located error each.

// ARCH: error: unknown IPU architecture 'ipu9' (known: ipu1, ipu2, ipu21)

sdfg.sdfg @symbolic args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 3]]:3: error: shape !sdfg.array<N x f32> is not static; run sdfg-specialize first

// -----

// A static container under a map with a symbolic range.
sdfg.sdfg @symbolic_range args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 7]]:5: error: map 'm' has a range that is not static; run sdfg-specialize first

// -----

// Accesses at offsets that leave the container.
sdfg.sdfg @shift args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i + 1] : !sdfg.array<8 x f32>
      sdfg.write %v to %y[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' reads 'x[i + 1]' outside its shape !sdfg.array<8 x f32>

// -----

sdfg.sdfg @shift_write args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %y[%i - 1] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 5]]:7: error: map 'm' writes 'y[i - 1]' outside its shape !sdfg.array<8 x f32>

// -----

// Reading neighbours of what the map writes: vertices would read what others write.
sdfg.sdfg @in_place args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (1) to (8) step (1) {
      %v = sdfg.read %x[%i - 1] : !sdfg.array<8 x f32>
      sdfg.write %v to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' reads 'x[i - 1]' away from the point and also writes 'x': other vertices write those elements in the same compute set

// -----

sdfg.sdfg @shift2d args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %B = sdfg.container "B" : !sdfg.array<4 x 6 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
      %v = sdfg.read %A[%i - 1, 1 + %j] : !sdfg.array<4 x 6 x f32>
      sdfg.write %v to %B[%i, %j] : !sdfg.array<4 x 6 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' reads 'A[i - 1, j + 1]' outside its shape !sdfg.array<4 x 6 x f32>

// -----

sdfg.sdfg @step_2 args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (2) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 7]]:5: error: map 'm' ranges must have step 1 for now (got 0 to 8 step 2)

// -----

sdfg.sdfg @part args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %y[%i] : !sdfg.array<4 x f32>
      sdfg.write %v to %y[%i] : !sdfg.array<4 x f32>
      sdfg.write %v to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 5]]:7: error: map 'm' writes 'x[i]' of shape !sdfg.array<8 x f32>, but also 'y' of shape !sdfg.array<4 x f32>; the arrays a map writes must have one shape

// -----

sdfg.sdfg @sum args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 5]]:7: error: every iteration of map 'm' writes scalar 's', so the order would decide its value; accumulate into it (write-conflict resolution) to reduce

// -----

// A map still nested in a map (sdfg-collapse-maps has not run, or left it).
sdfg.sdfg @nested args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      sdfg.map "n" (%j) = (0) to (1) step (1) {
      }
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 6]]:7: error: map 'n' inside map 'm' is not supported yet: sdfg-collapse-maps merges a nested map only when the enclosing body computes values (reads, tasklets) and then runs it

// -----

sdfg.sdfg @double args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f64>
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 3]]:3: error: container 'x' is float64, which the IPU does not support; demote it with the ipu-demote-f64 pass (demote_f64=True in ipu_lower.compile) or use float32

// -----

sdfg.sdfg @long args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x i64>
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 3]]:3: error: container 'x' is int64, which the IPU does not support; demote it with the ipu-demote-f64 pass (demote_f64=True in ipu_lower.compile) or use int32

// -----

// A float64 temporary of DaCe's (an int32 times a Python float is float64, as in numpy).
sdfg.sdfg @temporary args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %t = sdfg.container "__tmp1" transient : !sdfg.array<8 x f64>
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 3]]:3: error: container '__tmp1' (a temporary DaCe made for an expression) is float64, which the IPU does not support; demote it with the ipu-demote-f64 pass (demote_f64=True in ipu_lower.compile) or use float32

// -----

sdfg.sdfg @widen args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      %r = sdfg.tasklet "widen" ins(a = %v) outs(b) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %w = arith.extf %a : f32 to f64
        %n = arith.truncf %w : f64 to f32
        sdfg.yield %n : f32
      }
      sdfg.write %r to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 11]]:7: error: tasklet 'widen' (reading 'x') computes in float64, which the IPU does not support; demote it with the ipu-demote-f64 pass (demote_f64=True in ipu_lower.compile) or use float32 constants

// -----

// DaCe computes `x * 3` of an int32 in int64.
sdfg.sdfg @widen_int args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x i32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x i32>
      %r = sdfg.tasklet "triple" ins(a = %v) outs(b) : (i32) -> (i32) {
      ^bb0(%a: i32):
        %w = arith.extsi %a : i32 to i64
        %c = arith.constant 3 : i64
        %p = arith.muli %w, %c : i64
        %n = arith.trunci %p : i64 to i32
        sdfg.yield %n : i32
      }
      sdfg.write %r to %x[%i] : !sdfg.array<8 x i32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 13]]:7: error: tasklet 'triple' (reading 'x') computes in int64, which the IPU does not support; demote it with the ipu-demote-f64 pass (demote_f64=True in ipu_lower.compile) or use int32 constants

// -----

// One billion float32 elements over 1472 tiles: 679348 elements, 2717392 bytes on tile 0.
sdfg.sdfg @huge args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<1000000000 x f32>
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 4]]:1: error: data does not fit in tile memory: tile 0 needs 2717392 bytes but an ipu2 tile has 638976 bytes

// -----

sdfg.sdfg @empty args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<0 x f32>
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 3]]:3: error: container 'x' has no elements

// -----

// Tasklets outside maps run once, on tile 0: they access array elements at constant
// indices (sdfg-dynamic-copies moves those loop variables pick into scalars first).
sdfg.sdfg @free args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<f32>
  sdfg.for "loop" %t = 0 to 8 step 1 {
    sdfg.state "s" {
      %v = sdfg.read %y[] : !sdfg.array<f32>
      sdfg.write %v to %x[0] : !sdfg.array<8 x f32>
      %w = sdfg.read %x[%t] : !sdfg.array<8 x f32>
      sdfg.write %w to %y[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 6]]:7: error: tasklet 'scalar' reads 'x[t]' at a loop variable; run sdfg-dynamic-copies first

// -----

// Copies: of a box outside the container, with symbolic bounds, between boxes of
// different sizes, of nothing.
sdfg.sdfg @copy_box args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x 4 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.copy %x[0:2, 3:5] to %y[0:4] : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x f32>
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 4]]:5: error: copy box [0:2, 3:5] of 'x' lies outside its shape [4, 4]

// -----

sdfg.sdfg @copy_symbolic args ["x", "y"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.copy %x[0:N] to %y[0:N] : !sdfg.array<8 x f32>, !sdfg.array<8 x f32>
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 4]]:5: error: copy bounds are not static; run sdfg-specialize first

// -----

sdfg.sdfg @copy_sizes args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.copy %x[0:4] to %y[0:8] : !sdfg.array<8 x f32>, !sdfg.array<8 x f32>
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 4]]:5: error: copy source and destination hold different numbers of elements

// -----

sdfg.sdfg @copy_empty args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.copy %x[2:2] to %y[0:0] : !sdfg.array<8 x f32>, !sdfg.array<8 x f32>
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 4]]:5: error: copy of an empty box

// -----

// Loops run on the device over static bounds: the symbols are specialized first.
sdfg.sdfg @unspecialized args [] symbols ["N"] {
  sdfg.for "l" %t = 0 to N step 1 {}
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 3]]:3: error: bound 'N' of loop 'l' is not static; run sdfg-specialize first

// -----

// A copy at loop variables moves a box between an array and a whole container.
sdfg.sdfg @copies args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 4 x f32>
  %B = sdfg.container "B" : !sdfg.array<4 x 4 x f32>
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.state "s" {
      sdfg.copy %A[%t:%t + 1, 0:4] to %B[%t:%t + 1, 0:4] : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 5]]:7: error: copy between two boxes that move with loop variables; not supported yet

// -----

sdfg.sdfg @copies args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 4 x f32>
  %B = sdfg.container "B" : !sdfg.array<4 x 4 x f32>
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.state "s" {
      sdfg.copy %A[%t:%t + 1, 0:4] to %B[1:2, 0:4] : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 5]]:7: error: copy between a box of 'A' that moves with a loop variable and part of 'B'; only whole containers are supported yet

// -----

// A map parameter in a tasklet is the coordinate of the element the map writes.
sdfg.sdfg @noarray args ["s"] symbols [] {
  %s = sdfg.container "s" : !sdfg.array<i32>
  sdfg.state "st" {
    sdfg.map "m" (%i) = (0) to (1) step (1) {
      %v = sdfg.apply %i : i32
      sdfg.write %v to %s[] : !sdfg.array<i32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 6]]:7: error: a tasklet of map 'm' computes with a map parameter, but the map writes no array; not supported yet

// -----

sdfg.sdfg @wide args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x i32>
  sdfg.state "st" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.apply %i : i64
      %w = sdfg.tasklet "narrow" ins(a = %v) outs(b) : (i64) -> (i32) {
      ^bb0(%a: i64):
        %n = arith.trunci %a : i64 to i32
        sdfg.yield %n : i32
      }
      sdfg.write %w to %x[%i] : !sdfg.array<4 x i32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 11]]:7: error: sdfg.apply in map 'm' gives a i64, which the IPU does not support

// -----

// A read outside maps whose value is used past a copy that writes what it read.
sdfg.sdfg @stale args ["x", "y", "z"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<f32>
  %y = sdfg.container "y" : !sdfg.array<f32>
  %z = sdfg.container "z" : !sdfg.array<f32>
  sdfg.state "s" {
    %v = sdfg.read %x[] : !sdfg.array<f32>
    sdfg.copy %y[] to %x[] : !sdfg.array<f32>, !sdfg.array<f32>
    sdfg.write %v to %z[] : !sdfg.array<f32>
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 6]]:5: error: the value of 'x[]' is used after a step that writes it; not supported yet

// -----

// A nested SDFG's symbols are its own: it is inlined (sdfg-inline-nested) before this.
sdfg.sdfg @caller args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.nested "f" (inout x = %a[d0]) symbols (N = N) : !sdfg.array<N x f32> {
      sdfg.sdfg @f args ["x"] symbols ["N"] {
        %x = sdfg.container "x" : !sdfg.array<N x f32>
      }
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:[[# @LINE - 8]]:5: error: nested SDFG 'f' is not inlined; run sdfg-inline-nested first
