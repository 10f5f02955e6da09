// RUN: ipu-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Errors of the custom syntax of sdfg.nested. Each check names the source line the error
// points at and the message under its caret.

// A symbol's value is an expression of the caller's symbols and index operands, not of an
// argument's own indices.
sdfg.sdfg @f args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) symbols (K = d0) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK:      sdfg.nested "g" (in x = %a[d0]) symbols (K = d0) : !sdfg.array<N x f32> {
// CHECK-NEXT: ^
// CHECK-NEXT: the value of symbol 'K' uses an argument's index

// -----

// One container type per argument.
sdfg.sdfg @f args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) symbols (K = N) {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK:      1 arguments but 0 container types

// -----

// A direction first: in, out or inout.
sdfg.sdfg @f args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (x = %a[d0]) symbols (K = N) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: Expected one of 'in', 'inout', 'out' (a direction)

// -----

// The region holds one sdfg.sdfg, the called SDFG.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.nested "g" () {
      sdfg.state "t" {
      }
    }
  }
}

// CHECK: sdfg.nested holds exactly one sdfg.sdfg
