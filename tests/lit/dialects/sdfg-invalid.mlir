// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of the sdfg dialect, one case each: the attribute verifier of
// !sdfg.array (reported while parsing, without a location), the op verifiers and the
// parent traits. Syntax errors, including those of #sdfg.expr, are in
// sdfg-parse-invalid.mlir.

// Negative dimension, as an integer ...
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<-1 x f32>
}

// CHECK: negative dimension -1 in !sdfg.array

// -----

// ... and as an expression that folds to one.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x (2 - 4) x f32>
}

// CHECK: negative dimension -2 in !sdfg.array

// -----

// A shape has no dimensions (`d0`) to refer to: its expressions use symbols only.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<(d0 + 1) x f32>
}

// CHECK: array dimension may use symbols only, not dimensions: 'd0 + 1'

// -----

sdfg.sdfg @f args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %y = sdfg.container "x" : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:1: error: container 'x' is declared twice

// -----

// A storage DaCe's IPU names do not have ...
sdfg.sdfg @f args ["x"] symbols [] {
  %x = sdfg.container "x" storage "GPU_Global" : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:3: error: container 'x' has storage 'GPU_Global', not one of IPU_Tile, IPU_Streaming

// -----

// ... and a scalar in streaming memory.
sdfg.sdfg @f args ["x"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<f32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:3: error: scalar 'x' cannot be in streaming memory: scalars are passed by value and live on tile 0

// -----

// A constant (a container with a value) is a transient ...
sdfg.sdfg @f args ["c"] symbols [] {
  %c = sdfg.container "c" : !sdfg.array<2 x f32> = dense<[1.0, 2.0]>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:3: error: constant container 'c' must be a transient in tile memory

// -----

// ... in tile memory ...
sdfg.sdfg @f args [] symbols [] {
  %c = sdfg.container "c" transient storage "IPU_Streaming" : !sdfg.array<2 x f32> = dense<[1.0, 2.0]>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:3: error: constant container 'c' must be a transient in tile memory

// -----

// ... whose value has its type (the custom syntax takes it from the container's) ...
sdfg.sdfg @f args [] symbols [] {
  %c = "sdfg.container"() <{container_name = "c", transient, value = dense<[1, 2, 3]> : tensor<3xi32>}> : () -> !sdfg.array<2 x i32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:3: error: the value of container 'c' has type tensor<3xi32>, expected tensor<2xi32>

// -----

// ... and a static shape ...
sdfg.sdfg @f args [] symbols ["N"] {
  %c = "sdfg.container"() <{container_name = "c", transient, value = dense<[1, 2]> : tensor<2xi32>}> : () -> !sdfg.array<N x i32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:3: error: container 'c' has a value, so its shape must be static

// -----

// ... which nothing writes: not a copy ...
sdfg.sdfg @f args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<2 x f32>
  %c = sdfg.container "c" transient : !sdfg.array<2 x f32> = dense<[1.0, 2.0]>
  sdfg.state "s" {
    sdfg.copy %x[0:2] to %c[0:2] : !sdfg.array<2 x f32>, !sdfg.array<2 x f32>
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 6]]:3: error: constant container 'c' is written by 'sdfg.copy'

// -----

// ... nor a memlet.
sdfg.sdfg @f args [] symbols [] {
  %c = sdfg.container "c" transient : !sdfg.array<f32> = dense<1.0>
  sdfg.state "s" {
    %v = arith.constant 2.0 : f32
    sdfg.write %v to %c[] : !sdfg.array<f32>
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 7]]:3: error: constant container 'c' is written by 'sdfg.write'

// -----

sdfg.sdfg @f args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:1: error: argument 'y' has no sdfg.container

// -----

sdfg.sdfg @f args ["x"] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:1: error: argument 'x' is declared transient

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:1: error: container 'x' is neither transient nor an argument

// -----

sdfg.sdfg @f args [] symbols [] {
  %c = arith.constant 0 : i32
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:1: error: 'arith.constant' is not allowed directly in sdfg.sdfg (expected sdfg.container, sdfg.state, sdfg.for, sdfg.while or sdfg.if)

// -----

// Symbols are declared by the SDFG. Every expression may use those only: in a shape ...
sdfg.sdfg @f args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x M x f32>
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:3: error: uses symbol 'M', which sdfg 'f' does not declare

// -----

// ... in the range of a map, nested or not ...
sdfg.sdfg @f args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      sdfg.map "n" (%j) = (0) to (N) step (K + 1) {
      }
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 6]]:7: error: uses symbol 'K', which sdfg 'f' does not declare

// -----

// ... in a memlet subset (the first undeclared symbol in name order is named) ...
sdfg.sdfg @f args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[min(%i + Q, P)] : !sdfg.array<N x f32>
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: uses symbol 'P', which sdfg 'f' does not declare

// -----

// ... and in a copy range.
sdfg.sdfg @f args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.copy %x[0:N] to %x[0:N + P - P + R] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: uses symbol 'R', which sdfg 'f' does not declare

// -----

// Declared symbols must be able to appear in an expression: not a keyword ...
sdfg.sdfg @f args [] symbols ["N", "mod"] {
^bb0:
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:1: error: 'mod' cannot name a symbol

// -----

// ... not spelled like a dimension ...
sdfg.sdfg @f args [] symbols ["d0"] {
^bb0:
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:1: error: 'd0' cannot name a symbol

// -----

// ... and an identifier.
sdfg.sdfg @f args [] symbols ["a b"] {
^bb0:
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:1: error: 'a b' cannot name a symbol

// -----

// A map directly in the SDFG is reported by the map, which is verified before the SDFG ...
sdfg.sdfg @f args [] symbols [] {
  sdfg.map "m" (%i) = (0) to (4) step (1) {
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:3: error: sdfg.map must be inside an sdfg.state or sdfg.map

// -----

// ... as anywhere else.
sdfg.map "m" (%i) = (0) to (4) step (1) {
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:1: error: sdfg.map must be inside an sdfg.state or sdfg.map

// -----

%x = sdfg.container "x" transient : !sdfg.array<4 x f32>

// CHECK: sdfg-invalid.mlir:[[# @LINE - 2]]:1: error: 'sdfg.container' expects parent op 'sdfg.sdfg'

// -----

sdfg.state "s" {
^bb0:
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:1: error: 'sdfg.state' must be in an sdfg.sdfg, the body of an sdfg.for or sdfg.while, or a branch of an sdfg.if

// -----

sdfg.yield

// CHECK: sdfg-invalid.mlir:[[# @LINE - 2]]:1: error: 'sdfg.yield' expects parent op 'sdfg.tasklet'

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0) to (4, 4) step (1, 1) {
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:5: error: map 'm' has 2 parameters but 1/2/2 lower bounds/upper bounds/steps

// -----

// Map parameters are the block arguments; the generic form can give them another type.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    "sdfg.map"() <{label = "m", lower = [#sdfg.expr<0>], upper = [#sdfg.expr<4>], step = [#sdfg.expr<1>]}> ({
    ^bb0(%i: i32):
    }) : () -> ()
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 6]]:5: error: map 'm' parameters must be of type index

// -----

// Map ranges are expressions of symbols and of the parameters of enclosing maps, which
// are operands: a dimension that is not one is an error ...
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    "sdfg.map"() <{label = "m", lower = [#sdfg.expr<0>], upper = [#sdfg.expr<d0 + 1>], step = [#sdfg.expr<1>]}> ({
    ^bb0(%i: index):
    }) : () -> ()
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 6]]:5: error: range of map 'm' uses a dimension that is not an operand

// -----

// ... so is an operand that is not the parameter of an enclosing map (a loop variable) ...
sdfg.sdfg @f args [] symbols ["N"] {
  sdfg.for "loop" %t = 0 to N step 1 {
    sdfg.state "s" {
      sdfg.map "m" (%i) = (0) to (%t + 1) step (1) {
      }
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 6]]:7: error: the ranges of map 'm' may use the parameters of enclosing maps only

// -----

// ... as is the map's own parameter ...
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (%i) step (1) {
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:5: error: the ranges of map 'm' may use the parameters of enclosing maps only

// -----

// ... operands come in the order the ranges first name them ...
sdfg.sdfg @f args [] symbols ["N"] {
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (N, N) step (1, 1) {
      "sdfg.map"(%i, %j) <{label = "n", lower = [#sdfg.expr<d1>], upper = [#sdfg.expr<d0 + 1>], step = [#sdfg.expr<1>]}> ({
      ^bb0(%k: index):
      }) : (index, index) -> ()
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 7]]:7: error: map 'n' must use each index operand, in the order its ranges first name them

// -----

// ... and steps are expressions of symbols only.
sdfg.sdfg @f args [] symbols ["N"] {
  sdfg.state "s" {
    sdfg.map "m" (%i) = (1) to (N) step (1) {
      "sdfg.map"(%i) <{label = "n", lower = [#sdfg.expr<0>], upper = [#sdfg.expr<N>], step = [#sdfg.expr<d0>]}> ({
      ^bb0(%k: index):
      }) : (index) -> ()
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 7]]:7: error: step of map 'n' may use symbols only, not dimensions: 'd0'

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (0) {
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:5: error: map 'm' has non-positive step 0

// -----

// A step is checked once it is a constant, whatever its spelling.
sdfg.sdfg @f args [] symbols ["N"] {
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (N - N - 1) {
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:5: error: map 'm' has non-positive step -1

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    %v = sdfg.read %x[0, 1] : !sdfg.array<4 x f32>
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: read of a rank-1 container has 2 indices

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[%i + 1] : !sdfg.array<4 x 4 x f32>
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: read of a rank-2 container has 1 indices

// -----

// The custom form infers the result type; the generic form can get it wrong.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    %v = "sdfg.read"(%x) <{subset = [#sdfg.expr<0>]}> : (!sdfg.array<4 x f32>) -> i32
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: read result type i32 is not the element type f32 of the container

// -----

// A subset refers to its index operands as d0, d1, ...: d1 of a read with one operand.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = "sdfg.read"(%x, %i) <{subset = [#sdfg.expr<d0 + d1>]}> : (!sdfg.array<4 x f32>, index) -> f32
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: read subset 'd0 + d1' uses a dimension that is not an operand

// -----

// Index operands are of type index.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    %c = arith.constant 0 : i32
    %v = "sdfg.read"(%x, %c) <{subset = [#sdfg.expr<d0>]}> : (!sdfg.array<4 x f32>, i32) -> f32
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: operand 'indices' at position 1 does not verify: i32 should be of base attribute index

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    sdfg.write %c to %x[0] : !sdfg.array<f32>
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: write of a rank-0 container has 1 indices

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %c = arith.constant 1 : i32
    "sdfg.write"(%c, %x) <{subset = []}> : (i32, !sdfg.array<f32>) -> ()
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: written value type i32 is not the element type f32 of the container

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %c = arith.constant 1.0 : f32
      "sdfg.write"(%c, %x, %i) <{subset = [#sdfg.expr<d0>, #sdfg.expr<d2 - 1>]}> : (f32, !sdfg.array<4 x 4 x f32>, index) -> ()
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: write subset 'd2 - 1' uses a dimension that is not an operand

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %y = sdfg.container "y" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.copy %x[] to %y[0:4, 0:1] : !sdfg.array<4 x f32>, !sdfg.array<4 x 4 x f32>
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: copy source subset needs one range per dimension of a rank-1 container

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %y = sdfg.container "y" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.copy %x[0:4] to %y[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x 4 x f32>
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: copy destination subset needs one range per dimension of a rank-2 container

// -----

// Copy ranges are expressions of symbols and of index operands: each dimension an
// operand, the variables of enclosing loops only (not map parameters), the sizes of the
// boxes independent of them.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    "sdfg.copy"(%x, %x) <{source_subset = [#sdfg.expr<0>, #sdfg.expr<4>], destination_subset = [#sdfg.expr<d0>, #sdfg.expr<4>]}> : (!sdfg.array<4 x f32>, !sdfg.array<4 x f32>) -> ()
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: copy destination range 'd0' uses a dimension that is not an operand

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      sdfg.copy %x[%i:%i + 1] to %x[0:1] : !sdfg.array<4 x f32>, !sdfg.array<4 x f32>
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: copy ranges may use the variables of enclosing sdfg.for loops only

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.state "s" {
      sdfg.copy %x[%t:4] to %x[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x f32>
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: copy source range 't:4' has a size that depends on a loop variable

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  "sdfg.for"() <{label = "l", lower = #sdfg.expr<0>, upper = #sdfg.expr<4>, step = #sdfg.expr<1>}> ({
  ^bb0(%t: index):
    sdfg.state "s" {
      "sdfg.copy"(%x, %x, %t, %t) <{source_subset = [#sdfg.expr<d1>, #sdfg.expr<d1 + 1>], destination_subset = [#sdfg.expr<d0>, #sdfg.expr<d0 + 1>]}> : (!sdfg.array<4 x f32>, !sdfg.array<4 x f32>, index, index) -> ()
    }
  }) : () -> ()
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: copy must use each index operand, in the order its subsets first name them

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %y = sdfg.container "y" transient : !sdfg.array<4 x i32>
  sdfg.state "s" {
    sdfg.copy %x[0:4] to %y[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x i32>
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 4]]:5: error: copy between containers of different element types

// -----

// Connector names and operands/results are paired only in the generic form.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    %r = "sdfg.tasklet"(%c) <{label = "t", in_connectors = [], out_connectors = ["o"]}> ({
    ^bb0(%a: f32):
      sdfg.yield %a : f32
    }) : (f32) -> f32
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 7]]:5: error: tasklet 't' has 0 input and 1 output connector names for 1 operands and 1 results

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    %r = sdfg.tasklet "t" ins(a = %c) outs(o) : (f32) -> (f32) {
    ^bb0(%a: i32):
      %z = arith.constant 0.0 : f32
      sdfg.yield %z : f32
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 8]]:5: error: tasklet 't' block arguments do not match its operand types

// -----

// A tasklet body ends with sdfg.yield; xDSL reports a missing terminator first.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    %r = sdfg.tasklet "t" ins(a = %c) outs(o) : (f32) -> (f32) {
    ^bb0(%a: f32):
      %z = arith.addf %a, %a : f32
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: Operation arith.addf terminates block in single-block region but is not a terminator

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    %r = sdfg.tasklet "t" ins(a = %c) outs(o) : (f32) -> (i32) {
    ^bb0(%a: f32):
      sdfg.yield %a : f32
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 7]]:5: error: tasklet 't' yields ['f32'] but has results ['i32']

// -----

sdfg.sdfg @f args [] symbols [] {
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %r = "sdfg.tasklet"() <{label = "k", in_connectors = [], out_connectors = ["a b"]}> ({
      %c = arith.constant 1.0 : f32
      sdfg.yield %c : f32
    }) : () -> f32
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 7]]:5: error: tasklet 'k' connector 'a b' is not an identifier

// -----

// A symbol is declared once.
sdfg.sdfg @f args [] symbols ["N", "N"] {
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 3]]:1: error: sdfg 'f' declares a symbol twice

// -----

// The index operands of a subset are each used, in the order the subset first names them,
// so that the custom form prints and parses back to the same op ...
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %v = "sdfg.read"(%x, %i, %j) <{subset = [#sdfg.expr<d1>, #sdfg.expr<d0>]}> : (!sdfg.array<4 x 4 x f32>, index, index) -> f32
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:7: error: read must use each index operand, in the order the subset first names them

// -----

// ... and none is left unused.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = "sdfg.read"(%x, %i) <{subset = [#sdfg.expr<2>]}> : (!sdfg.array<4 x f32>, index) -> f32
      "sdfg.write"(%v, %x, %i, %i) <{subset = [#sdfg.expr<d0 + d1>]}> : (f32, !sdfg.array<4 x f32>, index, index) -> ()
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 6]]:7: error: read must use each index operand, in the order the subset first names them

// -----

// A map schedule that is not one of DaCe's IPU schedules.
sdfg.sdfg @f args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) schedule "GPU_Device" {
    }
  }
}

// CHECK: sdfg-invalid.mlir:[[# @LINE - 5]]:5: error: map 'm' has schedule 'GPU_Device', not one of IPU_Device, IPU_Workers
