// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the control programs and dynamic slices of the poplar dialect, in their
// custom and generic forms: poplar.repeat (program::Repeat), poplar.repeat_while_true
// (a condition program, a scalar predicate tensor, a body), poplar.if (a scalar integer
// predicate), poplar.dynamic_slice and poplar.dynamic_update (poplibs' dynamic slices:
// offsets in scalar i32 tensors, one per sliced dimension).

poplar.host_program @loops arch "ipu2" args ["A"] : [memref<4x3xf32>] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x3xf32>
  poplar.map_tensor %A over <0 to 2 x 6> : !poplar.tensor<4x3xf32>
  %row = poplar.add_variable "row" : !poplar.tensor<3xf32>
  poplar.map_tensor %row over <0 to 1 x 3> : !poplar.tensor<3xf32>
  %t = poplar.add_variable "t" : !poplar.tensor<i32>
  poplar.map_tensor %t over <0 to 1 x 1> : !poplar.tensor<i32>
  %p = poplar.add_variable "p" : !poplar.tensor<i1>
  poplar.map_tensor %p over <0 to 1 x 1> : !poplar.tensor<i1>
  %e = poplar.add_variable "e" : !poplar.tensor<f32>
  poplar.map_tensor %e over <0 to 1 x 1> : !poplar.tensor<f32>
  %s = poplar.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : !poplar.tensor<4x3xf32>, !poplar.tensor<3xf32>
  %u = poplar.dynamic_update %A at [%t, %t] dims [0, 1] sizes [1, 1] from %e {note} : !poplar.tensor<4x3xf32>, !poplar.tensor<f32>
  %body = poplar.sequence(%s, %u)
  %r = poplar.repeat 5 times %body {note}
  %cond = poplar.sequence()
  %w = poplar.repeat_while_true %p : !poplar.tensor<i1> cond %cond body %r
  %empty = poplar.sequence()
  %b = poplar.if %t : !poplar.tensor<i32> then %w else %empty
  poplar.engine %b
} run {
  poplar.run 0
}

// CHECK:      %s = poplar.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : !poplar.tensor<4x3xf32>, !poplar.tensor<3xf32>
// CHECK-NEXT: %u = poplar.dynamic_update %A at [%t, %t] dims [0, 1] sizes [1, 1] from %e {note} : !poplar.tensor<4x3xf32>, !poplar.tensor<f32>
// CHECK-NEXT: %body = poplar.sequence(%s, %u)
// CHECK-NEXT: %r = poplar.repeat 5 times %body {note}
// CHECK-NEXT: %cond = poplar.sequence()
// CHECK-NEXT: %w = poplar.repeat_while_true %p : !poplar.tensor<i1> cond %cond body %r
// CHECK-NEXT: %empty = poplar.sequence()
// CHECK-NEXT: %b = poplar.if %t : !poplar.tensor<i32> then %w else %empty
// CHECK-NEXT: poplar.engine %b

// GENERIC:      "poplar.dynamic_slice"(%{{.*}}, %{{.*}}, %{{.*}}) <{dims = array<i64: 0>, sizes = array<i64: 1>}> : (!poplar.tensor<4x3xf32>, !poplar.tensor<i32>, !poplar.tensor<3xf32>) -> !poplar.program
// GENERIC:      "poplar.dynamic_update"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dims = array<i64: 0, 1>, sizes = array<i64: 1, 1>}> {note} : (!poplar.tensor<4x3xf32>, !poplar.tensor<i32>, !poplar.tensor<i32>, !poplar.tensor<f32>) -> !poplar.program
// GENERIC:      "poplar.repeat"(%{{.*}}) <{count = 5 : i64}> {note} : (!poplar.program) -> !poplar.program
// GENERIC:      "poplar.repeat_while_true"(%{{.*}}, %{{.*}}, %{{.*}}) : (!poplar.program, !poplar.tensor<i1>, !poplar.program) -> !poplar.program
// GENERIC:      "poplar.if"(%{{.*}}, %{{.*}}, %{{.*}}) : (!poplar.tensor<i32>, !poplar.program, !poplar.program) -> !poplar.program
