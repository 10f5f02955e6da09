// RUN: ipu-opt %s --parsing-diagnostics | filecheck %s

// sdfg.matmul (and ipu.matmul, poplar.matmul: the syntax is shared) needs the types
// of both operands and of the result.

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
