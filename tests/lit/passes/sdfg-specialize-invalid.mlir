// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p 'sdfg-specialize{symbols="N=4"}' | filecheck %s
// RUN: ipu-opt %s -p 'sdfg-specialize{symbols="N=x"}' --verify-diagnostics | filecheck %s --check-prefix=VALUE
// RUN: ipu-opt %s -p 'sdfg-specialize{symbols="N=-3"}' --verify-diagnostics | filecheck %s --check-prefix=NEGATIVE
// RUN: ipu-opt %s -p 'sdfg-specialize{symbols="N"}' --verify-diagnostics | filecheck %s --check-prefix=MALFORMED

sdfg.sdfg @f args ["x"] symbols ["M", "N"] {
  %x = sdfg.container "x" : !sdfg.array<N x M x f32>
}

// CHECK: sdfg-specialize-invalid.mlir:7:3: error: unresolved symbol 'M' in the shape of container 'x'; give its value with --symbols M=... or sdfg-specialize{symbols="..."}
// VALUE: error: value of symbol 'N' must be an integer, got 'x'
// NEGATIVE: error: value of symbol 'N' must not be negative, got -3
// MALFORMED: error: malformed symbol value 'N' (expected NAME=INTEGER)

// -----

sdfg.sdfg @g args ["x"] symbols ["K", "N"] {
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to ("N * K") step (1) {
      %v = sdfg.read %x[i] : !sdfg.array<N x f32>
    }
  }
}

// CHECK: sdfg-specialize-invalid.mlir:20:5: error: unresolved symbol 'K' in the range of map 'm'

// -----

sdfg.sdfg @h args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<"N / 3" x f32>
}

// CHECK: error: 'N / 3' is not an integer for the given symbol values
