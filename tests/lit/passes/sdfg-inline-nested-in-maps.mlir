// RUN: ipu-opt %s --split-input-file -p sdfg-inline-nested-in-maps | filecheck %s

// sdfg-inline-nested-in-maps: an sdfg.nested directly in a map whose SDFG holds one
// element per container and branches on scalars (states and sdfg.ifs of reads, writes,
// tasklets, sdfg.apply) becomes tasklets in the map body. Each scalar is an SSA value
// (an argument read before it is written is read from its bound element first), each
// state's tasklets are copied in order, an sdfg.if computes both arms and then one
// tasklet selects each value an arm assigns (a value an arm leaves is the one from
// before, for an output its old element), and each output argument assigned is written
// to its bound element at the end. Any other nested SDFG stays.

// if/else on data of the point: both arms, then a select.
sdfg.sdfg @if_else args ["A", "B"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      sdfg.nested "body" (in x = %A[%i], out y = %B[%i]) : !sdfg.array<N x f32>, !sdfg.array<N x f32> {
        sdfg.sdfg @body args ["x", "y"] symbols [] {
          %x = sdfg.container "x" : !sdfg.array<f32>
          %y = sdfg.container "y" : !sdfg.array<f32>
          %c = sdfg.container "c" transient : !sdfg.array<i1>
          sdfg.state "assign_c" {
            %0 = sdfg.read %x[] : !sdfg.array<f32>
            %1 = sdfg.tasklet "positive" ins(v = %0) outs(o) : (f32) -> (i1) {
            ^bb0(%v: f32):
              %zero = arith.constant 0.000000e+00 : f32
              %p = arith.cmpf ogt, %v, %zero : f32
              sdfg.yield %p : i1
            }
            sdfg.write %1 to %c[] : !sdfg.array<i1>
          }
          sdfg.if "if_1" {
            %2 = sdfg.read %c[] : !sdfg.array<i1>
            sdfg.condition %2
          } then {
            sdfg.state "then" {
              %3 = sdfg.read %x[] : !sdfg.array<f32>
              %4 = sdfg.tasklet "copy" ins(v = %3) outs(o) : (f32) -> (f32) {
              ^bb0(%v: f32):
                sdfg.yield %v : f32
              }
              sdfg.write %4 to %y[] : !sdfg.array<f32>
            }
          } else {
            sdfg.state "else" {
              %5 = sdfg.read %x[] : !sdfg.array<f32>
              %6 = sdfg.tasklet "negate" ins(v = %5) outs(o) : (f32) -> (f32) {
              ^bb0(%v: f32):
                %n = arith.negf %v : f32
                sdfg.yield %n : f32
              }
              sdfg.write %6 to %y[] : !sdfg.array<f32>
            }
          }
        }
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @if_else
// CHECK:       sdfg.map "m" (%i) = (0) to (N) step (1) {
// CHECK-NEXT:    %[[X:.*]] = sdfg.read %A[%i] : !sdfg.array<N x f32>
// CHECK-NEXT:    %[[C:.*]] = sdfg.tasklet "positive" ins(v = %[[X]]) outs(o) : (f32) -> (i1) {
// CHECK:         %[[THEN:.*]] = sdfg.tasklet "copy" ins(v = %[[X]]) outs(o) : (f32) -> (f32) {
// CHECK:         %[[ELSE:.*]] = sdfg.tasklet "negate" ins(v = %[[X]]) outs(o) : (f32) -> (f32) {
// CHECK:         %[[Y:.*]] = sdfg.tasklet "if_1" ins(__condition = %[[C]], __then_0 = %[[THEN]], __else_0 = %[[ELSE]]) outs(__out_0) : (i1, f32, f32) -> (f32) {
// CHECK-NEXT:    ^bb0(%[[F:.*]]: i1, %[[T:.*]]: f32, %[[E:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[F]], %[[T]], %[[E]] : f32
// CHECK-NEXT:      sdfg.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.write %[[Y]] to %B[%i] : !sdfg.array<N x f32>
// CHECK-NEXT:  }
// CHECK-NOT:   sdfg.nested

// -----

// An elif chain with two outputs, on rows of 2-D arrays: the inner branch selects
// first, the outer one selects between its then arm and that. The else-if condition
// reads the output y before any arm writes it: its old element, read once. A copy of
// y into z gives z the value y has.

sdfg.sdfg @elif args ["A", "B", "C"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %B = sdfg.container "B" : !sdfg.array<M x N x f32>
  %C = sdfg.container "C" : !sdfg.array<M x N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (M, N) step (1, 1) {
      sdfg.nested "body" (in x = %A[%i, %j], out y = %B[%i, %j], out z = %C[%i, %j]) : !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32> {
        sdfg.sdfg @body args ["x", "y", "z"] symbols [] {
          %x = sdfg.container "x" : !sdfg.array<f32>
          %y = sdfg.container "y" : !sdfg.array<f32>
          %z = sdfg.container "z" : !sdfg.array<f32>
          sdfg.if "if_1" {
            %0 = sdfg.read %x[] : !sdfg.array<f32>
            %1 = sdfg.tasklet "big" ins(v = %0) outs(o) : (f32) -> (i1) {
            ^bb0(%v: f32):
              %k = arith.constant 7.000000e-01 : f32
              %p = arith.cmpf ogt, %v, %k : f32
              sdfg.yield %p : i1
            }
            sdfg.condition %1
          } then {
            sdfg.state "first" {
              %2 = sdfg.read %x[] : !sdfg.array<f32>
              %3 = sdfg.tasklet "twice" ins(v = %2) outs(o) : (f32) -> (f32) {
              ^bb0(%v: f32):
                %t = arith.addf %v, %v : f32
                sdfg.yield %t : f32
              }
              sdfg.write %3 to %y[] : !sdfg.array<f32>
              sdfg.write %2 to %z[] : !sdfg.array<f32>
            }
          } else {
            sdfg.if "if_2" {
              %4 = sdfg.read %x[] : !sdfg.array<f32>
              %5 = sdfg.read %y[] : !sdfg.array<f32>
              %6 = sdfg.tasklet "above" ins(v = %4, w = %5) outs(o) : (f32, f32) -> (i1) {
              ^bb0(%v: f32, %w: f32):
                %p = arith.cmpf ogt, %v, %w : f32
                sdfg.yield %p : i1
              }
              sdfg.condition %6
            } then {
              sdfg.state "second" {
                %7 = sdfg.read %x[] : !sdfg.array<f32>
                sdfg.write %7 to %y[] : !sdfg.array<f32>
                sdfg.copy %y[] to %z[] : !sdfg.array<f32>, !sdfg.array<f32>
              }
            } else {
              sdfg.state "third" {
                %8 = sdfg.tasklet "zero" ins() outs(o) : () -> (f32) {
                  %zero = arith.constant 0.000000e+00 : f32
                  sdfg.yield %zero : f32
                }
                sdfg.write %8 to %y[] : !sdfg.array<f32>
                sdfg.write %8 to %z[] : !sdfg.array<f32>
              }
            }
          }
        }
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @elif
// CHECK:       sdfg.map "m" (%i, %j) = (0, 0) to (M, N) step (1, 1) {
// CHECK-NEXT:    %[[X:.*]] = sdfg.read %A[%i, %j] : !sdfg.array<M x N x f32>
// CHECK-NEXT:    %[[BIG:.*]] = sdfg.tasklet "big" ins(v = %[[X]])
// CHECK:         %[[TWICE:.*]] = sdfg.tasklet "twice" ins(v = %[[X]])
// CHECK:         %[[OLD:.*]] = sdfg.read %B[%i, %j] : !sdfg.array<M x N x f32>
// CHECK-NEXT:    %[[ABOVE:.*]] = sdfg.tasklet "above" ins(v = %[[X]], w = %[[OLD]])
// CHECK:         %[[ZERO:.*]] = sdfg.tasklet "zero" ins() outs(o)
// CHECK:         %[[Y2:.*]], %[[Z2:.*]] = sdfg.tasklet "if_2" ins(__condition = %[[ABOVE]], __then_0 = %[[X]], __else_0 = %[[ZERO]], __then_1 = %[[X]], __else_1 = %[[ZERO]]) outs(__out_0, __out_1) : (i1, f32, f32, f32, f32) -> (f32, f32) {
// CHECK:         %[[Y:.*]], %[[Z:.*]] = sdfg.tasklet "if_1" ins(__condition = %[[BIG]], __then_0 = %[[TWICE]], __else_0 = %[[Y2]], __then_1 = %[[X]], __else_1 = %[[Z2]]) outs(__out_0, __out_1) : (i1, f32, f32, f32, f32) -> (f32, f32) {
// CHECK-NEXT:    ^bb0(%{{.*}}: i1, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.select
// CHECK-NEXT:      arith.select
// CHECK-NEXT:      sdfg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.write %[[Y]] to %B[%i, %j] : !sdfg.array<M x N x f32>
// CHECK-NEXT:    sdfg.write %[[Z]] to %C[%i, %j] : !sdfg.array<M x N x f32>
// CHECK-NEXT:  }

// -----

// A branch on the map parameter (the symbol i, mapped to it), with no else: the output
// keeps its old element where the condition fails. A rank-1 argument of one element,
// bound to one element of the caller, counts as a scalar. A transient only the then arm
// writes is read after the branch, in a second branch on the same condition: it takes
// the then arm's value (the only one that can be read), no select. The output z, read
// after the first branch wrote it, is the selected value; the input w is never written.

sdfg.sdfg @keep args ["A", "D", "E"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %D = sdfg.container "D" : !sdfg.array<N x f32>
  %E = sdfg.container "E" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%k) = (0) to (N) step (1) {
      sdfg.nested "body" (in w = %A[%k + d0], out z = %D[%k], out e = %E[%k]) symbols (i = %k) : !sdfg.array<N x f32>, !sdfg.array<N x f32>, !sdfg.array<N x f32> {
        sdfg.sdfg @body args ["w", "z", "e"] symbols ["i"] {
          %w = sdfg.container "w" : !sdfg.array<1 x f32>
          %z = sdfg.container "z" : !sdfg.array<f32>
          %e = sdfg.container "e" : !sdfg.array<f32>
          %t = sdfg.container "t" transient : !sdfg.array<f32>
          sdfg.if "if_1" {
            %0 = sdfg.apply i : i32
            %1 = sdfg.tasklet "third" ins(i = %0) outs(o) : (i32) -> (i1) {
            ^bb0(%v: i32):
              %three = arith.constant 3 : i32
              %r = arith.remsi %v, %three : i32
              %zero = arith.constant 0 : i32
              %p = arith.cmpi eq, %r, %zero : i32
              sdfg.yield %p : i1
            }
            sdfg.condition %1
          } then {
            sdfg.state "then" {
              %2 = sdfg.read %w[0] : !sdfg.array<1 x f32>
              %3 = sdfg.tasklet "half" ins(v = %2) outs(o) : (f32) -> (f32) {
              ^bb0(%v: f32):
                %h = arith.constant 5.000000e-01 : f32
                %m = arith.mulf %v, %h : f32
                sdfg.yield %m : f32
              }
              sdfg.write %3 to %z[] : !sdfg.array<f32>
              sdfg.write %3 to %t[] : !sdfg.array<f32>
            }
          }
          sdfg.state "after" {
            %4 = sdfg.read %z[] : !sdfg.array<f32>
            %5 = sdfg.tasklet "plus_one" ins(v = %4) outs(o) : (f32) -> (f32) {
            ^bb0(%v: f32):
              %one = arith.constant 1.000000e+00 : f32
              %s = arith.addf %v, %one : f32
              sdfg.yield %s : f32
            }
            sdfg.write %5 to %e[] : !sdfg.array<f32>
          }
          sdfg.if "if_2" {
            %6 = sdfg.apply i : i32
            %7 = sdfg.tasklet "third" ins(i = %6) outs(o) : (i32) -> (i1) {
            ^bb0(%v: i32):
              %three = arith.constant 3 : i32
              %r = arith.remsi %v, %three : i32
              %zero = arith.constant 0 : i32
              %p = arith.cmpi eq, %r, %zero : i32
              sdfg.yield %p : i1
            }
            sdfg.condition %7
          } then {
            sdfg.state "again" {
              %8 = sdfg.read %t[] : !sdfg.array<f32>
              sdfg.write %8 to %e[] : !sdfg.array<f32>
            }
          }
        }
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @keep
// CHECK:       sdfg.map "m" (%k) = (0) to (N) step (1) {
// CHECK-NEXT:    %[[I:.*]] = sdfg.apply %k : i32
// CHECK-NEXT:    %[[C:.*]] = sdfg.tasklet "third" ins(i = %[[I]])
// CHECK:         %[[W:.*]] = sdfg.read %A[%k] : !sdfg.array<N x f32>
// CHECK-NEXT:    %[[HALF:.*]] = sdfg.tasklet "half" ins(v = %[[W]])
// CHECK:         %[[OLD:.*]] = sdfg.read %D[%k] : !sdfg.array<N x f32>
// CHECK-NEXT:    %[[Z:.*]] = sdfg.tasklet "if_1" ins(__condition = %[[C]], __then_0 = %[[HALF]], __else_0 = %[[OLD]]) outs(__out_0) : (i1, f32, f32) -> (f32) {
// CHECK:         %[[E1:.*]] = sdfg.tasklet "plus_one" ins(v = %[[Z]])
// CHECK:         %[[I2:.*]] = sdfg.apply %k : i32
// CHECK-NEXT:    %[[C2:.*]] = sdfg.tasklet "third" ins(i = %[[I2]])
// CHECK:         %[[E:.*]] = sdfg.tasklet "if_2" ins(__condition = %[[C2]], __then_0 = %[[HALF]], __else_0 = %[[E1]]) outs(__out_0) : (i1, f32, f32) -> (f32) {
// CHECK:         sdfg.write %[[Z]] to %D[%k] : !sdfg.array<N x f32>
// CHECK-NEXT:    sdfg.write %[[E]] to %E[%k] : !sdfg.array<N x f32>
// CHECK-NEXT:  }

// -----

// Left alone, for sdfg-inline-nested: a nested SDFG in a state; one in a map whose
// argument is a row; one with a loop; one that reads a transient before anything
// writes it.

sdfg.sdfg @left args ["A", "B", "R"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x f32>
  %R = sdfg.container "R" : !sdfg.array<N x 2 x f32>
  sdfg.state "in_state" {
    sdfg.nested "outside" (in x = %A[0], out y = %B[0]) : !sdfg.array<N x f32>, !sdfg.array<N x f32> {
      sdfg.sdfg @outside args ["x", "y"] symbols [] {
        %x = sdfg.container "x" : !sdfg.array<f32>
        %y = sdfg.container "y" : !sdfg.array<f32>
        sdfg.state "s" {
          %0 = sdfg.read %x[] : !sdfg.array<f32>
          sdfg.write %0 to %y[] : !sdfg.array<f32>
        }
      }
    }
  }
  sdfg.state "row" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      sdfg.nested "row" (in x = %A[%i], out r = %R[%i, d0]) : !sdfg.array<N x f32>, !sdfg.array<N x 2 x f32> {
        sdfg.sdfg @row args ["x", "r"] symbols [] {
          %x = sdfg.container "x" : !sdfg.array<f32>
          %r = sdfg.container "r" : !sdfg.array<2 x f32>
          sdfg.state "s" {
            %0 = sdfg.read %x[] : !sdfg.array<f32>
            sdfg.write %0 to %r[1] : !sdfg.array<2 x f32>
          }
        }
      }
    }
  }
  sdfg.state "loop" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      sdfg.nested "loop" (in x = %A[%i], out y = %B[%i]) : !sdfg.array<N x f32>, !sdfg.array<N x f32> {
        sdfg.sdfg @loop args ["x", "y"] symbols [] {
          %x = sdfg.container "x" : !sdfg.array<f32>
          %y = sdfg.container "y" : !sdfg.array<f32>
          sdfg.for "for_1" %t = 0 to 3 step 1 {
            sdfg.state "s" {
              %0 = sdfg.read %x[] : !sdfg.array<f32>
              sdfg.write %0 to %y[] : !sdfg.array<f32>
            }
          }
        }
      }
    }
  }
  sdfg.state "unwritten" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      sdfg.nested "unwritten" (out y = %B[%i]) : !sdfg.array<N x f32> {
        sdfg.sdfg @unwritten args ["y"] symbols [] {
          %y = sdfg.container "y" : !sdfg.array<f32>
          %t = sdfg.container "t" transient : !sdfg.array<f32>
          sdfg.state "s" {
            %0 = sdfg.read %t[] : !sdfg.array<f32>
            sdfg.write %0 to %y[] : !sdfg.array<f32>
          }
        }
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @left
// CHECK:       sdfg.state "in_state" {
// CHECK-NEXT:    sdfg.nested "outside"
// CHECK:       sdfg.state "row" {
// CHECK-NEXT:    sdfg.map "m"
// CHECK-NEXT:      sdfg.nested "row"
// CHECK:       sdfg.state "loop" {
// CHECK-NEXT:    sdfg.map "m"
// CHECK-NEXT:      sdfg.nested "loop"
// CHECK:       sdfg.state "unwritten" {
// CHECK-NEXT:    sdfg.map "m"
// CHECK-NEXT:      sdfg.nested "unwritten"
