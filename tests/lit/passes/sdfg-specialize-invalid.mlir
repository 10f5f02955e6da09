// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p 'sdfg-specialize{symbols="N=4"}' | filecheck %s
// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p 'sdfg-specialize{symbols="N=4294967296,M=1,K=1"}' | filecheck %s --check-prefix=BIG
// RUN: ipu-opt %s -p 'sdfg-specialize{symbols="N=x"}' --verify-diagnostics | filecheck %s --check-prefix=VALUE
// RUN: ipu-opt %s -p 'sdfg-specialize{symbols="N=-3"}' --verify-diagnostics | filecheck %s --check-prefix=NEGATIVE
// RUN: ipu-opt %s -p 'sdfg-specialize{symbols="N"}' --verify-diagnostics | filecheck %s --check-prefix=MALFORMED

// VALUE: error: value of symbol 'N' must be an integer, got 'x'
// NEGATIVE: error: value of symbol 'N' must not be negative, got -3
// MALFORMED: error: malformed symbol value 'N' (expected NAME=INTEGER)

// A shape that keeps a symbol without a value is not static.
sdfg.sdfg @f args ["x"] symbols ["M", "N"] {
  %x = sdfg.container "x" : !sdfg.array<N x M x f32>
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 3]]:3: error: unresolved symbol 'M' in the shape of container 'x'; give its value with --symbols M=... or sdfg-specialize{symbols="..."}

// -----

// Nor is a map range; every missing symbol is named.
sdfg.sdfg @g args ["x"] symbols ["K", "M", "N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N * K) step (M) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
    }
  }
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 6]]:5: error: unresolved symbols 'K', 'M' in the range of map 'm'; give their values with --symbols K=...,M=... or sdfg-specialize{symbols="..."}

// -----

// Values that overflow 64 bits (N = 2**32 in the BIG run) ...
sdfg.sdfg @o args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<(N * N) x f32>
}

// BIG: sdfg-specialize-invalid.mlir:[[# @LINE - 3]]:3: error: 'N * N' with the given symbol values: index expression value 18446744073709551616 does not fit in 64 bits

// -----

// ... or make a dimension negative ...
sdfg.sdfg @h args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<(N - 8) x f32>
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 3]]:3: error: container 'x' has a negative dimension with the given symbol values: [-4]

// -----

// ... or a step zero ...
sdfg.sdfg @s args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (N - 4) {
    }
  }
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 5]]:5: error: map 'm' has non-positive step 0

// -----

// ... or divide by zero, in a shape, a subset or a copy range.
sdfg.sdfg @div1 args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<(8 floordiv (N - 4)) x f32>
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 3]]:3: error: '(8 floordiv (N - 4))' with the given symbol values: floordiv by zero

// -----

sdfg.sdfg @div2 args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i mod (N - 4)] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 5]]:7: error: '(d0 mod (N - 4))' with the given symbol values: mod by zero

// -----

sdfg.sdfg @div3 args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.copy %x[0:8 ceildiv (N - 4)] to %x[0:8] : !sdfg.array<8 x f32>, !sdfg.array<8 x f32>
  }
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 4]]:5: error: '(8 ceildiv (N - 4))' with the given symbol values: ceildiv by zero

// -----

// Nor a loop bound, nor the value a tasklet computes with.
sdfg.sdfg @loop_bound args [] symbols ["N", "M"] {
  sdfg.for "l" %t = 0 to M step 1 {}
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 3]]:3: error: unresolved symbol 'M' in the bounds of loop 'l'; give its value with --symbols M=... or sdfg-specialize{symbols="..."}

// -----

sdfg.sdfg @applied args [] symbols ["N", "M"] {
  sdfg.state "s" {
    %v = sdfg.apply M * 2 : i32
  }
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 4]]:5: error: unresolved symbol 'M' in the value a tasklet computes with; give its value with --symbols M=... or sdfg-specialize{symbols="..."}

// -----

sdfg.sdfg @product args [] symbols ["N", "M"] {
  %A = sdfg.container "A" transient : !sdfg.array<N x 4 x f32>
  %x = sdfg.container "x" transient : !sdfg.array<4 x f32>
  %r = sdfg.container "r" transient : !sdfg.array<2 x f32>
  sdfg.state "s" {
    sdfg.matmul "mv" %A[M:M + 2, 0:4], %x to %r : !sdfg.array<N x 4 x f32>, !sdfg.array<4 x f32>, !sdfg.array<2 x f32>
  }
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 4]]:5: error: unresolved symbol 'M' in the boxes of product 'mv'; give its value with --symbols M=... or sdfg-specialize{symbols="..."}

// -----

// A nested SDFG's symbols are its own: it is inlined (sdfg-inline-nested) before this.
sdfg.sdfg @caller args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.nested "f" (inout x = %a[d0]) symbols (N = N) : !sdfg.array<N x f32> {
      sdfg.sdfg @f args ["x"] symbols ["N"] {
        %x = sdfg.container "x" : !sdfg.array<N x f32>
      }
    }
  }
}

// CHECK: sdfg-specialize-invalid.mlir:[[# @LINE - 8]]:5: error: nested SDFG 'f' is not inlined; run sdfg-inline-nested first
