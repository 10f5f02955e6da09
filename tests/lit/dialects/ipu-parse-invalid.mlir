// RUN: ipu-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Errors of the custom syntax of the ipu dialect (tile maps, slice rules, fields,
// ipu.copy, ipu.tiled_map, ipu.access, ipu.codelet, ipu.vertices). Each check names
// the source line the error points at and the message under its caret.

// A tile map run is `first to end x count`.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 4 x 1> : memref<4xf32>
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 3]]:36
// CHECK-NEXT: %x = ipu.variable "x" mapping <0 4 x 1> : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'to'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 4> : memref<4xf32>
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 3]]:40
// CHECK-NEXT: %x = ipu.variable "x" mapping <0 to 4> : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'x'

// -----

// Tiles and counts are not negative.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 4 x -1> : memref<4xf32>
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 3]]:43
// CHECK-NEXT: %x = ipu.variable "x" mapping <0 to 4 x -1> : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected integer literal

// -----

// In the custom form of ops, a tile map is written without its `#ipu.tile_map` prefix.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping #ipu.tile_map<0 to 4 x 1> : memref<4xf32>
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 3]]:33
// CHECK-NEXT: %x = ipu.variable "x" mapping #ipu.tile_map<0 to 4 x 1> : memref<4xf32>
// CHECK-NEXT: ^^^^^^^^^^^^^
// CHECK-NEXT: Expected '<'

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.tiled_map "m" over #ipu.tile_map<0 to 1 x 1> ins() outs() {
    ipu.yield
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 5]]:26
// CHECK-NEXT: ipu.tiled_map "m" over #ipu.tile_map<0 to 1 x 1> ins() outs() {
// CHECK-NEXT: ^^^^^^^^^^^^^
// CHECK-NEXT: Expected '<'

// -----

// A slice rule is one of four keywords ...
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x diagonal : memref<4xf32>) outs() {
  ^bb0(%a: memref<4xf32>):
    ipu.yield
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 6]]:46
// CHECK-NEXT: ipu.tiled_map "m" over <0 to 1 x 4> ins(%x diagonal : memref<4xf32>) outs() {
// CHECK-NEXT: ^^^^^^^^
// CHECK-NEXT: Expected one of 'block', 'columns', 'halo', 'neighbours', 'partial', 'partials', 'rows', 'whole' (a slice rule)

// -----

// ... and a halo has two widths ...
ipu.graph "g" arch "ipu2" args [] attributes {s = #ipu.slice<halo<1>>} {
^bb0:
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:68
// CHECK-NEXT: ipu.graph "g" arch "ipu2" args [] attributes {s = #ipu.slice<halo<1>>} {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected ','

// -----

// ... that are not negative.
ipu.graph "g" arch "ipu2" args [] attributes {s = #ipu.slice<halo<-1, 1>>} {
^bb0:
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:67
// CHECK-NEXT: ipu.graph "g" arch "ipu2" args [] attributes {s = #ipu.slice<halo<-1, 1>>} {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected integer literal

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x : memref<4xf32>) outs() {
  ^bb0(%a: memref<4xf32>):
    ipu.yield
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 6]]:46
// CHECK-NEXT: ipu.tiled_map "m" over <0 to 1 x 4> ins(%x : memref<4xf32>) outs() {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected one of 'block', 'columns', 'halo', 'neighbours', 'partial', 'partials', 'rows', 'whole' (a slice rule)

// -----

// A field is a direction and a name string.
ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<sideways "x">} {
^bb0:
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:62
// CHECK-NEXT: ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<sideways "x">} {
// CHECK-NEXT: ^^^^^^^^
// CHECK-NEXT: Expected one of 'inout', 'input', 'output' (a field direction)

// -----

ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<input x>} {
^bb0:
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:68
// CHECK-NEXT: ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<input x>} {
// CHECK-NEXT: ^
// CHECK-NEXT: string literal expected

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> sideways "x") {
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:36
// CHECK-NEXT: ipu.codelet @c(%x: memref<?xf32> sideways "x") {
// CHECK-NEXT: ^^^^^^^^
// CHECK-NEXT: Expected one of 'inout', 'input', 'output' (a field direction)

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input x) {
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:42
// CHECK-NEXT: ipu.codelet @c(%x: memref<?xf32> input x) {
// CHECK-NEXT: ^
// CHECK-NEXT: string literal expected

// -----

// A codelet's fields are its arguments: its body has no block header of its own.
ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input "x") {
  ^bb0(%y: memref<?xf32>):
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:3
// CHECK-NEXT: ^bb0(%y: memref<?xf32>):
// CHECK-NEXT: ^^^^
// CHECK-NEXT: invalid block name in region with named arguments

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.copy %x[0:-2] to %x[0:2] : memref<4xf32>, memref<4xf32>
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 3]]:17
// CHECK-NEXT: ipu.copy %x[0:-2] to %x[0:2] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected integer literal

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.copy %x to %x[0:2] : memref<4xf32>, memref<4xf32>
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 3]]:15
// CHECK-NEXT: ipu.copy %x to %x[0:2] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT: ^^
// CHECK-NEXT: Expected '['

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 2 x 2> ins(%x block, %x block : memref<4xf32>) outs() {
  ^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
    ipu.yield
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 6]]:79
// CHECK-NEXT: ipu.tiled_map "m" over <0 to 2 x 2> ins(%x block, %x block : memref<4xf32>) outs() {
// CHECK-NEXT: ^^^^
// CHECK-NEXT: 2 operands but 1 type

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 2 x 2> ins(%x block : memref<4xf32>) {
  ^bb0(%a: memref<4xf32>):
    ipu.yield
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 6]]:69
// CHECK-NEXT: ipu.tiled_map "m" over <0 to 2 x 2> ins(%x block : memref<4xf32>) {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'outs'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 2 x 2> ins(%x block : memref<4xf32>) outs() {
  ^bb0(%a: memref<4xf32>):
    %e = ipu.access %a[0] : f32
    ipu.yield
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:5
// CHECK-NEXT: ipu.yield
// CHECK-NEXT: ^^^^^^^^^
// CHECK-NEXT: ipu.access reads a memref

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 2 x 2> ins(%x block : memref<4xf32>) outs() {
  ^bb0(%a: memref<4xf32>):
    %e = ipu.access %a(0) : memref<4xf32>
    ipu.yield
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 5]]:23
// CHECK-NEXT: %e = ipu.access %a(0) : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: '[' expected

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices "c" over <0 to 2 x 2> (%x block : memref<4xf32>)
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 4]]:22
// CHECK-NEXT: ipu.vertices "c" over <0 to 2 x 2> (%x block : memref<4xf32>)
// CHECK-NEXT: ^^^^
// CHECK-NEXT: expected a codelet symbol

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 2> (%x block : memref<4xf32>, memref<4xf32>)
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 3]]:3
// CHECK-NEXT: }
// CHECK-NEXT: ^
// CHECK-NEXT: 1 operand but 2 types

// -----

// The operand list of a placement is always written, empty or not.
ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c() {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 2>
  }
}

// CHECK:      ipu-parse-invalid.mlir:[[# @LINE - 3]]:3
// CHECK-NEXT: }
// CHECK-NEXT: ^
// CHECK-NEXT: Expected '('
