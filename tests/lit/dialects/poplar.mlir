// RUN: ipu-opt %s | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the poplar dialect: every op, the four handle types, both regions of
// poplar.host_program, and codelets over fields of every element type Poplar supports.
//
// The host program is written in the generic form, and the first RUN line does not feed
// the custom output back into ipu-opt: the custom form of poplar.host_program does not
// parse (its region `build` shadows `IRDLOperation.build`, see
// poplar-host-program-syntax.mlir, expected to fail until that is fixed). The ops inside
// its regions and the codelets are in the custom form.

poplar.codelet @axpy fields [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<inout "acc" vector f32>, #ipu.field<output "y" vector f32>] {
^bb0(%a: f32, %x: f32, %acc: f32):
  %m = arith.mulf %a, %x : f32
  %s = arith.addf %m, %acc : f32
  poplar.yield %s, %m : f32, f32
}

// CHECK-LABEL: poplar.codelet @axpy fields [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<inout "acc" vector f32>, #ipu.field<output "y" vector f32>] {
// CHECK-NEXT:  ^{{.*}}([[A:%.*]]: f32, [[X:%.*]]: f32, [[ACC:%.*]]: f32):
// CHECK-NEXT:    [[M:%.*]] = arith.mulf [[A]], [[X]] : f32
// CHECK-NEXT:    [[S:%.*]] = arith.addf [[M]], [[ACC]] : f32
// CHECK-NEXT:    poplar.yield [[S]], [[M]] : f32, f32
// CHECK-NEXT:  }

poplar.codelet @types fields [#ipu.field<input "h" vector f16>, #ipu.field<output "i" vector i32>, #ipu.field<output "b" vector i1>, #ipu.field<output "c" scalar i8>, #ipu.field<output "d" scalar i16>] attributes {note} {
^bb0(%h: f16):
  %i = arith.fptosi %h : f16 to i32
  %b = arith.constant true
  %c = arith.constant 1 : i8
  %d = arith.constant 2 : i16
  poplar.yield %i, %b, %c, %d : i32, i1, i8, i16
}

// CHECK-LABEL: poplar.codelet @types fields [#ipu.field<input "h" vector f16>, #ipu.field<output "i" vector i32>, #ipu.field<output "b" vector i1>, #ipu.field<output "c" scalar i8>, #ipu.field<output "d" scalar i16>] attributes {note} {
// CHECK-NEXT:  ^{{.*}}([[H:%.*]]: f16):
// CHECK-NEXT:    [[I:%.*]] = arith.fptosi [[H]] : f16 to i32
// CHECK-NEXT:    [[B:%.*]] = arith.constant true
// CHECK-NEXT:    [[C:%.*]] = arith.constant 1 : i8
// CHECK-NEXT:    [[D:%.*]] = arith.constant 2 : i16
// CHECK-NEXT:    poplar.yield [[I]], [[B]], [[C]], [[D]] : i32, i1, i8, i16
// CHECK-NEXT:  }

poplar.codelet @const fields [#ipu.field<output "o" vector f32>] {
  %z = arith.constant 0.000000e+00 : f32
  poplar.yield %z : f32
}

// CHECK-LABEL: poplar.codelet @const fields [#ipu.field<output "o" vector f32>] {
// CHECK-NEXT:    [[Z:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    poplar.yield [[Z]] : f32
// CHECK-NEXT:  }

"poplar.host_program"() <{sym_name = "prog", arch = "ipu2", arguments = ["a", "x", "y"], argument_types = [memref<f32>, memref<4xf32>, memref<2x2xf32>]}> ({
  %a = poplar.add_variable "a" f32 []
  %x = poplar.add_variable "x" f32 [4]
  %y = poplar.add_variable "y" f32 [2, 2] {note}
  %h = poplar.add_variable "h" f16 [1]
  %k = poplar.add_variable "k" i32 [2, 1, 3]
  poplar.set_tile_mapping %a to 0 : !poplar.tensor
  %x0 = poplar.slice %x[0 : 2]
  poplar.set_tile_mapping %x0 to 0 : !poplar.tensor
  %x1 = poplar.slice %x[2 : 4] {note}
  poplar.set_tile_mapping %x1 to 1471 : !poplar.tensor
  %yf = poplar.flatten %y
  %yf0 = poplar.slice %yf[0 : 2]
  %cs = poplar.add_compute_set "cs"
  %v = poplar.add_vertex %cs "axpy"
  poplar.set_tile_mapping %v to 0 : !poplar.vertex
  poplar.connect %v["a"] to %a
  poplar.connect %v["x"] to %x0
  poplar.connect %v["acc"] to %yf0
  poplar.connect %v["y"] to %x0 {note}
  poplar.set_perf_estimate %v cycles 96
  poplar.create_host_write "write_a" to %a
  poplar.create_host_write "write_x" to %x
  poplar.create_host_read "read_y" from %y
  %p0 = poplar.execute %cs
  %p1 = poplar.copy %x to %yf
  %p2 = poplar.sequence()
  %p = poplar.sequence(%p0, %p1, %p2)
  poplar.engine %p
}, {
  poplar.write_tensor "write_a" from "a"
  poplar.write_tensor "write_x" from "x"
  poplar.run 0
  poplar.run 1 {again}
  poplar.read_tensor "read_y" to "y"
}) {keep} : () -> ()

// CHECK-LABEL: poplar.host_program @prog arch "ipu2" args ["a", "x", "y"] : [memref<f32>, memref<4xf32>, memref<2x2xf32>] attributes {keep} build {
// CHECK-NEXT:    [[A:%.*]] = poplar.add_variable "a" f32 []
// CHECK-NEXT:    [[X:%.*]] = poplar.add_variable "x" f32 [4]
// CHECK-NEXT:    [[Y:%.*]] = poplar.add_variable "y" f32 [2, 2] {note}
// CHECK-NEXT:    %{{.*}} = poplar.add_variable "h" f16 [1]
// CHECK-NEXT:    %{{.*}} = poplar.add_variable "k" i32 [2, 1, 3]
// CHECK-NEXT:    poplar.set_tile_mapping [[A]] to 0 : !poplar.tensor
// CHECK-NEXT:    [[X0:%.*]] = poplar.slice [[X]][0 : 2]
// CHECK-NEXT:    poplar.set_tile_mapping [[X0]] to 0 : !poplar.tensor
// CHECK-NEXT:    [[X1:%.*]] = poplar.slice [[X]][2 : 4] {note}
// CHECK-NEXT:    poplar.set_tile_mapping [[X1]] to 1471 : !poplar.tensor
// CHECK-NEXT:    [[YF:%.*]] = poplar.flatten [[Y]]
// CHECK-NEXT:    [[YF0:%.*]] = poplar.slice [[YF]][0 : 2]
// CHECK-NEXT:    [[CS:%.*]] = poplar.add_compute_set "cs"
// CHECK-NEXT:    [[V:%.*]] = poplar.add_vertex [[CS]] "axpy"
// CHECK-NEXT:    poplar.set_tile_mapping [[V]] to 0 : !poplar.vertex
// CHECK-NEXT:    poplar.connect [[V]]["a"] to [[A]]
// CHECK-NEXT:    poplar.connect [[V]]["x"] to [[X0]]
// CHECK-NEXT:    poplar.connect [[V]]["acc"] to [[YF0]]
// CHECK-NEXT:    poplar.connect [[V]]["y"] to [[X0]] {note}
// CHECK-NEXT:    poplar.set_perf_estimate [[V]] cycles 96
// CHECK-NEXT:    poplar.create_host_write "write_a" to [[A]]
// CHECK-NEXT:    poplar.create_host_write "write_x" to [[X]]
// CHECK-NEXT:    poplar.create_host_read "read_y" from [[Y]]
// CHECK-NEXT:    [[P0:%.*]] = poplar.execute [[CS]]
// CHECK-NEXT:    [[P1:%.*]] = poplar.copy [[X]] to [[YF]]
// CHECK-NEXT:    [[P2:%.*]] = poplar.sequence()
// CHECK-NEXT:    [[P:%.*]] = poplar.sequence([[P0]], [[P1]], [[P2]])
// CHECK-NEXT:    poplar.engine [[P]]
// CHECK-NEXT:  } run {
// CHECK-NEXT:    poplar.write_tensor "write_a" from "a"
// CHECK-NEXT:    poplar.write_tensor "write_x" from "x"
// CHECK-NEXT:    poplar.run 0
// CHECK-NEXT:    poplar.run 1 {again}
// CHECK-NEXT:    poplar.read_tensor "read_y" to "y"
// CHECK-NEXT:  }
// CHECK-NEXT: }

// GENERIC:       "poplar.codelet"() <{sym_name = "axpy", fields = [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<inout "acc" vector f32>, #ipu.field<output "y" vector f32>]}> ({
// GENERIC:         "poplar.yield"(%{{.*}}, %{{.*}}) : (f32, f32) -> ()
// GENERIC-NEXT:  }) : () -> ()
// GENERIC:       }) {note} : () -> ()
// GENERIC-LABEL: "poplar.host_program"() <{sym_name = "prog", arch = "ipu2", arguments = ["a", "x", "y"], argument_types = [memref<f32>, memref<4xf32>, memref<2x2xf32>]}> ({
// GENERIC-NEXT:    %{{.*}} = "poplar.add_variable"() <{debug_name = "a", element_type = f32, shape = array<i64>}> : () -> !poplar.tensor
// GENERIC-NEXT:    %{{.*}} = "poplar.add_variable"() <{debug_name = "x", element_type = f32, shape = array<i64: 4>}> : () -> !poplar.tensor
// GENERIC-NEXT:    %{{.*}} = "poplar.add_variable"() <{debug_name = "y", element_type = f32, shape = array<i64: 2, 2>}> {note} : () -> !poplar.tensor
// GENERIC:         "poplar.set_tile_mapping"(%{{.*}}) <{tile = 0 : i64}> : (!poplar.tensor) -> ()
// GENERIC-NEXT:    %{{.*}} = "poplar.slice"(%{{.*}}) <{begin = 0 : i64, end = 2 : i64}> : (!poplar.tensor) -> !poplar.tensor
// GENERIC:         %{{.*}} = "poplar.flatten"(%{{.*}}) : (!poplar.tensor) -> !poplar.tensor
// GENERIC:         %{{.*}} = "poplar.add_compute_set"() <{debug_name = "cs"}> : () -> !poplar.compute_set
// GENERIC-NEXT:    %{{.*}} = "poplar.add_vertex"(%{{.*}}) <{codelet = "axpy"}> : (!poplar.compute_set) -> !poplar.vertex
// GENERIC-NEXT:    "poplar.set_tile_mapping"(%{{.*}}) <{tile = 0 : i64}> : (!poplar.vertex) -> ()
// GENERIC-NEXT:    "poplar.connect"(%{{.*}}, %{{.*}}) <{field = "a"}> : (!poplar.vertex, !poplar.tensor) -> ()
// GENERIC:         "poplar.set_perf_estimate"(%{{.*}}) <{cycles = 96 : i64}> : (!poplar.vertex) -> ()
// GENERIC-NEXT:    "poplar.create_host_write"(%{{.*}}) <{handle = "write_a"}> : (!poplar.tensor) -> ()
// GENERIC:         "poplar.create_host_read"(%{{.*}}) <{handle = "read_y"}> : (!poplar.tensor) -> ()
// GENERIC-NEXT:    %{{.*}} = "poplar.execute"(%{{.*}}) : (!poplar.compute_set) -> !poplar.program
// GENERIC-NEXT:    %{{.*}} = "poplar.copy"(%{{.*}}, %{{.*}}) : (!poplar.tensor, !poplar.tensor) -> !poplar.program
// GENERIC-NEXT:    %{{.*}} = "poplar.sequence"() : () -> !poplar.program
// GENERIC-NEXT:    %{{.*}} = "poplar.sequence"(%{{.*}}, %{{.*}}, %{{.*}}) : (!poplar.program, !poplar.program, !poplar.program) -> !poplar.program
// GENERIC-NEXT:    "poplar.engine"(%{{.*}}) : (!poplar.program) -> ()
// GENERIC-NEXT:  }, {
// GENERIC-NEXT:    "poplar.write_tensor"() <{handle = "write_a", argument = "a"}> : () -> ()
// GENERIC-NEXT:    "poplar.write_tensor"() <{handle = "write_x", argument = "x"}> : () -> ()
// GENERIC-NEXT:    "poplar.run"() <{program_index = 0 : i64}> : () -> ()
// GENERIC-NEXT:    "poplar.run"() <{program_index = 1 : i64}> {again} : () -> ()
// GENERIC-NEXT:    "poplar.read_tensor"() <{handle = "read_y", argument = "y"}> : () -> ()
// GENERIC-NEXT:  }) {keep} : () -> ()
