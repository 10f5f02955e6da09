// RUN: ipu-opt %s --split-input-file -p sdfg-dynamic-copies | filecheck %s

// sdfg-dynamic-copies: a step that accesses an array at indices loop variables pick
// accesses a transient buffer instead (the box those indices select), filled by a copy
// before the step when it reads it and drained by a copy after it when it writes it.

// A row update in a time loop (`A[t, :] = A[t - 1, :] * 0.5 + A[t, :]` after fusion, in
// place): one buffer per row the map touches. The row t - 1 is read only; the row t is
// read and written, at every point of it, so one buffer holds it, copied in and out.

sdfg.sdfg @rows args ["A"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<8 x 4 x f32>
  sdfg.for "time" %t = 1 to 8 step 1 {
    sdfg.state "step" {
      sdfg.map "m" (%j) = (0) to (4) step (1) {
        %prev = sdfg.read %A[%t - 1, %j] : !sdfg.array<8 x 4 x f32>
        %cur = sdfg.read %A[%t, %j] : !sdfg.array<8 x 4 x f32>
        %r = sdfg.tasklet "update" ins(p = %prev, c = %cur) outs(o) : (f32, f32) -> (f32) {
        ^bb0(%p: f32, %c: f32):
          %h = arith.constant 0.5 : f32
          %m = arith.mulf %p, %h : f32
          %s = arith.addf %m, %c : f32
          sdfg.yield %s : f32
        }
        sdfg.write %r to %A[%t, %j] : !sdfg.array<8 x 4 x f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @rows
// CHECK-NEXT:    [[A:%.*]] = sdfg.container "A" : !sdfg.array<8 x 4 x f32>
// CHECK-NEXT:    [[PREV:%.*]] = sdfg.container "A_at" transient : !sdfg.array<4 x f32>
// CHECK-NEXT:    [[CUR:%.*]] = sdfg.container "A_at_1" transient : !sdfg.array<4 x f32>
// CHECK-NEXT:    sdfg.for "time" [[T:%.*]] = 1 to 8 step 1 {
// CHECK-NEXT:      sdfg.state "step" {
// CHECK-NEXT:        sdfg.copy [[A]][[[T]] - 1:[[T]], 0:4] to [[PREV]][0:4] : !sdfg.array<8 x 4 x f32>, !sdfg.array<4 x f32>
// CHECK-NEXT:        sdfg.copy [[A]][[[T]]:[[T]] + 1, 0:4] to [[CUR]][0:4] : !sdfg.array<8 x 4 x f32>, !sdfg.array<4 x f32>
// CHECK-NEXT:        sdfg.map "m" ([[J:%.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:          {{%.*}} = sdfg.read [[PREV]][[[J]]] : !sdfg.array<4 x f32>
// CHECK-NEXT:          {{%.*}} = sdfg.read [[CUR]][[[J]]] : !sdfg.array<4 x f32>
// CHECK:               sdfg.write {{%.*}} to [[CUR]][[[J]]] : !sdfg.array<4 x f32>
// CHECK-NEXT:        }
// CHECK-NEXT:        sdfg.copy [[CUR]][0:4] to [[A]][[[T]]:[[T]] + 1, 0:4] : !sdfg.array<4 x f32>, !sdfg.array<8 x 4 x f32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// -----

// A map that writes all of a row, or part of it, without reading it needs no copy in:
// its buffer is the box the map reaches (the row's interior 1:3 for "inner"), which
// the copy back returns.

sdfg.sdfg @written args ["A", "x"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<8 x 4 x f32>
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  sdfg.for "time" %t = 0 to 8 step 1 {
    sdfg.state "whole" {
      sdfg.map "all" (%j) = (0) to (4) step (1) {
        %v = sdfg.read %x[%j] : !sdfg.array<4 x f32>
        sdfg.write %v to %A[%t, %j] : !sdfg.array<8 x 4 x f32>
      }
    }
    sdfg.state "part" {
      sdfg.map "inner" (%j) = (0) to (2) step (1) {
        %v = sdfg.read %x[%j] : !sdfg.array<4 x f32>
        sdfg.write %v to %A[%t, %j + 1] : !sdfg.array<8 x 4 x f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @written
// CHECK:         sdfg.state "whole" {
// CHECK-NEXT:      sdfg.map "all"
// CHECK:           sdfg.copy [[ALL:%.*]][0:4] to {{%.*}}[{{%.*}}:{{%.*}} + 1, 0:4]
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.state "part" {
// CHECK-NEXT:      sdfg.map "inner" ([[J:%.*]]) = (0) to (2) step (1) {
// CHECK:             sdfg.write {{%.*}} to [[PART:%.*]][[[J]]] : !sdfg.array<2 x f32>
// CHECK:           sdfg.copy [[PART]][0:2] to {{%.*}}[{{%.*}}:{{%.*}} + 1, 1:3]

// -----

// Outside maps (a triangular loop nest, `A[i, j] = A[i, j] + A[j, i]`): every index is
// sliced, so each buffer is a scalar; A[i, j] is read and written through one buffer.

sdfg.sdfg @tri args ["A"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 4 x f32>
  sdfg.for "rows" %i = 0 to 4 step 1 {
    sdfg.for "cols" %j = 0 to %i step 1 : (index) {
      sdfg.state "s" {
        %a = sdfg.read %A[%i, %j] : !sdfg.array<4 x 4 x f32>
        %b = sdfg.read %A[%j, %i] : !sdfg.array<4 x 4 x f32>
        %r = sdfg.tasklet "add" ins(p = %a, q = %b) outs(o) : (f32, f32) -> (f32) {
        ^bb0(%p: f32, %q: f32):
          %s = arith.addf %p, %q : f32
          sdfg.yield %s : f32
        }
        sdfg.write %r to %A[%i, %j] : !sdfg.array<4 x 4 x f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @tri
// CHECK:         [[AIJ:%.*]] = sdfg.container "A_at" transient : !sdfg.array<f32>
// CHECK-NEXT:    [[AJI:%.*]] = sdfg.container "A_at_1" transient : !sdfg.array<f32>
// CHECK:             sdfg.state "s" {
// CHECK-NEXT:          sdfg.copy [[A:%.*]][[[I:%.*]]:[[I]] + 1, [[J:%.*]]:[[J]] + 1] to [[AIJ]][] : !sdfg.array<4 x 4 x f32>, !sdfg.array<f32>
// CHECK-NEXT:          sdfg.copy [[A]][[[J]]:[[J]] + 1, [[I]]:[[I]] + 1] to [[AJI]][] : !sdfg.array<4 x 4 x f32>, !sdfg.array<f32>
// CHECK-NEXT:          {{%.*}} = sdfg.read [[AIJ]][] : !sdfg.array<f32>
// CHECK-NEXT:          {{%.*}} = sdfg.read [[AJI]][] : !sdfg.array<f32>
// CHECK:               sdfg.write {{%.*}} to [[AIJ]][] : !sdfg.array<f32>
// CHECK-NEXT:          sdfg.copy [[AIJ]][] to [[A]][[[I]]:[[I]] + 1, [[J]]:[[J]] + 1] : !sdfg.array<f32>, !sdfg.array<4 x 4 x f32>
// CHECK-NEXT:        }

// -----

// A condition that reads an element a loop variable picks: the copy starts the region.

sdfg.sdfg @cond args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.if "positive" {
      %v = sdfg.read %x[%t] : !sdfg.array<4 x f32>
      %p = sdfg.tasklet "gt" ins(a = %v) outs(b) : (f32) -> (i1) {
      ^bb0(%a: f32):
        %z = arith.constant 0.0 : f32
        %g = arith.cmpf ogt, %a, %z : f32
        sdfg.yield %g : i1
      }
      sdfg.condition %p
    } then {}
  }
}

// CHECK-LABEL: sdfg.sdfg @cond
// CHECK:         sdfg.if "positive" {
// CHECK-NEXT:      sdfg.copy {{%.*}}[[[T:%.*]]:[[T]] + 1] to [[X:%.*]][] : !sdfg.array<4 x f32>, !sdfg.array<f32>
// CHECK-NEXT:      {{%.*}} = sdfg.read [[X]][] : !sdfg.array<f32>

// -----

// `A[i, j] -= s; A[i, j] *= 2` in one state: the second read of the element takes the
// value the step stored (store-to-load forwarding), so the step reads A[i, j] once,
// before writing it, and one buffer serves both.

sdfg.sdfg @forwarded args ["A", "s"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 4 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.for "rows" %i = 0 to 4 step 1 {
    sdfg.for "columns" %j = 0 to %i step 1 : (index) {
      sdfg.state "s" {
        %a = sdfg.read %A[%i, %j] : !sdfg.array<4 x 4 x f32>
        %b = sdfg.read %s[] : !sdfg.array<f32>
        %d = sdfg.tasklet "sub" ins(x = %a, y = %b) outs(o) : (f32, f32) -> (f32) {
        ^bb0(%x: f32, %y: f32):
          %r = arith.subf %x, %y : f32
          sdfg.yield %r : f32
        }
        sdfg.write %d to %A[%i, %j] : !sdfg.array<4 x 4 x f32>
        %again = sdfg.read %A[%i, %j] : !sdfg.array<4 x 4 x f32>
        %t = sdfg.tasklet "twice" ins(x = %again) outs(o) : (f32) -> (f32) {
        ^bb0(%x: f32):
          %r = arith.addf %x, %x : f32
          sdfg.yield %r : f32
        }
        sdfg.write %t to %A[%i, %j] : !sdfg.array<4 x 4 x f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @forwarded
// CHECK:         [[AIJ:%.*]] = sdfg.container "A_at" transient : !sdfg.array<f32>
// CHECK-NOT:     sdfg.container
// CHECK:             sdfg.state "s" {
// CHECK-NEXT:          sdfg.copy {{%.*}} to [[AIJ]][] : !sdfg.array<4 x 4 x f32>, !sdfg.array<f32>
// CHECK-NEXT:          [[A:%.*]] = sdfg.read [[AIJ]][] : !sdfg.array<f32>
// CHECK-NEXT:          [[S:%.*]] = sdfg.read {{%.*}}[] : !sdfg.array<f32>
// CHECK-NEXT:          [[D:%.*]] = sdfg.tasklet "sub" ins(x = [[A]], y = [[S]])
// CHECK:               sdfg.write [[D]] to [[AIJ]][] : !sdfg.array<f32>
// CHECK-NEXT:          [[T:%.*]] = sdfg.tasklet "twice" ins(x = [[D]])
// CHECK:               sdfg.write [[T]] to [[AIJ]][] : !sdfg.array<f32>
// CHECK-NEXT:          sdfg.copy [[AIJ]][] to {{%.*}} : !sdfg.array<f32>, !sdfg.array<4 x 4 x f32>
// CHECK-NEXT:        }
