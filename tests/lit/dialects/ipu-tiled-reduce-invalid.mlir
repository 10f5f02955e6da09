// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of ipu.tiled_reduce and of the slice rules reductions use
// (partials<n>, rows<n>, columns<n>), one case each.

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  "ipu.tiled_reduce"(%x, %p) <{label = "r", kind = "sub", tile_map = #ipu.tile_map<0 to 2 x 4>, fold = array<i64: 1, -1, 1>, split = "outputs", in_rules = [#ipu.slice<block>], out_rule = #ipu.slice<partials<1>>}> ({
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }) : (memref<8xf32>, memref<2xf32>) -> ()
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r': unknown reduction 'sub' (expected add, mul, min, max)

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <? x ? x 1> split outputs ins(%x block : memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r': fold needs three sizes, exactly one of them '?', the others positive

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 6> : memref<12xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split folded accumulate ins(%x block : memref<8xf32>) outs(%p partials<6> : memref<12xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r': workers that split the folded values write partial results; they cannot accumulate

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split outputs ins(%x block, %x whole : memref<8xf32>, memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>, %x_2: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' reads array 'x' whole; only scalars may be

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <from 1: 0 to 1 x 4> fold <1 x ? x 1> split outputs ins(%x halo<1, 0> : memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' cannot fold 'x' connected halo<1, 0>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<2x4xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 1> fold <1 x ? x 1> split outputs ins(%x columns<2>, %y rows<4> : memref<8xf32>, memref<2x4xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>, %y_1: memref<2x4xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' connects its inputs by different rules: columns<2>, rows<4>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %p = ipu.variable "p" mapping <0 to 1 x 1> : memref<1xf32>
  ipu.tiled_reduce "r" add over <0 to 1 x 1> fold <1 x ? x 1> split outputs ins(%a whole : memref<f32>) outs(%p partials<1> : memref<1xf32>) {
  ^bb0(%a_1: memref<f32>):
    %0 = ipu.access %a_1[] : memref<f32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' folds no input: connect one block, rows<n> or columns<n>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split outputs ins(%x block : memref<8xf32>) outs(%p halo<0, 1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' cannot write 'p' halo<0, 1>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split outputs ins(%x block : memref<8xf32>) outs(%s whole : memref<f32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' writes 's' whole: only one vertex may, into a scalar

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 4> : memref<8xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <? x 1 x 1> split folded ins(%x block : memref<8xf32>) outs(%p block : memref<8xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r': workers that split the folded values write a fixed number of partial results (partials<n>)

// -----

// Six workers, one result each: partials<6>.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split folded ins(%x block : memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' writes partials<1> but each vertex has 6 workers x 1 results

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x 2 x ?> split outputs ins(%x block : memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' writes partials<1> but its number of results per vertex varies

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xi32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" max over <0 to 2 x 4> fold <1 x ? x 1> split outputs ins(%x block : memref<8xi32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xi32>):
    %0 = ipu.access %x_1[0] : memref<8xi32>
    ipu.yield %0 : i32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' yields i32 values, which do not reduce into f32 results

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split outputs ins(%x block : memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0, %0 : f32, f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: body of tiled reduction 'r' must yield one value, not 2

// -----

// columns<n> sees the tensor as rows of n elements.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 2> fold <1 x 2 x ?> split outputs ins(%x columns<4> : memref<10xf32>) outs(%p block : memref<4xf32>) {
  ^bb0(%x_1: memref<10xf32>):
    %0 = ipu.access %x_1[0] : memref<10xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: 'x' has 10 elements, which are no rows of 4

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 3> : memref<6xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 3> fold <2 x ? x 1> split outputs ins(%x columns<4> : memref<8xf32>) outs(%p block : memref<6xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: the columns<4> slice [3:6] of 'x' on tile 1 is outside its rows of 4

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 1> fold <? x 4 x 1> split outputs ins(%x rows<5> : memref<8xf32>) outs(%p block : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: the rows<5> slice [5:10] of 'x' on tile 1 is outside its 8 elements

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  "ipu.tiled_reduce"(%x, %p) <{label = "r", kind = "add", tile_map = #ipu.tile_map<0 to 2 x 4>, fold = array<i64: 1, -1, 1>, split = "outputs", in_rules = [#ipu.slice<block>], out_rule = #ipu.slice<partials<0>>}> ({
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }) : (memref<8xf32>, memref<2xf32>) -> ()
}

// CHECK: a partials rule needs one size of at least 1, got <0, 0>

// -----

// partials<n> and rows<n> are runs of elements: a scalar field cannot take them.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  ipu.codelet @c(%v: memref<f32> input "v") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 1> (%x rows<4> : memref<8xf32>)
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'x' connected to field 'v' of @c: a rows<4> slice needs a vector field, the field is a scalar

// -----

// A tiled map computes at points: it connects no reduction's slices.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<8xf32>
  ipu.tiled_map "m" over <0 to 2 x 1> ins(%x partials<4> : memref<8xf32>) outs(%y block : memref<8xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled map 'm' cannot connect 'x' partials<4>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  "ipu.tiled_reduce"(%x, %p) <{label = "r", kind = "add", tile_map = #ipu.tile_map<0 to 2 x 4>, fold = array<i64: 1, -1, 1>, split = "rows", in_rules = [#ipu.slice<block>], out_rule = #ipu.slice<partials<1>>}> ({
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }) : (memref<8xf32>, memref<2xf32>) -> ()
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r': split 'rows' is not one of outputs, folded

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  "ipu.tiled_reduce"(%x, %p) <{label = "r", kind = "add", tile_map = #ipu.tile_map<0 to 2 x 4>, fold = array<i64: 1, -1, 1>, split = "outputs", in_rules = [], out_rule = #ipu.slice<partials<1>>}> ({
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }) : (memref<8xf32>, memref<2xf32>) -> ()
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r' needs one slice rule per input

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split outputs ins(%x block : memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<4xf32>):
    %0 = ipu.access %x_1[0] : memref<4xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: body of tiled reduction 'r' must take its inputs, in order

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split outputs ins(%x block : memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    %1 = "test.op"(%0) : (f32) -> f32
    ipu.yield %1 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 8]]:3: error: 'test.op' is not allowed in tiled reduction 'r' (only arith, math, ipu.access, signedness casts)

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 4> fold <1 x ? x 1> split outputs ins(%x block : memref<8xf32>) outs(%p partials<1> : memref<2xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    %1 = arith.extf %0 : f32 to f64
    %2 = arith.truncf %1 : f64 to f32
    ipu.yield %2 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 9]]:3: error: 'arith.extf' in tiled reduction 'r' computes a f64

// -----

// A fold <1 x ? x 2> sees each block as rows of 2 values: blocks of 3 are not.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %p = ipu.variable "p" mapping <0 to 3 x 12> : memref<36xf32>
  ipu.tiled_reduce "r" add over <0 to 2 x 3, 2 to 3 x 2> fold <1 x ? x 2> split folded ins(%x block : memref<8xf32>) outs(%p partials<12> : memref<36xf32>) {
  ^bb0(%x_1: memref<8xf32>):
    %0 = ipu.access %x_1[0] : memref<8xf32>
    ipu.yield %0 : f32
  }
}

// CHECK: ipu-tiled-reduce-invalid.mlir:[[# @LINE - 7]]:3: error: tiled reduction 'r': the vertices on tiles 0 to 2 see 3 values of 'x', which is no whole number of 2 (the fold's known sizes)
