// RUN: ipu-opt %s -t poplar-cpp | filecheck %s

// host.cpp of popops reductions: each poplar.reduce is a Sequence that
// popops::reduceWithOutput extends, writing into the output (a slice of a tensor for a
// box), its dims, ReduceParams(Operation, update) with update stated either way, the
// label; float16 sums and products state float accumulators in the options, float16
// MIN and MAX (which popops cannot widen) and other types none. <popops/Reduce.hpp> and
// popops::addCodelets appear when the program reduces (poplar-cpp.mlir checks they are
// absent otherwise), beside <popops/DynamicSlice.hpp> when it also slices
// (poplar-cpp-control-flow.mlir).

poplar.host_program @sums arch "ipu2" args ["A", "h", "k"] : [memref<4x5xf32>, memref<4x5xf16>, memref<4xi32>] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x5xf32>
  poplar.map_tensor %A over <0 to 10 x 2> : !poplar.tensor<4x5xf32>
  %h = poplar.add_variable "h" : !poplar.tensor<4x5xf16>
  poplar.map_tensor %h over <0 to 5 x 4> : !poplar.tensor<4x5xf16>
  %k = poplar.add_variable "k" : !poplar.tensor<4xi32>
  poplar.map_tensor %k over <0 to 2 x 2> : !poplar.tensor<4xi32>
  %s = poplar.add_variable "s" : !poplar.tensor<1xf32>
  poplar.map_tensor %s over <0 to 1 x 1> : !poplar.tensor<1xf32>
  %c = poplar.add_variable "c" : !poplar.tensor<5xf16>
  poplar.map_tensor %c over <0 to 1 x 5> : !poplar.tensor<5xf16>
  %m = poplar.add_variable "m" : !poplar.tensor<4xf16>
  poplar.map_tensor %m over <0 to 1 x 4> : !poplar.tensor<4xf16>
  %p = poplar.add_variable "p" : !poplar.tensor<i32>
  poplar.map_tensor %p over <0 to 1 x 1> : !poplar.tensor<i32>
  %box = poplar.slice_box %A [1, 0] to [3, 5] : !poplar.tensor<4x5xf32> -> !poplar.tensor<2x5xf32>
  %0 = poplar.reduce "interior" add %box to %s dims [0, 1] update : !poplar.tensor<2x5xf32>, !poplar.tensor<1xf32>
  %1 = poplar.reduce "columns" add %h to %c dims [0] : !poplar.tensor<4x5xf16>, !poplar.tensor<5xf16>
  %2 = poplar.reduce "rows" max %h to %m dims [1] : !poplar.tensor<4x5xf16>, !poplar.tensor<4xf16>
  %3 = poplar.reduce "product" mul %k to %p dims [0] : !poplar.tensor<4xi32>, !poplar.tensor<i32>
  %4 = poplar.sequence(%0, %1, %2, %3)
  poplar.engine %4
} run {
  poplar.run 0
}

// CHECK:      #include <poplar/Program.hpp>
// CHECK-NEXT: #include <popops/Reduce.hpp>
// CHECK-NEXT: #include <popops/codelets.hpp>
// CHECK:      graph.addCodelets(codelets_path);
// CHECK-NEXT: popops::addCodelets(graph);
// CHECK:      poplar::program::Sequence reduce;
// CHECK-NEXT: popops::reduceWithOutput(graph, A.slice({1, 0}, {3, 5}), s, {0, 1}, popops::ReduceParams(popops::Operation::ADD, true), reduce, "interior", poplar::OptionFlags{});
// CHECK-NEXT: poplar::program::Sequence reduce_1;
// CHECK-NEXT: popops::reduceWithOutput(graph, h, c, {0}, popops::ReduceParams(popops::Operation::ADD, false), reduce_1, "columns", poplar::OptionFlags{{[{][{]}}"accumType.interTile", "float"}, {"accumType.inVertex", "float"{{[}][}]}});
// CHECK-NEXT: poplar::program::Sequence reduce_2;
// CHECK-NEXT: popops::reduceWithOutput(graph, h, m, {1}, popops::ReduceParams(popops::Operation::MAX, false), reduce_2, "rows", poplar::OptionFlags{});
// CHECK-NEXT: poplar::program::Sequence reduce_3;
// CHECK-NEXT: popops::reduceWithOutput(graph, k, p, {0}, popops::ReduceParams(popops::Operation::MUL, false), reduce_3, "product", poplar::OptionFlags{});
// CHECK-NEXT: poplar::program::Sequence program;
// CHECK-NEXT: program.add(reduce);
// CHECK-NEXT: program.add(reduce_1);
// CHECK-NEXT: program.add(reduce_2);
// CHECK-NEXT: program.add(reduce_3);
