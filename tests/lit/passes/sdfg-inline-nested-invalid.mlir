// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p sdfg-inline-nested | filecheck %s

// What sdfg-inline-nested cannot inline yet, each a located error: a nested SDFG inside a
// map (its control flow would run per point) ...
sdfg.sdfg @in_map args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      sdfg.nested "f" (inout x = %a[%i]) : !sdfg.array<N x f32> {
        sdfg.sdfg @f args ["x"] symbols [] {
          %x = sdfg.container "x" : !sdfg.array<f32>
        }
      }
    }
  }
}

// CHECK: sdfg-inline-nested-invalid.mlir:[[# @LINE - 9]]:7: error: nested SDFG 'f' is inside map 'm'; nested SDFGs inside maps are not supported yet

// -----

// ... a product or a reduction of an argument that is a part of the caller's container ...
sdfg.sdfg @part args ["A", "s"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x N x f32>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  sdfg.state "s" {
    sdfg.nested "f" (in x = %A[1, d0], out r = %s[d0]) symbols (K = N) : !sdfg.array<N x N x f32>, !sdfg.array<1 x f32> {
      sdfg.sdfg @f args ["x", "r"] symbols ["K"] {
        %x = sdfg.container "x" : !sdfg.array<K x f32>
        %r = sdfg.container "r" : !sdfg.array<1 x f32>
        sdfg.state "sum" {
          sdfg.reduce "Reduce" add %x[0:K] to %r[0:1] dims [0] : !sdfg.array<K x f32>, !sdfg.array<1 x f32>
        }
      }
    }
  }
}

// CHECK: sdfg-inline-nested-invalid.mlir:[[# @LINE - 7]]:11: error: 'sdfg.reduce' uses argument 'x' of nested SDFG 'f', a part of 'A'; not supported yet

// -----

// ... and a loop variable given to it where the inner SDFG needs a symbol (a map range).
sdfg.sdfg @ranges args ["a"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<N x f32>
  sdfg.for "l" %t = 0 to N step 1 {
    sdfg.state "s" {
      sdfg.nested "f" (inout x = %a[d0]) symbols (K = N, T = %t) : !sdfg.array<N x f32> {
        sdfg.sdfg @f args ["x"] symbols ["K", "T"] {
          %x = sdfg.container "x" : !sdfg.array<K x f32>
          sdfg.state "prefix" {
            sdfg.map "m" (%i) = (0) to (T) step (1) {
              %v = sdfg.read %x[%i] : !sdfg.array<K x f32>
              sdfg.write %v to %x[%i + 1] : !sdfg.array<K x f32>
            }
          }
        }
      }
    }
  }
}

// CHECK: sdfg-inline-nested-invalid.mlir:[[# @LINE - 11]]:13: error: 'sdfg.map' uses a symbol that nested SDFG 'f' is given a loop variable for, where only symbols may appear; not supported yet


// -----

// A copy at a loop variable of an argument bound with its dimensions in another order
// (a transpose) would be a map over the box, which cannot move with the loop.
sdfg.sdfg @transposed args ["A", "b"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 4 x f32>
  %b = sdfg.container "b" : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.nested "f" (in x = %A[d1, d0], out y = %b[d0]) : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x f32> {
      sdfg.sdfg @f args ["x", "y"] symbols [] {
        %x = sdfg.container "x" : !sdfg.array<4 x 4 x f32>
        %y = sdfg.container "y" : !sdfg.array<4 x f32>
        sdfg.for "l" %t = 0 to 4 step 1 {
          sdfg.state "row" {
            sdfg.copy %x[%t:%t + 1, 0:4] to %y[0:4] : !sdfg.array<4 x 4 x f32>, !sdfg.array<4 x f32>
          }
        }
      }
    }
  }
}

// CHECK: sdfg-inline-nested-invalid.mlir:[[# @LINE - 8]]:13: error: nested SDFG 'f': copy 'f_copy' through a view that reorders elements, of a box that moves with a loop; not supported yet

