// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of sdfg.accumulate, one case each (its syntax error is in
// sdfg-accumulate-parse-invalid.mlir).

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    "sdfg.accumulate"(%c, %x) <{kind = "sub", subset = []}> : (f32, !sdfg.array<f32>) -> ()
  }
}

// CHECK: sdfg-accumulate-invalid.mlir:[[# @LINE - 4]]:5: error: unknown reduction 'sub' (expected add, mul, min, max)

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %c = arith.constant 1 : i32
    "sdfg.accumulate"(%c, %x) <{kind = "add", subset = []}> : (i32, !sdfg.array<f32>) -> ()
  }
}

// CHECK: sdfg-accumulate-invalid.mlir:[[# @LINE - 4]]:5: error: accumulated value type i32 is not the element type f32 of the container

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    "sdfg.accumulate"(%c, %x) <{kind = "max", subset = []}> : (f32, !sdfg.array<4 x f32>) -> ()
  }
}

// CHECK: sdfg-accumulate-invalid.mlir:[[# @LINE - 4]]:5: error: accumulate of a rank-1 container has 0 indices

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %c = arith.constant 1.0 : f32
      "sdfg.accumulate"(%c, %x) <{kind = "add", subset = [#sdfg.expr<d0>]}> : (f32, !sdfg.array<4 x f32>) -> ()
    }
  }
}

// CHECK: sdfg-accumulate-invalid.mlir:[[# @LINE - 5]]:7: error: accumulate subset 'd0' uses a dimension that is not an operand

// -----

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<N x f32>
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    "sdfg.accumulate"(%c, %x) <{kind = "add", subset = [#sdfg.expr<N - 1>]}> : (f32, !sdfg.array<N x f32>) -> ()
  }
}

// CHECK: sdfg-accumulate-invalid.mlir:[[# @LINE - 7]]:3: error: uses symbol 'N', which sdfg 'f' does not declare

// -----

// Booleans have no sum or product.
sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<i1>
  sdfg.state "s" {
    %c = arith.constant true
    sdfg.accumulate max %c to %x[] : !sdfg.array<i1>
  }
}

// CHECK: sdfg-accumulate-invalid.mlir:[[# @LINE - 4]]:5: error: cannot accumulate 'max' into i1 elements
