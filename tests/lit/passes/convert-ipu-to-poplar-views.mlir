// RUN: ipu-opt %s -p convert-ipu-to-poplar | filecheck %s

// ipu.view becomes Poplar's tensor views: the box (slice_box) unless it is all of the
// variable, without the dimensions it fixes (reshape), in its order (dim_shuffle), with
// a dimension of extent 1 at each broadcast one (reshape) repeated (broadcast).

ipu.graph "views" arch "ipu2" args ["A", "y"] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %y = ipu.variable "y" mapping <0 to 7 x 5> : memref<35xf32>
  %row = ipu.view %A[3, 0:7] : memref<5x7xf32> -> memref<7xf32>
  %transposed = ipu.view %A[0:5, 0:7] dims [1, 0] : memref<5x7xf32> -> memref<7x5xf32>
  %box = ipu.view %A[1:3, 2:4] : memref<5x7xf32> -> memref<2x2xf32>
  %corner = ipu.view %A[1:3, 2:4] dims [1, 0] : memref<5x7xf32> -> memref<2x2xf32>
  %rows = ipu.view %A[3, 0:7] dims [*, 1] : memref<5x7xf32> -> memref<5x7xf32>
  %columns = ipu.view %A[0:5, 2] dims [*, 0, *] : memref<5x7xf32> -> memref<2x5x3xf32>
  ipu.copy %row[0:7] to %y[0:7] : memref<7xf32>, memref<35xf32>
  ipu.copy %transposed[0:35] to %y[0:35] : memref<7x5xf32>, memref<35xf32>
  ipu.copy %box[0:4] to %corner[0:4] : memref<2x2xf32>, memref<2x2xf32>
  ipu.copy %rows[0:35] to %y[0:35] : memref<5x7xf32>, memref<35xf32>
  ipu.copy %columns[0:30] to %y[0:30] : memref<2x5x3xf32>, memref<35xf32>
  ipu.to_host %y : memref<35xf32>
}

// CHECK:      %row = poplar.slice_box %A [3, 0] to [4, 7] : !poplar.tensor<5x7xf32> -> !poplar.tensor<1x7xf32>
// CHECK-NEXT: %row_1 = poplar.reshape %row : !poplar.tensor<1x7xf32> -> !poplar.tensor<7xf32>
// CHECK-NEXT: %transposed = poplar.dim_shuffle %A [1, 0] : !poplar.tensor<5x7xf32> -> !poplar.tensor<7x5xf32>
// CHECK-NEXT: %box = poplar.slice_box %A [1, 2] to [3, 4] : !poplar.tensor<5x7xf32> -> !poplar.tensor<2x2xf32>
// CHECK-NEXT: %corner = poplar.slice_box %A [1, 2] to [3, 4] : !poplar.tensor<5x7xf32> -> !poplar.tensor<2x2xf32>
// CHECK-NEXT: %corner_1 = poplar.dim_shuffle %corner [1, 0] : !poplar.tensor<2x2xf32> -> !poplar.tensor<2x2xf32>
// CHECK-NEXT: %rows = poplar.slice_box %A [3, 0] to [4, 7] : !poplar.tensor<5x7xf32> -> !poplar.tensor<1x7xf32>
// CHECK-NEXT: %rows_1 = poplar.broadcast %rows 5 along 0 : !poplar.tensor<1x7xf32> -> !poplar.tensor<5x7xf32>
// CHECK-NEXT: %columns = poplar.slice_box %A [0, 2] to [5, 3] : !poplar.tensor<5x7xf32> -> !poplar.tensor<5x1xf32>
// CHECK-NEXT: %columns_1 = poplar.reshape %columns : !poplar.tensor<5x1xf32> -> !poplar.tensor<1x5x1xf32>
// CHECK-NEXT: %columns_2 = poplar.broadcast %columns_1 2 along 0 : !poplar.tensor<1x5x1xf32> -> !poplar.tensor<2x5x1xf32>
// CHECK-NEXT: %columns_3 = poplar.broadcast %columns_2 3 along 2 : !poplar.tensor<2x5x1xf32> -> !poplar.tensor<2x5x3xf32>
// CHECK-NEXT: %0 = poplar.slice %y[0 : 7] : !poplar.tensor<35xf32> -> !poplar.tensor<7xf32>
// CHECK-NEXT: %1 = poplar.copy %row_1 to %0 : !poplar.tensor<7xf32>, !poplar.tensor<7xf32>
// CHECK-NEXT: %2 = poplar.flatten %transposed : !poplar.tensor<7x5xf32> -> !poplar.tensor<35xf32>
// CHECK-NEXT: %3 = poplar.copy %2 to %y : !poplar.tensor<35xf32>, !poplar.tensor<35xf32>
// CHECK-NEXT: %4 = poplar.flatten %box : !poplar.tensor<2x2xf32> -> !poplar.tensor<4xf32>
// CHECK-NEXT: %5 = poplar.flatten %corner_1 : !poplar.tensor<2x2xf32> -> !poplar.tensor<4xf32>
// CHECK-NEXT: %6 = poplar.copy %4 to %5 : !poplar.tensor<4xf32>, !poplar.tensor<4xf32>
