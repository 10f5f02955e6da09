// RUN: ipu-opt %s --split-input-file -t poplar-cpp | filecheck %s

// host.cpp of products: each poplar.matmul is a Sequence that
// poplin::matMulWithOutput extends, writing into a named tensor (poplin takes the
// output by non-const reference) that is the result variable, seen as one column
// ([M, 1]) for a matrix times a vector and one row ([1, N]) for a vector times a
// matrix, the vector operand seen likewise; float32 partials stated for float16
// operands too. poplin headers and poplin::addCodelets appear only when the program
// multiplies (poplar-cpp.mlir checks they are absent otherwise).
//
// Second case, the other calls a poplibs user writes for C = alpha op(A) op(B) + beta C:
// beta 0 and alpha != 1 scale the product in place (popops::mulInPlace); beta != 0 is
// matMulAcc (C += alpha A B) after scaling C by beta when beta != 1; groups are
// matMulGroupedWithOutput / matMulGroupedAcc; transposes are views (.transpose(),
// .dimShuffle({0, 2, 1}) of groups); a dot product is [1, K] x [K, 1] into C seen as
// [1, 1]. popops' ElementWise header and codelets come with the scaling.

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

// -----

poplar.host_program @blas arch "ipu2" args ["A", "B", "C"] : [memref<5x4xf32>, memref<5x6xf32>, memref<4x6xf32>] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x4xf32>
  poplar.map_tensor %A over <0 to 10 x 2> : !poplar.tensor<5x4xf32>
  %B = poplar.add_variable "B" : !poplar.tensor<5x6xf32>
  poplar.map_tensor %B over <0 to 15 x 2> : !poplar.tensor<5x6xf32>
  %C = poplar.add_variable "C" : !poplar.tensor<4x6xf32>
  poplar.map_tensor %C over <0 to 12 x 2> : !poplar.tensor<4x6xf32>
  %G = poplar.add_variable "G" : !poplar.tensor<2x3x5xf16>
  poplar.map_tensor %G over <0 to 6 x 5> : !poplar.tensor<2x3x5xf16>
  %P = poplar.add_variable "P" : !poplar.tensor<2x3x3xf16>
  poplar.map_tensor %P over <0 to 6 x 3> : !poplar.tensor<2x3x3xf16>
  %s = poplar.add_variable "s" : !poplar.tensor<f32>
  poplar.map_tensor %s over <0 to 1 x 1> : !poplar.tensor<f32>
  %col = poplar.slice_box %B [0, 2] to [5, 3] : !poplar.tensor<5x6xf32> -> !poplar.tensor<5x1xf32>
  %x = poplar.reshape %col : !poplar.tensor<5x1xf32> -> !poplar.tensor<5xf32>
  %0 = poplar.matmul "scaled" transpose %A, %B to %C alpha 2.5 : !poplar.tensor<5x4xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
  %1 = poplar.matmul "gemm" transpose %A, %B to %C alpha 2.0 beta -0.5 : !poplar.tensor<5x4xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
  %2 = poplar.matmul "acc" transpose %A, %B to %C beta 1.0 : !poplar.tensor<5x4xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
  %3 = poplar.matmul "bmm" %G, transpose %G to %P : !poplar.tensor<2x3x5xf16>, !poplar.tensor<2x3x5xf16>, !poplar.tensor<2x3x3xf16>
  %4 = poplar.matmul "bmm_acc" %G, transpose %G to %P alpha 0.5 beta 1.0 : !poplar.tensor<2x3x5xf16>, !poplar.tensor<2x3x5xf16>, !poplar.tensor<2x3x3xf16>
  %5 = poplar.matmul "dot" %x, %x to %s : !poplar.tensor<5xf32>, !poplar.tensor<5xf32>, !poplar.tensor<f32>
  %6 = poplar.sequence(%0, %1, %2, %3, %4, %5)
  poplar.engine %6
} run {
  poplar.run 0
}

// CHECK:      #include <poplar/Program.hpp>
// CHECK-NEXT: #include <popops/ElementWise.hpp>
// CHECK-NEXT: #include <popops/codelets.hpp>
// CHECK-NEXT: #include <poplin/MatMul.hpp>
// CHECK-NEXT: #include <poplin/codelets.hpp>
// CHECK:      graph.addCodelets(codelets_path);
// CHECK-NEXT: popops::addCodelets(graph);
// CHECK-NEXT: poplin::addCodelets(graph);
// CHECK:      poplar::program::Sequence matmul;
// CHECK-NEXT: poplar::Tensor matmul_out = C;
// CHECK-NEXT: poplin::matMulWithOutput(graph, A.transpose(), B, matmul_out, matmul, "scaled", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
// CHECK-NEXT: popops::mulInPlace(graph, matmul_out, 2.5f, matmul, "scaled/alpha");
// CHECK-NEXT: poplar::program::Sequence matmul_1;
// CHECK-NEXT: popops::mulInPlace(graph, C, -0.5f, matmul_1, "gemm/beta");
// CHECK-NEXT: poplin::matMulAcc(graph, C, 2.0f, A.transpose(), B, matmul_1, "gemm", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
// CHECK-NEXT: poplar::program::Sequence matmul_2;
// CHECK-NEXT: poplin::matMulAcc(graph, C, 1.0f, A.transpose(), B, matmul_2, "acc", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
// CHECK-NEXT: poplar::program::Sequence matmul_3;
// CHECK-NEXT: poplar::Tensor matmul_3_out = P;
// CHECK-NEXT: poplin::matMulGroupedWithOutput(graph, G, G.dimShuffle({0, 2, 1}), matmul_3_out, matmul_3, "bmm", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
// CHECK-NEXT: poplar::program::Sequence matmul_4;
// CHECK-NEXT: poplin::matMulGroupedAcc(graph, P, 0.5f, G, G.dimShuffle({0, 2, 1}), matmul_4, "bmm_acc", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
// CHECK-NEXT: poplar::program::Sequence matmul_5;
// CHECK-NEXT: poplar::Tensor matmul_5_out = s.reshape({1, 1});
// CHECK-NEXT: poplin::matMulWithOutput(graph, B.slice({0, 2}, {5, 3}).reshape({5}).reshape({1, 5}), B.slice({0, 2}, {5, 3}).reshape({5}).reshape({5, 1}), matmul_5_out, matmul_5, "dot", poplar::OptionFlags{{[{][{]}}"partialsType", "float"{{[}][}]}});
