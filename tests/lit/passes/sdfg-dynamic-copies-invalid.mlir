// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p sdfg-dynamic-copies | filecheck %s

// An index that mixes a loop variable and a map parameter has no box to slice.
sdfg.sdfg @mixed args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.state "s" {
      sdfg.map "m" (%i) = (0) to (4) step (1) {
        %v = sdfg.read %x[%t + %i] : !sdfg.array<8 x f32>
        sdfg.write %v to %y[%i] : !sdfg.array<4 x f32>
      }
    }
  }
}

// CHECK: sdfg-dynamic-copies-invalid.mlir:[[# @LINE - 7]]:9: error: index 't + i' of 'x[t + i]' mixes a loop variable and a map parameter; not supported yet

// -----

// Outside maps, reads come before writes of an array accessed through buffers (the
// buffer is filled before the step, and drained after it).
sdfg.sdfg @order args ["x"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<8 x f32>
  sdfg.for "l" %t = 0 to 4 step 1 {
    sdfg.state "s" {
      %a = sdfg.read %x[0] : !sdfg.array<8 x f32>
      sdfg.write %a to %x[%t] : !sdfg.array<8 x f32>
      %b = sdfg.read %x[%t + 1] : !sdfg.array<8 x f32>
      sdfg.write %b to %x[1] : !sdfg.array<8 x f32>
    }
  }
}

// CHECK: sdfg-dynamic-copies-invalid.mlir:[[# @LINE - 6]]:7: error: 'x[t + 1]' is read after 'x' is written in the same step, at an element a loop variable picks; not supported yet
