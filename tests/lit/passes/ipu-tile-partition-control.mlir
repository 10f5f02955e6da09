// RUN: ipu-opt %s -p ipu-tile-partition | filecheck %s

// ipu-tile-partition on loops, branches and copies at loop variables. A loop of static
// trip count whose variable nothing uses is ipu.repeat, with no counter. A loop bounded
// by a scalar argument (T) is ipu.repeat_while over a predicate: a single-point map on
// tile 0 sets the counter and the predicate first, another steps both at the end of
// each iteration (reading T again). A copy of the row t - 1 is a dynamic slice whose
// offset a single-point map computes from the counter; a copy into the row t a dynamic
// update at the counter itself. A branch computes its predicate before ipu.if; a while
// loop in its condition region. A map parameter in a tasklet (sdfg.apply %j) is the
// coordinate of the point: ipu.point modulo the row length.

sdfg.sdfg @loops args ["A", "T", "c"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 8 x f32>
  %T = sdfg.container "T" : !sdfg.array<i32>
  %c = sdfg.container "c" : !sdfg.array<f32>
  %row = sdfg.container "row" transient : !sdfg.array<8 x f32>
  sdfg.for "twice" %k = 0 to 2 step 1 {
    sdfg.state "scale" {
      sdfg.map "m" (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
        %a = sdfg.read %A[%i, %j] : !sdfg.array<4 x 8 x f32>
        %jj = sdfg.apply %j : i32
        %r = sdfg.tasklet "addj" ins(a = %a, n = %jj) outs(o) : (f32, i32) -> (f32) {
        ^bb0(%x: f32, %n: i32):
          %f = arith.sitofp %n : i32 to f32
          %s = arith.addf %x, %f : f32
          sdfg.yield %s : f32
        }
        sdfg.write %r to %A[%i, %j] : !sdfg.array<4 x 8 x f32>
      }
    }
  }
  sdfg.for "time" %t = 1 to %T step 1 : (!sdfg.array<i32>) {
    sdfg.state "shift" {
      sdfg.copy %A[%t - 1:%t, 0:8] to %row[0:8] : !sdfg.array<4 x 8 x f32>, !sdfg.array<8 x f32>
      sdfg.copy %row[0:8] to %A[%t:%t + 1, 0:8] : !sdfg.array<8 x f32>, !sdfg.array<4 x 8 x f32>
    }
  }
  sdfg.if "positive" {
    %v = sdfg.read %c[] : !sdfg.array<f32>
    %p = sdfg.tasklet "gt" ins(a = %v) outs(b) : (f32) -> (i1) {
    ^bb0(%x: f32):
      %z = arith.constant 0.0 : f32
      %g = arith.cmpf ogt, %x, %z : f32
      sdfg.yield %g : i1
    }
    sdfg.condition %p
  } then {
    sdfg.state "halve" {
      %v = sdfg.read %c[] : !sdfg.array<f32>
      %h = sdfg.tasklet "half" ins(a = %v) outs(b) : (f32) -> (f32) {
      ^bb0(%x: f32):
        %two = arith.constant 2.0 : f32
        %q = arith.divf %x, %two : f32
        sdfg.yield %q : f32
      }
      sdfg.write %h to %c[] : !sdfg.array<f32>
    }
  }
  sdfg.while "shrink" {
    %v = sdfg.read %c[] : !sdfg.array<f32>
    %p = sdfg.tasklet "big" ins(a = %v) outs(b) : (f32) -> (i1) {
    ^bb0(%x: f32):
      %one = arith.constant 1.0 : f32
      %g = arith.cmpf ogt, %x, %one : f32
      sdfg.yield %g : i1
    }
    sdfg.condition %p
  } do {
    sdfg.state "step" {
      %v = sdfg.read %c[] : !sdfg.array<f32>
      %h = sdfg.tasklet "half" ins(a = %v) outs(b) : (f32) -> (f32) {
      ^bb0(%x: f32):
        %two = arith.constant 2.0 : f32
        %q = arith.divf %x, %two : f32
        sdfg.yield %q : f32
      }
      sdfg.write %h to %c[] : !sdfg.array<f32>
    }
  }
}

// CHECK-LABEL: ipu.graph "loops" arch "ipu2" args ["A", "T", "c"] {
// CHECK-NEXT:     %A = ipu.variable "A" mapping <0 to 16 x 2> : memref<4x8xf32>
// CHECK-NEXT:     %T = ipu.variable "T" mapping <0 to 1 x 1> : memref<i32>
// CHECK-NEXT:     %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<f32>
// CHECK-NEXT:     %row = ipu.variable "row" mapping <0 to 4 x 2> : memref<8xf32>
// CHECK-NEXT:     %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
// CHECK-NEXT:     %time_cond = ipu.variable "time_cond" mapping <0 to 1 x 1> : memref<i1>
// CHECK-NEXT:     %positive_cond = ipu.variable "positive_cond" mapping <0 to 1 x 1> : memref<i1>
// CHECK-NEXT:     %shrink_cond = ipu.variable "shrink_cond" mapping <0 to 1 x 1> : memref<i1>
// CHECK-NEXT:     %A_offset = ipu.variable "A_offset" mapping <0 to 1 x 1> : memref<i32>
// CHECK-NEXT:     ipu.from_host %A : memref<4x8xf32>
// CHECK-NEXT:     ipu.from_host %T : memref<i32>
// CHECK-NEXT:     ipu.from_host %c : memref<f32>
// CHECK-NEXT:     ipu.repeat 2 {
// CHECK-NEXT:       ipu.tiled_map "m" over <0 to 16 x 2> ins(%A block : memref<4x8xf32>) outs(%A block : memref<4x8xf32>) {
// CHECK-NEXT:       ^bb0(%A_1: memref<4x8xf32>):
// CHECK-NEXT:         %0 = ipu.access %A_1[0, 0] : memref<4x8xf32>
// CHECK-NEXT:         %1 = ipu.point
// CHECK-NEXT:         %2 = arith.constant 8 : index
// CHECK-NEXT:         %3 = arith.remui %1, %2 : index
// CHECK-NEXT:         %4 = arith.index_cast %3 : index to i32
// CHECK-NEXT:         %f = arith.sitofp %4 : i32 to f32
// CHECK-NEXT:         %s = arith.addf %0, %f : f32
// CHECK-NEXT:         ipu.yield %s : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ipu.tiled_map "time_init" over <0 to 1 x 1> ins(%T whole : memref<i32>) outs(%t whole, %time_cond whole : memref<i32>, memref<i1>) {
// CHECK-NEXT:     ^bb0(%T_1: memref<i32>):
// CHECK-NEXT:       %0 = ipu.access %T_1[] : memref<i32>
// CHECK-NEXT:       %1 = arith.constant 1 : i32
// CHECK-NEXT:       %2 = arith.cmpi slt, %1, %0 : i32
// CHECK-NEXT:       ipu.yield %1, %2 : i32, i1
// CHECK-NEXT:     }
// CHECK-NEXT:     ipu.repeat_while %time_cond : memref<i1> {
// CHECK-NEXT:     } do {
// CHECK-NEXT:       ipu.tiled_map "A_offsets" over <0 to 1 x 1> ins(%t whole : memref<i32>) outs(%A_offset whole : memref<i32>) {
// CHECK-NEXT:       ^bb0(%t_1: memref<i32>):
// CHECK-NEXT:         %0 = ipu.access %t_1[] : memref<i32>
// CHECK-NEXT:         %1 = arith.constant -1 : i32
// CHECK-NEXT:         %2 = arith.addi %1, %0 : i32
// CHECK-NEXT:         ipu.yield %2 : i32
// CHECK-NEXT:       }
// CHECK-NEXT:       ipu.dynamic_slice %A at [%A_offset] dims [0] sizes [1] into %row : memref<4x8xf32>, memref<8xf32>
// CHECK-NEXT:       ipu.dynamic_update %A at [%t] dims [0] sizes [1] from %row : memref<4x8xf32>, memref<8xf32>
// CHECK-NEXT:       ipu.tiled_map "time_step" over <0 to 1 x 1> ins(%t whole, %T whole : memref<i32>, memref<i32>) outs(%t whole, %time_cond whole : memref<i32>, memref<i1>) {
// CHECK-NEXT:       ^bb0(%t_1: memref<i32>, %T_1: memref<i32>):
// CHECK-NEXT:         %0 = ipu.access %t_1[] : memref<i32>
// CHECK-NEXT:         %1 = ipu.access %T_1[] : memref<i32>
// CHECK-NEXT:         %2 = arith.constant 1 : i32
// CHECK-NEXT:         %3 = arith.addi %0, %2 : i32
// CHECK-NEXT:         %4 = arith.cmpi slt, %3, %1 : i32
// CHECK-NEXT:         ipu.yield %3, %4 : i32, i1
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ipu.tiled_map "positive_cond" over <0 to 1 x 1> ins(%c whole : memref<f32>) outs(%positive_cond whole : memref<i1>) {
// CHECK-NEXT:     ^bb0(%c_1: memref<f32>):
// CHECK-NEXT:       %0 = ipu.access %c_1[] : memref<f32>
// CHECK-NEXT:       %z = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:       %g = arith.cmpf ogt, %0, %z : f32
// CHECK-NEXT:       ipu.yield %g : i1
// CHECK-NEXT:     }
// CHECK-NEXT:     ipu.if %positive_cond : memref<i1> {
// CHECK-NEXT:       ipu.tiled_map "half" over <0 to 1 x 1> ins(%c whole : memref<f32>) outs(%c whole : memref<f32>) {
// CHECK-NEXT:       ^bb0(%c_1: memref<f32>):
// CHECK-NEXT:         %0 = ipu.access %c_1[] : memref<f32>
// CHECK-NEXT:         %two = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:         %q = arith.divf %0, %two : f32
// CHECK-NEXT:         ipu.yield %q : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ipu.repeat_while %shrink_cond : memref<i1> {
// CHECK-NEXT:       ipu.tiled_map "shrink_cond" over <0 to 1 x 1> ins(%c whole : memref<f32>) outs(%shrink_cond whole : memref<i1>) {
// CHECK-NEXT:       ^bb0(%c_1: memref<f32>):
// CHECK-NEXT:         %0 = ipu.access %c_1[] : memref<f32>
// CHECK-NEXT:         %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:         %g = arith.cmpf ogt, %0, %one : f32
// CHECK-NEXT:         ipu.yield %g : i1
// CHECK-NEXT:       }
// CHECK-NEXT:     } do {
// CHECK-NEXT:       ipu.tiled_map "half" over <0 to 1 x 1> ins(%c whole : memref<f32>) outs(%c whole : memref<f32>) {
// CHECK-NEXT:       ^bb0(%c_1: memref<f32>):
// CHECK-NEXT:         %0 = ipu.access %c_1[] : memref<f32>
// CHECK-NEXT:         %two = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:         %q = arith.divf %0, %two : f32
// CHECK-NEXT:         ipu.yield %q : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ipu.to_host %A : memref<4x8xf32>
// CHECK-NEXT:   }
