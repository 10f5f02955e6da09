// RUN: ipu-opt %s -p ipu-tile-partition --split-input-file --verify-diagnostics | filecheck %s

// Every diagnostic of ipu-tile-partition on maps that accumulate (reductions), one case
// each, pointing at the op at fault.

sdfg.sdfg @range args ["x", "s"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 7]]:5: error: map 'm' has a range that is not static; run sdfg-specialize first

// -----

sdfg.sdfg @offset args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (1) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 7]]:5: error: map 'm' ranges must start at 0 with step 1 for now (got 1 to 8 step 1)

// -----

sdfg.sdfg @twice args ["x", "s", "t"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  %t = sdfg.container "t" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
      sdfg.accumulate max %v to %t[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 5]]:7: error: map 'm' accumulates more than once ('s[]', 't[]'); one reduction per map is supported yet

// -----

sdfg.sdfg @writes args ["x", "y", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<8 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %y[%i] : !sdfg.array<8 x f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' accumulates into 's' and writes 'y[i]'; a map that reduces may not write other containers yet

// -----

sdfg.sdfg @nested args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
      sdfg.map "inner" (%j) = (0) to (2) step (1) {
      }
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 6]]:7: error: 'sdfg.map' inside map 'm' is not supported yet

// -----

sdfg.sdfg @self args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      %o = sdfg.read %s[] : !sdfg.array<f32>
      %w = sdfg.tasklet "t" ins(a = %v, b = %o) outs(c) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %p = arith.mulf %a, %b : f32
        sdfg.yield %p : f32
      }
      sdfg.accumulate add %w to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 11]]:7: error: map 'm' reads 's[]', which it accumulates into

// -----

sdfg.sdfg @strided args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<16 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[2 * %i] : !sdfg.array<16 x f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' reads 'x[2 * i]'; a reduction reads its inputs at the iteration point or through a view (a row, column, transpose or broadcast) of the iteration's shape

// -----

sdfg.sdfg @middle args ["A", "s"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<2 x 3 x 4 x f32>
  %s = sdfg.container "s" : !sdfg.array<3 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j, %k) = (0, 0, 0) to (2, 3, 4) step (1, 1, 1) {
      %v = sdfg.read %A[%i, %j, %k] : !sdfg.array<2 x 3 x 4 x f32>
      sdfg.accumulate add %v to %s[%j] : !sdfg.array<3 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 5]]:7: error: map 'm' reduces over i, k, which are not adjacent; not supported yet

// -----

sdfg.sdfg @transposed args ["A", "s"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<3 x 4 x f32>
  %s = sdfg.container "s" : !sdfg.array<4 x 3 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (3, 4) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<3 x 4 x f32>
      sdfg.accumulate add %v to %s[%j, %i] : !sdfg.array<4 x 3 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 5]]:7: error: map 'm' accumulates into 's[j, i]'; a reduction's results must be the elements of its destination from the first, in the order of the map parameters it keeps

// -----

sdfg.sdfg @outside args ["A", "s"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<6 x 4 x f32>
  %s = sdfg.container "s" : !sdfg.array<2 x 2 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (6, 4) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<6 x 4 x f32>
      sdfg.accumulate add %v to %s[0, %i] : !sdfg.array<2 x 2 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 5]]:7: error: 's[0, i]' lies outside !sdfg.array<2 x 2 x f32>

// -----

sdfg.sdfg @constant args ["a", "s"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %a[] : !sdfg.array<f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 7]]:5: error: map 'm' reduces no array; its values do not depend on the point

// -----

// A row sum over a triangle, as sdfg-collapse-maps guards it.
sdfg.sdfg @guarded args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x 8 x f32>
  %s = sdfg.container "s" : !sdfg.array<8 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (8, 8) step (1, 1) {
      %margin = sdfg.apply %i - %j : i32
      %v = sdfg.read %x[%i, %j] : !sdfg.array<8 x 8 x f32>
      %g = sdfg.tasklet "guarded_store" ins(m = %margin, v = %v) outs(o) : (i32, f32) -> (f32) {
      ^bb0(%m: i32, %w: f32):
        %zero = arith.constant 0 : i32
        %in = arith.cmpi sge, %m, %zero : i32
        %none = arith.constant 0.000000e+00 : f32
        %o = arith.select %in, %w, %none : f32
        sdfg.yield %o : f32
      }
      sdfg.accumulate add %g to %s[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-reduce-invalid.mlir:[[# @LINE - 15]]:7: error: map 'm' accumulates and computes with its parameters (a tasklet that reads one, or the guard sdfg-collapse-maps puts on a range that depends on an enclosing map); not supported yet
