// RUN: ipu-opt %s --split-input-file -p sdfg-lower-breaks | filecheck %s

// sdfg-lower-breaks: a loop that breaks gets a transient bool `<loop>_running`, set
// before it; each break clears it, what follows a branch that breaks runs only while it
// is set, an sdfg.while tests it in its condition and an sdfg.for's body runs under it.

// for i in range(N): A[i] = 1; if c: break; A[i] = 2
sdfg.sdfg @for_break args ["A", "c"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.for "loop" %i = 0 to N step 1 {
    sdfg.state "one" {
      %v = sdfg.read %A[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %A[%i] : !sdfg.array<N x f32>
    }
    sdfg.if "stop" {
      %b = sdfg.read %c[] : !sdfg.array<i1>
      sdfg.condition %b
    } then {
      sdfg.break
    }
    sdfg.state "two" {
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @for_break
// CHECK:         %loop_running = sdfg.container "loop_running" transient : !sdfg.array<i1>
// CHECK-NEXT:    sdfg.state "loop_run" {
// CHECK-NEXT:      %[[T:.*]] = sdfg.tasklet "running" ins() outs(out) : () -> (i1) {
// CHECK-NEXT:        %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:        sdfg.yield %[[TRUE]] : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.write %[[T]] to %loop_running[] : !sdfg.array<i1>
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.for "loop" %i = 0 to N step 1 {
// CHECK-NEXT:      sdfg.if "loop_while_running" {
// CHECK-NEXT:        %[[R1:.*]] = sdfg.read %loop_running[] : !sdfg.array<i1>
// CHECK-NEXT:        sdfg.condition %[[R1]]
// CHECK-NEXT:      } then {
// CHECK-NEXT:        sdfg.state "one" {
// CHECK:             sdfg.if "stop" {
// CHECK:             } then {
// CHECK-NEXT:          sdfg.state "loop_break" {
// CHECK-NEXT:            %[[F:.*]] = sdfg.tasklet "break" ins() outs(out) : () -> (i1) {
// CHECK-NEXT:              %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:              sdfg.yield %[[FALSE]] : i1
// CHECK-NEXT:            }
// CHECK-NEXT:            sdfg.write %[[F]] to %loop_running[] : !sdfg.array<i1>
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:        sdfg.if "loop_while_running" {
// CHECK-NEXT:          %[[R2:.*]] = sdfg.read %loop_running[] : !sdfg.array<i1>
// CHECK-NEXT:          sdfg.condition %[[R2]]
// CHECK-NEXT:        } then {
// CHECK-NEXT:          sdfg.state "two" {
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     sdfg.break

// -----

// while c: (for j in range(N): if c: break); if c: break
// The inner loop's break leaves the inner loop; the outer loop's is a while: it tests
// its predicate with its condition.
sdfg.sdfg @nested args ["c"] symbols ["N"] {
  %c = sdfg.container "c" : !sdfg.array<i1>
  sdfg.while "outer" {
    %b = sdfg.read %c[] : !sdfg.array<i1>
    sdfg.condition %b
  } do {
    sdfg.for "inner" %j = 0 to N step 1 {
      sdfg.if "inner_stop" {
        %b = sdfg.read %c[] : !sdfg.array<i1>
        sdfg.condition %b
      } then {
        sdfg.break
      }
    }
    sdfg.if "outer_stop" {
      %b = sdfg.read %c[] : !sdfg.array<i1>
      sdfg.condition %b
    } then {
      sdfg.break
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @nested
// CHECK:         %inner_running = sdfg.container "inner_running" transient : !sdfg.array<i1>
// CHECK-NEXT:    %outer_running = sdfg.container "outer_running" transient : !sdfg.array<i1>
// CHECK:         sdfg.state "outer_run" {
// CHECK:         sdfg.while "outer" {
// CHECK-NEXT:      %[[C:.*]] = sdfg.read %c[] : !sdfg.array<i1>
// CHECK-NEXT:      %[[R:.*]] = sdfg.read %outer_running[] : !sdfg.array<i1>
// CHECK-NEXT:      %[[BOTH:.*]] = sdfg.tasklet "and_running" ins(c = %[[C]], r = %[[R]]) outs(out) : (i1, i1) -> (i1) {
// CHECK-NEXT:      ^bb0(%[[X:.*]]: i1, %[[Y:.*]]: i1):
// CHECK-NEXT:        %[[AND:.*]] = arith.andi %[[X]], %[[Y]] : i1
// CHECK-NEXT:        sdfg.yield %[[AND]] : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.condition %[[BOTH]]
// CHECK-NEXT:    } do {
// CHECK-NEXT:      sdfg.state "inner_run" {
// CHECK:           sdfg.for "inner" %j = 0 to N step 1 {
// CHECK-NEXT:        sdfg.if "inner_while_running" {
// CHECK:               sdfg.state "inner_break" {
// CHECK:                 sdfg.write %{{.*}} to %inner_running[]
// CHECK:           sdfg.if "outer_stop" {
// CHECK:             sdfg.state "outer_break" {
// CHECK:               sdfg.write %{{.*}} to %outer_running[]
// CHECK-NOT:     sdfg.break
