// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// poplar.matmul's own check (it is a graph-building call of the build region); the
// shape and type rules are shared with sdfg.matmul (sdfg-matmul-invalid.mlir), one
// case here shows poplar.matmul runs them.

%A, %C = "test.op"() : () -> (!poplar.tensor<4x4xf32>, !poplar.tensor<4x4xf32>)
%0 = poplar.matmul "mm" %A, %A to %C : !poplar.tensor<4x4xf32>, !poplar.tensor<4x4xf32>, !poplar.tensor<4x4xf32>

// CHECK: poplar-matmul-invalid.mlir:[[# @LINE - 2]]:1: error: 'poplar.matmul' must be in the build region of a poplar.host_program

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x4xi32>
  poplar.map_tensor %A over <0 to 1 x 16> : !poplar.tensor<4x4xi32>
  %C = poplar.add_variable "C" : !poplar.tensor<4x4xi32>
  poplar.map_tensor %C over <0 to 1 x 16> : !poplar.tensor<4x4xi32>
  %0 = poplar.matmul "mm" %A, %A to %C : !poplar.tensor<4x4xi32>, !poplar.tensor<4x4xi32>, !poplar.tensor<4x4xi32>
  poplar.engine %0
} run {
}

// CHECK: poplar-matmul-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.matmul' multiplies float32 or float16 elements, not i32
