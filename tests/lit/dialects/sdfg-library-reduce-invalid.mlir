// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of sdfg.library_reduce, one case each: one range per dimension, the
// axes, the output's shape (the kept extents), a scalar input, the identity's type, the
// path and what popops' path needs (its element types, only sums update, an update from
// a neutral identity only, no padded input, a static output box, a reduced extent,
// outside maps, the output not the input), sizes that do not move with the index
// operands, declared symbols, index operands of enclosing loops and maps in order; and
// its place in a state or a map.

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3] to %s[] axes [0] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: input subset needs one range per dimension of a rank-2 container

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:4] to %s[] axes [1, 0] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: axes [1, 0] must be distinct ascending dimensions of the rank-2 input

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:4] to %s[] axes [0] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: the kept input dimensions (4) do not match the output (one element)

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %a = sdfg.container "a" transient : !sdfg.array<f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %a[] to %s[] axes [] : !sdfg.array<f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: reduces a scalar

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:4] to %s[] axes [0, 1] identity(0 : i32) : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: identity 0 : i32 is not a value of the output's element type f32

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:4] to %s[] axes [0, 1] path "fast" : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: path 'fast' is not one of popops, tree

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x ui8>
  %s = sdfg.container "s" transient : !sdfg.array<ui8>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:4] to %s[] axes [0, 1] path "popops" : !sdfg.array<3 x 4 x ui8>, !sdfg.array<ui8>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: cannot take the popops path: it reduces float32, float16 or int32 into the same type, not ui8 into ui8

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" mul %A[0:3, 0:4] to %s[] axes [0, 1] identity(2.000000e+00 : f32) path "popops" : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: cannot take the popops path: poplibs updates only sums, and this mul updates its output (no neutral identity, or update)

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:4] to %s[] axes [0, 1] identity(0.000000e+00 : f32) padded path "popops" : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: cannot take the popops path: its input is padded (our tree fuses the padding away)

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %r = sdfg.container "r" transient : !sdfg.array<3 x f32>
  sdfg.for "l" %t = 0 to 3 step 1 {
    sdfg.state "t" {
      sdfg.library_reduce "r" add %A[%t:%t + 1, 0:4] to %r[%t:%t + 1] axes [1] path "popops" : !sdfg.array<3 x 4 x f32>, !sdfg.array<3 x f32>
    }
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 5]]:7: error: cannot take the popops path: its output box moves with an index operand

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %r = sdfg.container "r" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:1, 0:4] to %r[0:4] axes [0] identity(0.000000e+00 : f32) path "popops" : !sdfg.array<3 x 4 x f32>, !sdfg.array<4 x f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: cannot take the popops path: it reduces no dimension of more than one element

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (3) step (1) {
      sdfg.library_reduce "r" add %A[%i:%i + 1, 0:4] to %s[] axes [0, 1] identity(0.000000e+00 : f32) path "popops" : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
    }
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 5]]:7: error: cannot take the popops path: it is inside a map

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.for "l" %t = 0 to 3 step 1 {
    sdfg.state "t" {
      sdfg.library_reduce "r" add %A[%t:2 * %t + 1, 0:4] to %s[] axes [0, 1] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
    }
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 5]]:7: error: input range 't:2 * t + 1' has a size that depends on an index operand

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:M] to %s[] axes [0, 1] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: uses symbol 'M', which sdfg 'f' does not declare

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.library_reduce "r" add %A[0:3, 0:4] to %s[] axes [0, 1] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 3]]:3: error: 'sdfg.library_reduce' expects parent op to be one of 'sdfg.state', 'sdfg.map'

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "t" {
    %c = arith.constant 1 : index
    sdfg.library_reduce "r" add %A[%c:%c + 1, 0:4] to %s[] axes [0, 1] : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: index operands must be variables of enclosing sdfg.for loops or parameters of enclosing maps

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.for "l" %t = 0 to 3 step 1 {
    sdfg.for "k" %k = 0 to 3 step 1 {
      sdfg.state "t" {
        "sdfg.library_reduce"(%A, %s, %t, %k) <{label = "r", kind = "add", input_subset = [#sdfg.expr<d1>, #sdfg.expr<d1 + 1>, #sdfg.expr<0>, #sdfg.expr<4>], output_subset = [], axes = array<i64: 0, 1>}> : (!sdfg.array<3 x 4 x f32>, !sdfg.array<f32>, index, index) -> ()
      }
    }
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 6]]:9: error: must use each index operand, in the order its subsets first name them

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:4] to %A[0:1, 0:1] axes [0, 1] identity(0.000000e+00 : f32) path "popops" : !sdfg.array<3 x 4 x f32>, !sdfg.array<3 x 4 x f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: cannot take the popops path: its output is its input (poplibs writes one while it reads the other)

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %A[0:3, 0:4] to %s[] axes [0, 1] identity(5.000000e+00 : f32) update path "popops" : !sdfg.array<3 x 4 x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-library-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: cannot take the popops path: it updates its output from an identity that is not neutral, which would be written over the output's value
