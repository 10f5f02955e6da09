// REQUIRES: build
// A five-point stencil over the interior of an 8x8 array laid out as a 2x2 grid of 4x4
// boxes (tiles 0-3): each vertex computes a 3x3 box of B and is connected to the 5x5
// box of A around it (halo<1, 1>), which Poplar's exchange fills from the three
// neighbouring tiles. Built for the CPU emulator and run, the result checked against
// numpy; the emulator's exchange per tile is the model's (ipu_lower.cost_model.exchange).
// RUN: rm -rf %t && mkdir -p %t
// RUN: ipu-opt %s -p ipu-vertex-extraction,convert-ipu-to-poplar -t poplar-cpp -o %t/grid
// RUN: filecheck %s --check-prefix=HOST < %t/grid/host.cpp
// RUN: filecheck %s --check-prefix=CODELET < %t/grid/codelets.cpp
// RUN: %python -c "import numpy as np; np.save('%t/A.npy', np.arange(64, dtype=np.float32).reshape(8, 8) ** 2); np.save('%t/B.npy', np.zeros((8, 8), np.float32))"
// RUN: ipu-run %t/grid --arg A=%t/A.npy --arg B=%t/B.npy --report %t/report.json | filecheck %s --check-prefix=OUT
// RUN: %python -c "import json; r = json.load(open('%t/report.json')); print([t[0] for t in r['tiles']], [t[3] for t in r['tiles']])" | filecheck %s --check-prefix=REPORT
// RUN: %python -c "import numpy as np; A = np.load('%t/A.npy'); B = np.load('%t/B.npy'); r = np.zeros_like(A); r[1:-1, 1:-1] = A[:-2, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1]; print(np.array_equal(B, r), B[1, 1], B[6, 6])" | filecheck %s --check-prefix=B

// One table of runs a dimension (the arrays' and the interior's); boxes by grid_axis
// (the table, the first element, the tile stride).
// HOST: const TileRun tile_map_0[] = {{[{][{]}}0, 2, 4}};
// HOST: const TileRun tile_map_1[] = {{[{][{]}}0, 1, 3}, {1, 2, 3}};
// HOST: for_each_box({grid_axis(tile_map_0, 0, 2), grid_axis(tile_map_0, 0, 1)}, [&](const GridBlock &block) {
// HOST-NEXT: graph.setTileMapping(A.slice({block.begin[0], block.begin[1]}, {block.end[0], block.end[1]}), block.tile);
// HOST: for_each_box({grid_axis(tile_map_1, 1, 2), grid_axis(tile_map_1, 1, 1)}, [&](const GridBlock &block) {
// HOST: graph.connect(vertex["A"], A.slice({block.begin[0] - 1, block.begin[1] - 1}, {block.end[0] + 1, block.end[1] + 1}).flatten());
// HOST-NEXT: graph.connect(vertex["B"], B.slice({block.begin[0], block.begin[1]}, {block.end[0], block.end[1]}).flatten());
// HOST-NEXT: graph.setInitialValue(vertex["blockExtent0"], static_cast<unsigned>(block.end[0] - block.begin[0]));
// HOST-NEXT: graph.setInitialValue(vertex["blockExtent1"], static_cast<unsigned>(block.end[1] - block.begin[1]));

// CODELET: unsigned blockExtent0;
// CODELET-NEXT: unsigned blockExtent1;
// CODELET: for (unsigned row = workerId; row < blockExtent0; row += numWorkers()) {
// CODELET: for (unsigned i = 0u; i < blockExtent1; i += 1u) {

// OUT: jacobi: {{[0-9]+}} estimated IPU cycles
// Each tile receives 9 elements of A (36 bytes): a row of 4 and a column of 4 from two
// neighbours, the corner from the third.
// REPORT: [0, 1, 2, 3] [36, 36, 36, 36]
// A = i^2 (row-major i): B[1, 1] = 1 + 64 + 100 + 289, B[6, 6] = 46^2 + 53^2 + 55^2 + 62^2.
// B: True 454.0 11794.0

ipu.graph "jacobi" arch "ipu1" args ["A", "B"] {
  %A = ipu.variable "A" mapping grid<<0 to 2 x 4> * 2, <0 to 2 x 4> * 1> : memref<8x8xf32>
  %B = ipu.variable "B" mapping grid<<0 to 2 x 4> * 2, <0 to 2 x 4> * 1> : memref<8x8xf32>
  ipu.from_host %A : memref<8x8xf32>
  ipu.from_host %B : memref<8x8xf32>
  ipu.tiled_map "m" over grid<<from 1: 0 to 1 x 3, 1 to 2 x 3> * 2, <from 1: 0 to 1 x 3, 1 to 2 x 3> * 1> ins(%A halo<1, 1> : memref<8x8xf32>) outs(%B block : memref<8x8xf32>) {
  ^bb0(%vA: memref<8x8xf32>):
    %n = ipu.access %vA[-1, 0] : memref<8x8xf32>
    %w = ipu.access %vA[0, -1] : memref<8x8xf32>
    %e = ipu.access %vA[0, 1] : memref<8x8xf32>
    %s = ipu.access %vA[1, 0] : memref<8x8xf32>
    %0 = arith.addf %n, %w : f32
    %1 = arith.addf %0, %e : f32
    %2 = arith.addf %1, %s : f32
    ipu.yield %2 : f32
  }
  ipu.to_host %B : memref<8x8xf32>
}
