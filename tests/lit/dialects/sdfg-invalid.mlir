// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of the sdfg dialect, one case each: the attribute verifiers of
// #sdfg.sym and !sdfg.array (reported while parsing, without a location), the op
// verifiers and the parent traits. Syntax errors are in sdfg-parse-invalid.mlir.

// #sdfg.sym accepts only whitelisted expressions: no calls of other functions.
builtin.module attributes {e = #sdfg.sym<"__import__('os')">} {
}

// CHECK: expression "__import__('os')" is not allowed: call of '__import__'

// -----

// ... nor text that is not an expression.
builtin.module attributes {e = #sdfg.sym<"N +">} {
}

// CHECK: expression 'N +' is not allowed: invalid syntax

// -----

// A bare dimension of !sdfg.array is an expression too: dunder names are rejected.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<__class__ x f32>
}

// CHECK: expression '__class__' is not allowed: dunder name '__class__'

// -----

// A quoted map bound is checked like any expression.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to ("N; 1") step (1) {
    ^bb0:
    }
  }
}

// CHECK: expression 'N; 1' is not allowed: invalid syntax at column 2

// -----

// Negative dimension, as an integer ...
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<-1 x f32>
}

// CHECK: negative dimension -1 in !sdfg.array

// -----

// ... and as a quoted expression that is an integer.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x "-2" x f32>
}

// CHECK: negative dimension -2 in !sdfg.array

// -----

sdfg.sdfg @f args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %y = sdfg.container "x" : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:63:1: error: container 'x' is declared twice

// -----

sdfg.sdfg @f args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:72:1: error: argument 'y' has no sdfg.container

// -----

sdfg.sdfg @f args ["x"] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:80:1: error: argument 'x' is declared transient

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
}

// CHECK: sdfg-invalid.mlir:88:1: error: container 'x' is neither transient nor an argument

// -----

sdfg.sdfg @f args [] symbols [] {
  %c = arith.constant 0 : i32
}

// CHECK: sdfg-invalid.mlir:96:1: error: 'arith.constant' is not allowed directly in sdfg.sdfg (expected sdfg.container or sdfg.state)

// -----

// A map directly in the SDFG is reported by the SDFG, which is verified first ...
sdfg.sdfg @f args [] symbols [] {
  sdfg.map "m" (i) = (0) to (4) step (1) {
  ^bb0:
  }
}

// CHECK: sdfg-invalid.mlir:105:1: error: 'sdfg.map' is not allowed directly in sdfg.sdfg (expected sdfg.container or sdfg.state)

// -----

// ... and by the map itself anywhere else.
sdfg.map "m" (i) = (0) to (4) step (1) {
^bb0:
}

// CHECK: sdfg-invalid.mlir:116:1: error: sdfg.map must be inside an sdfg.state or sdfg.map

// -----

%x = sdfg.container "x" transient : !sdfg.array<4 x f32>

// CHECK: sdfg-invalid.mlir:124:1: error: 'sdfg.container' expects parent op 'sdfg.sdfg'

// -----

sdfg.state "s" {
^bb0:
}

// CHECK: sdfg-invalid.mlir:130:1: error: 'sdfg.state' expects parent op 'sdfg.sdfg'

// -----

sdfg.yield

// CHECK: sdfg-invalid.mlir:138:1: error: 'sdfg.yield' expects parent op 'sdfg.tasklet'

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (i, j) = (0) to (4, 4) step (1, 1) {
    ^bb0:
    }
  }
}

// CHECK: sdfg-invalid.mlir:146:5: error: map 'm' has 2 parameters but 1/2/2 lower bounds/upper bounds/steps

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (i, i) = (0, 0) to (4, 4) step (1, 1) {
    ^bb0:
    }
  }
}

// CHECK: sdfg-invalid.mlir:158:5: error: map 'm' repeats a parameter name

// -----

// `a.b` is an MLIR bare identifier but not a map parameter name.
sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (a.b) = (0) to (4) step (1) {
    ^bb0:
    }
  }
}

// CHECK: sdfg-invalid.mlir:171:5: error: map parameter 'a.b' is not an identifier

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (4) step (0) {
    ^bb0:
    }
  }
}

// CHECK: sdfg-invalid.mlir:183:5: error: map 'm' has non-positive step 0

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (4) step ("-1") {
    ^bb0:
    }
  }
}

// CHECK: sdfg-invalid.mlir:195:5: error: map 'm' has non-positive step -1

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    %v = sdfg.read %x[0, 1] : !sdfg.array<4 x f32>
  }
}

// CHECK: sdfg-invalid.mlir:208:5: error: read of a rank-1 container has 2 indices

// -----

// The custom form infers the result type; the generic form can get it wrong.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    %v = "sdfg.read"(%x) <{subset = [#sdfg.sym<"0">]}> : (!sdfg.array<4 x f32>) -> i32
  }
}

// CHECK: sdfg-invalid.mlir:220:5: error: read result type i32 is not the element type f32 of the container

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    sdfg.write %c to %x[0] : !sdfg.array<f32>
  }
}

// CHECK: sdfg-invalid.mlir:232:5: error: write of a rank-0 container has 1 indices

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %c = arith.constant 1 : i32
    "sdfg.write"(%c, %x) <{subset = []}> : (i32, !sdfg.array<f32>) -> ()
  }
}

// CHECK: sdfg-invalid.mlir:244:5: error: written value type i32 is not the element type f32 of the container

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %y = sdfg.container "y" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.copy %x[] to %y[0:4, 0:1] : !sdfg.array<4 x f32>, !sdfg.array<4 x 4 x f32>
  }
}

// CHECK: sdfg-invalid.mlir:256:5: error: copy source subset needs one range per dimension of a rank-1 container

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %y = sdfg.container "y" transient : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.copy %x[0:4] to %y[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x 4 x f32>
  }
}

// CHECK: sdfg-invalid.mlir:268:5: error: copy destination subset needs one range per dimension of a rank-2 container

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %y = sdfg.container "y" transient : !sdfg.array<4 x i32>
  sdfg.state "s" {
    sdfg.copy %x[0:4] to %y[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x i32>
  }
}

// CHECK: sdfg-invalid.mlir:280:5: error: copy between containers of different element types

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

// CHECK: sdfg-invalid.mlir:292:5: error: tasklet 't' has 0 input and 1 output connector names for 1 operands and 1 results

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

// CHECK: sdfg-invalid.mlir:306:5: error: tasklet 't' block arguments do not match its operand types

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    %r = sdfg.tasklet "t" ins(a = %c) outs(o) : (f32) -> (f32) {
    ^bb0(%a: f32):
      %z = arith.addf %a, %a : f32
    }
  }
}

// CHECK: sdfg-invalid.mlir:321:5: error: tasklet 't' must end with sdfg.yield

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

// CHECK: sdfg-invalid.mlir:335:5: error: tasklet 't' yields ['f32'] but has results ['i32']

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

// CHECK: error: tasklet 'k' connector 'a b' is not an identifier
