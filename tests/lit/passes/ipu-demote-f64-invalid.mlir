// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p ipu-demote-f64 | filecheck %s

// A constant value that 32 bits cannot hold is an error naming its container, before
// anything is rewritten: a finite float64 beyond float32's range ...
sdfg.sdfg @f args [] symbols [] {
  %c = sdfg.container "c" transient : !sdfg.array<2 x f64> = dense<[1.0, 1.0e300]>
}

// CHECK: ipu-demote-f64-invalid.mlir:[[# @LINE - 3]]:3: error: constant container 'c' holds 1e+300, which f32 cannot represent; it cannot be demoted

// -----

// ... and an int64 beyond int32's.
sdfg.sdfg @f args [] symbols [] {
  %c = sdfg.container "c" transient : !sdfg.array<i64> = dense<4294967296>
}

// CHECK: ipu-demote-f64-invalid.mlir:[[# @LINE - 3]]:3: error: constant container 'c' holds 4294967296, which i32 cannot represent; it cannot be demoted
