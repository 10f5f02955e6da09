// RUN: ipu-opt %s --split-input-file --verify-diagnostics -t poplar-cpp | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=5 -p sdfg-to-poplar -t 'poplar-cpp{sdk=4}' --verify-diagnostics | filecheck %s --check-prefix=SDK

// SDK: error: poplar-cpp option sdk must be 2 or 3, got 4

sdfg.sdfg @f args [] symbols [] {
  %t = sdfg.container "t" transient : !sdfg.array<f32>
}

// CHECK: poplar-cpp-invalid.mlir:6:1: error: 'sdfg.sdfg' is not a poplar op; lower the module with sdfg-to-poplar first

// -----

poplar.codelet @c fields [] {
  poplar.yield
}

// CHECK: error: poplar-cpp needs exactly one poplar.host_program, found 0
