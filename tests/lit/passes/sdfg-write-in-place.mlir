// RUN: ipu-opt %s --split-input-file -p sdfg-write-in-place | filecheck %s

// sdfg-write-in-place: a map (or a scalar memlet outside maps) that writes a transient
// only for a whole-container copy to read it writes the copy's destination instead,
// when it touches that destination only at the iteration point and nothing between it
// and the copy touches either container. The copy and the transient go.

// saxpy after sdfg-fuse-maps: the map writes y itself, the copy and __tmp1 go.

sdfg.sdfg @saxpy args ["a", "x", "y"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %t = sdfg.container "__tmp1" transient : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "axpy" (%i) = (0) to (N) step (1) {
      %va = sdfg.read %a[] : !sdfg.array<f32>
      %vx = sdfg.read %x[%i] : !sdfg.array<N x f32>
      %vy = sdfg.read %y[%i] : !sdfg.array<N x f32>
      %r = sdfg.tasklet "axpy" ins(p = %va, q = %vx, s = %vy) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%p: f32, %q: f32, %s: f32):
        %m = arith.mulf %p, %q : f32
        %n = arith.addf %m, %s : f32
        sdfg.yield %n : f32
      }
      sdfg.write %r to %t[%i] : !sdfg.array<N x f32>
    }
    sdfg.copy %t[0:N] to %y[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @saxpy
// CHECK-NEXT:   [[A:%.*]] = sdfg.container "a" : !sdfg.array<f32>
// CHECK-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<N x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.map "axpy" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[VA:%.*]] = sdfg.read [[A]][] : !sdfg.array<f32>
// CHECK-NEXT:       [[VX:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[VY:%.*]] = sdfg.read [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[R:%.*]] = sdfg.tasklet "axpy" ins(p = [[VA]], q = [[VX]], s = [[VY]]) outs(o) : (f32, f32, f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       sdfg.write [[R]] to [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// 2-D, with an op between the map and the copy that touches neither B nor T.

sdfg.sdfg @twod args ["A", "B", "C"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %B = sdfg.container "B" : !sdfg.array<M x N x f32>
  %C = sdfg.container "C" : !sdfg.array<M x N x f32>
  %T = sdfg.container "T" transient : !sdfg.array<M x N x f32>
  sdfg.state "s" {
    sdfg.map "scale" (%i, %j) = (0, 0) to (M, N) step (1, 1) {
      %a = sdfg.read %A[%i, %j] : !sdfg.array<M x N x f32>
      %b = sdfg.read %B[%i, %j] : !sdfg.array<M x N x f32>
      %r = sdfg.tasklet "mul" ins(p = %a, q = %b) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%p: f32, %q: f32):
        %m = arith.mulf %p, %q : f32
        sdfg.yield %m : f32
      }
      sdfg.write %r to %T[%i, %j] : !sdfg.array<M x N x f32>
    }
    sdfg.copy %A[0:M, 0:N] to %C[0:M, 0:N] : !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32>
    sdfg.copy %T[0:M, 0:N] to %B[0:M, 0:N] : !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @twod
// CHECK-NEXT:   [[A:%.*]] = sdfg.container "A" : !sdfg.array<M x N x f32>
// CHECK-NEXT:   [[B:%.*]] = sdfg.container "B" : !sdfg.array<M x N x f32>
// CHECK-NEXT:   [[C:%.*]] = sdfg.container "C" : !sdfg.array<M x N x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.map "scale" ([[I:%.*]], [[J:%.*]]) = (0, 0) to (M, N) step (1, 1) {
// CHECK-NEXT:       [[VA:%.*]] = sdfg.read [[A]][[[I]], [[J]]] : !sdfg.array<M x N x f32>
// CHECK-NEXT:       [[VB:%.*]] = sdfg.read [[B]][[[I]], [[J]]] : !sdfg.array<M x N x f32>
// CHECK-NEXT:       [[R:%.*]] = sdfg.tasklet "mul" ins(p = [[VA]], q = [[VB]]) outs(o) : (f32, f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       sdfg.write [[R]] to [[B]][[[I]], [[J]]] : !sdfg.array<M x N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.copy [[A]][0:M, 0:N] to [[C]][0:M, 0:N] : !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A scalar computed outside maps and copied into a scalar: written directly.

sdfg.sdfg @scalar args ["a", "b"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %b = sdfg.container "b" : !sdfg.array<f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %va = sdfg.read %a[] : !sdfg.array<f32>
    %vb = sdfg.read %b[] : !sdfg.array<f32>
    %r = sdfg.tasklet "add" ins(p = %va, q = %vb) outs(o) : (f32, f32) -> (f32) {
    ^bb0(%p: f32, %q: f32):
      %n = arith.addf %p, %q : f32
      sdfg.yield %n : f32
    }
    sdfg.write %r to %s[] : !sdfg.array<f32>
    sdfg.copy %s[] to %b[] : !sdfg.array<f32>, !sdfg.array<f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @scalar
// CHECK-NEXT:   [[A:%.*]] = sdfg.container "a" : !sdfg.array<f32>
// CHECK-NEXT:   [[B:%.*]] = sdfg.container "b" : !sdfg.array<f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     [[VA:%.*]] = sdfg.read [[A]][] : !sdfg.array<f32>
// CHECK-NEXT:     [[VB:%.*]] = sdfg.read [[B]][] : !sdfg.array<f32>
// CHECK-NEXT:     [[R:%.*]] = sdfg.tasklet "add" ins(p = [[VA]], q = [[VB]]) outs(o) : (f32, f32) -> (f32) {
// CHECK:          }
// CHECK-NEXT:     sdfg.write [[R]] to [[B]][] : !sdfg.array<f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Not in place: a copy into part of y; a copy whose destination is read between the
// map and the copy; a map that reads its destination at another point (reversed); a map that reads
// its destination after writing the transient; a transient also read in a later state.

sdfg.sdfg @kept args ["x", "y", "z"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %z = sdfg.container "z" : !sdfg.array<N x f32>
  %h = sdfg.container "h" transient : !sdfg.array<N x f32>
  %t1 = sdfg.container "t1" transient : !sdfg.array<N x f32>
  %t2 = sdfg.container "t2" transient : !sdfg.array<N x f32>
  %t3 = sdfg.container "t3" transient : !sdfg.array<N x f32>
  %t4 = sdfg.container "t4" transient : !sdfg.array<N x f32>
  sdfg.state "partial" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %h[%i] : !sdfg.array<N x f32>
    }
    sdfg.copy %h[0:N - 1] to %y[1:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
  sdfg.state "read_between" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %t1[%i] : !sdfg.array<N x f32>
    }
    sdfg.copy %y[0:N] to %z[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
    sdfg.copy %t1[0:N] to %y[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
  sdfg.state "neighbour" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %y[N - 1 - %i] : !sdfg.array<N x f32>
      sdfg.write %v to %t2[%i] : !sdfg.array<N x f32>
    }
    sdfg.copy %t2[0:N] to %y[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
  sdfg.state "read_after" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %t3[%i] : !sdfg.array<N x f32>
      %w = sdfg.read %y[%i] : !sdfg.array<N x f32>
      sdfg.write %w to %z[%i] : !sdfg.array<N x f32>
    }
    sdfg.copy %t3[0:N] to %y[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
  sdfg.state "read_later" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %t4[%i] : !sdfg.array<N x f32>
    }
    sdfg.copy %t4[0:N] to %y[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
  sdfg.state "later" {
    sdfg.copy %t4[0:N] to %z[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @kept
// CHECK-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Z:%.*]] = sdfg.container "z" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[H:%.*]] = sdfg.container "h" transient : !sdfg.array<N x f32>
// CHECK-NEXT:   [[T1:%.*]] = sdfg.container "t1" transient : !sdfg.array<N x f32>
// CHECK-NEXT:   [[T2:%.*]] = sdfg.container "t2" transient : !sdfg.array<N x f32>
// CHECK-NEXT:   [[T3:%.*]] = sdfg.container "t3" transient : !sdfg.array<N x f32>
// CHECK-NEXT:   [[T4:%.*]] = sdfg.container "t4" transient : !sdfg.array<N x f32>
// CHECK-NEXT:   sdfg.state "partial" {
// CHECK-NEXT:     sdfg.map "m" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[V]] to [[H]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.copy [[H]][0:N - 1] to [[Y]][1:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "read_between" {
// CHECK-NEXT:     sdfg.map "m" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[V]] to [[T1]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.copy [[Y]][0:N] to [[Z]][0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:     sdfg.copy [[T1]][0:N] to [[Y]][0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "neighbour" {
// CHECK-NEXT:     sdfg.map "m" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[Y]][-[[I]] + N - 1] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[V]] to [[T2]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.copy [[T2]][0:N] to [[Y]][0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "read_after" {
// CHECK-NEXT:     sdfg.map "m" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[V]] to [[T3]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[W:%.*]] = sdfg.read [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[W]] to [[Z]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.copy [[T3]][0:N] to [[Y]][0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "read_later" {
// CHECK-NEXT:     sdfg.map "m" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[V]] to [[T4]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.copy [[T4]][0:N] to [[Y]][0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "later" {
// CHECK-NEXT:     sdfg.copy [[T4]][0:N] to [[Z]][0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
