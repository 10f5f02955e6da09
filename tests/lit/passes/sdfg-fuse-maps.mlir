// RUN: ipu-opt %s --split-input-file -p sdfg-fuse-maps | filecheck %s

// sdfg-fuse-maps fuses a map into an earlier map of its state with the same iteration
// space when the data they share is accessed at the iteration point only and no op
// between them gets in the way; the fused body is the first map's followed by the
// second's, with reads of values written earlier at the point forwarded. Transients
// nothing reads any more then lose their writes and go.

// saxpy as DaCe writes it: the Add map fuses into the Mult map, its read of __tmp0
// takes the multiplied value, and __tmp0, now written but never read, goes with its
// write. __tmp1 stays: the copy reads it (sdfg-write-in-place removes it).

sdfg.sdfg @saxpy args ["a", "x", "y"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %t0 = sdfg.container "__tmp0" transient : !sdfg.array<N x f32>
  %t1 = sdfg.container "__tmp1" transient : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "mult" (%i) = (0) to (N) step (1) {
      %va = sdfg.read %a[] : !sdfg.array<f32>
      %vx = sdfg.read %x[%i] : !sdfg.array<N x f32>
      %p = sdfg.tasklet "mul" ins(u = %va, v = %vx) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%u: f32, %v: f32):
        %r = arith.mulf %u, %v : f32
        sdfg.yield %r : f32
      }
      sdfg.write %p to %t0[%i] : !sdfg.array<N x f32>
    }
    sdfg.map "add" (%k) = (0) to (N) step (1) {
      %vt = sdfg.read %t0[%k] : !sdfg.array<N x f32>
      %vy = sdfg.read %y[%k] : !sdfg.array<N x f32>
      %s = sdfg.tasklet "add" ins(u = %vt, v = %vy) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%u: f32, %v: f32):
        %r = arith.addf %u, %v : f32
        sdfg.yield %r : f32
      }
      sdfg.write %s to %t1[%k] : !sdfg.array<N x f32>
    }
    sdfg.copy %t1[0:N] to %y[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @saxpy
// CHECK-NEXT:   [[A:%.*]] = sdfg.container "a" : !sdfg.array<f32>
// CHECK-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[T1:%.*]] = sdfg.container "__tmp1" transient : !sdfg.array<N x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.map "mult" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[VA:%.*]] = sdfg.read [[A]][] : !sdfg.array<f32>
// CHECK-NEXT:       [[VX:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[P:%.*]] = sdfg.tasklet "mul" ins(u = [[VA]], v = [[VX]]) outs(o) : (f32, f32) -> (f32) {
// CHECK-NEXT:       ^{{.*}}([[U:%.*]]: f32, [[V:%.*]]: f32):
// CHECK-NEXT:         [[R:%.*]] = arith.mulf [[U]], [[V]] : f32
// CHECK-NEXT:         sdfg.yield [[R]] : f32
// CHECK-NEXT:       }
// CHECK-NEXT:       [[VY:%.*]] = sdfg.read [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[S:%.*]] = sdfg.tasklet "add" ins(u = [[P]], v = [[VY]]) outs(o) : (f32, f32) -> (f32) {
// CHECK-NEXT:       ^{{.*}}([[U:%.*]]: f32, [[V:%.*]]: f32):
// CHECK-NEXT:         [[R:%.*]] = arith.addf [[U]], [[V]] : f32
// CHECK-NEXT:         sdfg.yield [[R]] : f32
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.write [[S]] to [[T1]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.copy [[T1]][0:N] to [[Y]][0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A chain of three maps collapses into the first; t and u go. An op between the maps
// that touches none of their data (the map over w) stays after the fused map.

sdfg.sdfg @chain args ["x", "y", "z", "w"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %z = sdfg.container "z" : !sdfg.array<N x f32>
  %w = sdfg.container "w" : !sdfg.array<8 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<N x f32>
  %u = sdfg.container "u" transient : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m1" (%i) = (0) to (N) step (1) {
      %vx = sdfg.read %x[%i] : !sdfg.array<N x f32>
      %vy = sdfg.read %y[%i] : !sdfg.array<N x f32>
      %p = sdfg.tasklet "mul" ins(a = %vx, b = %vy) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %r = arith.mulf %a, %b : f32
        sdfg.yield %r : f32
      }
      sdfg.write %p to %t[%i] : !sdfg.array<N x f32>
    }
    sdfg.map "other" (%k) = (0) to (8) step (1) {
      %vw = sdfg.read %w[%k] : !sdfg.array<8 x f32>
      %n = sdfg.tasklet "neg" ins(a = %vw) outs(o) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %r = arith.negf %a : f32
        sdfg.yield %r : f32
      }
      sdfg.write %n to %w[%k] : !sdfg.array<8 x f32>
    }
    sdfg.map "m2" (%j) = (0) to (N) step (1) {
      %vt = sdfg.read %t[%j] : !sdfg.array<N x f32>
      %vx = sdfg.read %x[%j] : !sdfg.array<N x f32>
      %s = sdfg.tasklet "add" ins(a = %vt, b = %vx) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        sdfg.yield %r : f32
      }
      sdfg.write %s to %u[%j] : !sdfg.array<N x f32>
    }
    sdfg.map "m3" (%l) = (0) to (N) step (1) {
      %vu = sdfg.read %u[%l] : !sdfg.array<N x f32>
      %q = sdfg.tasklet "sqrt" ins(a = %vu) outs(o) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %r = math.sqrt %a : f32
        sdfg.yield %r : f32
      }
      sdfg.write %q to %z[%l] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @chain
// CHECK-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Z:%.*]] = sdfg.container "z" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[W:%.*]] = sdfg.container "w" : !sdfg.array<8 x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.map "m1" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[VX:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[VY:%.*]] = sdfg.read [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[P:%.*]] = sdfg.tasklet "mul" ins(a = [[VX]], b = [[VY]]) outs(o) : (f32, f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       [[VX2:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[S:%.*]] = sdfg.tasklet "add" ins(a = [[P]], b = [[VX2]]) outs(o) : (f32, f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       [[Q:%.*]] = sdfg.tasklet "sqrt" ins(a = [[S]]) outs(o) : (f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       sdfg.write [[Q]] to [[Z]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.map "other" ([[K:%.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:       [[VW:%.*]] = sdfg.read [[W]][[[K]]] : !sdfg.array<8 x f32>
// CHECK-NEXT:       [[N:%.*]] = sdfg.tasklet "neg" ins(a = [[VW]]) outs(o) : (f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       sdfg.write [[N]] to [[W]][[[K]]] : !sdfg.array<8 x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// 2-D maps fuse when their parameters index the point in the same order.

sdfg.sdfg @twod args ["A", "B"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %B = sdfg.container "B" : !sdfg.array<M x N x f32>
  %T = sdfg.container "T" transient : !sdfg.array<M x N x f32>
  sdfg.state "s" {
    sdfg.map "sq" (%i, %j) = (0, 0) to (M, N) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<M x N x f32>
      %p = sdfg.tasklet "sq" ins(a = %v) outs(o) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %r = arith.mulf %a, %a : f32
        sdfg.yield %r : f32
      }
      sdfg.write %p to %T[%i, %j] : !sdfg.array<M x N x f32>
    }
    sdfg.map "inc" (%k, %l) = (0, 0) to (M, N) step (1, 1) {
      %v = sdfg.read %T[%k, %l] : !sdfg.array<M x N x f32>
      %q = sdfg.tasklet "inc" ins(a = %v) outs(o) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %c = arith.constant 1.0 : f32
        %r = arith.addf %a, %c : f32
        sdfg.yield %r : f32
      }
      sdfg.write %q to %B[%k, %l] : !sdfg.array<M x N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @twod
// CHECK-NEXT:   [[A:%.*]] = sdfg.container "A" : !sdfg.array<M x N x f32>
// CHECK-NEXT:   [[B:%.*]] = sdfg.container "B" : !sdfg.array<M x N x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.map "sq" ([[I:%.*]], [[J:%.*]]) = (0, 0) to (M, N) step (1, 1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[A]][[[I]], [[J]]] : !sdfg.array<M x N x f32>
// CHECK-NEXT:       [[P:%.*]] = sdfg.tasklet "sq" ins(a = [[V]]) outs(o) : (f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       [[Q:%.*]] = sdfg.tasklet "inc" ins(a = [[P]]) outs(o) : (f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       sdfg.write [[Q]] to [[B]][[[I]], [[J]]] : !sdfg.array<M x N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Not fused: a 2-D map reading the transposed point, and a map over a different range.
// Both transients are still read, so they stay.

sdfg.sdfg @nofuse args ["A", "B", "x", "y"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x N x f32>
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %T = sdfg.container "T" transient : !sdfg.array<N x N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<N x f32>
  sdfg.state "transposed" {
    sdfg.map "copy" (%i, %j) = (0, 0) to (N, N) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<N x N x f32>
      sdfg.write %v to %T[%i, %j] : !sdfg.array<N x N x f32>
    }
    sdfg.map "transpose" (%k, %l) = (0, 0) to (N, N) step (1, 1) {
      %v = sdfg.read %T[%l, %k] : !sdfg.array<N x N x f32>
      sdfg.write %v to %B[%k, %l] : !sdfg.array<N x N x f32>
    }
  }
  sdfg.state "ranges" {
    sdfg.map "all" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<N x f32>
    }
    sdfg.map "head" (%k) = (0) to (N - 1) step (1) {
      %v = sdfg.read %t[%k] : !sdfg.array<N x f32>
      sdfg.write %v to %y[%k] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @nofuse
// CHECK:          [[T:%.*]] = sdfg.container "T" transient : !sdfg.array<N x N x f32>
// CHECK-NEXT:     [[T1:%.*]] = sdfg.container "t" transient : !sdfg.array<N x f32>
// CHECK-NEXT:     sdfg.state "transposed" {
// CHECK-NEXT:       sdfg.map "copy" ([[I:%.*]], [[J:%.*]]) = (0, 0) to (N, N) step (1, 1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read %{{.*}}[[[I]], [[J]]] : !sdfg.array<N x N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to [[T]][[[I]], [[J]]] : !sdfg.array<N x N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.map "transpose" ([[K:%.*]], [[L:%.*]]) = (0, 0) to (N, N) step (1, 1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read [[T]][[[L]], [[K]]] : !sdfg.array<N x N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to %{{.*}}[[[K]], [[L]]] : !sdfg.array<N x N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.state "ranges" {
// CHECK-NEXT:       sdfg.map "all" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read %{{.*}}[[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to [[T1]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.map "head" ([[K:%.*]]) = (0) to (N - 1) step (1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read [[T1]][[[K]]] : !sdfg.array<N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to %{{.*}}[[[K]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }

// -----

// Not fused: the second map reads a neighbour t[k + 1] of what the first writes.

sdfg.sdfg @neighbour args ["x", "y"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "fill" (%i) = (0) to (N - 1) step (1) {
      %v = sdfg.read %x[%i + 1] : !sdfg.array<N x f32>
      sdfg.write %v to %t[%i + 1] : !sdfg.array<N x f32>
    }
    sdfg.map "shift" (%k) = (0) to (N - 1) step (1) {
      %v = sdfg.read %t[%k + 1] : !sdfg.array<N x f32>
      sdfg.write %v to %y[%k] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @neighbour
// CHECK:          [[T:%.*]] = sdfg.container "t" transient : !sdfg.array<N x f32>
// CHECK-NEXT:     sdfg.state "s" {
// CHECK-NEXT:       sdfg.map "fill" ([[I:%.*]]) = (0) to (N - 1) step (1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read %{{.*}}[[[I]] + 1] : !sdfg.array<N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to [[T]][[[I]] + 1] : !sdfg.array<N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.map "shift" ([[K:%.*]]) = (0) to (N - 1) step (1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read [[T]][[[K]] + 1] : !sdfg.array<N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to %{{.*}}[[[K]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }

// -----

// Not fused: the copy between the maps writes y, which the second map reads. A read of
// a neighbour of data neither map writes (x[k + 1]) would not stop fusion.

sdfg.sdfg @between args ["x", "y", "z", "w"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %z = sdfg.container "z" : !sdfg.array<N x f32>
  %w = sdfg.container "w" : !sdfg.array<N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m1" (%i) = (0) to (N - 1) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<N x f32>
    }
    sdfg.copy %w[0:N] to %y[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
    sdfg.map "m2" (%k) = (0) to (N - 1) step (1) {
      %a = sdfg.read %t[%k] : !sdfg.array<N x f32>
      %b = sdfg.read %y[%k] : !sdfg.array<N x f32>
      %c = sdfg.read %x[%k + 1] : !sdfg.array<N x f32>
      %s = sdfg.tasklet "add3" ins(a = %a, b = %b, c = %c) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%p: f32, %q: f32, %r: f32):
        %s1 = arith.addf %p, %q : f32
        %s2 = arith.addf %s1, %r : f32
        sdfg.yield %s2 : f32
      }
      sdfg.write %s to %z[%k] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @between
// CHECK:          [[T:%.*]] = sdfg.container "t" transient : !sdfg.array<N x f32>
// CHECK-NEXT:     sdfg.state "s" {
// CHECK-NEXT:       sdfg.map "m1" ([[I:%.*]]) = (0) to (N - 1) step (1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read %{{.*}}[[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to [[T]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.copy %{{.*}}[0:N] to %{{.*}}[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.map "m2" ([[K:%.*]]) = (0) to (N - 1) step (1) {
// CHECK-NEXT:         %{{.*}} = sdfg.read [[T]][[[K]]] : !sdfg.array<N x f32>
// CHECK-NEXT:         %{{.*}} = sdfg.read %{{.*}}[[[K]]] : !sdfg.array<N x f32>
// CHECK-NEXT:         %{{.*}} = sdfg.read %{{.*}}[[[K]] + 1] : !sdfg.array<N x f32>
// CHECK:            }
// CHECK-NEXT:       sdfg.write %{{.*}} to %{{.*}}[[[K]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A transient read in a later state stays, with its write; the fused map still takes
// the value forwarded from the write.

sdfg.sdfg @later args ["x", "y", "z"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %z = sdfg.container "z" : !sdfg.array<N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<N x f32>
  sdfg.state "s0" {
    sdfg.map "m1" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<N x f32>
    }
    sdfg.map "m2" (%k) = (0) to (N) step (1) {
      %v = sdfg.read %t[%k] : !sdfg.array<N x f32>
      sdfg.write %v to %y[%k] : !sdfg.array<N x f32>
    }
  }
  sdfg.state "s1" {
    sdfg.copy %t[0:N] to %z[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @later
// CHECK-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Z:%.*]] = sdfg.container "z" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[T:%.*]] = sdfg.container "t" transient : !sdfg.array<N x f32>
// CHECK-NEXT:   sdfg.state "s0" {
// CHECK-NEXT:     sdfg.map "m1" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[V]] to [[T]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[V]] to [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sdfg.state "s1" {
// CHECK-NEXT:     sdfg.copy [[T]][0:N] to [[Z]][0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Not fused: the first map writes a scalar (every map writing one stays alone); reading
// a scalar (a) is fine. The transients nobody reads go: b's scalar write, and the
// whole map that only wrote t.

sdfg.sdfg @scalar args ["a", "x", "y"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" : !sdfg.array<1 x f32>
  %y = sdfg.container "y" : !sdfg.array<1 x f32>
  %b = sdfg.container "b" transient : !sdfg.array<f32>
  %t = sdfg.container "t" transient : !sdfg.array<1 x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m1" (%i) = (0) to (1) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<1 x f32>
      sdfg.write %v to %s[] : !sdfg.array<f32>
    }
    sdfg.map "m2" (%k) = (0) to (1) step (1) {
      %v = sdfg.read %s[] : !sdfg.array<f32>
      %w = sdfg.read %a[] : !sdfg.array<f32>
      %r = sdfg.tasklet "add" ins(p = %v, q = %w) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%p: f32, %q: f32):
        %r = arith.addf %p, %q : f32
        sdfg.yield %r : f32
      }
      sdfg.write %r to %y[%k] : !sdfg.array<1 x f32>
    }
    %va = sdfg.read %a[] : !sdfg.array<f32>
    %c = sdfg.tasklet "twice" ins(p = %va) outs(o) : (f32) -> (f32) {
    ^bb0(%p: f32):
      %r = arith.addf %p, %p : f32
      sdfg.yield %r : f32
    }
    sdfg.write %c to %b[] : !sdfg.array<f32>
    sdfg.map "m3" (%k) = (0) to (1) step (1) {
      %v = sdfg.read %x[%k] : !sdfg.array<1 x f32>
      sdfg.write %v to %t[%k] : !sdfg.array<1 x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @scalar
// CHECK-NEXT:   [[A:%.*]] = sdfg.container "a" : !sdfg.array<f32>
// CHECK-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<1 x f32>
// CHECK-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<1 x f32>
// CHECK-NEXT:   [[S:%.*]] = sdfg.container "s" transient : !sdfg.array<f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.map "m1" ([[I:%.*]]) = (0) to (1) step (1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<1 x f32>
// CHECK-NEXT:       sdfg.write [[V]] to [[S]][] : !sdfg.array<f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.map "m2" ([[K:%.*]]) = (0) to (1) step (1) {
// CHECK-NEXT:       [[V:%.*]] = sdfg.read [[S]][] : !sdfg.array<f32>
// CHECK-NEXT:       [[W:%.*]] = sdfg.read [[A]][] : !sdfg.array<f32>
// CHECK-NEXT:       [[R:%.*]] = sdfg.tasklet "add" ins(p = [[V]], q = [[W]]) outs(o) : (f32, f32) -> (f32) {
// CHECK:            }
// CHECK-NEXT:       sdfg.write [[R]] to [[Y]][[[K]]] : !sdfg.array<1 x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Fused: the second map writes y, which the first reads, both at the point (each
// iteration reads y before writing it); x, which neither writes, may be read anywhere.

sdfg.sdfg @anti args ["x", "y", "z"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<(N + 1) x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %z = sdfg.container "z" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m1" (%i) = (0) to (N) step (1) {
      %vy = sdfg.read %y[%i] : !sdfg.array<N x f32>
      sdfg.write %vy to %z[%i] : !sdfg.array<N x f32>
    }
    sdfg.map "m2" (%k) = (0) to (N) step (1) {
      %vx = sdfg.read %x[%k + 1] : !sdfg.array<(N + 1) x f32>
      sdfg.write %vx to %y[%k] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @anti
// CHECK-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<N x f32>
// CHECK-NEXT:   [[Z:%.*]] = sdfg.container "z" : !sdfg.array<N x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.map "m1" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:       [[VY:%.*]] = sdfg.read [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       sdfg.write [[VY]] to [[Z]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       [[VX:%.*]] = sdfg.read [[X]][[[I]] + 1] : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:       sdfg.write [[VX]] to [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Not fused: the map between (over another range, so it stays alone) reads z, which
// the second map writes: the second map cannot move above it.

sdfg.sdfg @reads_between args ["x", "z", "w"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %z = sdfg.container "z" : !sdfg.array<N x f32>
  %w = sdfg.container "w" : !sdfg.array<N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m1" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<N x f32>
    }
    sdfg.map "peek" (%j) = (0) to (N - 1) step (1) {
      %v = sdfg.read %z[%j + 1] : !sdfg.array<N x f32>
      sdfg.write %v to %w[%j] : !sdfg.array<N x f32>
    }
    sdfg.map "m2" (%k) = (0) to (N) step (1) {
      %v = sdfg.read %t[%k] : !sdfg.array<N x f32>
      sdfg.write %v to %z[%k] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @reads_between
// CHECK:          [[T:%.*]] = sdfg.container "t" transient : !sdfg.array<N x f32>
// CHECK-NEXT:     sdfg.state "s" {
// CHECK-NEXT:       sdfg.map "m1" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read %{{.*}}[[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to [[T]][[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.map "peek" ([[J:%.*]]) = (0) to (N - 1) step (1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read %{{.*}}[[[J]] + 1] : !sdfg.array<N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to %{{.*}}[[[J]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:       sdfg.map "m2" ([[K:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:         [[V:%.*]] = sdfg.read [[T]][[[K]]] : !sdfg.array<N x f32>
// CHECK-NEXT:         sdfg.write [[V]] to %{{.*}}[[[K]]] : !sdfg.array<N x f32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }

// -----

// A scalar computation between two maps (DaCe computes the constants of an expression
// just before the map that uses them) first moves up as far as its values and
// containers allow: the constant and d = z go above p, z = t[0] stays after p (it reads
// what p writes) and no longer keeps q from fusing into p.

sdfg.sdfg @s args ["x", "y", "z"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  %z = sdfg.container "z" : !sdfg.array<f32>
  %t = sdfg.container "t" transient : !sdfg.array<4 x f32>
  %c = sdfg.container "c" transient : !sdfg.array<f32>
  %d = sdfg.container "d" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "p" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<4 x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<4 x f32>
    }
    %k = sdfg.tasklet "constant" ins() outs(o) : () -> (f32) {
      %h = arith.constant 0.5 : f32
      sdfg.yield %h : f32
    }
    sdfg.write %k to %c[] : !sdfg.array<f32>
    %zv = sdfg.read %z[] : !sdfg.array<f32>
    sdfg.write %zv to %d[] : !sdfg.array<f32>
    %tv = sdfg.read %t[0] : !sdfg.array<4 x f32>
    sdfg.write %tv to %z[] : !sdfg.array<f32>
    sdfg.map "q" (%j) = (0) to (4) step (1) {
      %a = sdfg.read %t[%j] : !sdfg.array<4 x f32>
      %b = sdfg.read %c[] : !sdfg.array<f32>
      %e = sdfg.read %d[] : !sdfg.array<f32>
      %m = sdfg.tasklet "mul" ins(a = %a, b = %b, e = %e) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%a1: f32, %b1: f32, %e1: f32):
        %r = arith.mulf %a1, %b1 : f32
        %r2 = arith.addf %r, %e1 : f32
        sdfg.yield %r2 : f32
      }
      sdfg.write %m to %y[%j] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @s
// CHECK:         sdfg.state "s" {
// CHECK-NEXT:      %zv = sdfg.read %z[] : !sdfg.array<f32>
// CHECK-NEXT:      sdfg.write %zv to %d[] : !sdfg.array<f32>
// CHECK-NEXT:      %k = sdfg.tasklet "constant"
// CHECK:           sdfg.write %k to %c[] : !sdfg.array<f32>
// CHECK-NEXT:      sdfg.map "p" (%i) = (0) to (4) step (1) {
// CHECK-NEXT:        %v = sdfg.read %x[%i] : !sdfg.array<4 x f32>
// CHECK-NEXT:        sdfg.write %v to %t[%i] : !sdfg.array<4 x f32>
// CHECK-NEXT:        %b = sdfg.read %c[] : !sdfg.array<f32>
// CHECK-NEXT:        %e = sdfg.read %d[] : !sdfg.array<f32>
// CHECK-NEXT:        %m = sdfg.tasklet "mul" ins(a = %v, b = %b, e = %e)
// CHECK:             sdfg.write %m to %y[%i] : !sdfg.array<4 x f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %tv = sdfg.read %t[0] : !sdfg.array<4 x f32>
// CHECK-NEXT:      sdfg.write %tv to %z[] : !sdfg.array<f32>
// CHECK-NEXT:    }

// -----

// The reads just before a tasklet move with it: the tasklet reads u, which the copy
// writes, so a[1] stays after the copy too, in the same step as its tasklet (alone, it
// could have moved above the copy, which does not write a).

sdfg.sdfg @with_tasklet args ["a", "b"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<4 x f32>
  %b = sdfg.container "b" : !sdfg.array<4 x f32>
  %u = sdfg.container "u" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.copy %b[2:3] to %u[] : !sdfg.array<4 x f32>, !sdfg.array<f32>
    %v = sdfg.read %a[1] : !sdfg.array<4 x f32>
    %w = sdfg.read %u[] : !sdfg.array<f32>
    %r = sdfg.tasklet "add" ins(x = %v, y = %w) outs(o) : (f32, f32) -> (f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      sdfg.yield %s : f32
    }
    sdfg.write %r to %a[0] : !sdfg.array<4 x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @with_tasklet
// CHECK:         sdfg.state "s" {
// CHECK-NEXT:      sdfg.copy %b[2:3] to %u[]
// CHECK-NEXT:      %v = sdfg.read %a[1] : !sdfg.array<4 x f32>
// CHECK-NEXT:      %w = sdfg.read %u[] : !sdfg.array<f32>
// CHECK-NEXT:      %r = sdfg.tasklet "add"

// -----

// Maps writing arrays of different shapes fuse only when the fused map ends up writing
// one shape (whose layout places its work): t dies in "dies" (m2 is its only reader, at
// the point), but "stays" reads t again later, so its m1 and m2 stay apart.

sdfg.sdfg @dies args ["x", "b"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<10 x f32>
  %b = sdfg.container "b" : !sdfg.array<11 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<10 x f32>
  sdfg.state "s" {
    sdfg.map "m1" (%i) = (0) to (10) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<10 x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<10 x f32>
    }
    sdfg.map "m2" (%k) = (0) to (10) step (1) {
      %v = sdfg.read %t[%k] : !sdfg.array<10 x f32>
      sdfg.write %v to %b[%k] : !sdfg.array<11 x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @dies
// CHECK-NOT:      sdfg.container "t"
// CHECK:          sdfg.map "m1"
// CHECK-NEXT:       sdfg.read %x
// CHECK-NEXT:       sdfg.write %{{.*}} to %b
// CHECK-NEXT:     }
// CHECK-NEXT:   }

// -----

sdfg.sdfg @stays args ["x", "b", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<10 x f32>
  %b = sdfg.container "b" : !sdfg.array<11 x f32>
  %y = sdfg.container "y" : !sdfg.array<10 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<10 x f32>
  sdfg.state "s" {
    sdfg.map "m1" (%i) = (0) to (10) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<10 x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<10 x f32>
    }
    sdfg.map "m2" (%k) = (0) to (10) step (1) {
      %v = sdfg.read %t[%k] : !sdfg.array<10 x f32>
      sdfg.write %v to %b[%k] : !sdfg.array<11 x f32>
    }
  }
  sdfg.state "later" {
    sdfg.copy %t[0:10] to %y[0:10] : !sdfg.array<10 x f32>, !sdfg.array<10 x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @stays
// CHECK:          sdfg.map "m1"
// CHECK:          sdfg.map "m2"

// -----

// Maps of different DaCe schedules do not fuse: one runs on a tile's workers, the other
// over all tiles.
sdfg.sdfg @schedules args ["x", "z"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<8 x f32>
  %z = sdfg.container "z" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "workers" (%i) = (0) to (8) step (1) schedule "IPU_Workers" {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<8 x f32>
    }
    sdfg.map "device" (%j) = (0) to (8) step (1) {
      %v = sdfg.read %t[%j] : !sdfg.array<8 x f32>
      sdfg.write %v to %z[%j] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @schedules
// CHECK:         sdfg.map "workers" (%i) = (0) to (8) step (1) schedule "IPU_Workers" {
// CHECK:         sdfg.map "device" (%j) = (0) to (8) step (1) {
