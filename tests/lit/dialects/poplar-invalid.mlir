// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of the poplar dialect, one case each. poplar.host_program is written
// in the generic form: its custom form does not parse yet (see
// poplar-host-program-syntax.mlir). The poplar ops have no custom parsers of their own,
// so there is no poplar-parse-invalid.mlir.

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = ["x", "y"], argument_types = [memref<4xf32>]}> ({
  %p = poplar.sequence()
  poplar.engine %p
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:8:1: error: host program needs one type per argument

// -----

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = ["x"], argument_types = [memref<4xf64>]}> ({
  %p = poplar.sequence()
  poplar.engine %p
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:19:1: error: argument 'x' has element type f64, which Poplar does not support on the IPU

// -----

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %t = poplar.add_variable "t" f32 [4]
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:30:1: error: the build region must end with poplar.engine

// -----

// An empty build region.
"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
^bb0:
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:41:1: error: the build region must end with poplar.engine

// -----

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %t = poplar.add_variable "t" f64 [4]
  %p = poplar.sequence()
  poplar.engine %p
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:52:3: error: variable 't' has element type f64, which Poplar does not support on the IPU

// -----

// The hint about ipu-demote-f64 is given for every unsupported type, i64 included.
"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %t = poplar.add_variable "t" i64 [4]
  %p = poplar.sequence()
  poplar.engine %p
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:65:3: error: variable 't' has element type i64, which Poplar does not support on the IPU

// -----

// Graph construction belongs in the build region ...
"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %p = poplar.sequence()
  poplar.engine %p
}, {
  %t = poplar.add_variable "t" f32 [4]
}) : () -> ()

// CHECK: poplar-invalid.mlir:81:3: error: 'poplar.add_variable' must be in the build region of a poplar.host_program

// -----

// ... of a host program.
%t = poplar.add_variable "t" f32 [4]

// CHECK: poplar-invalid.mlir:89:1: error: 'poplar.add_variable' must be in the build region of a poplar.host_program

// -----

// Every graph-construction op checks it.
"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %p = poplar.sequence()
  poplar.engine %p
}, {
  %cs = poplar.add_compute_set "cs"
}) : () -> ()

// CHECK: poplar-invalid.mlir:100:3: error: 'poplar.add_compute_set' must be in the build region of a poplar.host_program

// -----

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %p = poplar.sequence()
  poplar.engine %p
}, {
  %q = poplar.sequence()
}) : () -> ()

// CHECK: poplar-invalid.mlir:111:3: error: 'poplar.sequence' must be in the build region of a poplar.host_program

// -----

// Engine calls belong in the run region ...
"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %p = poplar.sequence()
  poplar.run 0
  poplar.engine %p
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:121:3: error: 'poplar.run' must be in the run region of a poplar.host_program

// -----

// ... of a host program.
poplar.run 0

// CHECK: poplar-invalid.mlir:132:1: error: 'poplar.run' must be in the run region of a poplar.host_program

// -----

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %t = poplar.add_variable "t" f32 [4]
  %s = poplar.slice %t[2 : 2]
  %p = poplar.sequence()
  poplar.engine %p
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:140:3: error: empty or negative slice [2:2]

// -----

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = [], argument_types = []}> ({
  %t = poplar.add_variable "t" f32 [4]
  %s = poplar.slice %t[-1 : 2]
  %p = poplar.sequence()
  poplar.engine %p
}, {
^bb0:
}) : () -> ()

// CHECK: poplar-invalid.mlir:153:3: error: empty or negative slice [-1:2]

// -----

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = ["x"], argument_types = [memref<4xf32>]}> ({
  %p = poplar.sequence()
  poplar.engine %p
}, {
  poplar.write_tensor "write_z" from "z"
}) : () -> ()

// CHECK: poplar-invalid.mlir:168:3: error: 'poplar.write_tensor' names unknown host argument 'z'

// -----

"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = ["x"], argument_types = [memref<4xf32>]}> ({
  %p = poplar.sequence()
  poplar.engine %p
}, {
  poplar.read_tensor "read_z" to "z"
}) : () -> ()

// CHECK: poplar-invalid.mlir:179:3: error: 'poplar.read_tensor' names unknown host argument 'z'

// -----

// Rank-0 arguments are passed by value.
"poplar.host_program"() <{sym_name = "p", arch = "ipu2", arguments = ["a"], argument_types = [memref<f32>]}> ({
  %p = poplar.sequence()
  poplar.engine %p
}, {
  poplar.read_tensor "read_a" to "a"
}) : () -> ()

// CHECK: poplar-invalid.mlir:191:3: error: cannot read into scalar argument 'a': scalars are passed by value

// -----

poplar.codelet @c fields [#ipu.field<input "x" vector f64>, #ipu.field<output "y" vector f64>] {
^bb0(%a: f64):
  poplar.yield %a : f64
}

// CHECK: poplar-invalid.mlir:198:1: error: field 'x' has element type f64, which Poplar does not support on the IPU

// -----

poplar.codelet @c fields [#ipu.field<input "x" vector f32>, #ipu.field<output "y" vector f32>] {
^bb0(%a: f32, %b: f32):
  poplar.yield %a : f32
}

// CHECK: poplar-invalid.mlir:207:1: error: codelet 'c' body arguments do not match its readable fields

// -----

poplar.codelet @c fields [#ipu.field<input "x" vector f32>, #ipu.field<output "y" vector f32>] {
^bb0(%a: f32):
  %b = arith.addf %a, %a : f32
}

// CHECK: poplar-invalid.mlir:216:1: error: codelet 'c' must yield one value per writable field

// -----

poplar.codelet @c fields [#ipu.field<input "x" vector f32>, #ipu.field<inout "y" vector f32>] {
^bb0(%a: f32, %b: f32):
  poplar.yield %a, %b : f32, f32
}

// CHECK: poplar-invalid.mlir:225:1: error: codelet 'c' must yield one value per writable field

// -----

%c = arith.constant 0 : i32
poplar.yield %c : i32

// CHECK: poplar-invalid.mlir:235:1: error: 'poplar.yield' expects parent op 'poplar.codelet'
