// RUN: ipu-opt %s --split-input-file -p sdfg-expand-reductions | filecheck %s

// Each reduction becomes what its path says, with DaCe's meaning of the identity.
// popops: sdfg.reduce; a neutral identity is a plain reduction, another one is written
// first and the sum updates it, no identity (or update) updates the output.
// tree: the identity written (accumulated with update) into the output box, then a
// map over the input box that accumulates each element at its kept indices.

sdfg.sdfg @popops args ["A", "s", "c"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  %c = sdfg.container "c" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.library_reduce "neutral" add %A[1:M - 1, 0:N] to %s[0:1] axes [0, 1] identity(0.000000e+00 : f32) path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
    sdfg.library_reduce "from_five" add %A[0:M, 0:N] to %c[0:N] axes [0] identity(5.000000e+00 : f32) path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>
    sdfg.library_reduce "onto" add %A[0:M, 0:N] to %s[0:1] axes [0, 1] path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
    sdfg.library_reduce "largest" max %A[0:M, 0:N] to %c[0:N] axes [0] identity(0xFF800000 : f32) path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @popops
// CHECK:       sdfg.reduce "neutral" add %A[1:M - 1, 0:N] to %s[0:1] dims [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
// CHECK-NEXT:  sdfg.map "from_five_init" (%_o0) = (0) to (N) step (1) {
// CHECK-NEXT:    %{{.*}} = sdfg.tasklet "from_five_init" ins() outs(out) : () -> (f32) {
// CHECK-NEXT:      %[[FIVE:.*]] = arith.constant 5.000000e+00 : f32
// CHECK-NEXT:      sdfg.yield %[[FIVE]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.write %{{.*}} to %c[%_o0] : !sdfg.array<N x f32>
// CHECK-NEXT:  }
// CHECK-NEXT:  sdfg.reduce "from_five" add %A[0:M, 0:N] to %c[0:N] dims [0] update : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:  sdfg.reduce "onto" add %A[0:M, 0:N] to %s[0:1] dims [0, 1] update : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
// CHECK-NEXT:  sdfg.reduce "largest" max %A[0:M, 0:N] to %c[0:N] dims [0] : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>

// -----

sdfg.sdfg @tree args ["B", "u", "b", "m", "r"] symbols ["M", "N"] {
  %B = sdfg.container "B" : !sdfg.array<M x N x i16>
  %u = sdfg.container "u" : !sdfg.array<N x ui8>
  %b = sdfg.container "b" : !sdfg.array<ui8>
  %m = sdfg.container "m" : !sdfg.array<M x i16>
  %r = sdfg.container "r" : !sdfg.array<M x N x i16>
  sdfg.for "l" %t = 0 to M step 1 {
    sdfg.state "s" {
      sdfg.library_reduce "least" min %u[0:N] to %b[] axes [0] identity(255 : ui8) path "tree" : !sdfg.array<N x ui8>, !sdfg.array<ui8>
      sdfg.library_reduce "rows" add %B[0:M, 0:N] to %m[0:M] axes [1] path "tree" : !sdfg.array<M x N x i16>, !sdfg.array<M x i16>
      sdfg.library_reduce "product" mul %B[0:M, 0:N] to %r[%t:%t + 1, 0:N] axes [0] identity(2 : i16) update path "tree" : !sdfg.array<M x N x i16>, !sdfg.array<M x N x i16>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @tree
// CHECK:       %{{.*}} = sdfg.tasklet "least_init" ins() outs(out) : () -> (ui8) {
// CHECK-NEXT:    %[[ONES:.*]] = arith.constant -1 : i8
// CHECK-NEXT:    %[[MAX:.*]] = builtin.unrealized_conversion_cast %[[ONES]] : i8 to ui8
// CHECK-NEXT:    sdfg.yield %[[MAX]] : ui8
// CHECK-NEXT:  }
// CHECK-NEXT:  sdfg.write %{{.*}} to %b[] : !sdfg.array<ui8>
// CHECK-NEXT:  sdfg.map "least" (%_i0) = (0) to (N) step (1) {
// CHECK-NEXT:    %[[U:.*]] = sdfg.read %u[%_i0] : !sdfg.array<N x ui8>
// CHECK-NEXT:    sdfg.accumulate min %[[U]] to %b[] : !sdfg.array<ui8>
// CHECK-NEXT:  }
// CHECK-NEXT:  sdfg.map "rows" (%[[I:.*]], %[[J:.*]]) = (0, 0) to (M, N) step (1, 1) {
// CHECK-NEXT:    %[[X:.*]] = sdfg.read %B[%[[I]], %[[J]]] : !sdfg.array<M x N x i16>
// CHECK-NEXT:    sdfg.accumulate add %[[X]] to %m[%[[I]]] : !sdfg.array<M x i16>
// CHECK-NEXT:  }
// CHECK-NEXT:  sdfg.map "product_init" (%_o0) = (0) to (N) step (1) {
// CHECK:         sdfg.accumulate mul %{{.*}} to %r[%t, %_o0] : !sdfg.array<M x N x i16>
// CHECK:       sdfg.map "product" (%[[P:.*]], %[[Q:.*]]) = (0, 0) to (M, N) step (1, 1) {
// CHECK-NEXT:    %[[Y:.*]] = sdfg.read %B[%[[P]], %[[Q]]] : !sdfg.array<M x N x i16>
// CHECK-NEXT:    sdfg.accumulate mul %[[Y]] to %r[%t, %[[Q]]] : !sdfg.array<M x N x i16>
