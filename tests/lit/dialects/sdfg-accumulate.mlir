// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of sdfg.accumulate, the memlet with write-conflict resolution, in the
// custom and the generic form: every reduction kind, into a scalar, into an element
// of a rank-1 array indexed by a map parameter (a reduction of axis j), with a
// constant subset, outside any map, and with discardable attributes.

sdfg.sdfg @reductions args ["A", "s", "r", "m", "k"] symbols ["N", "M"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  %r = sdfg.container "r" : !sdfg.array<M x f32>
  %m = sdfg.container "m" : !sdfg.array<2 x i32>
  %k = sdfg.container "k" : !sdfg.array<i16>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (M, N) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<M x N x f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
      sdfg.accumulate mul %v to %r[%i] {tag} : !sdfg.array<M x f32>
      sdfg.accumulate max %v to %r[(%i + 1) mod M] : !sdfg.array<M x f32>
      %c = sdfg.tasklet "cast" ins(x = %v) outs(y) : (f32) -> (i32) {
      ^bb0(%x: f32):
        %y = arith.fptosi %x : f32 to i32
        sdfg.yield %y : i32
      }
      sdfg.accumulate min %c to %m[1] : !sdfg.array<2 x i32>
    }
    %one = sdfg.tasklet "one" ins() outs(o) : () -> (i16) {
      %c1 = arith.constant 1 : i16
      sdfg.yield %c1 : i16
    }
    sdfg.accumulate add %one to %k[] : !sdfg.array<i16>
  }
}

// CHECK-LABEL: sdfg.sdfg @reductions
// CHECK:         sdfg.map "m" ([[I:%.*]], [[J:%.*]]) = (0, 0) to (M, N) step (1, 1) {
// CHECK-NEXT:      [[V:%.*]] = sdfg.read %{{.*}}[[[I]], [[J]]] : !sdfg.array<M x N x f32>
// CHECK-NEXT:      sdfg.accumulate add [[V]] to %{{.*}}[] : !sdfg.array<f32>
// CHECK-NEXT:      sdfg.accumulate mul [[V]] to [[R:%.*]][[[I]]] {tag} : !sdfg.array<M x f32>
// CHECK-NEXT:      sdfg.accumulate max [[V]] to [[R]][(([[I]] + 1) mod M)] : !sdfg.array<M x f32>
// CHECK:           sdfg.accumulate min %{{.*}} to %{{.*}}[1] : !sdfg.array<2 x i32>
// CHECK-NEXT:    }
// CHECK:         sdfg.accumulate add %{{.*}} to %{{.*}}[] : !sdfg.array<i16>
// CHECK-NEXT:  }

// GENERIC:      "sdfg.accumulate"(%{{.*}}, %{{.*}}) <{kind = "add", subset = []}> : (f32, !sdfg.array<f32>) -> ()
// GENERIC-NEXT: "sdfg.accumulate"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = "mul", subset = [#sdfg.expr<d0>]}> {tag} : (f32, !sdfg.array<M x f32>, index) -> ()
// GENERIC-NEXT: "sdfg.accumulate"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = "max", subset = [#sdfg.expr<((d0 + 1) mod M)>]}> : (f32, !sdfg.array<M x f32>, index) -> ()
// GENERIC:      "sdfg.accumulate"(%{{.*}}, %{{.*}}) <{kind = "min", subset = [#sdfg.expr<1>]}> : (i32, !sdfg.array<2 x i32>) -> ()
// GENERIC:      "sdfg.accumulate"(%{{.*}}, %{{.*}}) <{kind = "add", subset = []}> : (i16, !sdfg.array<i16>) -> ()
