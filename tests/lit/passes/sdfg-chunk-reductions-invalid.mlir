// RUN: not ipu-opt %s -p 'sdfg-chunk-reductions{arch=ipu1}' 2>&1 | filecheck %s

// The map that runs in chunks moves into a loop between two states; a value computed
// before it and used after it in the same state would cross that split (states do not
// pass SSA values), so it is an error naming the op, not IR that fails verification.

sdfg.sdfg @across args ["A", "B", "C", "s", "t"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<216 x 216 x f32>
  %B = sdfg.container "B" : !sdfg.array<216 x 216 x f32>
  %C = sdfg.container "C" : !sdfg.array<216 x 216 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  %t = sdfg.container "t" : !sdfg.array<f32>
  sdfg.state "s0" {
    %v = sdfg.read %s[] : !sdfg.array<f32>
    sdfg.map "mm" (%i, %j, %k) = (0, 0, 0) to (216, 216, 216) step (1, 1, 1) {
      %a = sdfg.read %A[%i, %k] : !sdfg.array<216 x 216 x f32>
      %b = sdfg.read %B[%k, %j] : !sdfg.array<216 x 216 x f32>
      %p = sdfg.tasklet "mul" ins(a = %a, b = %b) outs(c) : (f32, f32) -> (f32) {
      ^bb0(%0: f32, %1: f32):
        %2 = arith.mulf %0, %1 : f32
        sdfg.yield %2 : f32
      }
      sdfg.accumulate add %p to %C[%i, %j] : !sdfg.array<216 x 216 x f32>
    }
    sdfg.write %v to %t[] : !sdfg.array<f32>
  }
}

// CHECK: sdfg-chunk-reductions-invalid.mlir:[[# @LINE - 4]]:5: error: a value crosses map 'mm', which runs in chunks; not supported yet
