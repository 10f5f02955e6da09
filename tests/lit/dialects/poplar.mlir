// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the poplar dialect, in its custom and in its generic form: codelets
// (fields of every direction, scalar and vector; a body with every kind of allowed op;
// an empty body), and a host program using every op: variables of rank 0 to 3 and
// their mappings, host read/write handles, compute sets with placements of every
// slice rule (one naming the fields out of order, one with a cycle estimate per run),
// executes, flatten/slice views and copies, sequences (one empty), the engine, and
// the run region. The types and attributes are also written standalone.

poplar.codelet @body(%a: memref<f32> input "a", %x: memref<?xf32> input "x", %y: memref<?xf32> inout "y", %p: memref<f32> output "p") attributes {note} {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %w = poplar.worker_id
  %nw = poplar.num_workers
  %start = poplar.block_start
  %va = memref.load %a[] : memref<f32>
  %zero = arith.constant 0.000000e+00 : f32
  %sum = scf.for %i = %w to %n step %nw iter_args(%acc = %zero) -> (f32) {
    %e = memref.load %x[%i] : memref<?xf32>
    %r = math.exp %e : f32
    %big = arith.cmpf ogt, %r, %va : f32
    %v = scf.if %big -> (f32) {
      scf.yield %r : f32
    } else {
      scf.yield %va : f32
    }
    memref.store %v, %y[%i] : memref<?xf32>
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  memref.store %sum, %p[] : memref<f32>
}
poplar.codelet @nop(%h: memref<?xf16> input "h") {
}
poplar.host_program @prog arch "ipu2" args ["a", "x", "y"] : [memref<f32>, memref<10xf32>, memref<2x5xf32>] attributes {keep, m = #poplar.tile_map<0 to 2 x 3, 5 to 6 x 4>, s = #poplar.slice<halo<1, 2>>, f = #poplar.field<output "y">, t = [!poplar.compute_set, !poplar.program, !poplar.tensor<f16>]} build {
  %a = poplar.add_variable "a" : !poplar.tensor<f32>
  poplar.map_tensor %a over <0 to 1 x 1> : !poplar.tensor<f32>
  %x = poplar.add_variable "x" {note} : !poplar.tensor<10xf32>
  poplar.map_tensor %x over <0 to 2 x 3, 2 to 4 x 2> {note} : !poplar.tensor<10xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<2x5xf32>
  poplar.map_tensor %y over <0 to 2 x 3, 2 to 4 x 2> : !poplar.tensor<2x5xf32>
  %p = poplar.add_variable "p" : !poplar.tensor<4xf32>
  poplar.map_tensor %p over <0 to 4 x 1> : !poplar.tensor<4xf32>
  %h = poplar.add_variable "h" : !poplar.tensor<2x1x3xf16>
  poplar.map_tensor %h over <1471 to 1472 x 6> : !poplar.tensor<2x1x3xf16>
  %c = poplar.add_constant "c" {note} : !poplar.tensor<2xf16> = dense<[0.5, 2.0]>
  poplar.map_tensor %c over <0 to 1 x 2> : !poplar.tensor<2xf16>
  poplar.create_host_write "write_a" to %a : !poplar.tensor<f32>
  poplar.create_host_write "write_x" to %x {note} : !poplar.tensor<10xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @body over <0 to 2 x 3, 2 to 4 x 2> ["a" = %a whole, "x" = %x block, "y" = %y block, "p" = %p partial] cycles [120, 96] : !poplar.tensor<f32>, !poplar.tensor<10xf32>, !poplar.tensor<2x5xf32>, !poplar.tensor<4xf32>
  poplar.add_vertices %cs @body over <7 to 8 x 5> ["p" = %p partial, "y" = %y block, "x" = %x halo<0, 5>, "a" = %a whole] cycles [0] {note} : !poplar.tensor<4xf32>, !poplar.tensor<2x5xf32>, !poplar.tensor<10xf32>, !poplar.tensor<f32>
  %cs2 = poplar.add_compute_set "other" {note}
  poplar.add_vertices %cs2 @nop over <1471 to 1472 x 6> ["h" = %h whole] cycles [60] : !poplar.tensor<2x1x3xf16>
  %p0 = poplar.execute %cs
  %p1 = poplar.execute %cs2 {note}
  %yf = poplar.flatten %y : !poplar.tensor<2x5xf32> -> !poplar.tensor<10xf32>
  %ys = poplar.slice %yf[2 : 6] : !poplar.tensor<10xf32> -> !poplar.tensor<4xf32>
  %xs = poplar.slice %x[0 : 4] {note} : !poplar.tensor<10xf32> -> !poplar.tensor<4xf32>
  %p2 = poplar.copy %xs to %ys : !poplar.tensor<4xf32>, !poplar.tensor<4xf32>
  %p3 = poplar.copy %x to %yf {note} : !poplar.tensor<10xf32>, !poplar.tensor<10xf32>
  poplar.create_host_read "read_y" from %y : !poplar.tensor<2x5xf32>
  %empty = poplar.sequence()
  %seq = poplar.sequence(%p0, %p1, %p2, %p3, %empty) {note}
  poplar.engine %seq
} run {
  poplar.write_tensor "write_a" from "a"
  poplar.write_tensor "write_x" from "x" {note}
  poplar.run 0
  poplar.run 1 {again}
  poplar.read_tensor "read_y" to "y"
}

// CHECK-LABEL: poplar.codelet @body(%a: memref<f32> input "a", %x: memref<?xf32> input "x", %y: memref<?xf32> inout "y", %p: memref<f32> output "p") attributes {note} {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %n = memref.dim %x, %c0 : memref<?xf32>
// CHECK-NEXT:   %w = poplar.worker_id
// CHECK-NEXT:   %nw = poplar.num_workers
// CHECK-NEXT:   %start = poplar.block_start
// CHECK-NEXT:   %va = memref.load %a[] : memref<f32>
// CHECK-NEXT:   %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %sum = scf.for %i = %w to %n step %nw iter_args(%acc = %zero) -> (f32) {
// CHECK-NEXT:     %e = memref.load %x[%i] : memref<?xf32>
// CHECK-NEXT:     %r = math.exp %e : f32
// CHECK-NEXT:     %big = arith.cmpf ogt, %r, %va : f32
// CHECK-NEXT:     %v = scf.if %big -> (f32) {
// CHECK-NEXT:       scf.yield %r : f32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %va : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     memref.store %v, %y[%i] : memref<?xf32>
// CHECK-NEXT:     %next = arith.addf %acc, %v : f32
// CHECK-NEXT:     scf.yield %next : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   memref.store %sum, %p[] : memref<f32>
// CHECK-NEXT: }
// CHECK-NEXT: poplar.codelet @nop(%h: memref<?xf16> input "h") {
// CHECK-NEXT: }
// CHECK-NEXT: poplar.host_program @prog arch "ipu2" args ["a", "x", "y"] : [memref<f32>, memref<10xf32>, memref<2x5xf32>] attributes {keep, m = #poplar.tile_map<0 to 2 x 3, 5 to 6 x 4>, s = #poplar.slice<halo<1, 2>>, f = #poplar.field<output "y">, t = [!poplar.compute_set, !poplar.program, !poplar.tensor<f16>]} build {
// CHECK-NEXT:   %a = poplar.add_variable "a" : !poplar.tensor<f32>
// CHECK-NEXT:   poplar.map_tensor %a over <0 to 1 x 1> : !poplar.tensor<f32>
// CHECK-NEXT:   %x = poplar.add_variable "x" {note} : !poplar.tensor<10xf32>
// CHECK-NEXT:   poplar.map_tensor %x over <0 to 2 x 3, 2 to 4 x 2> {note} : !poplar.tensor<10xf32>
// CHECK-NEXT:   %y = poplar.add_variable "y" : !poplar.tensor<2x5xf32>
// CHECK-NEXT:   poplar.map_tensor %y over <0 to 2 x 3, 2 to 4 x 2> : !poplar.tensor<2x5xf32>
// CHECK-NEXT:   %p = poplar.add_variable "p" : !poplar.tensor<4xf32>
// CHECK-NEXT:   poplar.map_tensor %p over <0 to 4 x 1> : !poplar.tensor<4xf32>
// CHECK-NEXT:   %h = poplar.add_variable "h" : !poplar.tensor<2x1x3xf16>
// CHECK-NEXT:   poplar.map_tensor %h over <1471 to 1472 x 6> : !poplar.tensor<2x1x3xf16>
// CHECK-NEXT:   %c = poplar.add_constant "c" {note} : !poplar.tensor<2xf16> = dense<[5.000000e-01, 2.000000e+00]>
// CHECK-NEXT:   poplar.map_tensor %c over <0 to 1 x 2> : !poplar.tensor<2xf16>
// CHECK-NEXT:   poplar.create_host_write "write_a" to %a : !poplar.tensor<f32>
// CHECK-NEXT:   poplar.create_host_write "write_x" to %x {note} : !poplar.tensor<10xf32>
// CHECK-NEXT:   %cs = poplar.add_compute_set "cs"
// CHECK-NEXT:   poplar.add_vertices %cs @body over <0 to 2 x 3, 2 to 4 x 2> ["a" = %a whole, "x" = %x block, "y" = %y block, "p" = %p partial] cycles [120, 96] : !poplar.tensor<f32>, !poplar.tensor<10xf32>, !poplar.tensor<2x5xf32>, !poplar.tensor<4xf32>
// CHECK-NEXT:   poplar.add_vertices %cs @body over <7 to 8 x 5> ["p" = %p partial, "y" = %y block, "x" = %x halo<0, 5>, "a" = %a whole] cycles [0] {note} : !poplar.tensor<4xf32>, !poplar.tensor<2x5xf32>, !poplar.tensor<10xf32>, !poplar.tensor<f32>
// CHECK-NEXT:   %cs2 = poplar.add_compute_set "other" {note}
// CHECK-NEXT:   poplar.add_vertices %cs2 @nop over <1471 to 1472 x 6> ["h" = %h whole] cycles [60] : !poplar.tensor<2x1x3xf16>
// CHECK-NEXT:   %p0 = poplar.execute %cs
// CHECK-NEXT:   %p1 = poplar.execute %cs2 {note}
// CHECK-NEXT:   %yf = poplar.flatten %y : !poplar.tensor<2x5xf32> -> !poplar.tensor<10xf32>
// CHECK-NEXT:   %ys = poplar.slice %yf[2 : 6] : !poplar.tensor<10xf32> -> !poplar.tensor<4xf32>
// CHECK-NEXT:   %xs = poplar.slice %x[0 : 4] {note} : !poplar.tensor<10xf32> -> !poplar.tensor<4xf32>
// CHECK-NEXT:   %p2 = poplar.copy %xs to %ys : !poplar.tensor<4xf32>, !poplar.tensor<4xf32>
// CHECK-NEXT:   %p3 = poplar.copy %x to %yf {note} : !poplar.tensor<10xf32>, !poplar.tensor<10xf32>
// CHECK-NEXT:   poplar.create_host_read "read_y" from %y : !poplar.tensor<2x5xf32>
// CHECK-NEXT:   %empty = poplar.sequence()
// CHECK-NEXT:   %seq = poplar.sequence(%p0, %p1, %p2, %p3, %empty) {note}
// CHECK-NEXT:   poplar.engine %seq
// CHECK-NEXT: } run {
// CHECK-NEXT:   poplar.write_tensor "write_a" from "a"
// CHECK-NEXT:   poplar.write_tensor "write_x" from "x" {note}
// CHECK-NEXT:   poplar.run 0
// CHECK-NEXT:   poplar.run 1 {again}
// CHECK-NEXT:   poplar.read_tensor "read_y" to "y"
// CHECK-NEXT: }
// CHECK-NEXT: }


// GENERIC-LABEL: "poplar.codelet"() <{sym_name = "body", fields = [#poplar.field<input "a">, #poplar.field<input "x">, #poplar.field<inout "y">, #poplar.field<output "p">]}> ({
// GENERIC-NEXT: ^bb0(%a: memref<f32>, %x: memref<?xf32>, %y: memref<?xf32>, %p: memref<f32>):
// GENERIC:       %w = "poplar.worker_id"() : () -> index
// GENERIC-NEXT:  %nw = "poplar.num_workers"() : () -> index
// GENERIC-NEXT:  %start = "poplar.block_start"() : () -> index
// GENERIC:      }) {note} : () -> ()
// GENERIC-NEXT: "poplar.codelet"() <{sym_name = "nop", fields = [#poplar.field<input "h">]}> ({
// GENERIC-NEXT: ^bb0(%h: memref<?xf16>):
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "poplar.host_program"() <{sym_name = "prog", arch = "ipu2", arguments = ["a", "x", "y"], argument_types = [memref<f32>, memref<10xf32>, memref<2x5xf32>]}> ({
// GENERIC-NEXT:   %a = "poplar.add_variable"() <{debug_name = "a"}> : () -> !poplar.tensor<f32>
// GENERIC-NEXT:   "poplar.map_tensor"(%a) <{tile_map = #poplar.tile_map<0 to 1 x 1>}> : (!poplar.tensor<f32>) -> ()
// GENERIC-NEXT:   %x = "poplar.add_variable"() <{debug_name = "x"}> {note} : () -> !poplar.tensor<10xf32>
// GENERIC-NEXT:   "poplar.map_tensor"(%x) <{tile_map = #poplar.tile_map<0 to 2 x 3, 2 to 4 x 2>}> {note} : (!poplar.tensor<10xf32>) -> ()
// GENERIC-NEXT:   %y = "poplar.add_variable"() <{debug_name = "y"}> : () -> !poplar.tensor<2x5xf32>
// GENERIC-NEXT:   "poplar.map_tensor"(%y) <{tile_map = #poplar.tile_map<0 to 2 x 3, 2 to 4 x 2>}> : (!poplar.tensor<2x5xf32>) -> ()
// GENERIC-NEXT:   %p = "poplar.add_variable"() <{debug_name = "p"}> : () -> !poplar.tensor<4xf32>
// GENERIC-NEXT:   "poplar.map_tensor"(%p) <{tile_map = #poplar.tile_map<0 to 4 x 1>}> : (!poplar.tensor<4xf32>) -> ()
// GENERIC-NEXT:   %h = "poplar.add_variable"() <{debug_name = "h"}> : () -> !poplar.tensor<2x1x3xf16>
// GENERIC-NEXT:   "poplar.map_tensor"(%h) <{tile_map = #poplar.tile_map<1471 to 1472 x 6>}> : (!poplar.tensor<2x1x3xf16>) -> ()
// GENERIC-NEXT:   %c = "poplar.add_constant"() <{debug_name = "c", value = dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf16>}> {note} : () -> !poplar.tensor<2xf16>
// GENERIC-NEXT:   "poplar.map_tensor"(%c) <{tile_map = #poplar.tile_map<0 to 1 x 2>}> : (!poplar.tensor<2xf16>) -> ()
// GENERIC-NEXT:   "poplar.create_host_write"(%a) <{handle = "write_a"}> : (!poplar.tensor<f32>) -> ()
// GENERIC-NEXT:   "poplar.create_host_write"(%x) <{handle = "write_x"}> {note} : (!poplar.tensor<10xf32>) -> ()
// GENERIC-NEXT:   %cs = "poplar.add_compute_set"() <{debug_name = "cs"}> : () -> !poplar.compute_set
// GENERIC-NEXT:   "poplar.add_vertices"(%cs, %a, %x, %y, %p) <{codelet = @body, tile_map = #poplar.tile_map<0 to 2 x 3, 2 to 4 x 2>, field_names = ["a", "x", "y", "p"], rules = [#poplar.slice<whole>, #poplar.slice<block>, #poplar.slice<block>, #poplar.slice<partial>], cycles = array<i64: 120, 96>}> : (!poplar.compute_set, !poplar.tensor<f32>, !poplar.tensor<10xf32>, !poplar.tensor<2x5xf32>, !poplar.tensor<4xf32>) -> ()
// GENERIC-NEXT:   "poplar.add_vertices"(%cs, %p, %y, %x, %a) <{codelet = @body, tile_map = #poplar.tile_map<7 to 8 x 5>, field_names = ["p", "y", "x", "a"], rules = [#poplar.slice<partial>, #poplar.slice<block>, #poplar.slice<halo<0, 5>>, #poplar.slice<whole>], cycles = array<i64: 0>}> {note} : (!poplar.compute_set, !poplar.tensor<4xf32>, !poplar.tensor<2x5xf32>, !poplar.tensor<10xf32>, !poplar.tensor<f32>) -> ()
// GENERIC-NEXT:   %cs2 = "poplar.add_compute_set"() <{debug_name = "other"}> {note} : () -> !poplar.compute_set
// GENERIC-NEXT:   "poplar.add_vertices"(%cs2, %h) <{codelet = @nop, tile_map = #poplar.tile_map<1471 to 1472 x 6>, field_names = ["h"], rules = [#poplar.slice<whole>], cycles = array<i64: 60>}> : (!poplar.compute_set, !poplar.tensor<2x1x3xf16>) -> ()
// GENERIC-NEXT:   %p0 = "poplar.execute"(%cs) : (!poplar.compute_set) -> !poplar.program
// GENERIC-NEXT:   %p1 = "poplar.execute"(%cs2) {note} : (!poplar.compute_set) -> !poplar.program
// GENERIC-NEXT:   %yf = "poplar.flatten"(%y) : (!poplar.tensor<2x5xf32>) -> !poplar.tensor<10xf32>
// GENERIC-NEXT:   %ys = "poplar.slice"(%yf) <{begin = 2 : i64, end = 6 : i64}> : (!poplar.tensor<10xf32>) -> !poplar.tensor<4xf32>
// GENERIC-NEXT:   %xs = "poplar.slice"(%x) <{begin = 0 : i64, end = 4 : i64}> {note} : (!poplar.tensor<10xf32>) -> !poplar.tensor<4xf32>
// GENERIC-NEXT:   %p2 = "poplar.copy"(%xs, %ys) : (!poplar.tensor<4xf32>, !poplar.tensor<4xf32>) -> !poplar.program
// GENERIC-NEXT:   %p3 = "poplar.copy"(%x, %yf) {note} : (!poplar.tensor<10xf32>, !poplar.tensor<10xf32>) -> !poplar.program
// GENERIC-NEXT:   "poplar.create_host_read"(%y) <{handle = "read_y"}> : (!poplar.tensor<2x5xf32>) -> ()
// GENERIC-NEXT:   %empty = "poplar.sequence"() : () -> !poplar.program
// GENERIC-NEXT:   %seq = "poplar.sequence"(%p0, %p1, %p2, %p3, %empty) {note} : (!poplar.program, !poplar.program, !poplar.program, !poplar.program, !poplar.program) -> !poplar.program
// GENERIC-NEXT:   "poplar.engine"(%seq) : (!poplar.program) -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT:   "poplar.write_tensor"() <{handle = "write_a", argument = "a"}> : () -> ()
// GENERIC-NEXT:   "poplar.write_tensor"() <{handle = "write_x", argument = "x"}> {note} : () -> ()
// GENERIC-NEXT:   "poplar.run"() <{program_index = 0 : i64}> : () -> ()
// GENERIC-NEXT:   "poplar.run"() <{program_index = 1 : i64}> {again} : () -> ()
// GENERIC-NEXT:   "poplar.read_tensor"() <{handle = "read_y", argument = "y"}> : () -> ()
// GENERIC-NEXT: }) {keep, m = #poplar.tile_map<0 to 2 x 3, 5 to 6 x 4>, s = #poplar.slice<halo<1, 2>>, f = #poplar.field<output "y">, t = [!poplar.compute_set, !poplar.program, !poplar.tensor<f16>]} : () -> ()
// GENERIC-NEXT: }) : () -> ()
