// RUN: ipu-opt %s -p ipu-tile-partition --split-input-file --verify-diagnostics | filecheck %s

// Reads the partition cannot give a vertex through a view: a diagonal (a parameter in
// two indices), a view of what the map writes, a view whose elements do not cover the
// points' neighbourhood, a view read outside its container.

sdfg.sdfg @diagonal args ["x", "A"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<6 x 6 x f32>
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
      %v = sdfg.read %x[%i, %i] : !sdfg.array<6 x 6 x f32>
      sdfg.write %v to %A[%i, %j] : !sdfg.array<4 x 6 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-views-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' accesses 'x[i, i]' of shape !sdfg.array<6 x 6 x f32>; only accesses at constant offsets from the point (the map parameters in order), reshapes and views (rows, columns, boxes, transposes) are supported yet

// -----

sdfg.sdfg @in_place_transpose args ["A"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %v = sdfg.read %A[%j, %i] : !sdfg.array<4 x 4 x f32>
      sdfg.write %v to %A[%i, %j] : !sdfg.array<4 x 4 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-views-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' reads 'A[j, i]' through a view and writes 'A': other vertices write those elements in the same compute set

// -----

sdfg.sdfg @shifted args ["t", "b"] symbols [] {
  %t = sdfg.container "t" : !sdfg.array<10 x f32>
  %b = sdfg.container "b" : !sdfg.array<11 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (10) step (1) {
      %v = sdfg.read %t[%i] : !sdfg.array<10 x f32>
      sdfg.write %v to %b[%i + 1] : !sdfg.array<11 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-views-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' reads 't[i]' from elements [0:11] around its points, outside the 10 it can read them from; not supported

// -----

sdfg.sdfg @row_outside args ["A", "y"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %y = sdfg.container "y" : !sdfg.array<6 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (6) step (1) {
      %v = sdfg.read %A[4, %i] : !sdfg.array<4 x 6 x f32>
      sdfg.write %v to %y[%i] : !sdfg.array<6 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-views-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' reads 'A[4, i]' outside its shape !sdfg.array<4 x 6 x f32>

// -----

sdfg.sdfg @column_outside args ["A", "y"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %A[%i + 1, 0] : !sdfg.array<4 x 6 x f32>
      sdfg.write %v to %y[%i] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-views-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' reads 'A[i + 1, 0]' outside its shape !sdfg.array<4 x 6 x f32>
