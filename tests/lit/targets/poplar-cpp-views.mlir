// RUN: ipu-opt %s -t poplar-cpp | filecheck %s

// A view that loops over blocks slice is built once, as a named tensor before the
// first loop that needs it, in the form the loops slice (flattened; for a columns
// rule, a matrix of the flattened one), and every later loop slices the same tensor:
// the broadcast is printed once. A view rebuilt per block costs every block the whole
// view (a column broadcast over 1000 rows, per vertex, kept a 1000x1000 softmax 40 s
// in its init). A whole variable stays inline: its views are one run, free to rebuild.

poplar.codelet @sub(%x: memref<?xf32> input "x", %m: memref<?xf32> input "m", %y: memref<?xf32> output "y") {
}
poplar.codelet @col(%c: memref<?xf32> input "c", %s: memref<?xf32> output "s") {
}
poplar.host_program @softmax arch "ipu2" args ["x", "y"] : [memref<4x6xf32>, memref<4x6xf32>] build {
  %x = poplar.add_variable "x" : !poplar.tensor<4x6xf32>
  poplar.map_tensor %x over <0 to 4 x 6> : !poplar.tensor<4x6xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<4x6xf32>
  poplar.map_tensor %y over <0 to 4 x 6> : !poplar.tensor<4x6xf32>
  %top = poplar.add_variable "top" : !poplar.tensor<4xf32>
  poplar.map_tensor %top over <0 to 4 x 1> : !poplar.tensor<4xf32>
  %s = poplar.add_variable "s" : !poplar.tensor<6xf32>
  poplar.map_tensor %s over <0 to 6 x 1> : !poplar.tensor<6xf32>
  %column = poplar.reshape %top : !poplar.tensor<4xf32> -> !poplar.tensor<4x1xf32>
  %rows = poplar.broadcast %column 6 along 1 : !poplar.tensor<4x1xf32> -> !poplar.tensor<4x6xf32>
  %cs = poplar.add_compute_set "sub"
  poplar.add_vertices %cs @sub over <0 to 4 x 6> ["x" = %x block, "m" = %rows block, "y" = %y block] cycles [50] : !poplar.tensor<4x6xf32>, !poplar.tensor<4x6xf32>, !poplar.tensor<4x6xf32>
  %again = poplar.add_compute_set "again"
  poplar.add_vertices %again @sub over <0 to 4 x 6> ["x" = %y block, "m" = %rows block, "y" = %x block] cycles [50] : !poplar.tensor<4x6xf32>, !poplar.tensor<4x6xf32>, !poplar.tensor<4x6xf32>
  %cols = poplar.add_compute_set "cols"
  poplar.add_vertices %cols @col over <0 to 6 x 1> ["c" = %rows columns<6>, "s" = %s block] cycles [50] : !poplar.tensor<4x6xf32>, !poplar.tensor<6xf32>
  %r1 = poplar.execute %cs
  %r2 = poplar.execute %again
  %r3 = poplar.execute %cols
  %all = poplar.sequence(%r1, %r2, %r3)
  poplar.engine %all
} run {
  poplar.run 0
}

// CHECK:      poplar::ComputeSet cs_sub = graph.addComputeSet("sub");
// CHECK-NEXT: poplar::Tensor top_view = top.reshape({4, 1}).broadcast(6, 1).flatten();
// CHECK-NEXT: for_each_block(tile_map_0, [&](const TileBlock &block) {
// CHECK:        graph.connect(vertex["x"], x.flatten().slice(block.begin, block.end));
// CHECK-NEXT:   graph.connect(vertex["m"], top_view.slice(block.begin, block.end));
// CHECK-NEXT:   graph.connect(vertex["y"], y.flatten().slice(block.begin, block.end));
// CHECK-NOT:  broadcast(
// CHECK:      poplar::ComputeSet cs_again = graph.addComputeSet("again");
// CHECK-NEXT: for_each_block(tile_map_0, [&](const TileBlock &block) {
// CHECK:        graph.connect(vertex["m"], top_view.slice(block.begin, block.end));
// CHECK-NOT:  broadcast(
// CHECK:      poplar::ComputeSet cs_cols = graph.addComputeSet("cols");
// CHECK-NEXT: poplar::Tensor top_view_1 = top_view.reshape({4, 6});
// CHECK-NEXT: for_each_block(tile_map_{{[0-9]+}}, [&](const TileBlock &block) {
// CHECK:        graph.connect(vertex["c"], top_view_1.slice({0, block.begin}, {4, block.end}).flatten());
// CHECK-NOT:  broadcast(
// CHECK:      poplar::Engine engine(graph, program);
