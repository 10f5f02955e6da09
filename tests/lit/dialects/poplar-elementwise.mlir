// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of popops' elementwise calls (programs) in the custom and the generic form:
// scaledAddTo and scaledSubtractFrom by a scalar tensor, mapWithOutput of a binary and
// of a unary op, mapInPlace (the output is the first input), a float -> half cast,
// one with the decision ipu-select-vertices leaves as a discardable attribute.

poplar.host_program @elementwise arch "ipu2" args ["x"] : [memref<8xf32>] build {
  %x = poplar.add_variable "x" : !poplar.tensor<8xf32>
  poplar.map_tensor %x over <0 to 4 x 2> : !poplar.tensor<8xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<8xf32>
  poplar.map_tensor %y over <0 to 4 x 2> : !poplar.tensor<8xf32>
  %h = poplar.add_variable "h" : !poplar.tensor<8xf16>
  poplar.map_tensor %h over <0 to 4 x 2> : !poplar.tensor<8xf16>
  %a = poplar.add_variable "a" : !poplar.tensor<f32>
  poplar.map_tensor %a over <0 to 1 x 1> : !poplar.tensor<f32>
  %p0 = poplar.scaled_add "saxpy" %y, %x, %a {vertex_choice = {impl = "poplibs", call = "scaledAddTo"}} : !poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>
  %p1 = poplar.scaled_add "less" %y, %x, %a subtract : !poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>
  %p2 = poplar.map "sum" "ADD"(%x, %y) to %x : !poplar.tensor<8xf32>, !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
  %p3 = poplar.map "max" "MAXIMUM"(%x, %x) to %y : !poplar.tensor<8xf32>, !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
  %p4 = poplar.map "e" "EXPONENT"(%x) to %y : !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
  %p5 = poplar.cast "c" %x to %h : !poplar.tensor<8xf32>, !poplar.tensor<8xf16>
  %s = poplar.sequence(%p0, %p1, %p2, %p3, %p4, %p5)
  poplar.engine %s
} run {
  poplar.run 0
}

// CHECK:      %p0 = poplar.scaled_add "saxpy" %y, %x, %a {vertex_choice = {impl = "poplibs", call = "scaledAddTo"}} : !poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>
// CHECK-NEXT: %p1 = poplar.scaled_add "less" %y, %x, %a subtract : !poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>
// CHECK-NEXT: %p2 = poplar.map "sum" "ADD"(%x, %y) to %x : !poplar.tensor<8xf32>, !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
// CHECK-NEXT: %p3 = poplar.map "max" "MAXIMUM"(%x, %x) to %y : !poplar.tensor<8xf32>, !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
// CHECK-NEXT: %p4 = poplar.map "e" "EXPONENT"(%x) to %y : !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
// CHECK-NEXT: %p5 = poplar.cast "c" %x to %h : !poplar.tensor<8xf32>, !poplar.tensor<8xf16>

// GENERIC: "poplar.scaled_add"(%{{.*}}, %{{.*}}, %{{.*}}) <{label = "saxpy"}> {vertex_choice = {impl = "poplibs", call = "scaledAddTo"}} : (!poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>) -> !poplar.program
// GENERIC: "poplar.scaled_add"(%{{.*}}, %{{.*}}, %{{.*}}) <{label = "less", subtract}> : (!poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>) -> !poplar.program
// GENERIC: "poplar.map"(%{{.*}}, %{{.*}}, %{{.*}}) <{label = "sum", op = "ADD"}> : (!poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<8xf32>) -> !poplar.program
// GENERIC: "poplar.cast"(%{{.*}}, %{{.*}}) <{label = "c"}> : (!poplar.tensor<8xf32>, !poplar.tensor<8xf16>) -> !poplar.program
