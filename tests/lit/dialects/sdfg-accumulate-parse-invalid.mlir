// RUN: ipu-opt %s --parsing-diagnostics | filecheck %s

// The reduction of sdfg.accumulate is a keyword: add, mul, min or max.

sdfg.sdfg @f args [] symbols [] {
  %x = sdfg.container "x" transient : !sdfg.array<f32>
  sdfg.state "s" {
    %c = arith.constant 1.0 : f32
    sdfg.accumulate sub %c to %x[] : !sdfg.array<f32>
  }
}

// CHECK:      sdfg.accumulate sub %c to %x[] : !sdfg.array<f32>
// CHECK-NEXT: ^^^
// CHECK-NEXT: Expected one of 'add', 'max', 'min', 'mul' (a reduction)
