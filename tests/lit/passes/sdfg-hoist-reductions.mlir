// RUN: ipu-opt %s --split-input-file -p sdfg-hoist-reductions | filecheck %s

// A reduction inside a map, of the box the map's parameters pick, into a one-element
// transient only that map touches, runs once before the map: over every index of the
// picked dimensions, into a new transient `<scalar>_all` the map reads at the picked
// indices. Others stay where they are.

// np.sum(A[i, :]) in a map over i: one reduction of all rows, read at %i.
sdfg.sdfg @rows args ["A", "r"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %r = sdfg.container "r" : !sdfg.array<M x f32>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (M) step (1) {
      sdfg.library_reduce "Reduce" add %A[%i:%i + 1, 0:N] to %t[] axes [0, 1] identity(0.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<f32>
      %v = sdfg.read %t[] : !sdfg.array<f32>
      sdfg.write %v to %r[%i] : !sdfg.array<M x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @rows
// CHECK-NOT:   sdfg.container "t"
// CHECK:       %t_all = sdfg.container "t_all" transient : !sdfg.array<M x f32>
// CHECK:       sdfg.state "s" {
// CHECK-NEXT:    sdfg.library_reduce "Reduce" add %A[0:M, 0:N] to %t_all[0:M] axes [1] identity(0.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<M x f32>
// CHECK-NEXT:    sdfg.map "m" (%i) = (0) to (M) step (1) {
// CHECK-NEXT:      %v = sdfg.read %t_all[%i] : !sdfg.array<M x f32>
// CHECK-NEXT:      sdfg.write %v to %r[%i] : !sdfg.array<M x f32>

// -----

// A column a parameter picks at an offset, of a box of rows, inside a loop: the
// reduction covers every column, keeps the rows' box and the loop variable.
sdfg.sdfg @columns args ["B", "c"] symbols ["M", "N"] {
  %B = sdfg.container "B" : !sdfg.array<M x N x M x f32>
  %c = sdfg.container "c" : !sdfg.array<N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<1 x f32>
  sdfg.for "l" %k = 0 to M step 1 {
    sdfg.state "s" {
      sdfg.map "m" (%j) = (0) to (N - 1) step (1) {
        sdfg.library_reduce "Reduce" max %B[1:M, %j + 1:%j + 2, %k:%k + 1] to %t[0:1] axes [0, 1, 2] : !sdfg.array<M x N x M x f32>, !sdfg.array<1 x f32>
        %v = sdfg.read %t[0] : !sdfg.array<1 x f32>
        sdfg.write %v to %c[%j] : !sdfg.array<N x f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @columns
// CHECK:       %t_all = sdfg.container "t_all" transient : !sdfg.array<N x f32>
// CHECK:       sdfg.library_reduce "Reduce" max %B[1:M, 0:N, %k:%k + 1] to %t_all[0:N] axes [0, 2] : !sdfg.array<M x N x M x f32>, !sdfg.array<N x f32>
// CHECK-NEXT:  sdfg.map "m" (%j) = (0) to (N - 1) step (1) {
// CHECK-NEXT:    %v = sdfg.read %t_all[%j + 1] : !sdfg.array<N x f32>

// -----

// Left alone: the scalar is read after the map too; a reduction that keeps a dimension;
// one that picks a box wider than an element at the parameter.
sdfg.sdfg @stay args ["A", "r", "q"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %r = sdfg.container "r" : !sdfg.array<M x f32>
  %q = sdfg.container "q" : !sdfg.array<N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  %u = sdfg.container "u" transient : !sdfg.array<N x f32>
  %w = sdfg.container "w" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (M - 1) step (1) {
      sdfg.library_reduce "read_after" add %A[%i:%i + 1, 0:N] to %t[] axes [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
      sdfg.library_reduce "keeps" add %A[%i:%i + 1, 0:N] to %u[0:N] axes [0] : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>
      sdfg.library_reduce "wide" add %A[%i:%i + 2, 0:N] to %w[] axes [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    }
    %v = sdfg.read %t[] : !sdfg.array<f32>
    sdfg.write %v to %r[0] : !sdfg.array<M x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @stay
// CHECK-NOT:   _all
// CHECK:       sdfg.map "m" (%i) = (0) to (M - 1) step (1) {
// CHECK-NEXT:    sdfg.library_reduce "read_after" add %A[%i:%i + 1, 0:N] to %t[]
// CHECK-NEXT:    sdfg.library_reduce "keeps" add %A[%i:%i + 1, 0:N] to %u[0:N] axes [0]
// CHECK-NEXT:    sdfg.library_reduce "wide" add %A[%i:%i + 2, 0:N] to %w[]
