// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of sdfg.reduce, one case each (ipu.reduce and poplar.reduce share
// those of the reduction: ipu-reduce-invalid.mlir, poplar-reduce-invalid.mlir): popops'
// element types, one type, dims, the output's shape, update only for add, the output not
// the input, one range per dimension, declared symbols; and its place in a state.
sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x ui8>
  %s = sdfg.container "s" transient : !sdfg.array<ui8>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[0:3, 0:4] to %s[] dims [0, 1] : !sdfg.array<3 x 4 x ui8>, !sdfg.array<ui8>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' reduces float32, float16 or int32 elements, not ui8

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f16>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[0:3, 0:4] to %s[] dims [0, 1] : !sdfg.array<3 x 4 x f16>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' input and output have different element types: f16, f32

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[0:3, 0:4] to %s[] dims [1, 0] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' dims [1, 0] must be distinct ascending dimensions of the rank-2 input, at least one

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<3 x 4 x f32>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[0:3, 0:4] to %s[0:3, 0:4] dims [] : !sdfg.array<3 x 4 x f32>, !sdfg.array<3 x 4 x f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' dims [] must be distinct ascending dimensions of the rank-2 input, at least one

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[0:3, 0:4] to %s[] dims [0, 2] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' dims [0, 2] must be distinct ascending dimensions of the rank-2 input, at least one

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<M x N x f32>
  %c = sdfg.container "c" transient : !sdfg.array<M x f32>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[0:M, 0:N] to %c[0:M] dims [0] : !sdfg.array<M x N x f32>, !sdfg.array<M x f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' output of shape M does not hold the kept input dimensions (N)

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<M x N x f32>
  %c = sdfg.container "c" transient : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.reduce "r" max %A[0:M, 0:N] to %c[0:N] dims [0] update : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' updates its output only for add (poplibs' ReduceParams update), not max

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<M x N x f32>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[1:M, 0:N] to %A[0:1, 0:N] dims [0] : !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' output must not be its input

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<M x N x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[0:M] to %s[] dims [0] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' input subset needs one range per dimension of a rank-2 container

// -----

sdfg.sdfg @f args [] symbols ["M", "N"] {
  %A = sdfg.container "A" transient : !sdfg.array<M x N x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.reduce "r" add %A[0:M, 0:K] to %s[] dims [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: uses symbol 'K', which sdfg 'f' does not declare

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<N x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      sdfg.reduce "r" add %A[0:N] to %s[] dims [0] : !sdfg.array<N x f32>, !sdfg.array<f32>
    }
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 5]]:7: error: 'sdfg.reduce' expects parent op 'sdfg.state'

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<N x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    "sdfg.reduce"(%A, %s) <{label = "r", kind = "sub", dims = array<i64: 0>, input_subset = [#sdfg.expr<0>, #sdfg.expr<N>], output_subset = []}> : (!sdfg.array<N x f32>, !sdfg.array<f32>) -> ()
  }
}

// CHECK: sdfg-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.reduce' kind 'sub' is not one of add, mul, min, max
