// RUN: ipu-opt %s --split-input-file -p 'sdfg-specialize{symbols="N=100,M=8,Z=3"}' | filecheck %s
// RUN: ipu-opt %s --split-input-file --symbols N=100,M=8,Z=3 -p sdfg-specialize | filecheck %s

// Symbols become integers in shapes, map ranges, memlet subsets and copy ranges, and
// the expressions fold (`M floordiv 3` is 2, `%i * M + %j` is `8 * %i + %j`); map
// parameters stay. A symbol that is not given (K) and is used by a subset only stays
// declared; a value for a symbol the SDFG does not use (Z) is ignored.

sdfg.sdfg @scale args ["x", "y"] symbols ["M", "N", "K"] {
  %x = sdfg.container "x" : !sdfg.array<N x M x f32>
  %y = sdfg.container "y" : !sdfg.array<(N * M) x f32>
  %t = sdfg.container "t" transient : !sdfg.array<(N + 1) x (M floordiv 3) x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i, %j) = (0, 0) to (N, M) step (1, M floordiv 4) {
      %v = sdfg.read %x[%i, min(%j + K, M - 1)] : !sdfg.array<N x M x f32>
      %r = sdfg.tasklet "twice" ins(a = %v) outs(b) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %s = arith.addf %a, %a : f32
        sdfg.yield %s : f32
      }
      sdfg.write %r to %y[%i * M + %j] : !sdfg.array<(N * M) x f32>
    }
    sdfg.copy %y[0:N - 1] to %t[1:N, 0:M mod 3] : !sdfg.array<(N * M) x f32>, !sdfg.array<(N + 1) x (M floordiv 3) x f32>
  }
}

// CHECK:      sdfg.sdfg @scale args ["x", "y"] symbols ["K"] {
// CHECK-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<100 x 8 x f32>
// CHECK-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<800 x f32>
// CHECK-NEXT:   [[T:%.*]] = sdfg.container "t" transient : !sdfg.array<101 x 2 x f32>
// CHECK-NEXT:   sdfg.state "s0" {
// CHECK-NEXT:     sdfg.map "m" ([[I:%.*]], [[J:%.*]]) = (0, 0) to (100, 8) step (1, 2) {
// CHECK-NEXT:       %{{.*}} = sdfg.read [[X]][[[I]], min(7, [[J]] + K)] : !sdfg.array<100 x 8 x f32>
// CHECK:            sdfg.write %{{.*}} to [[Y]][8 * [[I]] + [[J]]] : !sdfg.array<800 x f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     sdfg.copy [[Y]][0:99] to [[T]][1:100, 0:2] : !sdfg.array<800 x f32>, !sdfg.array<101 x 2 x f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Nested maps, maps of the flattened index (`%i * N + %j` keeps its dimensions), and a
// second SDFG of the same module with symbols of the same names.

sdfg.sdfg @nested args ["A"] symbols ["N", "M"] {
  %a = sdfg.container "A" : !sdfg.array<(N * M) x f32>
  sdfg.state "s" {
    sdfg.map "rows" (%i) = (0) to (M) step (1) {
      sdfg.map "cols" (%j) = (0) to (N) step (1) {
        %v = sdfg.read %a[%i * N + %j] : !sdfg.array<(N * M) x f32>
        sdfg.write %v to %a[(%i + 1) * N - %j - 1] : !sdfg.array<(N * M) x f32>
      }
    }
  }
}
sdfg.sdfg @other args ["x"] symbols ["N"] {
  %x = sdfg.container "x" : !sdfg.array<(N ceildiv 64) x i32>
}

// CHECK:      sdfg.sdfg @nested args ["A"] symbols [] {
// CHECK-NEXT:   [[A:%.*]] = sdfg.container "A" : !sdfg.array<800 x f32>
// CHECK-NEXT:   sdfg.state "s" {
// CHECK-NEXT:     sdfg.map "rows" ([[I:%.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:       sdfg.map "cols" ([[J:%.*]]) = (0) to (100) step (1) {
// CHECK-NEXT:         %{{.*}} = sdfg.read [[A]][100 * [[I]] + [[J]]] : !sdfg.array<800 x f32>
// CHECK-NEXT:         sdfg.write %{{.*}} to [[A]][100 * [[I]] - [[J]] + 99] : !sdfg.array<800 x f32>
// CHECK:      sdfg.sdfg @other args ["x"] symbols [] {
// CHECK-NEXT:   %{{.*}} = sdfg.container "x" : !sdfg.array<2 x i32>

// -----

// Loop bounds and sdfg.apply take the values too; the loop variable stays.

sdfg.sdfg @loop args ["x"] symbols ["N", "M"] {
  %x = sdfg.container "x" : !sdfg.array<N x i32>
  sdfg.for "l" %t = M - 1 to N step 2 {
    sdfg.state "s" {
      %v = sdfg.apply %t * M + N : i32
      sdfg.copy %x[%t:%t + M - 7] to %x[0:1] : !sdfg.array<N x i32>, !sdfg.array<N x i32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @loop args ["x"] symbols [] {
// CHECK:         sdfg.for "l" [[T:%.*]] = 7 to 100 step 2 {
// CHECK-NEXT:      sdfg.state "s" {
// CHECK-NEXT:        {{%.*}} = sdfg.apply 8 * [[T]] + 100 : i32
// CHECK-NEXT:        sdfg.copy {{%.*}}[[[T]]:[[T]] + 1] to {{%.*}}[0:1] : !sdfg.array<100 x i32>, !sdfg.array<100 x i32>

// -----

// The boxes of a product's operands take the values too (a fixed index stays one).

sdfg.sdfg @product args ["A", "x", "r"] symbols ["N", "M"] {
  %A = sdfg.container "A" : !sdfg.array<N x M x f32>
  %x = sdfg.container "x" : !sdfg.array<M x f32>
  %r = sdfg.container "r" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.matmul "mv" %A[1:N - 1, 0:M], %x to %r[1:N - 1] : !sdfg.array<N x M x f32>, !sdfg.array<M x f32>, !sdfg.array<N x f32>
    sdfg.matmul "dot" %A[N - 2, 0:M], %x to %r[M - 1] : !sdfg.array<N x M x f32>, !sdfg.array<M x f32>, !sdfg.array<N x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @product args ["A", "x", "r"] symbols [] {
// CHECK:         sdfg.matmul "mv" %{{.*}}[1:99, 0:8], %{{.*}} to %{{.*}}[1:99] : !sdfg.array<100 x 8 x f32>, !sdfg.array<8 x f32>, !sdfg.array<100 x f32>
// CHECK-NEXT:    sdfg.matmul "dot" %{{.*}}[98, 0:8], %{{.*}} to %{{.*}}[7] : !sdfg.array<100 x 8 x f32>, !sdfg.array<8 x f32>, !sdfg.array<100 x f32>
