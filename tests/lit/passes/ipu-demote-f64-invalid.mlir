// RUN: rm -rf %t && not ipu-opt %s -p ipu-demote-f64 -o %t.mlir 2>&1 | filecheck %s
// RUN: test ! -e %t.mlir

// A float64 constant beyond float32's range, other than float64's bounds (the
// identities of min and max, which become float32's), would be infinity once demoted:
// an error at the constant, before anything is rewritten.

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

// CHECK: ipu-opt: {{.*}}ipu-demote-f64-invalid.mlir:[[# @LINE - 7]]:7: error: float64 constant 1e+300 is beyond float32's range (largest 3.4028235e+38); it cannot be demoted
