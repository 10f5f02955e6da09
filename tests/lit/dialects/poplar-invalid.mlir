// RUN: ipu-opt %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

// Every verifier of the poplar dialect, one case each (the checks shared with the ipu
// dialect through ipu_lower.dialects.tiling and codelet_body included), and the errors
// of its custom syntax (shown with the source line and a caret).

// Attribute and type verifiers are reported while parsing, without a location.
poplar.host_program @p arch "ipu2" args [] : [] attributes {t = !poplar.tensor<4xf64>} build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: !poplar.tensor has element type f64, which Poplar does not support on the IPU

// -----

poplar.host_program @p arch "ipu2" args [] : [] attributes {m = #poplar.tile_map<0 to 4 x 1, 3 to 6 x 1>} build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: #poplar.tile_map runs must cover increasing, non-empty tile ranges (run 3 to 6 starts before tile 4 or is empty)

// -----

poplar.host_program @p arch "ipu2" args [] : [] attributes {m = #poplar.tile_map<0 to 4 x 0>} build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: #poplar.tile_map run 0 to 4 holds 0 elements per tile

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <> ["x" = %t block] cycles [] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: #poplar.tile_map needs at least one run

// -----

poplar.host_program @p arch "ipu2" args [] : [] attributes {f = #poplar.field<inout "class">} build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: field name 'class' is not a C++ identifier

// -----

// poplar.host_program
poplar.host_program @p arch "ipu3" args [] : [] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:1: error: unknown IPU architecture 'ipu3' (known: ipu1, ipu2, ipu21)

// -----

poplar.host_program @p arch "ipu2" args ["x", "y"] : [memref<4xf32>] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:1: error: host program needs one type per argument

// -----

poplar.host_program @p arch "ipu2" args ["x"] : [memref<4xf64>] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:1: error: argument 'x' has element type f64, which Poplar does not support on the IPU

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:1: error: the build region must end with poplar.engine

// -----

// An empty build region.
poplar.host_program @p arch "ipu2" args [] : [] build {
^bb0:
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:1: error: the build region must end with poplar.engine

// -----

// ipu2 has tiles 0 to 1471: every build op with a tile map is checked.
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  poplar.map_tensor %t over <1470 to 1474 x 1> : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: uses tile 1473 but ipu2 has 1472 tiles

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}
poplar.host_program @p arch "ipu1" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  poplar.map_tensor %t over <0 to 1 x 4> : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <1215 to 1216 x 2, 1216 to 1217 x 2> ["x" = %t block] cycles [1, 1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: uses tile 1216 but ipu1 has 1216 tiles

// -----

// Graph construction belongs in the build region ...
poplar.host_program @p arch "ipu2" args [] : [] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:3: error: 'poplar.add_variable' must be in the build region of a poplar.host_program

// -----

// ... of a host program.
%t = poplar.add_variable "t" : !poplar.tensor<4xf32>

// CHECK: poplar-invalid.mlir:[[# @LINE - 2]]:1: error: 'poplar.add_variable' must be in the build region of a poplar.host_program

// -----

// Every graph-construction op checks it.
poplar.host_program @p arch "ipu2" args [] : [] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
  %cs = poplar.add_compute_set "cs"
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:3: error: 'poplar.add_compute_set' must be in the build region of a poplar.host_program

// -----

// Engine calls belong in the run region ...
poplar.host_program @p arch "ipu2" args [] : [] build {
  %p = poplar.sequence()
  poplar.run 0
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:3: error: 'poplar.run' must be in the run region of a poplar.host_program

// -----

// ... of a host program.
poplar.run 0

// CHECK: poplar-invalid.mlir:[[# @LINE - 2]]:1: error: 'poplar.run' must be in the run region of a poplar.host_program

// -----

poplar.host_program @p arch "ipu2" args ["x"] : [memref<4xf32>] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
  poplar.write_tensor "write_z" from "z"
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:3: error: 'poplar.write_tensor' names unknown host argument 'z'

// -----

poplar.host_program @p arch "ipu2" args ["x"] : [memref<4xf32>] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
  poplar.read_tensor "read_z" to "z"
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:3: error: 'poplar.read_tensor' names unknown host argument 'z'

// -----

// Rank-0 arguments are passed by value.
poplar.host_program @p arch "ipu2" args ["a"] : [memref<f32>] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
  poplar.read_tensor "read_a" to "a"
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:3: error: cannot read into scalar argument 'a': scalars are passed by value

// -----

// poplar.map_tensor
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<2x3xf32>
  poplar.map_tensor %t over <0 to 2 x 2> : !poplar.tensor<2x3xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: tile map covers elements [0:4] but the tensor has 6

// -----

// poplar.flatten and poplar.slice
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<2x3xf32>
  %f = poplar.flatten %t : !poplar.tensor<2x3xf32> -> !poplar.tensor<5xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: flattening !poplar.tensor<2x3xf32> gives !poplar.tensor<6xf32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<2x3xf32>
  %s = poplar.slice %t[0 : 2] : !poplar.tensor<2x3xf32> -> !poplar.tensor<2xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: poplar.slice needs a 1-D tensor, got !poplar.tensor<2x3xf32>; flatten it first

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %s = poplar.slice %t[2 : 2] : !poplar.tensor<4xf32> -> !poplar.tensor<0xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: slice [2:2] is empty or outside the 4 elements

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %s = poplar.slice %t[2 : 5] : !poplar.tensor<4xf32> -> !poplar.tensor<3xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: slice [2:5] is empty or outside the 4 elements

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %s = poplar.slice %t[0 : 2] : !poplar.tensor<4xf32> -> !poplar.tensor<3xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: slice [0:2] of !poplar.tensor<4xf32> has the wrong result type

// -----

// poplar.copy
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %u = poplar.add_variable "u" : !poplar.tensor<4xi32>
  %c = poplar.copy %t to %u : !poplar.tensor<4xf32>, !poplar.tensor<4xi32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: copy from !poplar.tensor<4xf32> to !poplar.tensor<4xi32>: element types or counts differ

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %u = poplar.add_variable "u" : !poplar.tensor<5xf32>
  %c = poplar.copy %t to %u : !poplar.tensor<4xf32>, !poplar.tensor<5xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: copy from !poplar.tensor<4xf32> to !poplar.tensor<5xf32>: element types or counts differ

// -----

// poplar.add_vertices
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @missing over <0 to 2 x 2> ["x" = %t block] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: poplar.add_vertices adds vertices of unknown codelet @missing

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  "poplar.add_vertices"(%cs, %t) <{codelet = @c, tile_map = #poplar.tile_map<0 to 2 x 2>, field_names = [], rules = [#poplar.slice<block>], cycles = array<i64: 1>}> : (!poplar.compute_set, !poplar.tensor<4xf32>) -> ()
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: poplar.add_vertices needs one field name and one slice rule per tensor

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["y" = %t block] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: codelet @c has no field 'y' (fields: x)

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x", %y: memref<?xf32> input "y") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t block] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: poplar.add_vertices of @c: field 'y' is not connected

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x", %y: memref<?xf32> input "y") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t block, "y" = %t block, "x" = %t block] cycles [1] : !poplar.tensor<4xf32>, !poplar.tensor<4xf32>, !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: poplar.add_vertices of @c: a field is connected twice

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xi32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t block] cycles [1] : !poplar.tensor<4xi32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: 't' connected to field 'x' of @c has element type i32, the field f32

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t partial] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: 't' connected to field 'x' of @c: a partial slice is one element, the field is a vector

// -----

poplar.codelet @c(%x: memref<f32> inout "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t block] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: 't' connected to field 'x' of @c: a block slice needs a vector field, the field is a scalar

// -----

poplar.codelet @c(%x: memref<f32> input "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t whole] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: 't' connected to field 'x' of @c: a whole tensor of 4 elements needs a vector field

// -----

poplar.codelet @c(%x: memref<?xf32> input "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t halo<0, 1>] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: the halo<0, 1> slice [2:5] of 't' on tile 1 is outside its 4 elements

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 1 x 2, 1 to 2 x 2> ["x" = %t block] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: poplar.add_vertices needs one non-negative cycle estimate per run (2)

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x") {
}
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t block] cycles [-5] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: poplar.add_vertices needs one non-negative cycle estimate per run (1)

// -----

// poplar.codelet: the same checks as ipu.codelet, with the poplar worker ops.
poplar.codelet @c(%x: memref<?xf32> input "x") {
  %w = ipu.worker_id
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.worker_id' expects ancestor op 'ipu.codelet'

// -----

poplar.codelet @c(%x: memref<?xf32> input "x") {
  %c0 = arith.constant 0 : index
  %e = memref.load %x[%c0] : memref<?xf32>
  %m = memref.alloca() : memref<f32>
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:1: error: 'memref.alloca' is not allowed in codelet 'c'

// -----

poplar.codelet @c(%x: memref<?xf32> input "x") {
  %w = poplar.worker_id
  %e = memref.load %x[%w] : memref<?xf32>
  memref.store %e, %x[%w] : memref<?xf32>
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:1: error: codelet 'c' stores to its input field 'x'

// -----

poplar.codelet @c(%x: memref<?xf32> output "x") {
  %w = poplar.worker_id
  %e = memref.load %x[%w] : memref<?xf32>
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 5]]:1: error: codelet 'c' reads its output field 'x' (make it inout)

// -----

poplar.codelet @c(%x: memref<?xi64> inout "x") {
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:1: error: field 'x' of codelet 'c': memref<?xi64> has an element type the IPU does not support

// -----

poplar.codelet @"not c"(%x: memref<?xf32> inout "x") {
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:1: error: codelet name 'not c' is not a C++ identifier

// -----

poplar.codelet @c(%x: memref<?xf32> inout "x", %y: memref<f32> inout "x") {
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 3]]:1: error: codelet 'c' repeats a field name

// -----

%w = poplar.worker_id

// CHECK: poplar-invalid.mlir:[[# @LINE - 2]]:1: error: 'poplar.worker_id' expects ancestor op 'poplar.codelet'

// -----

%n = poplar.num_workers

// CHECK: poplar-invalid.mlir:[[# @LINE - 2]]:1: error: 'poplar.num_workers' expects ancestor op 'poplar.codelet'

// -----

%s = poplar.block_start

// CHECK: poplar-invalid.mlir:[[# @LINE - 2]]:1: error: 'poplar.block_start' expects ancestor op 'poplar.codelet'

// -----

// Custom syntax: a tensor type has a static shape ...
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<?xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 6]]:3
// CHECK-NEXT: %p = poplar.sequence()
// CHECK-NEXT: ^^
// CHECK-NEXT: !poplar.tensor needs a static shape

// -----

// ... a placement names a codelet symbol ...
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs "c" over <0 to 2 x 2> ["x" = %t block] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 7]]:31
// CHECK-NEXT: poplar.add_vertices %cs "c" over <0 to 2 x 2> ["x" = %t block] cycles [1] : !poplar.tensor<4xf32>
// CHECK-NEXT: ^^^^
// CHECK-NEXT: expected a codelet symbol

// -----

// ... and gives one type per connection ...
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t block] cycles [1]
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 6]]:3
// CHECK-NEXT: %p = poplar.sequence()
// CHECK-NEXT: ^^
// CHECK-NEXT: 1 connection but 0 types

// -----

// ... connected by a slice rule ...
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 7]]:57
// CHECK-NEXT: poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t] cycles [1] : !poplar.tensor<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected one of 'block', 'columns', 'halo', 'partial', 'partials', 'rows', 'whole' (a slice rule)

// -----

// ... a planned one (`neighbours` exists only on ipu.tiled_map inputs) ...
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t neighbours] cycles [1] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 7]]:58
// CHECK-NEXT: poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t neighbours] cycles [1] : !poplar.tensor<4xf32>
// CHECK-NEXT: ^^^^^^^^^^
// CHECK-NEXT: Expected one of 'block', 'columns', 'halo', 'partial', 'partials', 'rows', 'whole' (a slice rule)

// -----

// ... with its cycle estimates.
poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t block] : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 7]]:65
// CHECK-NEXT: poplar.add_vertices %cs @c over <0 to 2 x 2> ["x" = %t block] : !poplar.tensor<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'cycles'

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4xf32>
  poplar.map_tensor %t over <0 to 2> : !poplar.tensor<4xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 7]]:36
// CHECK-NEXT: poplar.map_tensor %t over <0 to 2> : !poplar.tensor<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'x'

// -----

poplar.codelet @c(%x: memref<?xf32> both "x") {
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 3]]:37
// CHECK-NEXT: poplar.codelet @c(%x: memref<?xf32> both "x") {
// CHECK-NEXT: ^^^^
// CHECK-NEXT: Expected one of 'inout', 'input', 'output' (a field direction)

// -----

// Control programs: a count is not negative; a predicate is a scalar bool or integer
// tensor.
poplar.host_program @p arch "ipu2" args [] : [] build {
  %b = poplar.sequence()
  %r = poplar.repeat -2 times %b
  poplar.engine %r
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:3: error: poplar.repeat count must not be negative, got -2

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %f = poplar.add_variable "f" : !poplar.tensor<f32>
  %b = poplar.sequence()
  %w = poplar.repeat_while_true %f : !poplar.tensor<f32> cond %b body %b
  poplar.engine %w
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:3: error: 'poplar.repeat_while_true' needs a scalar bool or integer predicate tensor, got !poplar.tensor<f32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %c = poplar.add_variable "c" : !poplar.tensor<2xi1>
  %b = poplar.sequence()
  %i = poplar.if %c : !poplar.tensor<2xi1> then %b else %b
  poplar.engine %i
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:3: error: 'poplar.if' needs a scalar bool or integer predicate tensor, got !poplar.tensor<2xi1>

// -----

// Dynamic slices: the checks shared with the ipu dialect (dynamic_slice.py), here an
// offset of another type and a slice of the wrong size.
poplar.host_program @p arch "ipu2" args [] : [] build {
  %a = poplar.add_variable "a" : !poplar.tensor<4x3xf32>
  %t = poplar.add_variable "t" : !poplar.tensor<i16>
  %r = poplar.add_variable "r" : !poplar.tensor<3xf32>
  %s = "poplar.dynamic_slice"(%a, %t, %r) <{dims = array<i64: 0>, sizes = array<i64: 1>}> : (!poplar.tensor<4x3xf32>, !poplar.tensor<i16>, !poplar.tensor<3xf32>) -> !poplar.program
  poplar.engine %s
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:3: error: 'poplar.dynamic_slice' needs 1 offsets of type !poplar.tensor<i32>

// -----

poplar.host_program @p arch "ipu2" args [] : [] build {
  %a = poplar.add_variable "a" : !poplar.tensor<4x3xf32>
  %t = poplar.add_variable "t" : !poplar.tensor<i32>
  %r = poplar.add_variable "r" : !poplar.tensor<2xf32>
  %s = poplar.dynamic_update %a at [%t] dims [0] sizes [1] from %r : !poplar.tensor<4x3xf32>, !poplar.tensor<2xf32>
  poplar.engine %s
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 6]]:3: error: 'poplar.dynamic_update' slice !poplar.tensor<2xf32> does not hold the 3 elements of the box

// -----

// A constant holds its values: they follow the type ...
poplar.host_program @p arch "ipu2" args [] : [] build {
  %c = poplar.add_constant "c" : !poplar.tensor<2xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK:      poplar-invalid.mlir:[[# @LINE - 6]]:3
// CHECK-NEXT: %p = poplar.sequence()
// CHECK-NEXT: ^
// CHECK-NEXT: poplar.add_constant needs its value: `= dense<...>` after the type

// -----

// ... and have its type.
poplar.host_program @p arch "ipu2" args [] : [] build {
  %c = "poplar.add_constant"() <{debug_name = "c", value = dense<[1, 2]> : tensor<2xi32>}> : () -> !poplar.tensor<2xf32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}

// CHECK: poplar-invalid.mlir:[[# @LINE - 7]]:3: error: the value of constant 'c' has type tensor<2xi32>, expected tensor<2xf32>
