// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of the ipu dialect, one case each: the attribute verifiers of
// #ipu.tile_map and #ipu.field (reported while parsing, without a location), the op
// verifiers, the parent traits and the symbol table of ipu.graph. Syntax errors are in
// ipu-parse-invalid.mlir.

// Tile groups must not overlap ...
ipu.graph "g" arch "ipu2" args [] attributes {m = #ipu.tile_map<0 to 4 x 1, 2 to 6 x 1>} {
^bb0:
}

// CHECK: #ipu.tile_map groups must cover increasing, non-empty tile ranges (group 2 to 6 starts before tile 4 or is empty)

// -----

// ... nor be empty.
ipu.graph "g" arch "ipu2" args [] attributes {m = #ipu.tile_map<4 to 4 x 1>} {
^bb0:
}

// CHECK: #ipu.tile_map groups must cover increasing, non-empty tile ranges (group 4 to 4 starts before tile 0 or is empty)

// -----

ipu.graph "g" arch "ipu2" args [] attributes {m = #ipu.tile_map<0 to 4 x 0>} {
^bb0:
}

// CHECK: #ipu.tile_map group holds 0 elements per tile

// -----

ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<sideways "x" vector f32>} {
^bb0:
}

// CHECK: field direction 'sideways' is not one of input, output, inout

// -----

ipu.graph "g" arch "ipu9" args [] {
^bb0:
}

// CHECK: ipu-invalid.mlir:42:1: error: unknown IPU architecture 'ipu9' (known: ipu1, ipu2, ipu21)

// -----

// ipu1 has tiles 0 to 1215.
ipu.graph "g" arch "ipu1" args [] {
  %x = ipu.variable "x" mapping <1215 to 1217 x 1> : memref<2xf32>
}

// CHECK: ipu-invalid.mlir:51:1: error: variable 'x' is mapped to tile 1216 but ipu1 has 1216 tiles

// -----

ipu.graph "g" arch "ipu2" args ["x", "y"] {
  %x = ipu.variable "x" mapping <0 to 1 x 2> : memref<2xf32>
}

// CHECK: ipu-invalid.mlir:59:1: error: argument 'y' has no ipu.variable

// -----

// Two codelets with one name.
ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
}

// CHECK: ipu-invalid.mlir:68:1: error: Redefinition of symbol "c"

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 3> : memref<2x2xf32>
}

// CHECK: ipu-invalid.mlir:84:3: error: tile map of 'x' covers 6 elements but the tensor has 4

// -----

%x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>

// CHECK: ipu-invalid.mlir:91:1: error: 'ipu.variable' expects parent op 'ipu.graph'

// -----

// Host transfers, copies, tiled maps and vertices take ipu.variable results only.
ipu.graph "g" arch "ipu2" args [] {
  %m = memref.alloc() : memref<4xf32>
  ipu.from_host %m : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:100:3: error: operand must be the result of an ipu.variable

// -----

%x = memref.alloc() : memref<4xf32>
ipu.from_host %x : memref<4xf32>

// CHECK: ipu-invalid.mlir:108:1: error: 'ipu.from_host' expects parent op 'ipu.graph'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %m = memref.alloc() : memref<4xf32>
  ipu.to_host %m : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:116:3: error: operand must be the result of an ipu.variable

// -----

%x = memref.alloc() : memref<4xf32>
ipu.to_host %x : memref<4xf32>

// CHECK: ipu-invalid.mlir:124:1: error: 'ipu.to_host' expects parent op 'ipu.graph'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %m = memref.alloc() : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.copy %m[0:4] to %y[0:4] : memref<4xf32>, memref<4xf32>
}

// CHECK: ipu-invalid.mlir:133:3: error: operand must be the result of an ipu.variable

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.copy %x[2:2] to %y[0:0] : memref<4xf32>, memref<4xf32>
}

// CHECK: ipu-invalid.mlir:143:3: error: copy range [2:2] of 'x' is empty or out of bounds

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.copy %x[0:4] to %y[1:5] : memref<4xf32>, memref<4xf32>
}

// CHECK: ipu-invalid.mlir:153:3: error: copy range [1:5] of 'y' is empty or out of bounds

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.copy %x[0:4] to %y[1:3] : memref<4xf32>, memref<4xf32>
}

// CHECK: ipu-invalid.mlir:163:3: error: copy source and destination ranges differ in length

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xi32>
  ipu.copy %x[0:4] to %y[0:4] : memref<4xf32>, memref<4xi32>
}

// CHECK: ipu-invalid.mlir:173:3: error: copy between tensors of different element types

// -----

%x = memref.alloc() : memref<4xf32>
ipu.copy %x[0:4] to %x[0:4] : memref<4xf32>, memref<4xf32>

// CHECK: ipu-invalid.mlir:181:1: error: 'ipu.copy' expects parent op 'ipu.graph'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %m = memref.alloc() : memref<4xf32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%m : memref<4xf32>) outs() {
  ^bb0(%a: f32):
    ipu.yield
  }
}

// CHECK: ipu-invalid.mlir:189:3: error: operand must be the result of an ipu.variable

// -----

// Non-scalar operands are laid out like the iterations.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
}

// CHECK: ipu-invalid.mlir:203:3: error: 'y' is not laid out like the iterations of 'm': #ipu.tile_map<0 to 1 x 4> vs #ipu.tile_map<0 to 2 x 2>

// -----

// A rank-0 tensor is read whole by every iteration, but only one iteration may write it.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x : memref<4xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
}

// CHECK: ipu-invalid.mlir:217:3: error: 'm' writes scalar 's' from every iteration

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) {
  ^bb0(%a: i32):
    %c = arith.constant 0.0 : f32
    ipu.yield %c : f32
  }
}

// CHECK: ipu-invalid.mlir:229:3: error: body of 'm' takes ['i32'], expected ['f32']

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) {
  ^bb0(%a: f32):
    %c = arith.addf %a, %a : f32
  }
}

// CHECK: ipu-invalid.mlir:242:3: error: body of 'm' must end with ipu.yield

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) {
  ^bb0(%a: f32):
    ipu.yield
  }
}

// CHECK: ipu-invalid.mlir:254:3: error: body of 'm' yields [], expected ['f32']

// -----

ipu.tiled_map "m" over #ipu.tile_map<0 to 1 x 4> ins() outs() {
  ipu.yield
}

// CHECK: ipu-invalid.mlir:264:1: error: 'ipu.tiled_map' expects parent op 'ipu.graph'

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c fields [#ipu.field<input "a" vector f32>, #ipu.field<output "a" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
}

// CHECK: ipu-invalid.mlir:273:3: error: codelet 'c' repeats a field name

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c fields [#ipu.field<input "a" vector f32>, #ipu.field<output "b" scalar f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
}

// CHECK: ipu-invalid.mlir:284:3: error: codelet 'c' has vector inputs but no vector output

// -----

// An inout field is an argument and a yielded value.
ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c fields [#ipu.field<input "a" vector f32>, #ipu.field<inout "b" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
}

// CHECK: ipu-invalid.mlir:296:3: error: body of 'c' takes ['f32'], expected ['f32', 'f32']

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c fields [#ipu.field<input "a" vector f32>, #ipu.field<output "b" vector i32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
}

// CHECK: ipu-invalid.mlir:307:3: error: body of 'c' yields ['f32'], expected ['i32']

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c fields [#ipu.field<input "a" vector f32>, #ipu.field<output "b" vector f32>] {
  ^bb0(%a: f32):
    %b = arith.addf %a, %a : f32
  }
}

// CHECK: ipu-invalid.mlir:318:3: error: body of 'c' must end with ipu.yield

// -----

ipu.codelet @c fields [#ipu.field<output "b" scalar f32>] {
  %b = arith.constant 1.0 : f32
  ipu.yield %b : f32
}

// CHECK: ipu-invalid.mlir:328:1: error: 'ipu.codelet' expects parent op 'ipu.graph'

// -----

ipu.compute_set "cs" {
^bb0:
}

// CHECK: ipu-invalid.mlir:337:1: error: 'ipu.compute_set' expects parent op 'ipu.graph'

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.compute_set "cs" {
    ipu.yield
  }
}

// CHECK: ipu-invalid.mlir:347:5: error: ipu.yield must end an ipu.tiled_map or ipu.codelet body

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.compute_set "cs" {
    ipu.vertex @nope tile 0 (%x[0:2]) : memref<4xf32>
  }
}

// CHECK: ipu-invalid.mlir:358:5: error: vertex refers to unknown codelet @nope

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    ipu.vertex @c tile 0 (%x[0:2], %x[0:2]) : memref<4xf32>, memref<4xf32>
  }
}

// CHECK: ipu-invalid.mlir:373:5: error: codelet @c has 1 fields but the vertex on tile 0 connects 2 tensors

// -----

// The custom form pairs operands and slices; the generic form can give too many bounds.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    "ipu.vertex"(%x) <{codelet = @c, tile = 0 : i64, slices = array<i64: 0, 2, 0, 2>}> : (memref<4xf32>) -> ()
  }
}

// CHECK: ipu-invalid.mlir:389:5: error: vertex on tile 0 has 1 tensors but 4 slice bounds

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    ipu.vertex @c tile 0 (%x[2:1]) : memref<4xf32>
  }
}

// CHECK: ipu-invalid.mlir:404:5: error: slice [2:1] of 'x' is empty or out of bounds

// -----

// A tensor that is not rank 0 needs a slice; without one it is the empty slice [0:0].
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    ipu.vertex @c tile 0 (%x) : memref<4xf32>
  }
}

// CHECK: ipu-invalid.mlir:420:5: error: slice [0:0] of 'x' is empty or out of bounds

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    ipu.vertex @c tile 1 (%x[0:2]) : memref<4xf32>
  }
}

// CHECK: ipu-invalid.mlir:435:5: error: slice [0:2] of 'x' is not held by tile 1

// -----

// A slice across two tiles is held by none.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    ipu.vertex @c tile 0 (%x[1:3]) : memref<4xf32>
  }
}

// CHECK: ipu-invalid.mlir:451:5: error: slice [1:3] of 'x' is not held by tile 0

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  %m = memref.alloc() : memref<4xf32>
  ipu.compute_set "cs" {
    ipu.vertex @c tile 0 (%m[0:2]) : memref<4xf32>
  }
}

// CHECK: ipu-invalid.mlir:466:5: error: operand must be the result of an ipu.variable

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.vertex @c tile 0 (%x[0:2]) : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:480:3: error: 'ipu.vertex' expects parent op 'ipu.compute_set'

// -----

"ipu.graph"() <{sym_name = "g", arch = "ipu2", args = []}> ({
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    "ipu.vertex"(%x) <{codelet = @c, tile = 0 : i64, slices = array<i64: 0, 2, 4>}> : (memref<4xf32>) -> ()
  }
}) : () -> ()

// CHECK: error: vertex on tile 0 has 1 tensors but 3 slice bounds

// -----

ipu.graph "g" arch "ipu2" args [] {
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<input "s" scalar f32>, #ipu.field<output "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    "ipu.vertex"(%s, %x) <{codelet = @c, tile = 0 : i64, slices = array<i64: 5, 9, 0, 2>}> : (memref<f32>, memref<4xf32>) -> ()
  }
}

// CHECK: error: scalar 's' is connected whole: its slice must be (0, 0)

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<?xf32>
}

// CHECK: error: variable 'x' must have a static shape

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "__x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
}

// CHECK: field name '__x' is not a C++ identifier
