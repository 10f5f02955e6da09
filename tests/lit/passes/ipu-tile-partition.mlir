// RUN: ipu-opt %s --split-input-file -p 'ipu-tile-partition{arch=ipu1}' | filecheck %s

// An elementwise map over 10 float32 elements: units of 2 elements (the float vector
// width) over the first 5 tiles; the scalar lives on tile 0 and every vertex reads it
// whole; x and y are read by block, at the point (offset 0); y is written back.

sdfg.sdfg @axpy args ["a", "x", "y"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" : !sdfg.array<10 x f32>
  %y = sdfg.container "y" : !sdfg.array<10 x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (10) step (1) {
      %va = sdfg.read %a[] : !sdfg.array<f32>
      %vx = sdfg.read %x[%i] : !sdfg.array<10 x f32>
      %vy = sdfg.read %y[%i] : !sdfg.array<10 x f32>
      %r = sdfg.tasklet "axpy" ins(a = %va, x = %vx, y = %vy) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%aa: f32, %xx: f32, %yy: f32):
        %p = arith.mulf %aa, %xx : f32
        %s = arith.addf %p, %yy : f32
        sdfg.yield %s : f32
      }
      sdfg.write %r to %y[%i] : !sdfg.array<10 x f32>
    }
  }
}

// CHECK:      ipu.graph "axpy" arch "ipu1" args ["a", "x", "y"] {
// CHECK-NEXT:   [[A:%.*]] = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
// CHECK-NEXT:   [[X:%.*]] = ipu.variable "x" mapping <0 to 5 x 2> : memref<10xf32>
// CHECK-NEXT:   [[Y:%.*]] = ipu.variable "y" mapping <0 to 5 x 2> : memref<10xf32>
// CHECK-NEXT:   ipu.from_host [[A]] : memref<f32>
// CHECK-NEXT:   ipu.from_host [[X]] : memref<10xf32>
// CHECK-NEXT:   ipu.from_host [[Y]] : memref<10xf32>
// CHECK-NEXT:   ipu.tiled_map "m" over <0 to 5 x 2> ins([[A]] whole, [[X]] block, [[Y]] block : memref<f32>, memref<10xf32>, memref<10xf32>) outs([[Y]] block : memref<10xf32>) {
// CHECK-NEXT:   ^{{.*}}([[AA:%.*]]: memref<f32>, [[XX:%.*]]: memref<10xf32>, [[YY:%.*]]: memref<10xf32>):
// CHECK-NEXT:     [[VA:%.*]] = ipu.access [[AA]][] : memref<f32>
// CHECK-NEXT:     [[VX:%.*]] = ipu.access [[XX]][0] : memref<10xf32>
// CHECK-NEXT:     [[VY:%.*]] = ipu.access [[YY]][0] : memref<10xf32>
// CHECK-NEXT:     [[P:%.*]] = arith.mulf [[VA]], [[VX]] : f32
// CHECK-NEXT:     [[S:%.*]] = arith.addf [[P]], [[VY]] : f32
// CHECK-NEXT:     ipu.yield [[S]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host [[Y]] : memref<10xf32>
// CHECK-NEXT: }

// -----

// Two maps and a copy tie x, t and y into one layout; 7 int32 elements do not divide
// into units of 2, so the last tile holds one element; half uses units of 4.

sdfg.sdfg @chain args ["x", "y", "h"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<7 x i32>
  %y = sdfg.container "y" : !sdfg.array<7 x i32>
  %h = sdfg.container "h" : !sdfg.array<9 x f16>
  %t = sdfg.container "t" transient : !sdfg.array<7 x i32>
  sdfg.state "s0" {
    sdfg.map "inc" (%i) = (0) to (7) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<7 x i32>
      %r = sdfg.tasklet "inc" ins(a = %v) outs(b) : (i32) -> (i32) {
      ^bb0(%a: i32):
        %one = arith.constant 1 : i32
        %s = arith.addi %a, %one : i32
        sdfg.yield %s : i32
      }
      sdfg.write %r to %t[%i] : !sdfg.array<7 x i32>
    }
    sdfg.copy %t[0:7] to %y[0:7] : !sdfg.array<7 x i32>, !sdfg.array<7 x i32>
    sdfg.map "neg" (%i) = (0) to (9) step (1) {
      %v = sdfg.read %h[%i] : !sdfg.array<9 x f16>
      %r = sdfg.tasklet "neg" ins(a = %v) outs(b) : (f16) -> (f16) {
      ^bb0(%a: f16):
        %n = arith.negf %a : f16
        sdfg.yield %n : f16
      }
      sdfg.write %r to %h[%i] : !sdfg.array<9 x f16>
    }
  }
}

// CHECK:      ipu.graph "chain" arch "ipu1" args ["x", "y", "h"] {
// CHECK-NEXT:   [[X:%.*]] = ipu.variable "x" mapping <0 to 3 x 2, 3 to 4 x 1> : memref<7xi32>
// CHECK-NEXT:   [[Y:%.*]] = ipu.variable "y" mapping <0 to 3 x 2, 3 to 4 x 1> : memref<7xi32>
// CHECK-NEXT:   [[H:%.*]] = ipu.variable "h" mapping <0 to 2 x 4, 2 to 3 x 1> : memref<9xf16>
// CHECK-NEXT:   [[T:%.*]] = ipu.variable "t" mapping <0 to 3 x 2, 3 to 4 x 1> : memref<7xi32>
// CHECK:        ipu.tiled_map "inc" over <0 to 3 x 2, 3 to 4 x 1> ins([[X]] block : memref<7xi32>) outs([[T]] block : memref<7xi32>)
// CHECK:        ipu.copy [[T]][0:7] to [[Y]][0:7] : memref<7xi32>, memref<7xi32>
// CHECK:        ipu.tiled_map "neg" over <0 to 2 x 4, 2 to 3 x 1> ins([[H]] block : memref<9xf16>) outs([[H]] block : memref<9xf16>)
// CHECK:        ipu.to_host [[Y]] : memref<7xi32>
// CHECK-NEXT:   ipu.to_host [[H]] : memref<9xf16>
// CHECK-NEXT: }

// -----

// Tasklets outside maps (scalar computations) run once, on tile 0, before the map
// that uses their result.

sdfg.sdfg @scaled args ["a", "x"] symbols [] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  sdfg.state "s0" {
    %va = sdfg.read %a[] : !sdfg.array<f32>
    %r = sdfg.tasklet "plus_one" ins(a = %va) outs(b) : (f32) -> (f32) {
    ^bb0(%aa: f32):
      %one = arith.constant 1.0 : f32
      %s = arith.addf %aa, %one : f32
      sdfg.yield %s : f32
    }
    sdfg.write %r to %t[] : !sdfg.array<f32>
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %vt = sdfg.read %t[] : !sdfg.array<f32>
      %vx = sdfg.read %x[%i] : !sdfg.array<4 x f32>
      %m = sdfg.tasklet "mul" ins(a = %vt, b = %vx) outs(c) : (f32, f32) -> (f32) {
      ^bb0(%p: f32, %q: f32):
        %prod = arith.mulf %p, %q : f32
        sdfg.yield %prod : f32
      }
      sdfg.write %m to %x[%i] : !sdfg.array<4 x f32>
    }
  }
}

// CHECK:      ipu.graph "scaled" arch "ipu1" args ["a", "x"] {
// CHECK:        [[T:%.*]] = ipu.variable "t" mapping <0 to 1 x 1> : memref<f32>
// CHECK:        ipu.tiled_map "plus_one" over <0 to 1 x 1> ins(%{{.*}} whole : memref<f32>) outs([[T]] whole : memref<f32>) {
// CHECK:        ipu.tiled_map "m" over <0 to 2 x 2> ins([[T]] whole, %{{.*}} block : memref<f32>, memref<4xf32>)

// -----

// A 2-D map: its containers are laid out row-major (15 elements over 8 tiles) and the
// point is accessed at offset (0, 0). `%A[%i + 0, %j]` and `%A[%i, (%j + 1) * 2 - %j - 2]`
// are both the element at the point, so both reads become one access.

sdfg.sdfg @grid args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<3 x 5 x f32>
  %B = sdfg.container "B" : !sdfg.array<3 x 5 x f32>
  sdfg.state "s0" {
    sdfg.map "sq" (%i, %j) = (0, 0) to (3, 5) step (1, 1) {
      %p = sdfg.read %A[%i + 0, %j] : !sdfg.array<3 x 5 x f32>
      %q = sdfg.read %A[%i, (%j + 1) * 2 - %j - 2] : !sdfg.array<3 x 5 x f32>
      %r = sdfg.tasklet "sq" ins(a = %p, b = %q) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %m = arith.mulf %a, %b : f32
        sdfg.yield %m : f32
      }
      sdfg.write %r to %B[%i, %j] : !sdfg.array<3 x 5 x f32>
    }
  }
}

// CHECK:      ipu.graph "grid" arch "ipu1" args ["A", "B"] {
// CHECK-NEXT:   [[A:%.*]] = ipu.variable "A" mapping <0 to 7 x 2, 7 to 8 x 1> : memref<3x5xf32>
// CHECK-NEXT:   [[B:%.*]] = ipu.variable "B" mapping <0 to 7 x 2, 7 to 8 x 1> : memref<3x5xf32>
// CHECK:        ipu.tiled_map "sq" over <0 to 7 x 2, 7 to 8 x 1> ins([[A]] block : memref<3x5xf32>) outs([[B]] block : memref<3x5xf32>) {
// CHECK-NEXT:   ^{{.*}}([[AA:%.*]]: memref<3x5xf32>):
// CHECK-NEXT:     [[V:%.*]] = ipu.access [[AA]][0, 0] : memref<3x5xf32>
// CHECK-NEXT:     [[M:%.*]] = arith.mulf [[V]], [[V]] : f32
// CHECK-NEXT:     ipu.yield [[M]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host [[B]] : memref<3x5xf32>
// CHECK-NEXT: }

// -----

// A map that runs no iteration (DaCe's B[1:-1] = A[:-2] + A[2:] with N = 2) does
// nothing: it is erased, and its containers keep their layout and their host copies.

sdfg.sdfg @empty args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<2 x f32>
  %B = sdfg.container "B" : !sdfg.array<2 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (0) step (1) {
      %l = sdfg.read %A[%i] : !sdfg.array<2 x f32>
      %r = sdfg.read %A[%i + 2] : !sdfg.array<2 x f32>
      %v = sdfg.tasklet "add" ins(a = %l, b = %r) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        sdfg.yield %s : f32
      }
      sdfg.write %v to %B[%i + 1] : !sdfg.array<2 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "empty" arch "ipu1" args ["A", "B"] {
// CHECK-NEXT:    %A = ipu.variable "A" mapping <0 to 1 x 2> : memref<2xf32>
// CHECK-NEXT:    %B = ipu.variable "B" mapping <0 to 1 x 2> : memref<2xf32>
// CHECK-NEXT:    ipu.from_host %A : memref<2xf32>
// CHECK-NEXT:    ipu.from_host %B : memref<2xf32>
// CHECK-NEXT:    ipu.to_host %B : memref<2xf32>
// CHECK-NEXT:  }

// -----

// A map DaCe schedules IPU_Workers stays on one tile, whose workers share its points:
// the arrays it touches lie on tile 0, where another map would spread them over 500.
sdfg.sdfg @workers args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<1000 x f32>
  %y = sdfg.container "y" : !sdfg.array<1000 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (1000) step (1) schedule "IPU_Workers" {
      %v = sdfg.read %x[%i] : !sdfg.array<1000 x f32>
      sdfg.write %v to %y[%i] : !sdfg.array<1000 x f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "workers" arch "ipu1"
// CHECK-NEXT:    %x = ipu.variable "x" mapping <0 to 1 x 1000> : memref<1000xf32>
// CHECK-NEXT:    %y = ipu.variable "y" mapping <0 to 1 x 1000> : memref<1000xf32>
// CHECK:         ipu.tiled_map "m" over <0 to 1 x 1000>
