// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of sdfg.matmul, one case each (ipu.matmul and poplar.matmul share
// them: ipu-matmul-invalid.mlir, poplar-matmul-invalid.mlir).
sdfg.sdfg @f args [] symbols ["M", "K", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x i32>
  %B = sdfg.container "B" transient : !sdfg.array<4 x 5 x i32>
  %C = sdfg.container "C" transient : !sdfg.array<3 x 5 x i32>
  sdfg.state "s" {
    sdfg.matmul "mm" %A, %B to %C : !sdfg.array<3 x 4 x i32>, !sdfg.array<4 x 5 x i32>, !sdfg.array<3 x 5 x i32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' multiplies float32 or float16 elements, not i32

// -----

sdfg.sdfg @f args [] symbols ["M", "K", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %B = sdfg.container "B" transient : !sdfg.array<4 x 5 x f16>
  %C = sdfg.container "C" transient : !sdfg.array<3 x 5 x f32>
  sdfg.state "s" {
    sdfg.matmul "mm" %A, %B to %C : !sdfg.array<3 x 4 x f32>, !sdfg.array<4 x 5 x f16>, !sdfg.array<3 x 5 x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' operands and result have different element types: f32, f16, f32

// -----

sdfg.sdfg @f args [] symbols ["M", "K", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<2 x 3 x 4 x f32>
  %B = sdfg.container "B" transient : !sdfg.array<2 x 4 x 5 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<2 x 3 x 5 x f32>
  sdfg.state "s" {
    sdfg.matmul "mm" %A, %B to %C : !sdfg.array<2 x 3 x 4 x f32>, !sdfg.array<2 x 4 x 5 x f32>, !sdfg.array<2 x 3 x 5 x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' multiplies a matrix by a matrix or a vector, or a vector by a matrix, not operands of ranks 3 and 3

// -----

sdfg.sdfg @f args [] symbols ["M", "K", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<M x K x f32>
  %B = sdfg.container "B" transient : !sdfg.array<N x N x f32>
  %C = sdfg.container "C" transient : !sdfg.array<M x N x f32>
  sdfg.state "s" {
    sdfg.matmul "mm" %A, %B to %C : !sdfg.array<M x K x f32>, !sdfg.array<N x N x f32>, !sdfg.array<M x N x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' inner dimensions differ: !sdfg.array<M x K x f32> has K columns, !sdfg.array<N x N x f32> has N rows

// -----

sdfg.sdfg @f args [] symbols ["M", "K", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<M x K x f32>
  %B = sdfg.container "B" transient : !sdfg.array<K x f32>
  %C = sdfg.container "C" transient : !sdfg.array<K x f32>
  sdfg.state "s" {
    sdfg.matmul "mv" %A, %B to %C : !sdfg.array<M x K x f32>, !sdfg.array<K x f32>, !sdfg.array<K x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' result !sdfg.array<K x f32> must have shape M

// -----

sdfg.sdfg @f args [] symbols ["M", "K", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %B = sdfg.container "B" transient : !sdfg.array<4 x 4 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.matmul "mm" %A, %B to %B : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' result must not be one of its operands

// -----

sdfg.sdfg @f args [] symbols [] {
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<4 x 4 x f32>
  sdfg.matmul "mm" %A, %A to %C : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 3]]:3: error: 'sdfg.matmul' expects parent op 'sdfg.state'
