// RUN: ipu-opt %s --split-input-file -p sdfg-copy-reduction-boxes | filecheck %s

// On our tree a reduction of a box that is not its whole container reduces a copy of
// the box, a transient `<input>_box` filled by an sdfg.copy just before it; on popops'
// path only a box that loop variables move is copied (sdfg.reduce's boxes are static),
// a static box stays a slice. Reductions without a path, or in maps, are left alone.

sdfg.sdfg @boxes args ["A", "u", "s", "r", "b"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %u = sdfg.container "u" : !sdfg.array<N x ui8>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  %r = sdfg.container "r" : !sdfg.array<M x f32>
  %b = sdfg.container "b" : !sdfg.array<ui8>
  sdfg.for "l" %t = 0 to M step 1 {
    sdfg.state "s" {
      sdfg.library_reduce "tree_box" add %u[1:N - 1] to %b[] axes [0] identity(0 : ui8) path "tree" : !sdfg.array<N x ui8>, !sdfg.array<ui8>
      sdfg.library_reduce "tree_row" add %A[%t:%t + 1, 0:N] to %r[%t:%t + 1] axes [1] path "tree" : !sdfg.array<M x N x f32>, !sdfg.array<M x f32>
      sdfg.library_reduce "popops_row" add %A[%t:%t + 1, 0:N] to %s[0:1] axes [0, 1] update path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "popops_static" add %A[1:M - 1, 0:N] to %s[0:1] axes [0, 1] path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "tree_whole" add %u[0:N] to %b[] axes [0] path "tree" : !sdfg.array<N x ui8>, !sdfg.array<ui8>
      sdfg.library_reduce "no_path" add %u[1:N - 1] to %b[] axes [0] : !sdfg.array<N x ui8>, !sdfg.array<ui8>
    }
  }
}

// CHECK:      %u_box = sdfg.container "u_box" transient : !sdfg.array<(N - 2) x ui8>
// CHECK-NEXT: %A_box = sdfg.container "A_box" transient : !sdfg.array<1 x N x f32>
// CHECK-NEXT: %A_box_1 = sdfg.container "A_box_1" transient : !sdfg.array<1 x N x f32>
// CHECK:      sdfg.copy %u[1:N - 1] to %u_box[0:N - 2] : !sdfg.array<N x ui8>, !sdfg.array<(N - 2) x ui8>
// CHECK-NEXT: sdfg.library_reduce "tree_box" add %u_box[0:N - 2] to %b[] axes [0] identity(0 : ui8) path "tree" : !sdfg.array<(N - 2) x ui8>, !sdfg.array<ui8>
// CHECK-NEXT: sdfg.copy %A[%t:%t + 1, 0:N] to %A_box[0:1, 0:N] : !sdfg.array<M x N x f32>, !sdfg.array<1 x N x f32>
// CHECK-NEXT: sdfg.library_reduce "tree_row" add %A_box[0:1, 0:N] to %r[%t:%t + 1] axes [1] path "tree" : !sdfg.array<1 x N x f32>, !sdfg.array<M x f32>
// CHECK-NEXT: sdfg.copy %A[%t:%t + 1, 0:N] to %A_box_1[0:1, 0:N] : !sdfg.array<M x N x f32>, !sdfg.array<1 x N x f32>
// CHECK-NEXT: sdfg.library_reduce "popops_row" add %A_box_1[0:1, 0:N] to %s[0:1] axes [0, 1] update path "popops" : !sdfg.array<1 x N x f32>, !sdfg.array<1 x f32>
// CHECK-NEXT: sdfg.library_reduce "popops_static" add %A[1:M - 1, 0:N] to %s[0:1] axes [0, 1] path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
// CHECK-NEXT: sdfg.library_reduce "tree_whole" add %u[0:N] to %b[] axes [0] path "tree" : !sdfg.array<N x ui8>, !sdfg.array<ui8>
// CHECK-NEXT: sdfg.library_reduce "no_path" add %u[1:N - 1] to %b[] axes [0] : !sdfg.array<N x ui8>, !sdfg.array<ui8>
