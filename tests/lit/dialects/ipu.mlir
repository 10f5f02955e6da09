// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the ipu dialect, in its custom and in the generic form.

// Before vertex extraction: variables with one- and several-group tile maps (a map may
// skip tiles), host transfers, copies, and tiled maps with a rank-0 input read whole
// (a broadcast), a tensor that is both read and written (an inout), and no operands.

ipu.graph "tiled" arch "ipu2" args ["a", "x", "y"] attributes {note = 1 : i32} {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<10xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<2x5xf32>
  %t = ipu.variable "t" mapping <0 to 2 x 3, 2 to 4 x 2> {tmp} : memref<10xf32>
  %z = ipu.variable "z" mapping <0 to 1 x 2, 3 to 5 x 3, 7 to 8 x 1> : memref<9xf16>
  %n = ipu.variable "n" mapping <1471 to 1472 x 1> : memref<i32>
  ipu.from_host %a : memref<f32>
  ipu.from_host %x {first} : memref<10xf32>
  ipu.from_host %y : memref<2x5xf32>
  ipu.tiled_map "axpy" over #ipu.tile_map<0 to 2 x 3, 2 to 4 x 2> ins(%a, %x, %y : memref<f32>, memref<10xf32>, memref<2x5xf32>) outs(%y, %t : memref<2x5xf32>, memref<10xf32>) {
  ^bb0(%va: f32, %vx: f32, %vy: f32):
    %m = arith.mulf %va, %vx : f32
    %s = arith.addf %m, %vy : f32
    ipu.yield %s, %m : f32, f32
  }
  ipu.tiled_map "nothing" over #ipu.tile_map<0 to 1 x 1> ins() outs() {
    ipu.yield
  }
  ipu.copy %t[0:10] to %x[0:10] : memref<10xf32>, memref<10xf32>
  ipu.copy %t[2:4] to %y[6:8] {note} : memref<10xf32>, memref<2x5xf32>
  ipu.to_host %y : memref<2x5xf32>
  ipu.to_host %a {last} : memref<f32>
}

// CHECK-LABEL: ipu.graph "tiled" arch "ipu2" args ["a", "x", "y"] attributes {note = 1 : i32} {
// CHECK-NEXT:    [[A:%.*]] = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
// CHECK-NEXT:    [[X:%.*]] = ipu.variable "x" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<10xf32>
// CHECK-NEXT:    [[Y:%.*]] = ipu.variable "y" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<2x5xf32>
// CHECK-NEXT:    [[T:%.*]] = ipu.variable "t" mapping <0 to 2 x 3, 2 to 4 x 2> {tmp} : memref<10xf32>
// CHECK-NEXT:    %{{.*}} = ipu.variable "z" mapping <0 to 1 x 2, 3 to 5 x 3, 7 to 8 x 1> : memref<9xf16>
// CHECK-NEXT:    %{{.*}} = ipu.variable "n" mapping <1471 to 1472 x 1> : memref<i32>
// CHECK-NEXT:    ipu.from_host [[A]] : memref<f32>
// CHECK-NEXT:    ipu.from_host [[X]] {first} : memref<10xf32>
// CHECK-NEXT:    ipu.from_host [[Y]] : memref<2x5xf32>
// CHECK-NEXT:    ipu.tiled_map "axpy" over #ipu.tile_map<0 to 2 x 3, 2 to 4 x 2> ins([[A]], [[X]], [[Y]] : memref<f32>, memref<10xf32>, memref<2x5xf32>) outs([[Y]], [[T]] : memref<2x5xf32>, memref<10xf32>) {
// CHECK-NEXT:    ^{{.*}}([[VA:%.*]]: f32, [[VX:%.*]]: f32, [[VY:%.*]]: f32):
// CHECK-NEXT:      [[M:%.*]] = arith.mulf [[VA]], [[VX]] : f32
// CHECK-NEXT:      [[S:%.*]] = arith.addf [[M]], [[VY]] : f32
// CHECK-NEXT:      ipu.yield [[S]], [[M]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.tiled_map "nothing" over #ipu.tile_map<0 to 1 x 1> ins() outs() {
// CHECK-NEXT:      ipu.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.copy [[T]][0:10] to [[X]][0:10] : memref<10xf32>, memref<10xf32>
// CHECK-NEXT:    ipu.copy [[T]][2:4] to [[Y]][6:8] {note} : memref<10xf32>, memref<2x5xf32>
// CHECK-NEXT:    ipu.to_host [[Y]] : memref<2x5xf32>
// CHECK-NEXT:    ipu.to_host [[A]] {last} : memref<f32>
// CHECK-NEXT:  }

// GENERIC-LABEL: "ipu.graph"() <{sym_name = "tiled", arch = "ipu2", args = ["a", "x", "y"]}> ({
// GENERIC-NEXT:    %{{.*}} = "ipu.variable"() <{var_name = "a", tile_map = #ipu.tile_map<0 to 1 x 1>}> : () -> memref<f32>
// GENERIC-NEXT:    %{{.*}} = "ipu.variable"() <{var_name = "x", tile_map = #ipu.tile_map<0 to 2 x 3, 2 to 4 x 2>}> : () -> memref<10xf32>
// GENERIC:         "ipu.from_host"(%{{.*}}) : (memref<f32>) -> ()
// GENERIC:         "ipu.tiled_map"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{label = "axpy", tile_map = #ipu.tile_map<0 to 2 x 3, 2 to 4 x 2>, operandSegmentSizes = array<i32: 3, 2>}> ({
// GENERIC:           "ipu.yield"(%{{.*}}, %{{.*}}) : (f32, f32) -> ()
// GENERIC-NEXT:    }) : (memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<2x5xf32>, memref<10xf32>) -> ()
// GENERIC-NEXT:    "ipu.tiled_map"() <{label = "nothing", tile_map = #ipu.tile_map<0 to 1 x 1>, operandSegmentSizes = array<i32: 0, 0>}> ({
// GENERIC-NEXT:      "ipu.yield"() : () -> ()
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:    "ipu.copy"(%{{.*}}, %{{.*}}) <{source_begin = 0 : i64, source_end = 10 : i64, destination_begin = 0 : i64, destination_end = 10 : i64}> : (memref<10xf32>, memref<10xf32>) -> ()
// GENERIC-NEXT:    "ipu.copy"(%{{.*}}, %{{.*}}) <{source_begin = 2 : i64, source_end = 4 : i64, destination_begin = 6 : i64, destination_end = 8 : i64}> {note} : (memref<10xf32>, memref<2x5xf32>) -> ()
// GENERIC-NEXT:    "ipu.to_host"(%{{.*}}) : (memref<2x5xf32>) -> ()
// GENERIC-NEXT:    "ipu.to_host"(%{{.*}}) {last} : (memref<f32>) -> ()
// GENERIC-NEXT:  }) {note = 1 : i32} : () -> ()

// After vertex extraction: codelets with fields of every direction, scalar and vector,
// compute sets of vertices whose vector fields take slices and whose scalar fields take
// rank-0 tensors whole, and an empty compute set.

ipu.graph "vertices" arch "ipu1" args ["a", "x"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<10xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<2x5xf32>
  %t = ipu.variable "t" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<10xf32>
  %k = ipu.variable "k" mapping <3 to 4 x 1> : memref<i32>
  ipu.codelet @axpy fields [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<inout "y" vector f32>, #ipu.field<output "t" vector f32>] {
  ^bb0(%va: f32, %vx: f32, %vy: f32):
    %m = arith.mulf %va, %vx : f32
    %s = arith.addf %m, %vy : f32
    ipu.yield %s, %m : f32, f32
  }
  ipu.codelet @count fields [#ipu.field<inout "k" scalar i32>, #ipu.field<output "h" scalar f16>] attributes {note} {
  ^bb0(%vk: i32):
    %one = arith.constant 1 : i32
    %n = arith.addi %vk, %one : i32
    %h = arith.constant 5.000000e-01 : f16
    ipu.yield %n, %h : i32, f16
  }
  ipu.codelet @fill fields [#ipu.field<output "o" vector i1>] {
    %b = arith.constant true
    ipu.yield %b : i1
  }
  ipu.compute_set "cs" {
    ipu.vertex @axpy tile 0 (%a, %x[0:3], %y[0:3], %t[0:3]) : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<10xf32>
    ipu.vertex @axpy tile 3 (%a, %x[8:10], %y[8:10], %t[8:10]) : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<10xf32>
    ipu.vertex @axpy tile 1 (%a, %x[3:5], %y[4:6], %t[5:6]) : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<10xf32>
  }
  ipu.compute_set "empty" attributes {k} {
  ^bb0:
  }
}

// CHECK-LABEL: ipu.graph "vertices" arch "ipu1" args ["a", "x"] {
// CHECK-NEXT:    [[A:%.*]] = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
// CHECK-NEXT:    [[X:%.*]] = ipu.variable "x" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<10xf32>
// CHECK-NEXT:    [[Y:%.*]] = ipu.variable "y" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<2x5xf32>
// CHECK-NEXT:    [[T:%.*]] = ipu.variable "t" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<10xf32>
// CHECK-NEXT:    %{{.*}} = ipu.variable "k" mapping <3 to 4 x 1> : memref<i32>
// CHECK-NEXT:    ipu.codelet @axpy fields [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<inout "y" vector f32>, #ipu.field<output "t" vector f32>] {
// CHECK-NEXT:    ^{{.*}}([[VA:%.*]]: f32, [[VX:%.*]]: f32, [[VY:%.*]]: f32):
// CHECK-NEXT:      [[M:%.*]] = arith.mulf [[VA]], [[VX]] : f32
// CHECK-NEXT:      [[S:%.*]] = arith.addf [[M]], [[VY]] : f32
// CHECK-NEXT:      ipu.yield [[S]], [[M]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.codelet @count fields [#ipu.field<inout "k" scalar i32>, #ipu.field<output "h" scalar f16>] attributes {note} {
// CHECK-NEXT:    ^{{.*}}([[VK:%.*]]: i32):
// CHECK-NEXT:      [[ONE:%.*]] = arith.constant 1 : i32
// CHECK-NEXT:      [[N:%.*]] = arith.addi [[VK]], [[ONE]] : i32
// CHECK-NEXT:      [[H:%.*]] = arith.constant 5.000000e-01 : f16
// CHECK-NEXT:      ipu.yield [[N]], [[H]] : i32, f16
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.codelet @fill fields [#ipu.field<output "o" vector i1>] {
// CHECK-NEXT:      [[B:%.*]] = arith.constant true
// CHECK-NEXT:      ipu.yield [[B]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.compute_set "cs" {
// CHECK-NEXT:      ipu.vertex @axpy tile 0 ([[A]], [[X]][0:3], [[Y]][0:3], [[T]][0:3]) : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<10xf32>
// CHECK-NEXT:      ipu.vertex @axpy tile 3 ([[A]], [[X]][8:10], [[Y]][8:10], [[T]][8:10]) : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<10xf32>
// CHECK-NEXT:      ipu.vertex @axpy tile 1 ([[A]], [[X]][3:5], [[Y]][4:6], [[T]][5:6]) : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<10xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.compute_set "empty" attributes {k} {
// CHECK-NEXT:    ^{{.*}}:
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC-LABEL: "ipu.graph"() <{sym_name = "vertices", arch = "ipu1", args = ["a", "x"]}> ({
// GENERIC:         "ipu.codelet"() <{sym_name = "axpy", fields = [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<inout "y" vector f32>, #ipu.field<output "t" vector f32>]}> ({
// GENERIC:           "ipu.yield"(%{{.*}}, %{{.*}}) : (f32, f32) -> ()
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:    "ipu.codelet"() <{sym_name = "count", fields = [#ipu.field<inout "k" scalar i32>, #ipu.field<output "h" scalar f16>]}> ({
// GENERIC:         }) {note} : () -> ()
// GENERIC:         "ipu.compute_set"() <{label = "cs"}> ({
// GENERIC-NEXT:      "ipu.vertex"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{codelet = @axpy, tile = 0 : i64, slices = array<i64: 0, 0, 0, 3, 0, 3, 0, 3>}> : (memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<10xf32>) -> ()
// GENERIC:         "ipu.compute_set"() <{label = "empty"}> ({
// GENERIC-NEXT:    ^{{.*}}:
// GENERIC-NEXT:    }) {k} : () -> ()
