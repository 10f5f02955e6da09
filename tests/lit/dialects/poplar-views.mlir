// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: ipu-opt %s -t poplar-cpp | filecheck %s --check-prefix=CPP

// Round trip of Poplar's tensor views poplar.slice_box, poplar.reshape,
// poplar.dim_shuffle and poplar.broadcast (what ipu.view becomes), connected to a
// vertex and copied, and the C++ each prints: inline where it is used, or once
// before a loop over blocks that slices it.

poplar.codelet @pass(%x: memref<?xf32> input "x", %y: memref<?xf32> output "y") {
}
poplar.host_program @views arch "ipu2" args ["A", "y"] : [memref<5x7xf32>, memref<7xf32>] build {
  %A = poplar.add_variable "A" : !poplar.tensor<5x7xf32>
  poplar.map_tensor %A over <0 to 5 x 7> : !poplar.tensor<5x7xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<7xf32>
  poplar.map_tensor %y over <0 to 7 x 1> : !poplar.tensor<7xf32>
  %row = poplar.slice_box %A [3, 0] to [4, 7] : !poplar.tensor<5x7xf32> -> !poplar.tensor<1x7xf32>
  %flat = poplar.reshape %row {note} : !poplar.tensor<1x7xf32> -> !poplar.tensor<7xf32>
  %t = poplar.dim_shuffle %A [1, 0] : !poplar.tensor<5x7xf32> -> !poplar.tensor<7x5xf32>
  %rows = poplar.broadcast %row 3 along 0 : !poplar.tensor<1x7xf32> -> !poplar.tensor<3x7xf32>
  %cs = poplar.add_compute_set "cs"
  poplar.add_vertices %cs @pass over <0 to 7 x 1> ["x" = %flat block, "y" = %y block] cycles [50] : !poplar.tensor<7xf32>, !poplar.tensor<7xf32>
  %run = poplar.execute %cs
  %tf = poplar.flatten %t : !poplar.tensor<7x5xf32> -> !poplar.tensor<35xf32>
  %ts = poplar.slice %tf[0 : 7] : !poplar.tensor<35xf32> -> !poplar.tensor<7xf32>
  %copy = poplar.copy %ts to %y : !poplar.tensor<7xf32>, !poplar.tensor<7xf32>
  %rf = poplar.flatten %rows : !poplar.tensor<3x7xf32> -> !poplar.tensor<21xf32>
  %rs = poplar.slice %rf[7 : 14] : !poplar.tensor<21xf32> -> !poplar.tensor<7xf32>
  %again = poplar.copy %rs to %y : !poplar.tensor<7xf32>, !poplar.tensor<7xf32>
  %all = poplar.sequence(%run, %copy, %again)
  poplar.engine %all
} run {
  poplar.run 0
}

// CHECK:      %row = poplar.slice_box %A [3, 0] to [4, 7] : !poplar.tensor<5x7xf32> -> !poplar.tensor<1x7xf32>
// CHECK-NEXT: %flat = poplar.reshape %row {note} : !poplar.tensor<1x7xf32> -> !poplar.tensor<7xf32>
// CHECK-NEXT: %t = poplar.dim_shuffle %A [1, 0] : !poplar.tensor<5x7xf32> -> !poplar.tensor<7x5xf32>
// CHECK-NEXT: %rows = poplar.broadcast %row 3 along 0 : !poplar.tensor<1x7xf32> -> !poplar.tensor<3x7xf32>

// GENERIC: %row = "poplar.slice_box"(%A) <{begin = array<i64: 3, 0>, end = array<i64: 4, 7>}> : (!poplar.tensor<5x7xf32>) -> !poplar.tensor<1x7xf32>
// GENERIC: %flat = "poplar.reshape"(%row) {note} : (!poplar.tensor<1x7xf32>) -> !poplar.tensor<7xf32>
// GENERIC: %t = "poplar.dim_shuffle"(%A) <{permutation = array<i64: 1, 0>}> : (!poplar.tensor<5x7xf32>) -> !poplar.tensor<7x5xf32>
// GENERIC: %rows = "poplar.broadcast"(%row) <{times = 3 : i64, dim = 0 : i64}> : (!poplar.tensor<1x7xf32>) -> !poplar.tensor<3x7xf32>

// CPP: poplar::Tensor A_view = A.slice({3, 0}, {4, 7}).reshape({7});
// CPP: graph.connect(vertex["x"], A_view.slice(block.begin, block.end));
// CPP: poplar::program::Copy copy(A.dimShuffle({1, 0}).flatten().slice(0, 7), y);
// CPP: poplar::program::Copy {{.*}}(A.slice({3, 0}, {4, 7}).broadcast(3, 0).flatten().slice(7, 14), y);
