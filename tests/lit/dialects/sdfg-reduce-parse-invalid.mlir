// RUN: ipu-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// sdfg.reduce (and ipu.reduce, poplar.reduce: the syntax is shared) names a known
// reduction, and its boxes are static: symbols only, no SSA values.

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<N x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.reduce "r" sub %A[0:N] to %s[] dims [0] : !sdfg.array<N x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg.reduce "r" sub %A[0:N] to %s[] dims [0]
// CHECK: Expected one of 'add', 'max', 'min', 'mul' (a reduction)

// -----

sdfg.sdfg @f args [] symbols ["N"] {
  %A = sdfg.container "A" transient : !sdfg.array<N x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.for "l" %t = 0 to N step 1 {
    sdfg.state "s" {
      sdfg.reduce "r" add %A[%t:%t + 1] to %s[] dims [0] : !sdfg.array<N x f32>, !sdfg.array<f32>
    }
  }
}

// CHECK: 'sdfg.reduce' subsets use symbols only, not SSA values
