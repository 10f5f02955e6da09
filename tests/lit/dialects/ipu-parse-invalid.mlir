// RUN: ipu-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Errors of the custom syntax of the ipu dialect (#ipu.tile_map, #ipu.field, ipu.copy,
// ipu.tiled_map, ipu.vertex). Each check names the source line the error points at and
// the message under its caret.

// A tile map group is `first to end x count`.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 4 x 1> : memref<4xf32>
}

// CHECK:      %x = ipu.variable "x" mapping <0 4 x 1> : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'to'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 4> : memref<4xf32>
}

// CHECK:      %x = ipu.variable "x" mapping <0 to 4> : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'x'

// -----

// Tiles and counts are not negative.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 4 x -1> : memref<4xf32>
}

// CHECK:      %x = ipu.variable "x" mapping <0 to 4 x -1> : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected integer literal

// -----

// In ipu.variable the tile map is written without its `#ipu.tile_map` prefix.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping #ipu.tile_map<0 to 4 x 1> : memref<4xf32>
}

// CHECK:      %x = ipu.variable "x" mapping #ipu.tile_map<0 to 4 x 1> : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: '<' expected

// -----

ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<input "x" matrix f32>} {
^bb0:
}

// CHECK:      ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<input "x" matrix f32>} {
// CHECK-NEXT: ^
// CHECK-NEXT: expected 'vector' or 'scalar'

// -----

// The field name is a string.
ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<input x vector f32>} {
^bb0:
}

// CHECK:      ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<input x vector f32>} {
// CHECK-NEXT: ^
// CHECK-NEXT: string literal expected

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.copy %x[0:-2] to %x[0:2] : memref<4xf32>, memref<4xf32>
}

// CHECK:      ipu.copy %x[0:-2] to %x[0:2] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected integer literal

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.copy %x to %x[0:2] : memref<4xf32>, memref<4xf32>
}

// CHECK:      ipu.copy %x to %x[0:2] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: Expected '['

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.tiled_map "m" over #ipu.field<input "x" vector f32> ins() outs() {
    ipu.yield
  }
}

// CHECK:      ipu.tiled_map "m" over #ipu.field<input "x" vector f32> ins() outs() {
// CHECK-NEXT: ^
// CHECK-NEXT: expected an #ipu.tile_map

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x, %x : memref<4xf32>) outs() {
  ^bb0(%a: f32, %b: f32):
    ipu.yield
  }
}

// CHECK:      ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x, %x : memref<4xf32>) outs() {
// CHECK-NEXT: ^
// CHECK-NEXT: 2 operands but 1 types

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x : memref<4xf32>) {
  ^bb0(%a: f32):
    ipu.yield
  }
}

// CHECK:      ipu.tiled_map "m" over #ipu.tile_map<0 to 2 x 2> ins(%x : memref<4xf32>) {
// CHECK-NEXT: ^
// CHECK-NEXT: Expected 'outs'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    ipu.vertex "c" tile 0 (%x[0:2]) : memref<4xf32>
  }
}

// CHECK:      ipu.vertex "c" tile 0 (%x[0:2]) : memref<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: expected a codelet symbol

// -----

// The error is reported after the types.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.codelet @c fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%a: f32):
    ipu.yield %a : f32
  }
  ipu.compute_set "cs" {
    ipu.vertex @c tile 0 (%x[0:2]) : memref<4xf32>, memref<4xf32>
  }
}

// CHECK:      1 operands but 2 types
