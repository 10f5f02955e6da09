// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of sdfg.nested, one case each. Syntax errors are in
// sdfg-nested-parse-invalid.mlir.

// Every connector an identifier, bound once, with a direction, to an argument of the inner SDFG
// (in the generic form where the custom syntax cannot say it) ...
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    "sdfg.nested"(%a) <{label = "g", connectors = ["1x"], directions = ["in"], bindings = [[#sdfg.expr<d0>]], symbol_names = ["K"], symbol_values = [#sdfg.expr<N>], operandSegmentSizes = array<i32: 1, 0>}> ({
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }) : (!sdfg.array<N x f32>) -> ()
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: connector '1x' of nested SDFG 'g' is not an identifier

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0], in x = %a[d0]) symbols (K = N) : !sdfg.array<N x f32>, !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: connector 'x' of nested SDFG 'g' is bound twice

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    "sdfg.nested"(%a) <{label = "g", connectors = ["x"], directions = ["both"], bindings = [[#sdfg.expr<d0>]], symbol_names = ["K"], symbol_values = [#sdfg.expr<N>], operandSegmentSizes = array<i32: 1, 0>}> ({
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }) : (!sdfg.array<N x f32>) -> ()
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: connector 'x' of nested SDFG 'g' has direction 'both', not one of in, out, inout

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0], in w = %a[d0]) symbols (K = N) : !sdfg.array<N x f32>, !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: connector 'w' of nested SDFG 'g' is not an argument of sdfg 'g'

// -----

// ... every argument bound ...
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" () symbols (K = N) {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: argument 'x' of sdfg 'g' is not bound by nested SDFG 'g'

// -----

// ... with one index per dimension of its container, over the argument's own dimensions ...
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %B[d0]) symbols (K = N) : !sdfg.array<N x N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: connector 'x' of nested SDFG 'g' has 1 indices for a rank-2 container

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %B[d0, d1]) symbols (K = N) : !sdfg.array<N x N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: connector 'x' of nested SDFG 'g' index 'd1' uses a dimension the rank-1 argument does not have

// -----

// ... and the element type of the argument
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) symbols (K = N) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f16>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: connector 'x' of nested SDFG 'g' has element type f16 but is bound to !sdfg.array<N x f32>

// -----

// An input the inner SDFG writes
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) symbols (K = N) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
        sdfg.state "w" {
          %c = sdfg.tasklet "c" ins() outs(o) : () -> (f32) {
            %0 = arith.constant 1.0 : f32
            sdfg.yield %0 : f32
          }
          sdfg.write %c to %x[0] : !sdfg.array<K x f32>
        }
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 15]]:5: error: connector 'x' of nested SDFG 'g' is an input, but sdfg 'g' writes it

// -----

// Every symbol of the inner SDFG mapped, once, and nothing else
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: symbol 'K' of sdfg 'g' is not mapped by nested SDFG 'g'

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) symbols (K = N, K = 1) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: nested SDFG 'g' maps symbol 'K' twice

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) symbols (K = N, L = 1) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: nested SDFG 'g' maps 'L', which is not a symbol of sdfg 'g'

// -----

// Symbols of the caller only
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) symbols (K = M) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: uses symbol 'M', which sdfg 'caller' does not declare

// -----

// Index operands that are loop variables or map parameters, each used in order (generic form)
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    %i = arith.constant 0 : index
    sdfg.nested "g" (in x = %B[%i, d0]) symbols (K = N) : !sdfg.array<N x N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: the index operands of nested SDFG 'g' may be variables of enclosing sdfg.for loops and parameters of enclosing maps only

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (N, N) step (1, 1) {
      "sdfg.nested"(%B, %i, %j) <{label = "g", connectors = ["x"], directions = ["in"], bindings = [[#sdfg.expr<d1>, #sdfg.expr<d0 + d2>]], symbol_names = ["K"], symbol_values = [#sdfg.expr<N>], operandSegmentSizes = array<i32: 1, 2>}> ({
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
      }) : (!sdfg.array<N x N x f32>, index, index) -> ()
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 9]]:7: error: nested SDFG 'g' must use each index operand, in the order its bindings and symbols first name them

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      "sdfg.nested"(%a, %i) <{label = "g", connectors = ["x"], directions = ["in"], bindings = [[#sdfg.expr<d1>]], symbol_names = ["K"], symbol_values = [#sdfg.expr<d1>], operandSegmentSizes = array<i32: 1, 1>}> ({
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
      }) : (!sdfg.array<N x f32>, index) -> ()
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 9]]:7: error: nested SDFG 'g' maps a symbol to 'd1', which uses a dimension that is not an operand

// -----

// One sdfg.sdfg inside, as many connectors as directions, bindings and containers, as many
// symbols as values (generic form)
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    "sdfg.nested"() <{label = "g", connectors = [], directions = [], bindings = [], symbol_names = [], symbol_values = [], operandSegmentSizes = array<i32: 0, 0>}> ({
      %c = arith.constant 0 : index
    }) : () -> ()
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 6]]:5: error: nested SDFG 'g' must hold exactly one sdfg.sdfg

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    "sdfg.nested"(%a) <{label = "g", connectors = ["x"], directions = [], bindings = [[#sdfg.expr<d0>]], symbol_names = ["K"], symbol_values = [#sdfg.expr<N>], operandSegmentSizes = array<i32: 1, 0>}> ({
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }) : (!sdfg.array<N x f32>) -> ()
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: nested SDFG 'g' has 1 connectors, 0 directions, 1 bindings and 1 containers

// -----

sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    "sdfg.nested"(%a) <{label = "g", connectors = ["x"], directions = ["in"], bindings = [[#sdfg.expr<d0>]], symbol_names = ["K"], symbol_values = [], operandSegmentSizes = array<i32: 1, 0>}> ({
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
      }
    }) : (!sdfg.array<N x f32>) -> ()
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 8]]:5: error: nested SDFG 'g' maps 1 symbols to 0 values

// -----

// In a state or a map only
sdfg.sdfg @caller args ["a", "B"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    %r = sdfg.tasklet "t" ins() outs(o) : () -> (f32) {
      sdfg.nested "g" () {
        sdfg.sdfg @g args [] symbols [] {
        }
      }
      %0 = arith.constant 1.0 : f32
      sdfg.yield %0 : f32
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 10]]:7: error: sdfg.nested must be inside an sdfg.state or sdfg.map

// -----

// ... also when a nested SDFG inside writes it.
sdfg.sdfg @caller args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.nested "g" (in x = %a[d0]) symbols (K = N) : !sdfg.array<N x f32> {
      sdfg.sdfg @g args ["x"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
        sdfg.state "call" {
          sdfg.nested "h" (out y = %x[d0]) symbols (L = K) : !sdfg.array<K x f32> {
            sdfg.sdfg @h args ["y"] symbols ["L"] {
              %y = sdfg.container "y" : !sdfg.array<L x f32>
            }
          }
        }
      }
    }
  }
}

// CHECK: sdfg-nested-invalid.mlir:[[# @LINE - 15]]:5: error: connector 'x' of nested SDFG 'g' is an input, but sdfg 'g' writes it
