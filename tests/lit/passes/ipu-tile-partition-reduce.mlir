// RUN: ipu-opt %s -p ipu-tile-partition --split-input-file | filecheck %s

// Maps that accumulate (reductions) become tiled reductions. Their levels are chosen by
// estimated cycles (passes/reduction_plan.py): each level is one compute set.

// A whole-array sum of 100000 floats on ipu2: the first level folds x where it lies
// (x's own 1472 blocks, split folded: each worker its own partial result, 6 per
// vertex), then a tree: 8832 partials in blocks of 8-9 on 1024 tiles, 1024 in blocks of
// 8 on 128 tiles, 128 in blocks of 8 on 16 tiles, and the last 16 on tile 0, accumulated
// into s (its old value counts). Each level's vertices are estimated as emitted (a loop
// decision per partial), so the tree is deep and its blocks small.

sdfg.sdfg @sum args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<100000 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (100000) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<100000 x f32>
      sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "sum" arch "ipu2" args ["x", "s"] {
// CHECK-NEXT:    %x = ipu.variable "x" mapping <0 to 1424 x 68, 1424 to 1472 x 66> : memref<100000xf32>
// CHECK-NEXT:    %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
// CHECK-NEXT:    [[P0:%.*]] = ipu.variable "m_partials_0" mapping <0 to 1472 x 6> : memref<8832xf32>
// CHECK-NEXT:    [[P1:%.*]] = ipu.variable "m_partials_1" mapping <0 to 1024 x 1> : memref<1024xf32>
// CHECK-NEXT:    [[P2:%.*]] = ipu.variable "m_partials_2" mapping <0 to 128 x 1> : memref<128xf32>
// CHECK-NEXT:    [[P3:%.*]] = ipu.variable "m_partials_3" mapping <0 to 16 x 1> : memref<16xf32>
// CHECK:         ipu.tiled_reduce "m" add over <0 to 1424 x 68, 1424 to 1472 x 66> fold <1 x ? x 1> split folded ins(%x block : memref<100000xf32>) outs([[P0]] partials<6> : memref<8832xf32>) {
// CHECK-NEXT:    ^bb0(%x_1: memref<100000xf32>):
// CHECK-NEXT:      %0 = ipu.access %x_1[0] : memref<100000xf32>
// CHECK-NEXT:      ipu.yield %0 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.tiled_reduce "m_1" add over <0 to 640 x 9, 640 to 1024 x 8> fold <1 x ? x 1> split outputs ins([[P0]] block : memref<8832xf32>) outs([[P1]] partials<1> : memref<1024xf32>) {
// CHECK:         ipu.tiled_reduce "m_2" add over <0 to 128 x 8> fold <1 x ? x 1> split outputs ins([[P1]] block : memref<1024xf32>) outs([[P2]] partials<1> : memref<128xf32>) {
// CHECK:         ipu.tiled_reduce "m_3" add over <0 to 16 x 8> fold <1 x ? x 1> split outputs ins([[P2]] block : memref<128xf32>) outs([[P3]] partials<1> : memref<16xf32>) {
// CHECK:         ipu.tiled_reduce "m_4" add over <0 to 1 x 1> fold <1 x 16 x ?> split outputs accumulate ins([[P3]] columns<1> : memref<16xf32>) outs(%s whole : memref<f32>) {
// CHECK-NEXT:    ^bb0([[Q:%.*]]: memref<16xf32>):
// CHECK-NEXT:      %0 = ipu.access [[Q]][0] : memref<16xf32>
// CHECK-NEXT:      ipu.yield %0 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// -----

// A dot product of 10 elements: too few to split, so one vertex, on the tile of s,
// reads all of x and y (columns<1>: the one column of every row) and multiplies at
// every point before adding.

sdfg.sdfg @dot args ["x", "y", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<10 x f32>
  %y = sdfg.container "y" : !sdfg.array<10 x f32>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (10) step (1) {
      %a = sdfg.read %x[%i] : !sdfg.array<10 x f32>
      %b = sdfg.read %y[%i] : !sdfg.array<10 x f32>
      %p = sdfg.tasklet "mul" ins(a = %a, b = %b) outs(c) : (f32, f32) -> (f32) {
      ^bb0(%u: f32, %w: f32):
        %r = arith.mulf %u, %w : f32
        sdfg.yield %r : f32
      }
      sdfg.accumulate add %p to %s[0] : !sdfg.array<1 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "dot"
// CHECK:         ipu.tiled_reduce "m" add over <0 to 1 x 1> fold <1 x 10 x ?> split outputs accumulate ins(%x columns<1>, %y columns<1> : memref<10xf32>, memref<10xf32>) outs(%s block : memref<1xf32>) {
// CHECK-NEXT:    ^bb0(%x_1: memref<10xf32>, %y_1: memref<10xf32>):
// CHECK-NEXT:      %0 = ipu.access %x_1[0] : memref<10xf32>
// CHECK-NEXT:      %1 = ipu.access %y_1[0] : memref<10xf32>
// CHECK-NEXT:      %r = arith.mulf %0, %1 : f32
// CHECK-NEXT:      ipu.yield %r : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.to_host %s : memref<1xf32>

// -----

// Column sums of a 6x8 matrix (O = 1, I = 8 results): the vertices share the columns,
// on the tiles of s (blocks of 2: whole words), each reading its columns of every row
// (columns<8>) and folding the 6 rows.

sdfg.sdfg @columns args ["A", "s"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<6 x 8 x f32>
  %s = sdfg.container "s" : !sdfg.array<8 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (6, 8) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<6 x 8 x f32>
      sdfg.accumulate add %v to %s[%j] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "columns"
// CHECK:         %s = ipu.variable "s" mapping <0 to 4 x 2> : memref<8xf32>
// CHECK:         ipu.tiled_reduce "m" add over <0 to 4 x 2> fold <1 x 6 x ?> split outputs accumulate ins(%A columns<8> : memref<6x8xf32>) outs(%s block : memref<8xf32>) {
// CHECK-NEXT:    ^bb0(%A_1: memref<6x8xf32>):
// CHECK-NEXT:      %0 = ipu.access %A_1[0, 0] : memref<6x8xf32>
// CHECK-NEXT:      ipu.yield %0 : f32
// CHECK-NEXT:    }

// -----

// Row minima of a 6x5 int16 matrix (O = 6 results of R = 5 values): each vertex takes a
// block of results, in whole 32-bit words of int16 (4 results: s's own blocks), and
// reads their rows (rows<5>).

sdfg.sdfg @rows args ["A", "r"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<6 x 5 x i16>
  %r = sdfg.container "r" : !sdfg.array<6 x i16>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (6, 5) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<6 x 5 x i16>
      sdfg.accumulate min %v to %r[%i] : !sdfg.array<6 x i16>
    }
  }
}

// CHECK-LABEL: ipu.graph "rows"
// CHECK:         %r = ipu.variable "r" mapping <0 to 1 x 4, 1 to 2 x 2> : memref<6xi16>
// CHECK:         ipu.tiled_reduce "m" min over <0 to 1 x 4, 1 to 2 x 2> fold <? x 5 x 1> split outputs accumulate ins(%A rows<5> : memref<6x5xi16>) outs(%r block : memref<6xi16>) {
// CHECK-NEXT:    ^bb0(%A_1: memref<6x5xi16>):
// CHECK-NEXT:      %0 = ipu.access %A_1[0, 0] : memref<6x5xi16>
// CHECK-NEXT:      ipu.yield %0 : i16
// CHECK-NEXT:    }

// -----

// An accumulation outside any map (`s = max(s, a * a)` on tile 0): a single-point
// tiled map reads s, combines and writes it back.

sdfg.sdfg @free args ["a", "s"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s0" {
    %v = sdfg.read %a[] : !sdfg.array<f32>
    %w = sdfg.tasklet "sq" ins(a = %v) outs(b) : (f32) -> (f32) {
    ^bb0(%u: f32):
      %r = arith.mulf %u, %u : f32
      sdfg.yield %r : f32
    }
    sdfg.accumulate max %w to %s[] : !sdfg.array<f32>
  }
}

// CHECK-LABEL: ipu.graph "free"
// CHECK:         ipu.tiled_map "sq" over <0 to 1 x 1> ins(%a whole, %s whole : memref<f32>, memref<f32>) outs(%s whole : memref<f32>) {
// CHECK-NEXT:    ^bb0(%a_1: memref<f32>, %s_1: memref<f32>):
// CHECK-NEXT:      %0 = ipu.access %a_1[] : memref<f32>
// CHECK-NEXT:      %r = arith.mulf %0, %0 : f32
// CHECK-NEXT:      %1 = ipu.access %s_1[] : memref<f32>
// CHECK-NEXT:      %2 = arith.maximumf %1, %r : f32
// CHECK-NEXT:      ipu.yield %2 : f32
// CHECK-NEXT:    }

// -----

// The same outside maps on uint8 (into a one-element array): minui on the signless
// values, through signedness casts.

sdfg.sdfg @ufree args ["a", "s"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<ui8>
  %s = sdfg.container "s" : !sdfg.array<1 x ui8>
  sdfg.state "s0" {
    %v = sdfg.read %a[] : !sdfg.array<ui8>
    sdfg.accumulate min %v to %s[0] : !sdfg.array<1 x ui8>
  }
}

// CHECK-LABEL: ipu.graph "ufree"
// CHECK:         ipu.tiled_map "scalar" over <0 to 1 x 1> ins(%a whole, %s block : memref<ui8>, memref<1xui8>) outs(%s block : memref<1xui8>) {
// CHECK-NEXT:    ^bb0(%a_1: memref<ui8>, %s_1: memref<1xui8>):
// CHECK-NEXT:      %0 = ipu.access %a_1[] : memref<ui8>
// CHECK-NEXT:      %1 = ipu.access %s_1[0] : memref<1xui8>
// CHECK-NEXT:      %2 = builtin.unrealized_conversion_cast %1 : ui8 to i8
// CHECK-NEXT:      %3 = builtin.unrealized_conversion_cast %0 : ui8 to i8
// CHECK-NEXT:      %4 = arith.minui %2, %3 : i8
// CHECK-NEXT:      %5 = builtin.unrealized_conversion_cast %4 : i8 to ui8
// CHECK-NEXT:      ipu.yield %5 : ui8
// CHECK-NEXT:    }

// -----

// How the importer writes DaCe's Reduce and Dot: the identity first, then a map that
// accumulates. When the identity is written right before into all of the destination,
// the final level writes the destination without reading it (no `accumulate`) and the
// write of the identity goes: one compute set less. Other values still go first.

sdfg.sdfg @reduce args ["A", "s", "t"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %s = sdfg.container "s" : !sdfg.array<6 x f32>
  %t = sdfg.container "t" : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "init" (%o) = (0) to (6) step (1) {
      %z = sdfg.tasklet "zero" ins() outs(out) : () -> (f32) {
        %c = arith.constant 0.000000e+00 : f32
        sdfg.yield %c : f32
      }
      sdfg.write %z to %s[%o] : !sdfg.array<6 x f32>
    }
    sdfg.map "columns" (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<4 x 6 x f32>
      sdfg.accumulate add %v to %s[%j] : !sdfg.array<6 x f32>
    }
    %one = sdfg.tasklet "one" ins() outs(out) : () -> (f32) {
      %c = arith.constant 1.000000e+00 : f32
      sdfg.yield %c : f32
    }
    sdfg.write %one to %t[] : !sdfg.array<f32>
    sdfg.map "all" (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
      %v = sdfg.read %A[%i, %j] : !sdfg.array<4 x 6 x f32>
      sdfg.accumulate add %v to %t[] : !sdfg.array<f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "reduce"
// CHECK-NOT:     ipu.tiled_map "init"
// CHECK:         ipu.tiled_reduce "columns" add over <0 to 3 x 2> fold <1 x 4 x ?> split outputs ins(%A columns<6> : memref<4x6xf32>) outs(%s block : memref<6xf32>) {
// CHECK:         ipu.tiled_map "one" over <0 to 1 x 1> ins() outs(%t whole : memref<f32>) {
// CHECK:         ipu.tiled_reduce "all" add over <0 to 1 x 1> fold <1 x 24 x ?> split outputs accumulate ins(%A columns<1> : memref<4x6xf32>) outs(%t whole : memref<f32>) {

// -----

// A reduction in a loop: its levels stand in the loop's body (ipu-vertex-extraction
// places their fold codelets there too).

sdfg.sdfg @looped args ["x", "s"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<64 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.for "steps" %t = 0 to 3 step 1 {
    sdfg.state "s0" {
      sdfg.map "m" (%i) = (0) to (64) step (1) {
        %v = sdfg.read %x[%i] : !sdfg.array<64 x f32>
        sdfg.accumulate add %v to %s[] : !sdfg.array<f32>
      }
    }
  }
}

// CHECK-LABEL: ipu.graph "looped"
// CHECK:         ipu.repeat 3 {
// CHECK-NEXT:      ipu.tiled_reduce "m"

// -----

// Inputs through views: `x[j]` broadcast over the rows of a matrix-vector product (an
// `ipu.view` with a broadcast dimension, exchanged into each vertex's block), and two
// shifted windows of one array (`x[i] * x[i + 1]`: slices of it).

sdfg.sdfg @views args ["A", "x", "y"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %x = sdfg.container "x" : !sdfg.array<6 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  sdfg.state "s0" {
    sdfg.map "mv" (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
      %a = sdfg.read %A[%i, %j] : !sdfg.array<4 x 6 x f32>
      %v = sdfg.read %x[%j] : !sdfg.array<6 x f32>
      %p = sdfg.tasklet "mul" ins(a = %a, b = %v) outs(c) : (f32, f32) -> (f32) {
      ^bb0(%0: f32, %1: f32):
        %2 = arith.mulf %0, %1 : f32
        sdfg.yield %2 : f32
      }
      sdfg.accumulate add %p to %y[%i] : !sdfg.array<4 x f32>
    }
    sdfg.map "shifted" (%i) = (0) to (5) step (1) {
      %u = sdfg.read %x[%i] : !sdfg.array<6 x f32>
      %w = sdfg.read %x[%i + 1] : !sdfg.array<6 x f32>
      %p = sdfg.tasklet "mul" ins(a = %u, b = %w) outs(c) : (f32, f32) -> (f32) {
      ^bb0(%0: f32, %1: f32):
        %2 = arith.mulf %0, %1 : f32
        sdfg.yield %2 : f32
      }
      sdfg.accumulate add %p to %y[0] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "views"
// CHECK:         %[[XB:.*]] = ipu.view %x[0:6] dims [*, 0] : memref<6xf32> -> memref<4x6xf32>
// CHECK-NEXT:    ipu.tiled_reduce "mv" add over <0 to 2 x 2> fold <? x 6 x 1> split outputs accumulate ins(%A rows<6>, %[[XB]] rows<6> : memref<4x6xf32>, memref<4x6xf32>) outs(%y block : memref<4xf32>) {
// CHECK:           %[[A0:.*]] = ipu.access %{{.*}}[0, 0] : memref<4x6xf32>
// CHECK-NEXT:      %[[X0:.*]] = ipu.access %{{.*}}[0, 0] : memref<4x6xf32>
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[A0]], %[[X0]] : f32
// CHECK-NEXT:      ipu.yield %[[P]] : f32
// CHECK:         %[[LO:.*]] = ipu.view %x[0:5] : memref<6xf32> -> memref<5xf32>
// CHECK-NEXT:    %[[HI:.*]] = ipu.view %x[1:6] : memref<6xf32> -> memref<5xf32>
// CHECK-NEXT:    ipu.tiled_reduce "shifted" add over <0 to 1 x 1> fold <1 x 5 x ?> split outputs accumulate ins(%[[LO]] columns<1>, %[[HI]] columns<1> : memref<5xf32>, memref<5xf32>) outs(%y block : memref<4xf32>) {
