// RUN: ipu-opt %s -t poplar-cpp | filecheck %s

// host.cpp of popops' elementwise calls, with the signatures of poplibs' headers:
// poplar.scaled_add is a Sequence that popops::scaledAddTo (or scaledSubtractFrom)
// extends with the scale tensor; poplar.map one that popops::mapWithOutput extends with
// a popops::expr::BinaryOpType or UnaryOpType, or popops::mapInPlace when the output is
// the first input; poplar.cast the Program popops::cast returns. Their headers and
// popops::addCodelets appear with them.

poplar.host_program @elementwise arch "ipu2" args ["x", "y", "a"] : [memref<8xf32>, memref<8xf32>, memref<f32>] build {
  %x = poplar.add_variable "x" : !poplar.tensor<8xf32>
  poplar.map_tensor %x over <0 to 4 x 2> : !poplar.tensor<8xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<8xf32>
  poplar.map_tensor %y over <0 to 4 x 2> : !poplar.tensor<8xf32>
  %h = poplar.add_variable "h" : !poplar.tensor<8xf16>
  poplar.map_tensor %h over <0 to 4 x 2> : !poplar.tensor<8xf16>
  %a = poplar.add_variable "a" : !poplar.tensor<f32>
  poplar.map_tensor %a over <0 to 1 x 1> : !poplar.tensor<f32>
  poplar.create_host_write "write_x" to %x : !poplar.tensor<8xf32>
  poplar.create_host_write "write_y" to %y : !poplar.tensor<8xf32>
  poplar.create_host_write "write_a" to %a : !poplar.tensor<f32>
  %p0 = poplar.scaled_add "saxpy" %y, %x, %a : !poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>
  %p1 = poplar.scaled_add "less" %y, %x, %a subtract : !poplar.tensor<8xf32>, !poplar.tensor<8xf32>, !poplar.tensor<f32>
  %p2 = poplar.map "sum" "ADD"(%x, %y) to %x : !poplar.tensor<8xf32>, !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
  %p3 = poplar.map "max" "MAXIMUM"(%x, %x) to %y : !poplar.tensor<8xf32>, !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
  %p4 = poplar.map "e" "EXPONENT"(%x) to %y : !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>
  %p5 = poplar.cast "c" %x to %h : !poplar.tensor<8xf32>, !poplar.tensor<8xf16>
  poplar.create_host_read "read_y" from %y : !poplar.tensor<8xf32>
  %s = poplar.sequence(%p0, %p1, %p2, %p3, %p4, %p5)
  poplar.engine %s
} run {
  poplar.write_tensor "write_x" from "x"
  poplar.write_tensor "write_y" from "y"
  poplar.write_tensor "write_a" from "a"
  poplar.run 0
  poplar.read_tensor "read_y" to "y"
}

// CHECK:      #include <poplar/Program.hpp>
// CHECK-NEXT: #include <popops/ElementWise.hpp>
// CHECK-NEXT: #include <popops/ScaledAdd.hpp>
// CHECK-NEXT: #include <popops/Cast.hpp>
// CHECK-NEXT: #include <popops/codelets.hpp>
// CHECK:      popops::addCodelets(graph);
// CHECK:      poplar::program::Sequence scaled;
// CHECK-NEXT: popops::scaledAddTo(graph, y, x, a, scaled, "saxpy");
// CHECK-NEXT: poplar::program::Sequence scaled_1;
// CHECK-NEXT: popops::scaledSubtractFrom(graph, y, x, a, scaled_1, "less");
// CHECK-NEXT: poplar::program::Sequence map;
// CHECK-NEXT: popops::mapInPlace(graph, popops::expr::BinaryOpType::ADD, x, y, map, "sum");
// CHECK-NEXT: poplar::program::Sequence map_1;
// CHECK-NEXT: popops::mapWithOutput(graph, popops::expr::BinaryOpType::MAXIMUM, x, x, y, map_1, "max");
// CHECK-NEXT: poplar::program::Sequence map_2;
// CHECK-NEXT: popops::mapWithOutput(graph, popops::expr::UnaryOpType::EXPONENT, x, y, map_2, "e");
// CHECK-NEXT: poplar::program::Program cast = popops::cast(graph, x, h, "c");
