// RUN: ipu-opt %s -t poplar-cpp | filecheck %s

// host.cpp of control programs and dynamic slices: each program value is one local
// (Sequence, Repeat, RepeatWhileTrue, If); a dynamic slice or update is a Sequence the
// poplibs call extends, the slice reshaped to the box and the scalar i32 offsets
// concatenated and reinterpreted as the UNSIGNED_INT poplibs reads; popops headers and
// popops::addCodelets appear only when the program slices.

poplar.host_program @loops arch "ipu2" args ["A"] : [memref<4x3xf32>] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x3xf32>
  poplar.map_tensor %A over <0 to 2 x 6> : !poplar.tensor<4x3xf32>
  %row = poplar.add_variable "row" : !poplar.tensor<3xf32>
  poplar.map_tensor %row over <0 to 1 x 3> : !poplar.tensor<3xf32>
  %t = poplar.add_variable "t" : !poplar.tensor<i32>
  poplar.map_tensor %t over <0 to 1 x 1> : !poplar.tensor<i32>
  %p = poplar.add_variable "p" : !poplar.tensor<i1>
  poplar.map_tensor %p over <0 to 1 x 1> : !poplar.tensor<i1>
  poplar.create_host_write "write_A" to %A : !poplar.tensor<4x3xf32>
  %0 = poplar.add_compute_set "first"
  %1 = poplar.execute %0
  %2 = poplar.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : !poplar.tensor<4x3xf32>, !poplar.tensor<3xf32>
  %3 = poplar.sequence(%1, %2)
  %4 = poplar.repeat 3 times %3
  %5 = poplar.add_compute_set "cond"
  %6 = poplar.execute %5
  %7 = poplar.sequence(%6)
  %8 = poplar.dynamic_update %A at [%t] dims [0] sizes [1] from %row : !poplar.tensor<4x3xf32>, !poplar.tensor<3xf32>
  %9 = poplar.sequence(%8)
  %10 = poplar.flatten %A : !poplar.tensor<4x3xf32> -> !poplar.tensor<12xf32>
  %11 = poplar.slice %10[0 : 3] : !poplar.tensor<12xf32> -> !poplar.tensor<3xf32>
  %12 = poplar.copy %row to %11 : !poplar.tensor<3xf32>, !poplar.tensor<3xf32>
  %13 = poplar.sequence(%12)
  %14 = poplar.if %p : !poplar.tensor<i1> then %9 else %13
  %15 = poplar.sequence(%14)
  %16 = poplar.repeat_while_true %p : !poplar.tensor<i1> cond %7 body %15
  poplar.create_host_read "read_A" from %A : !poplar.tensor<4x3xf32>
  %17 = poplar.sequence(%4, %16)
  poplar.engine %17
} run {
  poplar.write_tensor "write_A" from "A"
  poplar.run 0
  poplar.read_tensor "read_A" to "A"
}

// CHECK:      #include <poplar/Program.hpp>
// CHECK-NEXT: #include <popops/DynamicSlice.hpp>
// CHECK-NEXT: #include <popops/codelets.hpp>
// CHECK:      graph.addCodelets(codelets_path);
// CHECK-NEXT: popops::addCodelets(graph);
// CHECK:      poplar::ComputeSet cs_first = graph.addComputeSet("first");
// CHECK-NEXT: poplar::program::Execute run_cs_first(cs_first);
// CHECK-NEXT: poplar::program::Sequence slice;
// CHECK-NEXT: popops::dynamicSliceWithOutput(graph, row.reshape({1, 3}), A, poplar::concat({t.reshape({1})}).reinterpret(poplar::UNSIGNED_INT), {0}, {1}, slice);
// CHECK-NEXT: poplar::program::Sequence program;
// CHECK-NEXT: program.add(run_cs_first);
// CHECK-NEXT: program.add(slice);
// CHECK-NEXT: poplar::program::Repeat loop(3, program);
// CHECK:      poplar::program::Sequence update;
// CHECK-NEXT: popops::dynamicUpdate(graph, A, row.reshape({1, 3}), poplar::concat({t.reshape({1})}).reinterpret(poplar::UNSIGNED_INT), {0}, {1}, update);
// CHECK:      poplar::program::If branch(p, program_2, program_3);
// CHECK:      poplar::program::RepeatWhileTrue loop_1(program_1, p, program_4);
// CHECK:      poplar::program::Sequence program_5;
// CHECK-NEXT: program_5.add(loop);
// CHECK-NEXT: program_5.add(loop_1);
// CHECK-NEXT: poplar::Engine engine(graph, program_5);
