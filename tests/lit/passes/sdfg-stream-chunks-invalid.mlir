// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p 'sdfg-stream-chunks{chunk=2}' | filecheck %s
// RUN: not ipu-opt %s --split-input-file -p 'sdfg-stream-chunks{chunk=-1}' 2>&1 | filecheck %s --check-prefix=NEGATIVE
// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p 'sdfg-stream-chunks{chunk=5}' | filecheck %s --check-prefix=DIVIDE
// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p 'sdfg-stream-chunks{arch=ipu1}' | filecheck %s --check-prefix=BUDGET

// Every error of sdfg-stream-chunks, one case each.

// A neighbour along the streamed rows: another chunk holds it.
sdfg.sdfg @neighbour args ["x", "y"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (7) step (1) {
      %v = sdfg.read %x[%i + 1] : !sdfg.array<8 x f32>
      sdfg.write %v to %y[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' accesses 'x[i + 1]' of streaming container 'x'; a map reaches streaming memory in chunks of rows: at one of its parameters alone in the first dimension

// -----

// A transpose: the two streaming arrays are streamed along different parameters.
sdfg.sdfg @transpose args ["x", "y"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<4 x 4 x f32>
  %y = sdfg.container "y" storage "IPU_Streaming" : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %v = sdfg.read %x[%j, %i] : !sdfg.array<4 x 4 x f32>
      sdfg.write %v to %y[%i, %j] : !sdfg.array<4 x 4 x f32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 5]]:7: error: map 'm' accesses 'y[i, j]' of streaming container 'y'; a map reaches streaming memory in chunks of rows: at one of its parameters alone in the first dimension

// -----

// A container in tile memory read at the streamed parameter in another dimension.
sdfg.sdfg @column args ["x", "t", "y"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<4 x 4 x f32>
  %t = sdfg.container "t" : !sdfg.array<4 x 4 x f32>
  %y = sdfg.container "y" storage "IPU_Streaming" : !sdfg.array<4 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %v = sdfg.read %x[%i, %j] : !sdfg.array<4 x 4 x f32>
      %w = sdfg.read %t[%j, %i] : !sdfg.array<4 x 4 x f32>
      %r = sdfg.tasklet "add" ins(a = %v, b = %w) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%aa: f32, %bb: f32):
        %s = arith.addf %aa, %bb : f32
        sdfg.yield %s : f32
      }
      sdfg.write %r to %y[%i, %j] : !sdfg.array<4 x 4 x f32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 11]]:7: error: map 'm' accesses 't[j, i]' at its streamed parameter elsewhere than alone in the first dimension; chunks of rows cannot serve it

// -----

// An array in tile memory every chunk would overwrite.
sdfg.sdfg @overwrite args ["x", "t"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<4 x 4 x f32>
  %t = sdfg.container "t" : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %v = sdfg.read %x[%i, %j] : !sdfg.array<4 x 4 x f32>
      sdfg.write %v to %t[%j] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 5]]:7: error: map 'm' writes 't[j]' in every chunk of its streamed rows; accumulate into it or index it by the streamed parameter

// -----

// Part of the rows of a streaming array.
sdfg.sdfg @part args ["x", "y"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (2) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %y[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' runs over rows 2 to 8 step 1 of streaming container 'x' of 8 rows; chunks cover all rows

// -----

// The streamed parameter in a tasklet's arithmetic.
sdfg.sdfg @index args ["x"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x i32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.apply %i : i32
      sdfg.write %v to %x[%i] : !sdfg.array<8 x i32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 6]]:7: error: map 'm' computes with its streamed parameter; not supported yet

// -----

// A streaming container outside maps.
sdfg.sdfg @copy args ["x", "y"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.copy %x[0:8] to %y[0:8] : !sdfg.array<8 x f32>, !sdfg.array<8 x f32>
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 4]]:5: error: 'sdfg.copy' uses streaming container 'x'; only maps reach streaming memory (in chunks of rows)

// -----

// A shape that sdfg-specialize has not made static ...
sdfg.sdfg @symbolic args ["x"] symbols ["N"] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %v to %x[%i] : !sdfg.array<N x f32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 6]]:7: error: container 'x' has shape !sdfg.array<N x f32>, not static; run sdfg-specialize first

// -----

// ... and a map range.
sdfg.sdfg @range args ["x"] symbols ["N"] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %v to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 7]]:5: error: map 'm' has a range that is not static; run sdfg-specialize first

// -----

// A value computed before the map and used after it, across the chunk loop.
sdfg.sdfg @across args ["a", "x", "b"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  %b = sdfg.container "b" : !sdfg.array<f32>
  sdfg.state "s" {
    %v = sdfg.read %a[] : !sdfg.array<f32>
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %w = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %w to %x[%i] : !sdfg.array<8 x f32>
    }
    sdfg.write %v to %b[] : !sdfg.array<f32>
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 4]]:5: error: a value crosses map 'm', which runs in chunks; not supported yet

// -----

// A value computed before the map and used inside it.
sdfg.sdfg @inside args ["a", "x"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  sdfg.state "s" {
    %v = sdfg.read %a[] : !sdfg.array<f32>
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      sdfg.write %v to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 6]]:5: error: map 'm' uses a value computed outside it; not supported yet

// NEGATIVE: error: sdfg-stream-chunks needs a positive chunk, got -1

// DIVIDE: error: chunks of 5 rows do not divide the 8 rows of map 'm'

// -----

// Data in tile memory that leaves no room for chunks: 40 million floats on ipu1, more
// than half of its 1216 x 256 KiB of tile memory.
sdfg.sdfg @budget args ["x", "t"] symbols [] {
  %x = sdfg.container "x" storage "IPU_Streaming" : !sdfg.array<8 x f32>
  %t = sdfg.container "t" : !sdfg.array<40000000 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (8) step (1) {
      %w = sdfg.read %x[%i] : !sdfg.array<8 x f32>
      sdfg.write %w to %x[%i] : !sdfg.array<8 x f32>
    }
  }
}

// BUDGET: sdfg-stream-chunks-invalid.mlir:[[# @LINE - 7]]:5: error: map 'm' runs in chunks of rows, but one row of its chunks (4 bytes for all streamed maps) and the data in tile memory (160000000 bytes) exceed 0.5 of the tile memory of ipu1 (318767104 bytes)
