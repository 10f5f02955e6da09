// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The checks of popops' elementwise calls: a graph-building call of the build region;
// operands of one shape and of float32 or float16 elements, one type but for a cast,
// which converts between the two; a scale of one element of the target's type; a
// source that is not the target (through views); a map op of its arity, writing an
// input only as a binary op in place.

%x, %a = "test.op"() : () -> (!poplar.tensor<4xf32>, !poplar.tensor<f32>)
%0 = poplar.scaled_add "s" %x, %x, %a : !poplar.tensor<4xf32>, !poplar.tensor<4xf32>, !poplar.tensor<f32>

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 2]]:1: error: 'poplar.scaled_add' must be in the build region of a poplar.host_program

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  %x = poplar.add_variable "x" : !poplar.tensor<8xf32>
  %a = poplar.add_variable "a" : !poplar.tensor<f32>
  %0 = poplar.scaled_add "s" %y, %x, %a : !poplar.tensor<4xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.scaled_add' operands have different shapes: !poplar.tensor<4xf32>, !poplar.tensor<8xf32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %y = poplar.add_variable "y" : !poplar.tensor<4xi32>
  %x = poplar.add_variable "x" : !poplar.tensor<4xi32>
  %a = poplar.add_variable "a" : !poplar.tensor<i32>
  %0 = poplar.scaled_add "s" %y, %x, %a : !poplar.tensor<4xi32>, !poplar.tensor<4xi32>, !poplar.tensor<i32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.scaled_add' takes float32 or float16 elements, not i32

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  %x = poplar.add_variable "x" : !poplar.tensor<4xf16>
  %a = poplar.add_variable "a" : !poplar.tensor<f32>
  %0 = poplar.scaled_add "s" %y, %x, %a : !poplar.tensor<4xf32>, !poplar.tensor<4xf16>, !poplar.tensor<f32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.scaled_add' operands have different element types: !poplar.tensor<4xf32>, !poplar.tensor<4xf16>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  %x = poplar.add_variable "x" : !poplar.tensor<4xf32>
  %a = poplar.add_variable "a" : !poplar.tensor<2xf32>
  %0 = poplar.scaled_add "s" %y, %x, %a : !poplar.tensor<4xf32>, !poplar.tensor<4xf32>, !poplar.tensor<2xf32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.scaled_add' scale must be one f32, not !poplar.tensor<2xf32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %y = poplar.add_variable "y" : !poplar.tensor<8xf32>
  %lo = poplar.slice %y[0:4] : !poplar.tensor<8xf32> -> !poplar.tensor<4xf32>
  %hi = poplar.slice %y[4:8] : !poplar.tensor<8xf32> -> !poplar.tensor<4xf32>
  %a = poplar.add_variable "a" : !poplar.tensor<f32>
  %0 = poplar.scaled_add "s" %lo, %hi, %a : !poplar.tensor<4xf32>, !poplar.tensor<4xf32>, !poplar.tensor<f32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.scaled_add' source must not be its target

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %x = poplar.add_variable "x" : !poplar.tensor<4xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  %0 = poplar.map "m" "EXPONENT"(%x, %x) to %y : !poplar.tensor<4xf32>, !poplar.tensor<4xf32> -> !poplar.tensor<4xf32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.map' op 'EXPONENT' does not take 2 inputs

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %x = poplar.add_variable "x" : !poplar.tensor<4xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  %0 = poplar.map "m" "POWER"(%x, %x) to %y : !poplar.tensor<4xf32>, !poplar.tensor<4xf32> -> !poplar.tensor<4xf32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.map' op 'POWER' is not one of the popops ops it takes (binary ops ADD, SUBTRACT, MULTIPLY, DIVIDE, MAXIMUM, MINIMUM; unary ops ABSOLUTE, CEIL, EXPONENT, EXPONENT2, FLOOR, LOGARITHM, NEGATE, RSQRT, SQRT, TANH, TRUNC)

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %x = poplar.add_variable "x" : !poplar.tensor<4xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  %0 = poplar.map "m" "SUBTRACT"(%x, %y) to %y : !poplar.tensor<4xf32>, !poplar.tensor<4xf32> -> !poplar.tensor<4xf32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.map' writes an input: only a binary op writes its first input, in place

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %x = poplar.add_variable "x" : !poplar.tensor<4xf32>
  %0 = poplar.map "m" "NEGATE"(%x) to %x : !poplar.tensor<4xf32> -> !poplar.tensor<4xf32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.map' writes an input: only a binary op writes its first input, in place

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %x = poplar.add_variable "x" : !poplar.tensor<4xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<4xf16>
  %0 = poplar.map "m" "ADD"(%x, %x) to %y : !poplar.tensor<4xf32>, !poplar.tensor<4xf32> -> !poplar.tensor<4xf16>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.map' operands have different element types

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %x = poplar.add_variable "x" : !poplar.tensor<4xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  %0 = poplar.cast "c" %x to %y : !poplar.tensor<4xf32>, !poplar.tensor<4xf32>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.cast' converts between float32 and float16: both are f32

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %x = poplar.add_variable "x" : !poplar.tensor<4xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<2x2xf16>
  %0 = poplar.cast "c" %x to %y : !poplar.tensor<4xf32>, !poplar.tensor<2x2xf16>
  poplar.engine %0
} run {
}

// CHECK: poplar-elementwise-invalid.mlir:[[# @LINE - 5]]:3: error: 'poplar.cast' operands have different shapes: !poplar.tensor<4xf32>, !poplar.tensor<2x2xf16>
