// RUN: ipu-opt %s -p 'ipu-tile-partition{arch=ipu1}' --split-input-file | filecheck %s
// RUN: ipu-opt %s -p 'ipu-tile-partition{arch=ipu1},ipu-plan-exchange' --split-input-file | filecheck %s --check-prefix=HALO

// Reads that are not neighbours of the point in an array of the written shape
// (passes/tile_partition_views.py): reshaped reads share the layout, view reads go
// through an ipu.view of their container; copies of non-contiguous boxes copy views.

// A row view (DaCe's x = A[3, :] then y[1:] = x[:-1] + y[1:], resolved by the importer to
// A[3, i - 1]): y's layout places the work; the vertices read row 3 of A through a view
// with y's shape, one element back (`neighbours`, which ipu-plan-exchange sizes as
// halo<1, 0>). A keeps its own layout (not tied to y's).
sdfg.sdfg @row args ["A", "y"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %y = sdfg.container "y" : !sdfg.array<6 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (1) to (6) step (1) {
      %l = sdfg.read %A[3, %i - 1] : !sdfg.array<4 x 6 x f32>
      %c = sdfg.read %y[%i] : !sdfg.array<6 x f32>
      %v = sdfg.tasklet "add" ins(a = %l, b = %c) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        sdfg.yield %s : f32
      }
      sdfg.write %v to %y[%i] : !sdfg.array<6 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "row" arch "ipu1"
// CHECK:      %A = ipu.variable "A" mapping <0 to 12 x 2> : memref<4x6xf32>
// CHECK-NEXT: %y = ipu.variable "y" mapping <0 to 3 x 2> : memref<6xf32>
// CHECK:      %A_view = ipu.view %A[3, 0:6] : memref<4x6xf32> -> memref<6xf32>
// CHECK-NEXT: ipu.tiled_map "m" over <from 1: 0 to 1 x 1, 1 to 3 x 2> ins(%A_view neighbours, %y block : memref<6xf32>, memref<6xf32>) outs(%y block : memref<6xf32>) {
// HALO:       ipu.tiled_map "m" over <from 1: 0 to 1 x 1, 1 to 3 x 2> ins(%A_view halo<1, 0>, %y block : memref<6xf32>, memref<6xf32>)
// CHECK-NEXT: ^bb0(%A_view_1: memref<6xf32>, %y_1: memref<6xf32>):
// CHECK-NEXT:   %0 = ipu.access %A_view_1[-1] : memref<6xf32>
// CHECK-NEXT:   %1 = ipu.access %y_1[0] : memref<6xf32>

// -----

// A column view: A[i, 2] is a strided view of A that Poplar's exchange gathers. A map
// that only copies a view is a copy of it (a Copy program, no compute set).
sdfg.sdfg @column args ["A", "y"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %l = sdfg.read %A[%i, 2] : !sdfg.array<4 x 6 x f32>
      sdfg.write %l to %y[%i] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "column" arch "ipu1"
// CHECK:      %A_view = ipu.view %A[0:4, 2] : memref<4x6xf32> -> memref<4xf32>
// CHECK-NEXT: ipu.copy %A_view[0:4] to %y[0:4] : memref<4xf32>, memref<4xf32>

// -----

// A transposed read (B = A.T + 1): the view walks A's dimensions in the other order
// (dimShuffle), so each vertex is connected to the transposed block it needs.
sdfg.sdfg @transpose args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %B = sdfg.container "B" : !sdfg.array<6 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (6, 4) step (1, 1) {
      %v = sdfg.read %A[%j, %i] : !sdfg.array<4 x 6 x f32>
      %w = sdfg.tasklet "inc" ins(a = %v) outs(o) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %one = arith.constant 1.0 : f32
        %s = arith.addf %a, %one : f32
        sdfg.yield %s : f32
      }
      sdfg.write %w to %B[%i, %j] : !sdfg.array<6 x 4 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "transpose" arch "ipu1"
// CHECK:      %A_view = ipu.view %A[0:4, 0:6] dims [1, 0] : memref<4x6xf32> -> memref<6x4xf32>
// CHECK-NEXT: ipu.tiled_map "m" over <0 to 12 x 2> ins(%A_view block : memref<6x4xf32>) outs(%B block : memref<6x4xf32>) {
// CHECK-NEXT: ^bb0(%A_view_1: memref<6x4xf32>):
// CHECK-NEXT:   %0 = ipu.access %A_view_1[0, 0] : memref<6x4xf32>

// -----

// A reshape (A viewed as 6x4): the read lands at row-major offset 0 from the point, so A
// shares B's layout and is read at the point (no view, no exchange).
sdfg.sdfg @reshape args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %B = sdfg.container "B" : !sdfg.array<6 x 4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (6, 4) step (1, 1) {
      %v = sdfg.read %A[(%i * 4 + %j) floordiv 6, (%i * 4 + %j) mod 6] : !sdfg.array<4 x 6 x f32>
      sdfg.write %v to %B[%i, %j] : !sdfg.array<6 x 4 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "reshape" arch "ipu1"
// CHECK-NOT:  ipu.view
// CHECK:      ipu.tiled_map "m" over <0 to 12 x 2> ins(%A block : memref<4x6xf32>) outs(%B block : memref<6x4xf32>) {
// CHECK-NEXT: ^bb0(%A_1: memref<4x6xf32>):
// CHECK-NEXT:   %0 = ipu.access %A_1[0, 0] : memref<4x6xf32>

// -----

// A shorter outermost dimension: b[0:10] = t reads all of t, in t's own layout (a
// copy of it, since the map only copies).
sdfg.sdfg @shorter args ["t", "b"] symbols [] {
  %t = sdfg.container "t" : !sdfg.array<10 x f32>
  %b = sdfg.container "b" : !sdfg.array<11 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (10) step (1) {
      %v = sdfg.read %t[%i] : !sdfg.array<10 x f32>
      sdfg.write %v to %b[%i] : !sdfg.array<11 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "shorter" arch "ipu1"
// CHECK-NEXT: %t = ipu.variable "t" mapping <0 to 5 x 2> : memref<10xf32>
// CHECK-NEXT: %b = ipu.variable "b" mapping <0 to 5 x 2, 5 to 6 x 1> : memref<11xf32>
// CHECK-NOT:  ipu.view
// CHECK:      ipu.copy %t[0:10] to %b[0:10] : memref<10xf32>, memref<11xf32>

// -----

// A copy of a box that is not contiguous copies a view of the box.
sdfg.sdfg @box args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %B = sdfg.container "B" : !sdfg.array<3 x 3 x f32>
  sdfg.state "s" {
    sdfg.copy %A[1:3, 2:5] to %B[1:3, 0:3] : !sdfg.array<4 x 6 x f32>, !sdfg.array<3 x 3 x f32>
  }
}

// CHECK-LABEL: ipu.graph "box" arch "ipu1"
// CHECK:      %A_box = ipu.view %A[1:3, 2:5] : memref<4x6xf32> -> memref<2x3xf32>
// CHECK-NEXT: ipu.copy %A_box[0:6] to %B[3:9] : memref<2x3xf32>, memref<3x3xf32>

// -----

// A row write (DaCe's simplified B[2, :] = A[1, :] * x): the points are row 2 of B (its
// layout cut to elements [12, 18)); row 1 of A and x come through views that repeat
// them over B's rows (broadcasts), so each vertex receives just its block of them.
sdfg.sdfg @row_write args ["A", "B", "x"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 6 x f32>
  %B = sdfg.container "B" : !sdfg.array<4 x 6 x f32>
  %x = sdfg.container "x" : !sdfg.array<6 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (6) step (1) {
      %a = sdfg.read %A[1, %i] : !sdfg.array<4 x 6 x f32>
      %b = sdfg.read %x[%i] : !sdfg.array<6 x f32>
      %v = sdfg.tasklet "mul" ins(p = %a, q = %b) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%p: f32, %q: f32):
        %r = arith.mulf %p, %q : f32
        sdfg.yield %r : f32
      }
      sdfg.write %v to %B[2, %i] : !sdfg.array<4 x 6 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "row_write" arch "ipu1"
// CHECK:      %A_view = ipu.view %A[1, 0:6] dims [*, 1] : memref<4x6xf32> -> memref<4x6xf32>
// CHECK-NEXT: %x_view = ipu.view %x[0:6] dims [*, 0] : memref<6xf32> -> memref<4x6xf32>
// CHECK-NEXT: ipu.tiled_map "m" over <from 12: 6 to 9 x 2> ins(%A_view block, %x_view block : memref<4x6xf32>, memref<4x6xf32>) outs(%B block : memref<4x6xf32>) {

// -----

// A view read inside a loop (the row a dynamic slice fills each iteration, read over
// its first 5 elements): the view is the graph's, made once before the loop.
sdfg.sdfg @in_loop args ["row", "y"] symbols [] {
  %row = sdfg.container "row" : !sdfg.array<6 x f32>
  %y = sdfg.container "y" : !sdfg.array<5 x f32>
  sdfg.for "l" %t = 0 to 3 step 1 {
    sdfg.state "s" {
      sdfg.map "m" (%i) = (0) to (5) step (1) {
        %r = sdfg.read %row[%i] : !sdfg.array<6 x f32>
        %c = sdfg.read %y[%i] : !sdfg.array<5 x f32>
        %v = sdfg.tasklet "add" ins(a = %r, b = %c) outs(o) : (f32, f32) -> (f32) {
        ^bb0(%a: f32, %b: f32):
          %s = arith.addf %a, %b : f32
          sdfg.yield %s : f32
        }
        sdfg.write %v to %y[%i] : !sdfg.array<5 x f32>
      }
    }
  }
}

// CHECK-LABEL: ipu.graph "in_loop" arch "ipu1"
// CHECK:      %row_view = ipu.view %row[0:5] : memref<6xf32> -> memref<5xf32>
// CHECK-NEXT: ipu.repeat 3 {
// CHECK-NEXT:   ipu.tiled_map "m" over <{{.*}}> ins(%row_view block, %y block : memref<5xf32>, memref<5xf32>)
