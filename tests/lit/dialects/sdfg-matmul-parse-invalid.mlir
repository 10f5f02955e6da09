// RUN: ipu-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// sdfg.matmul (and ipu.matmul, poplar.matmul: the syntax is shared) needs the types
// of both operands and of the result, and a number after alpha or beta.

sdfg.sdfg @f args [] symbols [] {
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.matmul "mm" %A, %A to %C : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>
  }
}

// CHECK:      sdfg.matmul "mm" %A, %A to %C : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>
// CHECK-NEXT: ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
// CHECK-NEXT: expected the types of A, B and the result, got 2

// -----

sdfg.sdfg @f args [] symbols [] {
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.matmul "mm" %A, %A to %C alpha two : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>
  }
}

// CHECK:      sdfg.matmul "mm" %A, %A to %C alpha two
// CHECK:      integer or float literal expected
