// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of sdfg.nested (DaCe's NestedSDFG node) in the custom and the generic form:
// a slice argument read (`f(a[1:], ...)`: x[i] is a[i + 1]), a row argument written
// (y[i] is B[2, i]), an argument read and written at a loop variable (z[i] is B[t, i]),
// a symbol mapping with a loop variable, a rank-0 argument, a discardable attribute; in a
// state inside a loop, and in a map (its parameter as an index operand).

sdfg.sdfg @caller args ["a", "B", "s"] symbols ["M", "N"] {
  %a = sdfg.container "a" : !sdfg.array<(N + 1) x f32>
  %B = sdfg.container "B" : !sdfg.array<M x N x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  sdfg.for "loop" %t = 0 to M step 1 {
    sdfg.state "call" {
      sdfg.nested "f" (in x = %a[d0 + 1], out y = %B[2, d0], inout z = %B[%t, d0], in c = %s[]) symbols (K = N, T = %t + 1) : !sdfg.array<(N + 1) x f32>, !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32>, !sdfg.array<f32> attributes {tag} {
        sdfg.sdfg @inner args ["x", "y", "z", "c"] symbols ["K", "T"] {
          %x = sdfg.container "x" : !sdfg.array<K x f32>
          %y = sdfg.container "y" : !sdfg.array<K x f32>
          %z = sdfg.container "z" : !sdfg.array<K x f32>
          %c = sdfg.container "c" : !sdfg.array<f32>
          sdfg.state "s" {
            sdfg.map "m" (%i) = (0) to (K) step (1) {
              %v = sdfg.read %x[%i] : !sdfg.array<K x f32>
              sdfg.write %v to %y[%i] : !sdfg.array<K x f32>
              sdfg.accumulate add %v to %z[%i] : !sdfg.array<K x f32>
            }
          }
        }
      }
    }
  }
  sdfg.state "per_row" {
    sdfg.map "rows" (%r) = (0) to (M) step (1) {
      sdfg.nested "g" (inout e = %B[%r, d0]) symbols (K = N) : !sdfg.array<M x N x f32> {
        sdfg.sdfg @g args ["e"] symbols ["K"] {
          %e = sdfg.container "e" : !sdfg.array<K x f32>
        }
      }
    }
  }
}

// CHECK:      sdfg.for "loop" %t = 0 to M step 1 {
// CHECK-NEXT:   sdfg.state "call" {
// CHECK-NEXT:     sdfg.nested "f" (in x = %a[d0 + 1], out y = %B[2, d0], inout z = %B[%t, d0], in c = %s[]) symbols (K = N, T = %t + 1) : !sdfg.array<(N + 1) x f32>, !sdfg.array<M x N x f32>, !sdfg.array<M x N x f32>, !sdfg.array<f32> attributes {tag} {
// CHECK-NEXT:       sdfg.sdfg @inner args ["x", "y", "z", "c"] symbols ["K", "T"] {
// CHECK-NEXT:         %x = sdfg.container "x" : !sdfg.array<K x f32>
// CHECK:              sdfg.accumulate add %v to %z[%i] : !sdfg.array<K x f32>
// CHECK:        sdfg.map "rows" (%r) = (0) to (M) step (1) {
// CHECK-NEXT:     sdfg.nested "g" (inout e = %B[%r, d0]) symbols (K = N) : !sdfg.array<M x N x f32> {
// CHECK-NEXT:       sdfg.sdfg @g args ["e"] symbols ["K"] {

// In the generic form, a binding's dimension j < len(indices) is index operand j and
// dimension len(indices) + k the argument's own index k.
// GENERIC:      "sdfg.nested"(%a, %B, %B, %s, %t) <{label = "f", connectors = ["x", "y", "z", "c"], directions = ["in", "out", "inout", "in"],
// GENERIC-SAME: bindings = {{\[}}[#sdfg.expr<d1 + 1>], [#sdfg.expr<2>, #sdfg.expr<d1>], [#sdfg.expr<d0>, #sdfg.expr<d1>], []],
// GENERIC-SAME: symbol_names = ["K", "T"], symbol_values = [#sdfg.expr<N>, #sdfg.expr<d0 + 1>], operandSegmentSizes = array<i32: 4, 1>}>
