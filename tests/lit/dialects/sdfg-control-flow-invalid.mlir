// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of the control-flow ops of the sdfg dialect, one case each.

sdfg.sdfg @f args [] symbols [] {
  sdfg.for "l" %t = 0 to 10 step 0 {}
}

// CHECK: sdfg-control-flow-invalid.mlir:[[# @LINE - 3]]:3: error: loop 'l' needs a non-zero integer step, got '0'

// -----

sdfg.sdfg @f args [] symbols ["S"] {
  sdfg.for "l" %t = 0 to 10 step S {}
}

// CHECK: error: loop 'l' needs a non-zero integer step, got 'S'

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.for "l" %t = 0 to M step 1 {}
}

// CHECK: error: uses symbol 'M', which sdfg 'f' does not declare

// -----

// A bound reads rank-0 integer containers only.
sdfg.sdfg @f args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<f32>
  sdfg.for "l" %t = 0 to %x step 1 : (!sdfg.array<f32>) {}
}

// CHECK: error: bound of loop 'l' reads !sdfg.array<f32>; only rank-0 integer containers may be read

// -----

sdfg.sdfg @f args ["n"] symbols [] {
  %n = sdfg.container "n" : !sdfg.array<i32>
  "sdfg.for"(%n) <{label = "l", lower = #sdfg.expr<0>, upper = #sdfg.expr<d1>, step = #sdfg.expr<1>}> ({
  ^bb0(%t: index):
  }) : (!sdfg.array<i32>) -> ()
}

// CHECK: error: bound 'd1' of loop 'l' uses a dimension that is not an operand

// -----

sdfg.sdfg @f args ["n"] symbols [] {
  %n = sdfg.container "n" : !sdfg.array<i32>
  "sdfg.for"(%n) <{label = "l", lower = #sdfg.expr<0>, upper = #sdfg.expr<10>, step = #sdfg.expr<1>}> ({
  ^bb0(%t: index):
  }) : (!sdfg.array<i32>) -> ()
}

// CHECK: error: loop 'l' must use each operand, in the order its bounds first name them

// -----

sdfg.sdfg @f args [] symbols [] {
  "sdfg.for"() <{label = "l", lower = #sdfg.expr<0>, upper = #sdfg.expr<10>, step = #sdfg.expr<1>}> ({
  ^bb0(%t: index, %u: index):
  }) : () -> ()
}

// CHECK: error: loop 'l' must have one loop variable, of type index

// -----

// A loop body holds states and control flow, not dataflow.
sdfg.sdfg @f args [] symbols [] {
  sdfg.for "l" %t = 0 to 10 step 1 {
    sdfg.map "m" (%i) = (0) to (4) step (1) {}
  }
}

// CHECK: error: sdfg.map must be inside an sdfg.state or sdfg.map

// -----

sdfg.sdfg @f args ["c"] symbols [] {
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.if "b" {
    %v = sdfg.read %c[] : !sdfg.array<i1>
  } then {}
}

// CHECK: sdfg-control-flow-invalid.mlir:[[# @LINE - 5]]:3: error: the condition of branch 'b' must end with sdfg.condition

// -----

// A condition reads and computes; it does not write.
sdfg.sdfg @f args ["c"] symbols [] {
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.while "w" {
    %v = sdfg.read %c[] : !sdfg.array<i1>
    sdfg.write %v to %c[] : !sdfg.array<i1>
    sdfg.condition %v
  } do {}
}

// CHECK: error: 'sdfg.write' is not allowed in the condition of loop 'w' (expected sdfg.read, sdfg.tasklet, sdfg.apply, sdfg.copy and a final sdfg.condition)

// -----

sdfg.sdfg @f args ["c"] symbols [] {
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.state "s" {
    %v = sdfg.read %c[] : !sdfg.array<i1>
    sdfg.condition %v
  }
}

// CHECK: error: 'sdfg.condition' expects parent op to be one of 'sdfg.if', 'sdfg.while'

// -----

// States and control flow stand in an SDFG, a loop body or a branch: not in a condition.
sdfg.sdfg @f args ["c"] symbols [] {
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.if "b" {
    sdfg.state "s" {}
    %v = sdfg.read %c[] : !sdfg.array<i1>
    sdfg.condition %v
  } then {}
}

// CHECK: error: 'sdfg.state' must be in an sdfg.sdfg, the body of an sdfg.for or sdfg.while, or a branch of an sdfg.if

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %v = sdfg.apply 1 : i1
  }
}

// CHECK: error: sdfg.apply gives an integer of at least 8 bits, not i1

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %v = "sdfg.apply"() <{expr = #sdfg.expr<d0 + 1>}> : () -> i32
  }
}

// CHECK: error: sdfg.apply 'd0 + 1' uses a dimension that is not an operand

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.state "s" {
    %v = sdfg.apply N : i32
  }
}

// CHECK: error: uses symbol 'N', which sdfg 'f' does not declare

// -----

sdfg.sdfg @f args [] symbols [] {
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.state "s" {
      %v = "sdfg.apply"(%t, %t) <{expr = #sdfg.expr<d0 * 2>}> : (index, index) -> i32
    }
  }
}

// CHECK: error: sdfg.apply must use each operand, in the order its expression first names them

// -----

// Loop bodies and branches hold states and control flow; dataflow stands in states.
sdfg.sdfg @f args ["c"] symbols [] {
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.for "l" %t = 0 to 4 step 1 {
    %v = sdfg.read %c[] : !sdfg.array<i1>
  }
}

// CHECK: error: 'sdfg.read' is not allowed in loop 'l' (expected sdfg.state, sdfg.for, sdfg.while, sdfg.if or sdfg.break)

// -----

sdfg.sdfg @f args ["c"] symbols [] {
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.if "b" {
    %v = sdfg.read %c[] : !sdfg.array<i1>
    sdfg.condition %v
  } then {
  } else {
    %w = sdfg.read %c[] : !sdfg.array<i1>
  }
}

// CHECK: error: 'sdfg.read' is not allowed in the else region of branch 'b' (expected sdfg.state, sdfg.for, sdfg.while, sdfg.if or sdfg.break)

// -----

// sdfg.break is the last op of its block ...
sdfg.sdfg @f args [] symbols ["N"] {
  sdfg.for "l" %i = 0 to N step 1 {
    sdfg.break
    sdfg.state "never" {
    }
  }
}

// CHECK: error: sdfg.break must be the last op of its block

// -----

// ... in a loop: not in a state ...
sdfg.sdfg @f args [] symbols ["N"] {
  sdfg.for "l" %i = 0 to N step 1 {
    sdfg.state "s" {
      sdfg.break
    }
  }
}

// CHECK: error: sdfg.break must be in the body of an sdfg.for or sdfg.while, or in an arm of an sdfg.if inside one

// -----

// ... nor in an sdfg.if outside loops ...
sdfg.sdfg @f args ["c"] symbols [] {
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.if "b" {
    %v = sdfg.read %c[] : !sdfg.array<i1>
    sdfg.condition %v
  } then {
    sdfg.break
  }
}

// CHECK: error: sdfg.break must be in the body of an sdfg.for or sdfg.while, or in an arm of an sdfg.if inside one

// -----

// ... nor directly in the SDFG (the op is verified before the SDFG).
sdfg.sdfg @f args [] symbols [] {
  sdfg.break
}

// CHECK: error: sdfg.break must be in the body of an sdfg.for or sdfg.while, or in an arm of an sdfg.if inside one
