// RUN: ipu-opt %s -t poplar-cpp | filecheck %s

// host.cpp of products: each poplar.matmul is a Sequence that
// poplin::matMulWithOutput extends, writing into a named tensor (poplin takes the
// output by non-const reference) that is the result variable, seen as one column
// ([M, 1]) for a matrix times a vector and one row ([1, N]) for a vector times a
// matrix, the vector operand seen likewise; float32 partials stated for float16
// operands too. poplin headers and poplin::addCodelets appear only when the program
// multiplies (poplar-cpp.mlir checks they are absent otherwise).

poplar.host_program @products arch "ipu2" args ["A", "B", "x", "h", "H"] : [memref<4x5xf32>, memref<5x6xf32>, memref<5xf32>, memref<4xf16>, memref<4x2xf16>] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x5xf32>
  poplar.map_tensor %A over <0 to 10 x 2> : !poplar.tensor<4x5xf32>
  %B = poplar.add_variable "B" : !poplar.tensor<5x6xf32>
  poplar.map_tensor %B over <0 to 15 x 2> : !poplar.tensor<5x6xf32>
  %x = poplar.add_variable "x" : !poplar.tensor<5xf32>
  poplar.map_tensor %x over <0 to 1 x 5> : !poplar.tensor<5xf32>
  %h = poplar.add_variable "h" : !poplar.tensor<4xf16>
  poplar.map_tensor %h over <0 to 1 x 4> : !poplar.tensor<4xf16>
  %H = poplar.add_variable "H" : !poplar.tensor<4x2xf16>
  poplar.map_tensor %H over <0 to 2 x 4> : !poplar.tensor<4x2xf16>
  %C = poplar.add_variable "C" : !poplar.tensor<4x6xf32>
  poplar.map_tensor %C over <0 to 12 x 2> : !poplar.tensor<4x6xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  poplar.map_tensor %y over <0 to 1 x 4> : !poplar.tensor<4xf32>
  %z = poplar.add_variable "z" : !poplar.tensor<2xf16>
  poplar.map_tensor %z over <0 to 1 x 2> : !poplar.tensor<2xf16>
  %0 = poplar.matmul "mm" %A, %B to %C : !poplar.tensor<4x5xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
  %1 = poplar.matmul "mv" %A, %x to %y : !poplar.tensor<4x5xf32>, !poplar.tensor<5xf32>, !poplar.tensor<4xf32>
  %2 = poplar.matmul "vm" %h, %H to %z : !poplar.tensor<4xf16>, !poplar.tensor<4x2xf16>, !poplar.tensor<2xf16>
  %3 = poplar.sequence(%0, %1, %2)
  poplar.engine %3
} run {
  poplar.run 0
}

// CHECK:      #include <poplar/Program.hpp>
// CHECK-NEXT: #include <poplin/MatMul.hpp>
// CHECK-NEXT: #include <poplin/codelets.hpp>
// CHECK:      graph.addCodelets(codelets_path);
// CHECK-NEXT: poplin::addCodelets(graph);
// CHECK:      poplar::program::Sequence matmul;
// CHECK-NEXT: poplar::Tensor matmul_out = C;
// CHECK-NEXT: poplin::matMulWithOutput(graph, A, B, matmul_out, matmul, "mm", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
// CHECK-NEXT: poplar::program::Sequence matmul_1;
// CHECK-NEXT: poplar::Tensor matmul_1_out = y.reshape({4, 1});
// CHECK-NEXT: poplin::matMulWithOutput(graph, A, x.reshape({5, 1}), matmul_1_out, matmul_1, "mv", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
// CHECK-NEXT: poplar::program::Sequence matmul_2;
// CHECK-NEXT: poplar::Tensor matmul_2_out = z.reshape({1, 2});
// CHECK-NEXT: poplin::matMulWithOutput(graph, h.reshape({1, 4}), H, matmul_2_out, matmul_2, "vm", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
// CHECK-NEXT: poplar::program::Sequence program;
// CHECK-NEXT: program.add(matmul);
// CHECK-NEXT: program.add(matmul_1);
// CHECK-NEXT: program.add(matmul_2);
