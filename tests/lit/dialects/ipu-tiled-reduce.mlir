// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of ipu.tiled_reduce and of the slice rules reductions use: partials<n>
// (n results per vertex), rows<n> (the rows of a block of outputs), columns<n> (a
// block of columns of every row), on the ipu and on the poplar level.

// A dot product in three steps: every worker of 4 vertices sums its share of x * y
// (split folded: 6 partial results per vertex), 2 vertices fold 12 partials each,
// and one vertex adds the last 2 into s.
ipu.graph "dot" arch "ipu2" args ["x", "y", "s"] {
  %x = ipu.variable "x" mapping <0 to 4 x 250> : memref<1000xf32>
  %y = ipu.variable "y" mapping <0 to 4 x 250> : memref<1000xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<1xf32>
  %p = ipu.variable "p" mapping <0 to 4 x 6> : memref<24xf32>
  %q = ipu.variable "q" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.tiled_reduce "dot" add over <0 to 4 x 250> fold <1 x ? x 1> split folded ins(%x block, %y block : memref<1000xf32>, memref<1000xf32>) outs(%p partials<6> : memref<24xf32>) {
  ^bb0(%x_1: memref<1000xf32>, %y_1: memref<1000xf32>):
    %0 = ipu.access %x_1[0] : memref<1000xf32>
    %1 = ipu.access %y_1[0] : memref<1000xf32>
    %2 = arith.mulf %0, %1 : f32
    ipu.yield %2 : f32
  }
  ipu.tiled_reduce "dot_1" add over <0 to 2 x 12> fold <1 x ? x 1> split outputs ins(%p block : memref<24xf32>) outs(%q partials<1> : memref<2xf32>) {
  ^bb0(%p_1: memref<24xf32>):
    %0 = ipu.access %p_1[0] : memref<24xf32>
    ipu.yield %0 : f32
  }
  ipu.tiled_reduce "dot_2" add over <0 to 1 x 1> fold <1 x 2 x ?> split outputs accumulate ins(%q columns<1> : memref<2xf32>) outs(%s block : memref<1xf32>) attributes {note} {
  ^bb0(%q_1: memref<2xf32>):
    %0 = ipu.access %q_1[0] : memref<2xf32>
    ipu.yield %0 : f32
  }
}

// CHECK-LABEL: ipu.graph "dot"
// CHECK:         ipu.tiled_reduce "dot" add over <0 to 4 x 250> fold <1 x ? x 1> split folded ins(%{{.*}} block, %{{.*}} block : memref<1000xf32>, memref<1000xf32>) outs(%{{.*}} partials<6> : memref<24xf32>) {
// CHECK:           arith.mulf
// CHECK-NEXT:      ipu.yield %{{.*}} : f32
// CHECK:         ipu.tiled_reduce "dot_1" add over <0 to 2 x 12> fold <1 x ? x 1> split outputs ins(%{{.*}} block : memref<24xf32>) outs(%{{.*}} partials<1> : memref<2xf32>) {
// CHECK:         ipu.tiled_reduce "dot_2" add over <0 to 1 x 1> fold <1 x 2 x ?> split outputs accumulate ins(%{{.*}} columns<1> : memref<2xf32>) outs(%{{.*}} block : memref<1xf32>) attributes {note} {

// GENERIC: "ipu.tiled_reduce"(%{{.*}}, %{{.*}}, %{{.*}}) <{label = "dot", kind = "add", tile_map = #ipu.tile_map<0 to 4 x 250>, fold = array<i64: 1, -1, 1>, split = "folded", in_rules = [#ipu.slice<block>, #ipu.slice<block>], out_rule = #ipu.slice<partials<6>>}> ({
// GENERIC: "ipu.tiled_reduce"(%{{.*}}, %{{.*}}) <{label = "dot_2", kind = "add", tile_map = #ipu.tile_map<0 to 1 x 1>, fold = array<i64: 1, 2, -1>, split = "outputs", in_rules = [#ipu.slice<columns<1>>], out_rule = #ipu.slice<block>, accumulate}> ({

// -----
// Row minima of a 6 x 5 int16 matrix over 3 tiles, from the outputs: each vertex
// reads rows<5> of A for its block of 2 results, folding along the rows' 5 columns
// (fold <? x 5 x 1>) in i32 and storing i16.

// RUN: ipu-opt %s --split-input-file | filecheck %s --check-prefix=ROWS
ipu.graph "rowmin" arch "ipu1" args ["A", "r"] {
  %A = ipu.variable "A" mapping <0 to 3 x 10> : memref<6x5xi16>
  %r = ipu.variable "r" mapping <0 to 3 x 2> : memref<6xi16>
  ipu.tiled_reduce "rowmin" min over <0 to 3 x 2> fold <? x 5 x 1> split outputs ins(%A rows<5> : memref<6x5xi16>) outs(%r block : memref<6xi16>) {
  ^bb0(%A_1: memref<6x5xi16>):
    %0 = ipu.access %A_1[0, 0] : memref<6x5xi16>
    ipu.yield %0 : i16
  }
}
// ROWS: ipu.tiled_reduce "rowmin" min over <0 to 3 x 2> fold <? x 5 x 1> split outputs ins(%{{.*}} rows<5> : memref<6x5xi16>) outs(%{{.*}} block : memref<6xi16>) {

// -----
// The same slice rules connect poplar vertices.

// RUN: ipu-opt %s --split-input-file | filecheck %s --check-prefix=POPLAR
poplar.codelet @fold(%in: memref<?xf32> input "in", %out: memref<?xf32> output "out") {
}
poplar.host_program @g arch "ipu2" args [] : [] build {
  %t = poplar.add_variable "t" : !poplar.tensor<4x6xf32>
  poplar.map_tensor %t over <0 to 4 x 6> : !poplar.tensor<4x6xf32>
  %p = poplar.add_variable "p" : !poplar.tensor<24xf32>
  poplar.map_tensor %p over <0 to 4 x 6> : !poplar.tensor<24xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @fold over <0 to 4 x 6> ["in" = %t block, "out" = %p partials<6>] cycles [100] : !poplar.tensor<4x6xf32>, !poplar.tensor<24xf32>
  poplar.add_vertices %cs @fold over <0 to 2 x 2> ["in" = %t rows<6>, "out" = %p block] cycles [100] : !poplar.tensor<4x6xf32>, !poplar.tensor<24xf32>
  poplar.add_vertices %cs @fold over <0 to 3 x 2> ["in" = %t columns<6>, "out" = %p block] cycles [100] : !poplar.tensor<4x6xf32>, !poplar.tensor<24xf32>
  %run = poplar.execute %cs
  %seq = poplar.sequence(%run)
  poplar.engine %seq
} run {
  poplar.run 0
}
// POPLAR: poplar.add_vertices %{{.*}} @fold over <0 to 4 x 6> ["in" = %{{.*}} block, "out" = %{{.*}} partials<6>]
// POPLAR: poplar.add_vertices %{{.*}} @fold over <0 to 2 x 2> ["in" = %{{.*}} rows<6>, "out" = %{{.*}} block]
// POPLAR: poplar.add_vertices %{{.*}} @fold over <0 to 3 x 2> ["in" = %{{.*}} columns<6>, "out" = %{{.*}} block]
