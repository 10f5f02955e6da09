// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p ipu-demote-f64 | filecheck %s
// RUN: rm -f %t.mlir && not ipu-opt %s --split-input-file -p ipu-demote-f64 -o %t.mlir 2>/dev/null
// RUN: test ! -e %t.mlir

// A value that 32 bits cannot hold is an error, before anything is rewritten (and no
// output is written): a constant container's finite float64 beyond float32's range ...
sdfg.sdfg @f args [] symbols [] {
  %c = sdfg.container "c" transient : !sdfg.array<2 x f64> = dense<[1.0, 1.0e300]>
}

// CHECK: ipu-demote-f64-invalid.mlir:[[# @LINE - 3]]:3: error: constant container 'c' holds 1e+300, which f32 cannot represent; it cannot be demoted

// -----

// ... an int64 beyond int32's ...
sdfg.sdfg @f args [] symbols [] {
  %c = sdfg.container "c" transient : !sdfg.array<i64> = dense<4294967296>
}

// CHECK: ipu-demote-f64-invalid.mlir:[[# @LINE - 3]]:3: error: constant container 'c' holds 4294967296, which i32 cannot represent; it cannot be demoted

// -----

// ... and a float64 constant in a tasklet beyond float32's range, other than float64's
// bounds (the identities of min and max, which become float32's).
sdfg.sdfg @huge args ["y"] symbols [] {
  %y = sdfg.container "y" : !sdfg.array<f64>
  sdfg.state "s" {
    %r = sdfg.tasklet "t" ins() outs(o) : () -> (f64) {
      %c = arith.constant 1.0e+300 : f64
      sdfg.yield %c : f64
    }
    sdfg.write %r to %y[] : !sdfg.array<f64>
  }
}

// CHECK: ipu-demote-f64-invalid.mlir:[[# @LINE - 7]]:7: error: float64 constant 1e+300 is beyond float32's range (largest 3.4028235e+38); it cannot be demoted

// -----

// A reduction's identity is such a constant too.
sdfg.sdfg @huge_identity args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f64>
  %y = sdfg.container "y" : !sdfg.array<f64>
  sdfg.state "s" {
    sdfg.library_reduce "r" add %x[0:4] to %y[] axes [0] identity(1.0e+300 : f64) : !sdfg.array<4 x f64>, !sdfg.array<f64>
  }
}

// CHECK: ipu-demote-f64-invalid.mlir:[[# @LINE - 4]]:5: error: float64 constant 1e+300 is beyond float32's range (largest 3.4028235e+38); it cannot be demoted
