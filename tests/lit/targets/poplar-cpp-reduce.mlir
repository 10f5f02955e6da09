// RUN: ipu-opt %s --split-input-file -p ipu-vertex-extraction,convert-ipu-to-poplar -t poplar-cpp | filecheck %s

// The slice rules of reductions in host.cpp: a vertex's partials<n> are elements
// [k n, (k + 1) n) of the partial results; columns<n> views the tensor as rows of n and
// connects all rows of the vertex's columns (Poplar gathers them); rows<n> the rows of
// its block. Each level is one compute set, executed in order, each vertex with its
// estimate; the vector fold keeps a float2 running total.

ipu.graph "tree" arch "ipu2" args ["x", "s"] {
  %x = ipu.variable "x" mapping <0 to 3 x 16, 3 to 4 x 12> : memref<60xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  %p = ipu.variable "p" mapping <0 to 4 x 12> : memref<48xf32>
  %q = ipu.variable "q" mapping <0 to 2 x 6> : memref<12xf32>
  ipu.tiled_reduce "vectors" add over <0 to 3 x 16, 3 to 4 x 12> fold <1 x ? x 2> split folded ins(%x block : memref<60xf32>) outs(%p partials<12> : memref<48xf32>) {
  ^bb0(%x_1: memref<60xf32>):
    %0 = ipu.access %x_1[0] : memref<60xf32>
    ipu.yield %0 : f32
  }
  ipu.tiled_reduce "scalars" add over <0 to 2 x 24> fold <1 x ? x 1> split folded ins(%p block : memref<48xf32>) outs(%q partials<6> : memref<12xf32>) {
  ^bb0(%p_1: memref<48xf32>):
    %0 = ipu.access %p_1[0] : memref<48xf32>
    ipu.yield %0 : f32
  }
  ipu.tiled_reduce "last" add over <0 to 1 x 1> fold <1 x 12 x ?> split outputs accumulate ins(%q columns<1> : memref<12xf32>) outs(%s whole : memref<f32>) {
  ^bb0(%q_1: memref<12xf32>):
    %0 = ipu.access %q_1[0] : memref<12xf32>
    ipu.yield %0 : f32
  }
}

// CHECK:      poplar::ComputeSet cs_tree_vectors = graph.addComputeSet("tree_vectors");
// CHECK-NEXT: static const std::uint64_t tree_vectors_cycles[] = {[[C0:[0-9]+]], [[C1:[0-9]+]]};
// CHECK:        graph.connect(vertex["x"], x.slice(block.begin, block.end));
// CHECK-NEXT:   graph.connect(vertex["p"], p.slice(block.index * 12, block.index * 12 + 12));
// CHECK-NEXT:   graph.setPerfEstimate(vertex, tree_vectors_cycles[block.run]);
// CHECK:        graph.connect(vertex["p"], p.slice(block.begin, block.end));
// CHECK-NEXT:   graph.connect(vertex["q"], q.slice(block.index * 6, block.index * 6 + 6));
// CHECK:        graph.connect(vertex["q"], q.reshape({12, 1}).slice({0, block.begin}, {12, block.end}).flatten());
// CHECK-NEXT:   graph.connect(vertex["s"], s);
// CHECK:      program.add(run_cs_tree_vectors);
// CHECK-NEXT: program.add(run_cs_tree_scalars);
// CHECK-NEXT: program.add(run_cs_tree_last);
// CHECK:      tree_vectors : public poplar::MultiVertex {
// CHECK:        ipu_lower_rt::float2 total = identity;
// CHECK-NEXT:   for (unsigned u = workerId; u < m; u += numWorkers()) {
// CHECK-NEXT:     const unsigned first = (u * 2u);
// CHECK-NEXT:     const ipu_lower_rt::float2 x_in = ipu_lower_rt::load<ipu_lower_rt::float2>(x_p, first);
// CHECK-NEXT:     const ipu_lower_rt::float2 t = (total + x_in);
// CHECK-NEXT:     total = t;
// CHECK-NEXT:   }
// CHECK-NEXT:   const unsigned t_1 = (workerId * 2u);
// CHECK-NEXT:   ipu_lower_rt::store(p_p, t_1, total);

// -----

ipu.graph "rowmin" arch "ipu2" args ["A", "a", "r"] {
  %A = ipu.variable "A" mapping <0 to 7 x 4, 7 to 8 x 2> : memref<6x5xi16>
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<i16>
  %r = ipu.variable "r" mapping <0 to 1 x 4, 1 to 2 x 2> : memref<6xi16>
  ipu.tiled_reduce "m" min over <0 to 1 x 4, 1 to 2 x 2> fold <? x 5 x 1> split outputs accumulate ins(%A rows<5>, %a whole : memref<6x5xi16>, memref<i16>) outs(%r block : memref<6xi16>) {
  ^bb0(%A_1: memref<6x5xi16>, %a_1: memref<i16>):
    %0 = ipu.access %A_1[0, 0] : memref<6x5xi16>
    %1 = ipu.access %a_1[] : memref<i16>
    %2 = arith.addi %1, %1 : i16
    %3 = arith.muli %0, %2 : i16
    ipu.yield %3 : i16
  }
}

// CHECK:      graph.connect(vertex["A"], A.flatten().slice(block.begin * 5, block.end * 5));
// CHECK-NEXT: graph.connect(vertex["a"], a);
// CHECK-NEXT: graph.connect(vertex["r"], r.slice(block.begin, block.end));
