// --pass-pipeline takes MLIR syntax; --symbols and --arch fill the options left unset.
// RUN: ipu-opt %inputs/axpy.mlir --pass-pipeline 'builtin.module(sdfg-specialize{symbols="N=6"},ipu-tile-partition{arch=ipu1})' | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir -p 'sdfg-specialize{symbols="N=6"},ipu-tile-partition{arch=ipu1}' | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 --arch ipu1 --pass-pipeline 'builtin.module(sdfg-specialize, ipu-tile-partition)' | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 --arch ipu21 -p 'sdfg-specialize,ipu-tile-partition{arch=ipu1}' | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 --arch ipu21 -p sdfg-to-poplar | filecheck %s --check-prefix=IPU21

// CHECK: ipu.graph "axpy" arch "ipu1" args ["a", "x", "y"]
// CHECK: ipu.variable "x" mapping <0 to 3 x 2> : memref<6xf32>
// IPU21: poplar.host_program @axpy arch "ipu21"

// xdsl-opt's flags keep working.
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 -p sdfg-specialize,ipu-tile-partition,ipu-vertex-extraction --print-between-passes | filecheck %s --check-prefix=BETWEEN
// BETWEEN: IR after sdfg-specialize:
// BETWEEN: sdfg.container "x" : !sdfg.array<6 x f32>
// BETWEEN: IR after ipu-tile-partition:
// BETWEEN: ipu.tiled_map "m"
// BETWEEN: ipu.codelet @axpy_m

// sdfg-to-poplar is expanded into its steps, so xdsl-opt's flags see each of them:
// --print-between-passes prints the IR after every step but the last (whose IR is the
// output), --time-passes times every step, and never the pipeline as one pass.
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 -p sdfg-to-poplar --print-between-passes | filecheck %s --check-prefix=STEPS
// STEPS-NOT: IR after sdfg-to-poplar
// STEPS:      IR after sdfg-inline-nested-in-maps:
// STEPS:      IR after sdfg-inline-nested:
// STEPS:      IR after sdfg-specialize:
// STEPS-NEXT: builtin.module {
// STEPS-NEXT:   sdfg.sdfg @axpy args ["a", "x", "y"] symbols [] {
// STEPS:          sdfg.container "x" : !sdfg.array<6 x f32>
// STEPS:      IR after ipu-tile-partition:
// STEPS-NEXT: builtin.module {
// STEPS-NEXT:   ipu.graph "axpy" arch "ipu2" args ["a", "x", "y"] {
// STEPS:          ipu.tiled_map "m" over <0 to 3 x 2>
// STEPS:      IR after ipu-plan-exchange:
// STEPS:      IR after ipu-vertex-extraction:
// STEPS-NEXT: builtin.module {
// STEPS-NEXT:   ipu.graph "axpy" arch "ipu2" args ["a", "x", "y"] {
// STEPS:          ipu.codelet @axpy_m(
// STEPS:          ipu.vertices @axpy_m over <0 to 3 x 2>
// STEPS:      IR after ipu-select-vertices:
// STEPS:          ipu.vertices @axpy_m over <0 to 3 x 2> {{.*}} {vertex_choice = {impl = "poplibs", call = "scaledAddTo"
// STEPS-NOT:  IR after
// STEPS:      builtin.module {
// STEPS:        poplar.host_program @axpy arch "ipu2"
// STEPS:          poplar.scaled_add "axpy_m" %y, %x, %a
// STEPS-NOT:  IR after

// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 -p sdfg-to-poplar --time-passes | filecheck %s --check-prefix=TIME
// TIME-NOT:  sdfg-to-poplar
// TIME:      Pass sdfg-inline-nested-in-maps took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-inline-nested took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-lower-breaks took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-collapse-maps took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-weaken-literals took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-hoist-reductions took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-choose-reductions took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-copy-reduction-boxes took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-expand-reductions took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-specialize took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-fuse-maps took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-write-in-place took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-chunk-reductions took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-dynamic-copies took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass sdfg-stream-chunks took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass ipu-tile-partition took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass ipu-plan-exchange took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass ipu-vertex-extraction took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass ipu-select-vertices took {{[0-9.e+-]+}} seconds
// TIME-NEXT: Pass convert-ipu-to-poplar took {{[0-9.e+-]+}} seconds
// TIME-NEXT: builtin.module {
// TIME-NOT:  Pass

// sdfg-to-poplar{demote_f64=true} starts with ipu-demote-f64 (here on axpy in float64, with
// a warning per container); without it, float64 is an error.
// RUN: rm -rf %t && mkdir -p %t && sed 's/f32/f64/g' %inputs/axpy.mlir > %t/axpy64.mlir
// RUN: ipu-opt %t/axpy64.mlir --symbols N=6 -p 'sdfg-to-poplar{demote_f64=true}' --print-between-passes 2> %t/warnings | filecheck %s --check-prefix=DEMOTE
// RUN: filecheck %s --check-prefix=WARN < %t/warnings
// RUN: ipu-opt %t/axpy64.mlir --symbols N=6 --pass-pipeline 'builtin.module(sdfg-to-poplar{demote_f64=true})' --time-passes 2> /dev/null | filecheck %s --check-prefix=DEMOTE-TIME
// RUN: not ipu-opt %t/axpy64.mlir --symbols N=6 -p sdfg-to-poplar 2>&1 | filecheck %s --check-prefix=NO-DEMOTE
// DEMOTE:      IR after ipu-demote-f64:
// DEMOTE-NEXT: builtin.module attributes {sdfg.declared_types = {axpy = {a = f64, x = f64, y = f64}}} {
// DEMOTE-NEXT:   sdfg.sdfg @axpy args ["a", "x", "y"] symbols ["N"] {
// DEMOTE-NEXT:     %a = sdfg.container "a" : !sdfg.array<f32>
// DEMOTE-NEXT:     %x = sdfg.container "x" : !sdfg.array<N x f32>
// DEMOTE:      IR after sdfg-specialize:
// DEMOTE:      IR after ipu-tile-partition:
// DEMOTE:      IR after ipu-plan-exchange:
// DEMOTE:      IR after ipu-vertex-extraction:
// DEMOTE:      poplar.host_program @axpy
// DEMOTE-NOT:  f64
// WARN:      warning: {{.*}}axpy64.mlir:3:3: demoting container 'a' from f64 to f32
// WARN-NEXT: warning: {{.*}}axpy64.mlir:4:3: demoting container 'x' from f64 to f32
// WARN-NEXT: warning: {{.*}}axpy64.mlir:5:3: demoting container 'y' from f64 to f32
// WARN-NOT:  warning
// DEMOTE-TIME:      Pass ipu-demote-f64 took {{[0-9.e+-]+}} seconds
// DEMOTE-TIME-NEXT: Pass sdfg-specialize took
// NO-DEMOTE: ipu-opt: {{.*}}axpy64.mlir:3:3: error: container 'a' is float64, which the IPU does not support; demote it with the ipu-demote-f64 pass (demote_f64=True in ipu_lower.compile) or use float32

// ipu-opt verifies the input and the result; --verify-each also verifies the IR after
// every step, and --disable-verify never. Map step S becomes 0 in sdfg-specialize: the
// verifier after that step rejects it; without it, the fusion steps leave the map alone
// and ipu-tile-partition is the one that reports it. Valid input gives the same output.
// RUN: sed 's/step (1)/step (S)/; s/symbols \["N"\]/symbols ["N", "S"]/' %inputs/axpy.mlir > %t/step.mlir
// RUN: not ipu-opt %t/step.mlir --symbols N=6,S=0 -p sdfg-to-poplar --verify-each 2>&1 | filecheck %s --check-prefix=VERIFIED
// RUN: not ipu-opt %t/step.mlir --symbols N=6,S=0 -p sdfg-to-poplar 2>&1 | filecheck %s --check-prefix=UNVERIFIED
// RUN: not ipu-opt %t/step.mlir --symbols N=6,S=0 -p sdfg-to-poplar --disable-verify 2>&1 | filecheck %s --check-prefix=UNVERIFIED
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 -p sdfg-to-poplar > %t/verified.mlir
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=6 -p sdfg-to-poplar --disable-verify > %t/unverified.mlir
// RUN: diff %t/verified.mlir %t/unverified.mlir
// VERIFIED:   ipu-opt: {{.*}}step.mlir:7:5: error: map 'm' has non-positive step 0
// UNVERIFIED: ipu-opt: {{.*}}step.mlir:7:5: error: map 'm' ranges must have step 1 for now (got 0 to 6 step 0)
