// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: ipu-opt %s --print-op-generic | ipu-opt --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the structured control flow of the sdfg dialect: sdfg.for (its variable
// a block argument, bounds index expressions of symbols, enclosing loop variables and
// rank-0 integer containers), sdfg.while and sdfg.if (condition regions ending with
// sdfg.condition; an empty else region is not printed), sdfg.apply (an index expression
// as an integer, for a tasklet), and sdfg.copy between boxes that move with loop
// variables (its index operands).

sdfg.sdfg @loops args ["A", "T", "s"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x N x f32>
  %T = sdfg.container "T" : !sdfg.array<i32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.for "outer" %i = 1 to %T - 1 step 2 : (!sdfg.array<i32>) {
    sdfg.for "inner" %j = N - 1 to %i step -1 : (index) {
      sdfg.state "body" {
        %a = sdfg.read %A[%i, %j + 1] : !sdfg.array<N x N x f32>
        %v = sdfg.apply %i * N + %j + 0 : i32
        %r = sdfg.tasklet "add" ins(a = %a, v = %v) outs(o) : (f32, i32) -> (f32) {
        ^bb0(%x: f32, %y: i32):
          %f = arith.sitofp %y : i32 to f32
          %z = arith.addf %x, %f : f32
          sdfg.yield %z : f32
        }
        sdfg.write %r to %s[] : !sdfg.array<f32>
      }
    }
  }
  sdfg.for "empty" %k = 0 to 10 step 1 {}
  sdfg.for "rows" %r = 0 to N step 1 {
    sdfg.for "cols" %c = 0 to N step 1 : () {
      sdfg.state "move" {
        sdfg.copy %A[%r:%r + 1, 0:N] to %A[%c:%c + 1, 0:N] : !sdfg.array<N x N x f32>, !sdfg.array<N x N x f32>
        sdfg.copy %A[%c:%c + 1, %r + 1:%r + 2] to %s[] {note} : !sdfg.array<N x N x f32>, !sdfg.array<f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @loops args ["A", "T", "s"] symbols ["N"] {
// CHECK:         sdfg.for "outer" %[[I:.*]] = 1 to %{{.*}} - 1 step 2 : (!sdfg.array<i32>) {
// CHECK-NEXT:      sdfg.for "inner" %[[J:.*]] = N - 1 to %[[I]] step -1 : (index) {
// CHECK-NEXT:        sdfg.state "body" {
// CHECK-NEXT:          %{{.*}} = sdfg.read %{{.*}}[%[[I]], %[[J]] + 1] : !sdfg.array<N x N x f32>
// CHECK-NEXT:          %{{.*}} = sdfg.apply %[[I]] * N + %[[J]] : i32
// CHECK:         sdfg.for "empty" %{{.*}} = 0 to 10 step 1 {
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.for "rows" %[[R:.*]] = 0 to N step 1 {
// CHECK-NEXT:      sdfg.for "cols" %[[C:.*]] = 0 to N step 1 {
// CHECK-NEXT:        sdfg.state "move" {
// CHECK-NEXT:          sdfg.copy %{{.*}}[%[[R]]:%[[R]] + 1, 0:N] to %{{.*}}[%[[C]]:%[[C]] + 1, 0:N] : !sdfg.array<N x N x f32>, !sdfg.array<N x N x f32>
// CHECK-NEXT:          sdfg.copy %{{.*}}[%[[C]]:%[[C]] + 1, %[[R]] + 1:%[[R]] + 2] to %{{.*}}[] {note} : !sdfg.array<N x N x f32>, !sdfg.array<f32>

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "loops"
// GENERIC:         "sdfg.for"(%{{.*}}) <{label = "outer", lower = #sdfg.expr<1>, upper = #sdfg.expr<d0 - 1>, step = #sdfg.expr<2>}> ({
// GENERIC-NEXT:    ^{{.*}}(%[[I:[^:]*]]: index):
// GENERIC-NEXT:      "sdfg.for"(%[[I]]) <{label = "inner", lower = #sdfg.expr<N - 1>, upper = #sdfg.expr<d0>, step = #sdfg.expr<-1>}> ({
// GENERIC:             "sdfg.apply"(%{{.*}}, %{{.*}}) <{expr = #sdfg.expr<d0 * N + d1>}> : (index, index) -> i32
// GENERIC:             "sdfg.copy"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{source_subset = [#sdfg.expr<d0>, #sdfg.expr<d0 + 1>, #sdfg.expr<0>, #sdfg.expr<N>], destination_subset = [#sdfg.expr<d1>, #sdfg.expr<d1 + 1>, #sdfg.expr<0>, #sdfg.expr<N>]}> : (!sdfg.array<N x N x f32>, !sdfg.array<N x N x f32>, index, index) -> ()

sdfg.sdfg @branches args ["A", "c"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.if "if_data" {
    %a = sdfg.read %A[0] : !sdfg.array<N x f32>
    %p = sdfg.tasklet "positive" ins(a = %a) outs(p) : (f32) -> (i1) {
    ^bb0(%x: f32):
      %zero = arith.constant 0.0 : f32
      %b = arith.cmpf ogt, %x, %zero : f32
      sdfg.yield %b : i1
    }
    sdfg.condition %p
  } then {
    sdfg.state "then" {}
  } else {
    sdfg.state "else" {}
  }
  sdfg.if "if_no_else" attributes {note} {
    %b = sdfg.read %c[] : !sdfg.array<i1>
    %p = sdfg.tasklet "copy" ins(b = %b) outs(p) : (i1) -> (i1) {
    ^bb0(%x: i1):
      sdfg.yield %x : i1
    }
    sdfg.condition %p
  } then {
    sdfg.state "only" {}
  }
  sdfg.while "w" {
    %b = sdfg.read %c[] : !sdfg.array<i1>
    %p = sdfg.tasklet "copy" ins(b = %b) outs(p) : (i1) -> (i1) {
    ^bb0(%x: i1):
      sdfg.yield %x : i1
    }
    sdfg.condition %p
  } do {
    sdfg.if "nested" {
      %n = sdfg.apply N : i32
      %p = sdfg.tasklet "big" ins(n = %n) outs(p) : (i32) -> (i1) {
      ^bb0(%x: i32):
        %ten = arith.constant 10 : i32
        %b = arith.cmpi sgt, %x, %ten : i32
        sdfg.yield %b : i1
      }
      sdfg.condition %p
    } then {
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @branches args ["A", "c"] symbols ["N"] {
// CHECK:         sdfg.if "if_data" {
// CHECK-NEXT:      %{{.*}} = sdfg.read %{{.*}}[0] : !sdfg.array<N x f32>
// CHECK:           sdfg.condition %{{.*}}
// CHECK-NEXT:    } then {
// CHECK-NEXT:      sdfg.state "then" {
// CHECK-NEXT:      }
// CHECK-NEXT:    } else {
// CHECK-NEXT:      sdfg.state "else" {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.if "if_no_else" attributes {note} {
// CHECK:         } then {
// CHECK-NEXT:      sdfg.state "only" {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.while "w" {
// CHECK:           sdfg.condition %{{.*}}
// CHECK-NEXT:    } do {
// CHECK-NEXT:      sdfg.if "nested" {
// CHECK-NEXT:        %{{.*}} = sdfg.apply N : i32
// CHECK:           } then {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "branches"
// GENERIC:         "sdfg.if"() <{label = "if_data"}> ({
// GENERIC:           "sdfg.condition"(%{{.*}}) : (i1) -> ()
// GENERIC-NEXT:    }, {
// GENERIC:         "sdfg.while"() <{label = "w"}> ({

// sdfg.break ends the body of a loop, or an arm of an sdfg.if inside one (the arm of an
// sdfg.if in an sdfg.if, here); it leaves the innermost loop.

sdfg.sdfg @breaks args ["A", "flag"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %flag = sdfg.container "flag" : !sdfg.array<i1>
  sdfg.while "search" {
    %f = sdfg.read %flag[] : !sdfg.array<i1>
    sdfg.condition %f
  } do {
    sdfg.for "scan" %i = 0 to N step 1 {
      sdfg.if "first" {
        %g = sdfg.read %flag[] : !sdfg.array<i1>
        sdfg.condition %g
      } then {
        sdfg.if "second" {
          %h = sdfg.read %flag[] : !sdfg.array<i1>
          sdfg.condition %h
        } then {
          sdfg.break
        }
      }
    }
    sdfg.break
  }
}

// CHECK-LABEL: sdfg.sdfg @breaks
// CHECK:         sdfg.for "scan" %{{.*}} = 0 to N step 1 {
// CHECK:             sdfg.if "second" {
// CHECK:             } then {
// CHECK-NEXT:          sdfg.break
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.break
// CHECK-NEXT:  }

// GENERIC:       "sdfg.break"() : () -> ()
// GENERIC:       "sdfg.break"() : () -> ()
