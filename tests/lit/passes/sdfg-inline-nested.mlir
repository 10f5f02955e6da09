// RUN: ipu-opt %s --split-input-file -p sdfg-inline-nested | filecheck %s

// sdfg-inline-nested: a nested SDFG in a state becomes its states and control flow, where
// the state splits around it; its symbols are the caller's expressions of the mapping, each
// access of an argument an access of the caller's container through the binding, its
// transients containers of the caller (renamed where the caller has the name), innermost
// first. A nested SDFG in a map is an error (sdfg-inline-nested-invalid.mlir).

// A slice argument and a shortened one (`f(a[1:], b[:-1])`): x[i] is a[i + 1], y[i]
// is b[i]; the state splits around the call, the ops after it in a state of their own.
sdfg.sdfg @slices args ["a", "b"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<(N + 1) x f32>
  %b = sdfg.container "b" : !sdfg.array<(N + 1) x f32>
  sdfg.state "main" {
    %v = sdfg.read %a[0] : !sdfg.array<(N + 1) x f32>
    sdfg.write %v to %b[N] : !sdfg.array<(N + 1) x f32>
    sdfg.nested "f" (in x = %a[d0 + 1], out y = %b[d0]) symbols (N = N) : !sdfg.array<(N + 1) x f32>, !sdfg.array<(N + 1) x f32> {
      sdfg.sdfg @f args ["x", "y"] symbols ["N"] {
        %x = sdfg.container "x" : !sdfg.array<N x f32>
        %y = sdfg.container "y" : !sdfg.array<N x f32>
        sdfg.state "twice" {
          sdfg.map "m" (%i) = (0) to (N) step (1) {
            %e = sdfg.read %x[%i] : !sdfg.array<N x f32>
            %r = sdfg.tasklet "double" ins(p = %e) outs(q) : (f32) -> (f32) {
            ^bb0(%p: f32):
              %s = arith.addf %p, %p : f32
              sdfg.yield %s : f32
            }
            sdfg.write %r to %y[%i] : !sdfg.array<N x f32>
          }
        }
        sdfg.state "first" {
          sdfg.copy %x[0:1] to %y[0:1] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
        }
      }
    }
    %w = sdfg.read %b[0] : !sdfg.array<(N + 1) x f32>
    sdfg.write %w to %a[0] : !sdfg.array<(N + 1) x f32>
  }
}

// CHECK:      sdfg.sdfg @slices args ["a", "b"] symbols ["N"] {
// CHECK-NEXT:   %a = sdfg.container "a" : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:   %b = sdfg.container "b" : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:   sdfg.state "main" {
// CHECK-NEXT:     %v = sdfg.read %a[0] : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:     sdfg.write %v to %b[N] : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "twice" {
// CHECK-NEXT:     sdfg.map "m" (%i) = (0) to (N) step (1) {
// CHECK-NEXT:       %e = sdfg.read %a[%i + 1] : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:       %r = sdfg.tasklet "double" ins(p = %e) outs(q) : (f32) -> (f32) {
// CHECK-NEXT:       ^bb0(%p: f32):
// CHECK-NEXT:         %s = arith.addf %p, %p : f32
// CHECK-NEXT:         sdfg.yield %s : f32
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.write %r to %b[%i] : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "first" {
// CHECK-NEXT:     sdfg.copy %a[1:2] to %b[0:1] : !sdfg.array<(N + 1) x f32>, !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "main_after_f" {
// CHECK-NEXT:     %w = sdfg.read %b[0] : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:     sdfg.write %w to %a[0] : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Rows (`f(A[1], B[2])`): the argument's index is the column, the row is fixed; a copy
// of the whole argument is a copy of the row. The inner symbol K is N - 1 here
// (`g(A[2, 1:])`), in map ranges and transient shapes too; the inner transient t is
// renamed, since the caller has a t.
sdfg.sdfg @rows args ["A", "B"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %B = sdfg.container "B" : !sdfg.array<M x N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<N x f32>
  sdfg.state "call" {
    sdfg.nested "g" (in u = %A[2, d0 + 1], out v = %B[2, d0 + 1]) symbols (K = N - 1) : !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32> {
      sdfg.sdfg @g args ["u", "v"] symbols ["K"] {
        %u = sdfg.container "u" : !sdfg.array<K x f32>
        %v = sdfg.container "v" : !sdfg.array<K x f32>
        %t_1 = sdfg.container "t" transient : !sdfg.array<K x f32>
        sdfg.state "s" {
          sdfg.copy %u[0:K] to %t_1[0:K] : !sdfg.array<K x f32>, !sdfg.array<K x f32>
          sdfg.copy %t_1[0:K] to %v[0:K] : !sdfg.array<K x f32>, !sdfg.array<K x f32>
        }
      }
    }
  }
  sdfg.state "use_t" {
    sdfg.copy %A[0:1, 0:N] to %t[0:N] : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>
  }
}

// CHECK:      sdfg.sdfg @rows args ["A", "B"] symbols ["M", "N"] {
// CHECK-NEXT:   %A = sdfg.container "A" : !sdfg.array<M x N x f32>
// CHECK-NEXT:   %B = sdfg.container "B" : !sdfg.array<M x N x f32>
// CHECK-NEXT:   %t = sdfg.container "t" transient : !sdfg.array<N x f32>
// CHECK-NEXT:   %t_1 = sdfg.container "g_t" transient : !sdfg.array<(N - 1) x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.copy %A[2:3, 1:N] to %t_1[0:N - 1] : !sdfg.array<M x N x f32>, !sdfg.array<(N - 1) x f32>
// CHECK-NEXT:     sdfg.copy %t_1[0:N - 1] to %B[2:3, 1:N] : !sdfg.array<(N - 1) x f32>, !sdfg.array<M x N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "use_t" {
// CHECK-NEXT:     sdfg.copy %A[0:1, 0:N] to %t[0:N] : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Loop variables in a binding and in the symbol mapping (`for t: h(B[t], t)`): they become
// index operands of the accesses, copies and sdfg.apply that use them.
sdfg.sdfg @loop args ["B"] symbols ["M", "N"] {
  %B = sdfg.container "B" : !sdfg.array<M x N x i32>
  sdfg.for "rows" %t = 0 to M step 1 {
    sdfg.state "call" {
      sdfg.nested "h" (inout r = %B[%t, d0]) symbols (K = N, T = %t) : !sdfg.array<M x N x i32> {
        sdfg.sdfg @h args ["r"] symbols ["K", "T"] {
          %r = sdfg.container "r" : !sdfg.array<K x i32>
          sdfg.state "s" {
            sdfg.map "m" (%i) = (0) to (K) step (1) {
              %e = sdfg.apply T + %i : i32
              sdfg.accumulate add %e to %r[%i] : !sdfg.array<K x i32>
            }
            sdfg.copy %r[0:1] to %r[K - 1:K] : !sdfg.array<K x i32>, !sdfg.array<K x i32>
          }
        }
      }
    }
  }
}

// CHECK:      sdfg.sdfg @loop args ["B"] symbols ["M", "N"] {
// CHECK-NEXT:   %B = sdfg.container "B" : !sdfg.array<M x N x i32>
// CHECK-NEXT:   sdfg.for "rows" %t = 0 to M step 1 {
// CHECK-NEXT:     sdfg.state "s" {
// CHECK-NEXT:       sdfg.map "m" (%i) = (0) to (N) step (1) {
// CHECK-NEXT:         %e = sdfg.apply %i + %t : i32
// CHECK-NEXT:         sdfg.accumulate add %e to %B[%t, %i] : !sdfg.array<M x N x i32>
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.copy %B[%t:%t + 1, 0:1] to %B[%t:%t + 1, N - 1:N] : !sdfg.array<M x N x i32>, !sdfg.array<M x N x i32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A nested SDFG in a nested SDFG is inlined first: the outer call then inlines states that
// access its argument, a part of its caller's container, which composes again.
sdfg.sdfg @twice args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<(N + 1) x f32>
  sdfg.state "call" {
    sdfg.nested "outer" (inout x = %a[d0 + 1]) symbols (N = N) : !sdfg.array<(N + 1) x f32> {
      sdfg.sdfg @outer args ["x"] symbols ["N"] {
        %x = sdfg.container "x" : !sdfg.array<N x f32>
        sdfg.state "call_inner" {
          sdfg.nested "inner" (inout y = %x[d0 + 1]) symbols (L = N - 1) : !sdfg.array<N x f32> {
            sdfg.sdfg @inner args ["y"] symbols ["L"] {
              %y = sdfg.container "y" : !sdfg.array<L x f32>
              sdfg.state "s" {
                sdfg.copy %y[1:L] to %y[0:L - 1] : !sdfg.array<L x f32>, !sdfg.array<L x f32>
              }
            }
          }
        }
      }
    }
  }
}

// CHECK:      sdfg.sdfg @twice args ["a"] symbols ["N"] {
// CHECK-NEXT:   %a = sdfg.container "a" : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.copy %a[3:N + 1] to %a[2:N] : !sdfg.array<(N + 1) x f32>, !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
