// RUN: ipu-opt %s --split-input-file --verify-diagnostics -t poplar-cpp | filecheck %s
// RUN: ipu-opt %S/poplar-cpp.mlir -t 'poplar-cpp{sdk=4}' --verify-diagnostics | filecheck %s --check-prefix=SDK
// RUN: rm -rf %t && not ipu-opt %S/poplar-cpp.mlir -t 'poplar-cpp{sdk=4}' -o %t 2>&1 | filecheck %s --check-prefix=SDK-CLI
// RUN: test ! -e %t

// What poplar-cpp refuses: a module that is not (only) Poplar, a module without
// exactly one host program, and an unknown SDK version.

// SDK: error: poplar-cpp option sdk must be 2 or 3, got 4
// SDK-CLI: ipu-opt: error: poplar-cpp option sdk must be 2 or 3, got 4

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 2> : memref<2xf32>
}

// CHECK: poplar-cpp-invalid.mlir:[[# @LINE - 4]]:1: error: 'ipu.graph' is not a poplar op; lower the module with convert-ipu-to-poplar first

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}

// CHECK: error: poplar-cpp needs exactly one poplar.host_program, found 0

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}
poplar.host_program @q arch "ipu2" args [] : [] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: error: poplar-cpp needs exactly one poplar.host_program, found 2
