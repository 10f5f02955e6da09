// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// poplar.reduce's own checks: it is a graph-building call of the build region, and its
// output is not its input, through a chain of views included; the rules of the
// reduction are shared with sdfg.reduce (sdfg-reduce-invalid.mlir), one case here
// shows poplar.reduce runs them.

%A, %s = "test.op"() : () -> (!poplar.tensor<4x4xf32>, !poplar.tensor<f32>)
%0 = poplar.reduce "r" add %A to %s dims [0, 1] : !poplar.tensor<4x4xf32>, !poplar.tensor<f32>

// CHECK: poplar-reduce-invalid.mlir:[[# @LINE - 2]]:1: error: 'poplar.reduce' must be in the build region of a poplar.host_program

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x4xf32>
  poplar.map_tensor %A over <0 to 1 x 16> : !poplar.tensor<4x4xf32>
  %row = poplar.slice_box %A[0, 0] to [1, 4] : !poplar.tensor<4x4xf32> -> !poplar.tensor<1x4xf32>
  %flat = poplar.reshape %row : !poplar.tensor<1x4xf32> -> !poplar.tensor<4xf32>
  %0 = poplar.reduce "r" add %A to %flat dims [0] : !poplar.tensor<4x4xf32>, !poplar.tensor<4xf32>
  poplar.engine %0
} run {
}

// CHECK: poplar-reduce-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.reduce' output must not be its input

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x4xf32>
  poplar.map_tensor %A over <0 to 1 x 16> : !poplar.tensor<4x4xf32>
  %m = poplar.add_variable "m" : !poplar.tensor<4xf32>
  poplar.map_tensor %m over <0 to 1 x 4> : !poplar.tensor<4xf32>
  %0 = poplar.reduce "r" mul %A to %m dims [1] update : !poplar.tensor<4x4xf32>, !poplar.tensor<4xf32>
  poplar.engine %0
} run {
}

// CHECK: poplar-reduce-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.reduce' updates its output only for add (poplibs' ReduceParams update), not mul
