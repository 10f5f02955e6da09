// RUN: ipu-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Errors of the custom syntax of the sdfg dialect (!sdfg.array, sdfg.sdfg, sdfg.map,
// sdfg.read, sdfg.write, sdfg.copy, sdfg.tasklet). Each check names the source line
// the error points at and the message under its caret.

// The element type of !sdfg.array is one of f16, f32, f64, i1, i8, i16, i32, i64.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x q32>
}

// CHECK:      %x = sdfg.container "x" transient : !sdfg.array<4 x q32>
// CHECK-NEXT: ^
// CHECK-NEXT: expected an element type, got 'q32'

// -----

// An integer or quoted dimension must be followed by `x`: the element type is missing.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4>
}

// CHECK:      %x = sdfg.container "x" transient : !sdfg.array<4>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'x'

// -----

// Dimensions are separated by ` x `; `4x4xf32` is not the sdfg spelling.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4x4xf32>
}

// CHECK:      %x = sdfg.container "x" transient : !sdfg.array<4x4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'x'

// -----

// `args` must be a list of strings. The error is reported after the region.
sdfg.sdfg @f args [1] symbols [] {
^bb0:
}

// CHECK:      expected a list of strings

// -----

// So must `symbols`.
sdfg.sdfg @f args [] symbols "N" {
^bb0:
}

// CHECK:      expected a list of strings

// -----

sdfg.sdfg "f" args [] symbols [] {
^bb0:
}

// CHECK:      sdfg.sdfg "f" args [] symbols [] {
// CHECK-NEXT: ^
// CHECK-NEXT: expect symbol name

// -----

// Map parameters are identifiers.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (1) = (0) to (4) step (1) {
    ^bb0:
    }
  }
}

// CHECK:      sdfg.map "m" (1) = (0) to (4) step (1) {
// CHECK-NEXT: ^
// CHECK-NEXT: identifier expected

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) (4) step (1) {
    ^bb0:
    }
  }
}

// CHECK:      sdfg.map "m" (i) = (0) (4) step (1) {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'to'

// -----

// The container of a read must be an !sdfg.array. The error is reported after the type.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    %v = sdfg.read %c[] : f32
  }
}

// CHECK:      sdfg.read expects an !sdfg.array container

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    sdfg.write %c to %c[] : f32
  }
}

// CHECK:      sdfg.write expects an !sdfg.array container

// -----

// A copy subset has `begin:end` ranges, not indices.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.copy %x[0] to %x[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x f32>
  }
}

// CHECK:      sdfg.copy %x[0] to %x[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x f32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected ':'

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    %r = sdfg.tasklet "t" ins(a = %c) outs(o) : (f32, f32) -> (f32) {
    ^bb0(%a: f32):
      sdfg.yield %a : f32
    }
  }
}

// CHECK:      %r = sdfg.tasklet "t" ins(a = %c) outs(o) : (f32, f32) -> (f32) {
// CHECK-NEXT: ^
// CHECK-NEXT: tasklet connector and type counts differ

// -----

// Input connectors are written `name = %value`.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    %r = sdfg.tasklet "t" ins(%c) outs(o) : (f32) -> (f32) {
    ^bb0(%a: f32):
      sdfg.yield %a : f32
    }
  }
}

// CHECK:      %r = sdfg.tasklet "t" ins(%c) outs(o) : (f32) -> (f32) {
// CHECK-NEXT: ^
// CHECK-NEXT: identifier expected
