// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p ipu-tile-partition | filecheck %s
// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p 'ipu-tile-partition{arch=ipu9}' | filecheck %s --check-prefix=ARCH

// ARCH: error: unknown IPU architecture 'ipu9' (known: ipu1, ipu2, ipu21)

sdfg.sdfg @symbolic args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
}

// CHECK: ipu-tile-partition-invalid.mlir:7:3: error: shape !sdfg.array<N x f32> is not static; run sdfg-specialize first

// -----

sdfg.sdfg @shift args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (7) step (1) {
      %v = sdfg.read %x["i + 1"] : !sdfg.array<8 x f32>
      sdfg.write %v to %y[i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-invalid.mlir:19:7: error: map 'm' accesses 'x[i + 1]' of shape !sdfg.array<8 x f32>; only elementwise accesses (the map parameters in order, over the whole container) are supported yet

// -----

sdfg.sdfg @transpose args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x 4 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (i, j) = (0, 0) to (4, 4) step (1, 1) {
      %v = sdfg.read %x[j, i] : !sdfg.array<4 x 4 x f32>
      sdfg.write %v to %y[i, j] : !sdfg.array<4 x 4 x f32>
    }
  }
}

// CHECK: error: map 'm' accesses 'x[j, i]'

// -----

sdfg.sdfg @offset args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (i) = (1) to (8) step (2) {
      %v = sdfg.read %x[i] : !sdfg.array<8 x f32>
      sdfg.write %v to %x[i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: error: map 'm' ranges must start at 0 with step 1 for now (got 1 to 8 step 2)

// -----

sdfg.sdfg @sum args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (8) step (1) {
      %v = sdfg.read %x[i] : !sdfg.array<8 x f32>
      sdfg.write %v to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK: error: every iteration of map 'm' writes scalar 's'; reductions are not supported yet

// -----

sdfg.sdfg @double args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f64>
}

// CHECK: error: container 'x' is float64, which the IPU does not support; demote it with the ipu-demote-f64 pass or use float32

// -----

sdfg.sdfg @long args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x i64>
}

// CHECK: error: container 'x' is int64, which the IPU does not support; demote it with the ipu-demote-f64 pass or use int32

// -----

sdfg.sdfg @widen args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (8) step (1) {
      %v = sdfg.read %x[i] : !sdfg.array<8 x f32>
      %r = sdfg.tasklet "widen" ins(a = %v) outs(b) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %w = arith.extf %a : f32 to f64
        %n = arith.truncf %w : f64 to f32
        sdfg.yield %n : f32
      }
      sdfg.write %r to %x[i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: error: tasklet 'widen' computes in 64 bits, which the IPU does not support; demote it with the ipu-demote-f64 pass or use float32 constants

// -----

sdfg.sdfg @mismatch args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (4) step (1) {
      %v = sdfg.read %x[i] : !sdfg.array<8 x f32>
      sdfg.write %v to %y[i] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK: error: map 'm' accesses 'x[i]' of shape !sdfg.array<8 x f32>; only elementwise

// -----

sdfg.sdfg @huge args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<1000000000 x f32>
}

// CHECK: error: data does not fit in tile memory: tile 0 needs 2717392 bytes but an ipu2 tile has 638976 bytes

// -----

sdfg.sdfg @empty args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<0 x f32>
}

// CHECK: error: container 'x' has no elements

// -----

sdfg.sdfg @free args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<f32>
  sdfg.state "s" {
    %v = sdfg.read %x[3] : !sdfg.array<8 x f32>
    %r = sdfg.tasklet "t" ins(a = %v) outs(b) : (f32) -> (f32) {
    ^bb0(%a: f32):
      sdfg.yield %a : f32
    }
    sdfg.write %r to %y[] : !sdfg.array<f32>
  }
}

// CHECK: error: tasklet 't' accesses 'x[3]' of shape !sdfg.array<8 x f32>; only elementwise accesses
