// RUN: ipu-opt %s --split-input-file -p sdfg-collapse-maps | filecheck %s

// sdfg-collapse-maps: a map whose body computes values and then runs one nested map
// becomes one map over both parameter sets. Inner bounds that use the outer parameters
// become their hull over the outer range, with every store guarded by whether the
// point is inside its own range.

// for i in map[0:N]: t = A[i, 0] * 2; for j in map[0:M]: B[i, j] = A[i, j] * t
// The row's value is computed again at each point.

sdfg.sdfg @row_scale args ["A", "B"] symbols ["N", "M"] {
  %A = sdfg.container "A" : !sdfg.array<N x M x f32>
  %B = sdfg.container "B" : !sdfg.array<N x M x f32>
  sdfg.state "s" {
    sdfg.map "rows" (%i) = (0) to (N) step (1) {
      %first = sdfg.read %A[%i, 0] : !sdfg.array<N x M x f32>
      %t = sdfg.tasklet "double" ins(x = %first) outs(y) : (f32) -> (f32) {
      ^bb0(%x: f32):
        %y = arith.addf %x, %x : f32
        sdfg.yield %y : f32
      }
      sdfg.map "cols" (%j) = (0) to (M) step (1) {
        %a = sdfg.read %A[%i, %j] : !sdfg.array<N x M x f32>
        %b = sdfg.tasklet "scale" ins(x = %a, s = %t) outs(y) : (f32, f32) -> (f32) {
        ^bb0(%x: f32, %s: f32):
          %y = arith.mulf %x, %s : f32
          sdfg.yield %y : f32
        }
        sdfg.write %b to %B[%i, %j] : !sdfg.array<N x M x f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @row_scale
// CHECK:         sdfg.map "rows" (%i, %j) = (0, 0) to (N, M) step (1, 1) {
// CHECK-NEXT:      %first = sdfg.read %A[%i, 0] : !sdfg.array<N x M x f32>
// CHECK-NEXT:      %t = sdfg.tasklet "double"
// CHECK:           %a = sdfg.read %A[%i, %j] : !sdfg.array<N x M x f32>
// CHECK-NEXT:      %b = sdfg.tasklet "scale" ins(x = %a, s = %t)
// CHECK:           sdfg.write %b to %B[%i, %j] : !sdfg.array<N x M x f32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// -----

// Three maps deep, one merge after another; the schedule of one of them stays.

sdfg.sdfg @three args ["A"] symbols ["N", "M", "K"] {
  %A = sdfg.container "A" : !sdfg.array<N x M x K x f32>
  sdfg.state "s" {
    sdfg.map "a" (%i) = (0) to (N) step (1) {
      sdfg.map "b" (%j) = (1) to (M) step (2) schedule "IPU_Workers" {
        sdfg.map "c" (%k) = (0) to (K) step (1) {
          %v = sdfg.read %A[%i, %j, %k] : !sdfg.array<N x M x K x f32>
          sdfg.write %v to %A[%i, %j, %k] : !sdfg.array<N x M x K x f32>
        }
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @three
// CHECK:         sdfg.map "a" (%i, %j, %k) = (0, 1, 0) to (N, M, K) step (1, 2, 1) schedule "IPU_Workers" {
// CHECK-NEXT:      %v = sdfg.read %A[%i, %j, %k]
// CHECK-NEXT:      sdfg.write %v to %A[%i, %j, %k]
// CHECK-NEXT:    }

// -----

// for i in map[0:N]: for j in map[i:i + 3]: B[i, j] = A[i, j]; s[i] += A[i, j]
// j ranges over the hull 0:N + 2 of i:i + 3; a point outside its own range writes B's
// old value back and accumulates the identity of the sum into s.

sdfg.sdfg @band args ["A", "B", "s"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x (N + 2) x f32>
  %B = sdfg.container "B" : !sdfg.array<N x (N + 2) x f32>
  %s = sdfg.container "s" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "rows" (%i) = (0) to (N) step (1) {
      sdfg.map "band" (%j) = (%i) to (%i + 3) step (1) {
        %a = sdfg.read %A[%i, %j] : !sdfg.array<N x (N + 2) x f32>
        sdfg.write %a to %B[%i, %j] : !sdfg.array<N x (N + 2) x f32>
        sdfg.accumulate add %a to %s[%i] : !sdfg.array<N x f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @band
// CHECK:         sdfg.map "rows" (%i, %j) = (0, 0) to (N, N + 2) step (1, 1) {
// CHECK-NEXT:      %[[LOW:.*]] = sdfg.apply -%i + %j : i32
// CHECK-NEXT:      %[[HIGH:.*]] = sdfg.apply %i - %j + 2 : i32
// CHECK-NEXT:      %[[ACTIVE:.*]] = sdfg.tasklet "in_range" ins(m0 = %[[LOW]], m1 = %[[HIGH]]) outs(active) : (i32, i32) -> (i1) {
// CHECK-NEXT:      ^bb0(%[[L:.*]]: i32, %[[H:.*]]: i32):
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:        %[[C1:.*]] = arith.cmpi sge, %[[L]], %[[ZERO]] : i32
// CHECK-NEXT:        %[[C2:.*]] = arith.cmpi sge, %[[H]], %[[ZERO]] : i32
// CHECK-NEXT:        %[[BOTH:.*]] = arith.andi %[[C1]], %[[C2]] : i1
// CHECK-NEXT:        sdfg.yield %[[BOTH]] : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      %a = sdfg.read %A[%i, %j]
// CHECK-NEXT:      %[[OLD:.*]] = sdfg.read %B[%i, %j]
// CHECK-NEXT:      %[[STORED:.*]] = sdfg.tasklet "guarded_store" ins(active = %[[ACTIVE]], value = %a, old = %[[OLD]]) outs(stored) : (i1, f32, f32) -> (f32) {
// CHECK-NEXT:      ^bb0(%[[AC:.*]]: i1, %[[V:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:        %[[SEL:.*]] = arith.select %[[AC]], %[[V]], %[[O]] : f32
// CHECK-NEXT:        sdfg.yield %[[SEL]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.write %[[STORED]] to %B[%i, %j]
// CHECK-NEXT:      %[[ADDED:.*]] = sdfg.tasklet "guarded_store" ins(active = %[[ACTIVE]], value = %a) outs(stored) : (i1, f32) -> (f32) {
// CHECK-NEXT:      ^bb0(%[[AC2:.*]]: i1, %[[V2:.*]]: f32):
// CHECK-NEXT:        %[[IDENTITY:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        %[[SEL2:.*]] = arith.select %[[AC2]], %[[V2]], %[[IDENTITY]] : f32
// CHECK-NEXT:        sdfg.yield %[[SEL2]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.accumulate add %[[ADDED]] to %s[%i]
// CHECK-NEXT:    }

// -----

// A tetrahedron: k's range uses j and i, j's uses i. Each merge adds its guard, and a
// store outside either range keeps the old value.

sdfg.sdfg @tetra args ["A", "B"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x N x N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x N x f32>
  sdfg.state "s" {
    sdfg.map "a" (%i) = (0) to (N) step (1) {
      sdfg.map "b" (%j) = (0) to (%i + 1) step (1) {
        sdfg.map "c" (%k) = (%j) to (%i + 1) step (1) {
          %v = sdfg.read %A[%i, %j, %k] : !sdfg.array<N x N x N x f32>
          sdfg.write %v to %B[%i, %j, %k] : !sdfg.array<N x N x N x f32>
        }
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @tetra
// CHECK:         sdfg.map "a" (%i, %j, %k) = (0, 0, 0) to (N, N, N) step (1, 1, 1) {
// CHECK-NEXT:      %[[J_IN:.*]] = sdfg.apply %i - %j : i32
// CHECK-NEXT:      %[[J_OK:.*]] = sdfg.tasklet "in_range" ins(m0 = %[[J_IN]])
// CHECK:           %[[K_LOW:.*]] = sdfg.apply -%j + %k : i32
// CHECK-NEXT:      %[[K_HIGH:.*]] = sdfg.apply %i - %k : i32
// CHECK-NEXT:      %[[K_OK:.*]] = sdfg.tasklet "in_range" ins(m0 = %[[K_LOW]], m1 = %[[K_HIGH]])
// CHECK:           %v = sdfg.read %A[%i, %j, %k]
// CHECK-NEXT:      %[[OLD1:.*]] = sdfg.read %B[%i, %j, %k]
// CHECK-NEXT:      %[[S1:.*]] = sdfg.tasklet "guarded_store" ins(active = %[[J_OK]], value = %v, old = %[[OLD1]])
// CHECK:           %[[OLD2:.*]] = sdfg.read %B[%i, %j, %k]
// CHECK-NEXT:      %[[S2:.*]] = sdfg.tasklet "guarded_store" ins(active = %[[K_OK]], value = %[[S1]], old = %[[OLD2]])
// CHECK:           sdfg.write %[[S2]] to %B[%i, %j, %k]
// CHECK-NEXT:    }

// -----

// What stays nested: a store in the outer body (it would run at every inner point), two
// inner maps, schedules that disagree, and a bound that is not linear in the outer
// parameter.

sdfg.sdfg @kept args ["A"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x N x f32>
  sdfg.state "s" {
    sdfg.map "store_first" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %A[%i, 0] : !sdfg.array<N x N x f32>
      sdfg.write %v to %A[%i, 1] : !sdfg.array<N x N x f32>
      sdfg.map "inner1" (%j) = (0) to (N) step (1) {
      }
    }
    sdfg.map "two_inner" (%i) = (0) to (N) step (1) {
      sdfg.map "inner2" (%j) = (0) to (N) step (1) {
      }
      sdfg.map "inner3" (%j) = (0) to (N) step (1) {
      }
    }
    sdfg.map "tiles" (%i) = (0) to (N) step (1) schedule "IPU_Device" {
      sdfg.map "workers" (%j) = (0) to (N) step (1) schedule "IPU_Workers" {
      }
    }
    sdfg.map "square" (%i) = (0) to (N) step (1) {
      sdfg.map "inner4" (%j) = (0) to (%i * %i) step (1) {
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @kept
// CHECK:         sdfg.map "store_first" (%i) =
// CHECK:           sdfg.map "inner1" (%j) =
// CHECK:         sdfg.map "two_inner" (%{{.*}}) =
// CHECK-NEXT:      sdfg.map "inner2"
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.map "inner3"
// CHECK:         sdfg.map "tiles" (%{{.*}}) =
// CHECK-NEXT:      sdfg.map "workers"
// CHECK:         sdfg.map "square" (%[[SQ:.*]]) =
// CHECK-NEXT:      sdfg.map "inner4" (%{{.*}}) = (0) to (%[[SQ]] * %[[SQ]]) step (1) {
