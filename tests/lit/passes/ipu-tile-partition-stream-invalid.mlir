// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p ipu-tile-partition | filecheck %s

// ipu-tile-partition reaches streaming containers only through the copies of blocks of
// rows that sdfg-stream-chunks makes; every other use is an error.

sdfg.sdfg @direct args ["x"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-stream-invalid.mlir:[[# @LINE - 6]]:7: error: 'sdfg.read' uses streaming container 'x'; run sdfg-stream-chunks first

// -----

sdfg.sdfg @both args ["x", "y"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.state "s" {
      sdfg.copy %x[2 * %t:2 * %t + 2] to %y[2 * %t:2 * %t + 2] : !sdfg.array<8 x f32>, !sdfg.array<8 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-stream-invalid.mlir:[[# @LINE - 5]]:7: error: copy between streaming containers 'x' and 'y'; not supported yet

// -----

sdfg.sdfg @shifted args ["x"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  %b = sdfg.container "b" transient : !sdfg.array<2 x f32>
  sdfg.for "l" %t = 0 to 3 step 1 {
    sdfg.state "s" {
      sdfg.copy %x[2 * %t + 1:2 * %t + 3] to %b[0:2] : !sdfg.array<8 x f32>, !sdfg.array<2 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-stream-invalid.mlir:[[# @LINE - 5]]:7: error: copy of streaming container 'x' that is not a block of its rows at a loop variable times the block's rows; run sdfg-stream-chunks first

// -----

sdfg.sdfg @sizes args ["x"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  %b = sdfg.container "b" transient : !sdfg.array<2 x f32>
  %c = sdfg.container "c" transient : !sdfg.array<4 x f32>
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.state "s" {
      sdfg.copy %x[2 * %t:2 * %t + 2] to %b[0:2] : !sdfg.array<8 x f32>, !sdfg.array<2 x f32>
    }
  }
  sdfg.for "k" %u = 0 to 2 step 1 {
    sdfg.state "s" {
      sdfg.copy %x[4 * %u:4 * %u + 4] to %c[0:4] : !sdfg.array<8 x f32>, !sdfg.array<4 x f32>
    }
  }
}

// CHECK: ipu-tile-partition-stream-invalid.mlir:[[# @LINE - 5]]:7: error: copies of streaming container 'x' move blocks of 2 and 4 rows; one size only
