// RUN: ipu-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Errors of the custom syntax of the sdfg dialect (#sdfg.expr, !sdfg.array, sdfg.sdfg,
// sdfg.map, sdfg.read, sdfg.write, sdfg.copy, sdfg.tasklet). Each check names the source
// line the error points at and the message under its caret.

// The element type of !sdfg.array is one of f16, f32, f64, i1, i8, i16, i32, i64.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x q32>
}

// CHECK:      %x = sdfg.container "x" transient : !sdfg.array<4 x q32>
// CHECK-NEXT: ^
// CHECK-NEXT: expected an element type, got 'q32'

// -----

// An integer or parenthesized dimension must be followed by `x`: the element type is missing.
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

// A dimension that is not one integer or symbol is parenthesized: without parentheses
// `N` is taken for the element type.
sdfg.sdfg @f args [] symbols ["N"] {
  %x = sdfg.container "x" transient : !sdfg.array<N + 1 x f32>
}

// CHECK:      %x = sdfg.container "x" transient : !sdfg.array<N + 1 x f32>
// CHECK-NEXT: ^
// CHECK-NEXT: expected an element type, got 'N'

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %x = sdfg.container "x" transient : !sdfg.array<(N + 1 x f32>
}

// CHECK:      %x = sdfg.container "x" transient : !sdfg.array<(N + 1 x f32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected ')'

// -----

// A bare dimension is a symbol, so it cannot be a keyword of the expressions ...
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<mod x f32>
}

// CHECK:      %x = sdfg.container "x" transient : !sdfg.array<mod x f32>
// CHECK-NEXT: ^^^
// CHECK-NEXT: 'mod' cannot name a symbol

// -----

// ... nor spelled like a dimension.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<d0 x f32>
}

// CHECK:      %x = sdfg.container "x" transient : !sdfg.array<d0 x f32>
// CHECK-NEXT: ^^^
// CHECK-NEXT: 'd0' cannot name a symbol

// -----

// #sdfg.expr: the old quoted string form is not an expression.
builtin.module attributes {e = #sdfg.expr<"N + 1">} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<"N + 1">} {
// CHECK-NEXT: ^^^^^^^
// CHECK-NEXT: expected an integer, a symbol or '(' in an index expression

// -----

builtin.module attributes {e = #sdfg.expr<N +>} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<N +>} {
// CHECK-NEXT: ^
// CHECK-NEXT: expected an integer, a symbol or '(' in an index expression

// -----

builtin.module attributes {e = #sdfg.expr<min(N)>} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<min(N)>} {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected ','

// -----

// Keywords are not symbols.
builtin.module attributes {e = #sdfg.expr<mod + 1>} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<mod + 1>} {
// CHECK-NEXT: ^
// CHECK-NEXT: 'mod' cannot name a symbol

// -----

// Parentheses, unary minus, min/max and floordiv/ceildiv/mod chains nest at most 64 deep.
builtin.module attributes {e = #sdfg.expr<(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((N)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))>} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((N)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))>} {
// CHECK-NEXT: ^
// CHECK-NEXT: expression nested more than 64 deep

// -----

builtin.module attributes {e = #sdfg.expr<N mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2 mod 2>} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<N mod 2 mod 2
// CHECK-NEXT: ^
// CHECK-NEXT: index expression nests mod and the like more than 12 deep

// -----

// Constants and the coefficients computed from them are below 2**63.
builtin.module attributes {e = #sdfg.expr<9223372036854775808>} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<9223372036854775808>} {
// CHECK-NEXT: ^
// CHECK-NEXT: index expression value 9223372036854775808 does not fit in 64 bits

// -----

builtin.module attributes {e = #sdfg.expr<N * 4611686018427387904 * 2>} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<N * 4611686018427387904 * 2>} {
// CHECK-NEXT: ^
// CHECK-NEXT: index expression value 9223372036854775808 does not fit in 64 bits

// -----

// Constant operands fold while parsing.
builtin.module attributes {e = #sdfg.expr<N + 4 floordiv 0>} {
}

// CHECK:      builtin.module attributes {e = #sdfg.expr<N + 4 floordiv 0>} {
// CHECK-NEXT: ^
// CHECK-NEXT: floordiv by zero

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

// Map parameters are SSA names, the block arguments of the body ...
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (4) step (1) {
    }
  }
}

// CHECK:      sdfg.map "m" (i) = (0) to (4) step (1) {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected block argument!

// -----

// ... so they are distinct ...
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (%i, %i) = (0, 0) to (4, 4) step (1, 1) {
    }
  }
}

// CHECK:      sdfg.map "m" (%i, %i) = (0, 0) to (4, 4) step (1, 1) {
// CHECK-NEXT: ^^
// CHECK-NEXT: SSA value %i is already defined

// -----

// ... and the body does not declare them again.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
    ^bb0(%j: index):
    }
  }
}

// CHECK:      ^bb0(%j: index):
// CHECK-NEXT: ^^^^
// CHECK-NEXT: invalid block name in region with named arguments

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) (4) step (1) {
    }
  }
}

// CHECK:      sdfg.map "m" (%i) = (0) (4) step (1) {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'to'

// -----

// In a memlet subset, dimensions are SSA values: `d0` would be a symbol, and cannot be one.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[d0] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK:      %v = sdfg.read %x[d0] : !sdfg.array<4 x f32>
// CHECK-NEXT: ^
// CHECK-NEXT: 'd0' cannot name a symbol

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[%i mod] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK:      %v = sdfg.read %x[%i mod] : !sdfg.array<4 x f32>
// CHECK-NEXT: ^
// CHECK-NEXT: expected an integer, a symbol or '(' in an index expression

// -----

// Index operands are of type index.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    %c = arith.constant 0.0 : f32
    %v = sdfg.read %x[%c] : !sdfg.array<4 x f32>
  }
}

// CHECK:      %v = sdfg.read %x[%c] : !sdfg.array<4 x f32>
// CHECK-NEXT: ^^
// CHECK-NEXT: operand is used with type index, but has been previously used or defined with type f32

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[----------------------------------------------------------------- %i] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK:      %v = sdfg.read %x[----------------------------------------------------------------- %i] : !sdfg.array<4 x f32>
// CHECK-NEXT: ^^
// CHECK-NEXT: expression nested more than 64 deep

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[%i * 9223372036854775807 * 2] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK:      %v = sdfg.read %x[%i * 9223372036854775807 * 2] : !sdfg.array<4 x f32>
// CHECK-NEXT: ^
// CHECK-NEXT: index expression value 18446744073709551614 does not fit in 64 bits

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

// -----

// A value needs a static shape to take its type from.
sdfg.sdfg @f args [] symbols ["N"] {
  %c = sdfg.container "c" transient : !sdfg.array<N x f32> = dense<[1.0, 2.0]>
}

// CHECK:      %c = sdfg.container "c" transient : !sdfg.array<N x f32> = dense<[1.0, 2.0]>
// CHECK-NEXT: ^
// CHECK-NEXT: a value needs a static shape

// -----

// The values must fill the shape.
sdfg.sdfg @f args [] symbols [] {
  %c = sdfg.container "c" transient : !sdfg.array<3 x f32> = dense<[1.0, 2.0]>
}

// CHECK: Shape mismatch in dense literal. Expected [3] shape from the type, but got [2] shape.
