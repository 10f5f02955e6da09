// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p sdfg-expand-reductions | filecheck %s

// What sdfg-expand-reductions cannot expand, each a located error: a reduction without
// a path, one left inside a map, a box loop variables move on popops' path, a change
// of element type on our tree.

sdfg.sdfg @f args ["A", "s"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.library_reduce "Reduce" add %A[0:N] to %s[] axes [0] : !sdfg.array<N x f32>, !sdfg.array<f32>
  }
}

// CHECK: sdfg-expand-reductions-invalid.mlir:[[# @LINE - 4]]:5: error: reduction without a path (popops or tree); run sdfg-choose-reductions first

// -----

sdfg.sdfg @f args ["A", "r"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %r = sdfg.container "r" : !sdfg.array<M x f32>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (M) step (1) {
      sdfg.library_reduce "Reduce" add %A[%i:%i + 1, 0:N] to %t[] axes [0, 1] path "tree" : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    }
    %v = sdfg.read %t[] : !sdfg.array<f32>
    sdfg.write %v to %r[0] : !sdfg.array<M x f32>
  }
}

// CHECK: sdfg-expand-reductions-invalid.mlir:[[# @LINE - 7]]:7: error: a Reduce inside a map is not supported yet: sdfg-hoist-reductions hoists only one of the box the map's parameters pick into a transient scalar the map alone reads

// -----

sdfg.sdfg @f args ["A", "s"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.for "l" %t = 0 to M step 1 {
    sdfg.state "s" {
      sdfg.library_reduce "Reduce" add %A[%t:%t + 1, 0:N] to %s[] axes [0, 1] path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    }
  }
}

// CHECK: sdfg-expand-reductions-invalid.mlir:[[# @LINE - 5]]:7: error: popops reduces static boxes, and loop variables move this one; run sdfg-copy-reduction-boxes first

// -----

sdfg.sdfg @f args ["A", "s"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x i16>
  %s = sdfg.container "s" : !sdfg.array<i32>
  sdfg.state "s" {
    sdfg.library_reduce "Reduce" add %A[0:N] to %s[] axes [0] path "tree" : !sdfg.array<N x i16>, !sdfg.array<i32>
  }
}

// CHECK: sdfg-expand-reductions-invalid.mlir:[[# @LINE - 4]]:5: error: reduces i16 elements into i32; a type change is not supported yet
