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

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' multiplies float64, float32 or float16 elements, not i32

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
  %B = sdfg.container "B" transient : !sdfg.array<4 x 5 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<2 x 3 x 5 x f32>
  sdfg.state "s" {
    sdfg.matmul "mm" %A, %B to %C : !sdfg.array<2 x 3 x 4 x f32>, !sdfg.array<4 x 5 x f32>, !sdfg.array<2 x 3 x 5 x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' multiplies a matrix by a matrix or a vector, a vector by a matrix or a vector, or groups of matrices, not operands of ranks 3 and 2

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

// -----

sdfg.sdfg @f args [] symbols [] {
  %A = sdfg.container "A" transient : !sdfg.array<2 x 3 x 4 x f32>
  %B = sdfg.container "B" transient : !sdfg.array<3 x 4 x 5 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<2 x 3 x 5 x f32>
  sdfg.state "s" {
    sdfg.matmul "bmm" %A, %B to %C : !sdfg.array<2 x 3 x 4 x f32>, !sdfg.array<3 x 4 x 5 x f32>, !sdfg.array<2 x 3 x 5 x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' groups differ: 2 products of A, 3 of B

// -----

sdfg.sdfg @f args [] symbols [] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %B = sdfg.container "B" transient : !sdfg.array<4 x 5 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<4 x 5 x f32>
  sdfg.state "s" {
    sdfg.matmul "gemm" transpose %A, %B to %C : !sdfg.array<3 x 4 x f32>, !sdfg.array<4 x 5 x f32>, !sdfg.array<4 x 5 x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' inner dimensions differ: the transpose of !sdfg.array<3 x 4 x f32> has 3 columns, !sdfg.array<4 x 5 x f32> has 4 rows

// -----

sdfg.sdfg @f args [] symbols [] {
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %y = sdfg.container "y" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.matmul "gemv" %A, transpose %x to %y : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x f32>, !sdfg.array<4 x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' transposes operand B, a vector (transpose_b needs a matrix)

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %y = sdfg.container "y" transient : !sdfg.array<4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<1 x f32>
  sdfg.state "s" {
    sdfg.matmul "dot" %x, %y to %s : !sdfg.array<4 x f32>, !sdfg.array<4 x f32>, !sdfg.array<1 x f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' result !sdfg.array<1 x f32> must have shape [] (one element)

// -----

sdfg.sdfg @f args [] symbols [] {
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %C = sdfg.container "C" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    "sdfg.matmul"(%A, %A, %C) <{label = "mm", alpha = 1.0e+39 : f64}> : (!sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x 4 x f32>) -> ()
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' alpha must be a finite float32 value (poplin's scale is a float), not 1e+39

// -----

sdfg.sdfg @f args [] symbols ["K"] {
  %x = sdfg.container "x" transient : !sdfg.array<K x f32>
  %A = sdfg.container "A" transient : !sdfg.array<K x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.matmul "dot" %x, %A[0:K] to %s : !sdfg.array<K x f32>, !sdfg.array<K x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' rhs_box needs one range or index per dimension of !sdfg.array<K x 4 x f32>

// -----

sdfg.sdfg @f args [] symbols ["K"] {
  %x = sdfg.container "x" transient : !sdfg.array<3 x f32>
  %A = sdfg.container "A" transient : !sdfg.array<K x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.matmul "dot" %x, %A[2:5, 4] to %s : !sdfg.array<3 x f32>, !sdfg.array<K x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' rhs_box range 4:5 leaves !sdfg.array<K x 4 x f32>

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<3 x f32>
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.matmul "dot" %x, %A[2:2, 1] to %s : !sdfg.array<3 x f32>, !sdfg.array<4 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' rhs_box range 2:2 is empty

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<3 x f32>
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.matmul "dot" %x, %A[0:3, T] to %s : !sdfg.array<3 x f32>, !sdfg.array<4 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: uses symbol 'T', which sdfg 'f' does not declare

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<3 x f32>
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    "sdfg.matmul"(%x, %A, %s) <{label = "dot", rhs_box = [[#sdfg.expr<0>, #sdfg.expr<3>, #sdfg.expr<4>], [#sdfg.expr<1>]]}> : (!sdfg.array<3 x f32>, !sdfg.array<4 x 4 x f32>, !sdfg.array<f32>) -> ()
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.matmul' rhs_box has an entry that is neither a range [begin, end] nor an index [i]

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<3 x f32>
  %A = sdfg.container "A" transient : !sdfg.array<4 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    "sdfg.matmul"(%x, %A, %s) <{label = "dot", rhs_box = [[#sdfg.expr<d0>, #sdfg.expr<d0 + 3>], [#sdfg.expr<1>]]}> : (!sdfg.array<3 x f32>, !sdfg.array<4 x 4 x f32>, !sdfg.array<f32>) -> ()
  }
}

// CHECK: sdfg-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: rhs_box may use symbols only, not dimensions: 'd0'
