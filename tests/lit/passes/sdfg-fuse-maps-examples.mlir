// The bundled examples after sdfg-fuse-maps and sdfg-write-in-place: each becomes one
// map, with no transient left.
// RUN: ipu-opt %examples/saxpy.sdfg -p sdfg-fuse-maps,sdfg-write-in-place | filecheck %s --check-prefix=SAXPY
// RUN: ipu-opt %examples/chain.sdfg -p sdfg-fuse-maps,sdfg-write-in-place | filecheck %s --check-prefix=CHAIN
// The passes commute on saxpy: in place first, then fusion.
// RUN: ipu-opt %examples/saxpy.sdfg -p sdfg-write-in-place,sdfg-fuse-maps | filecheck %s --check-prefix=SAXPY

// y[:] = a * x + y: one map that reads a, x[i] and y[i] and writes y[i].
// SAXPY:      sdfg.sdfg @saxpy args ["a", "x", "y"] symbols ["N"] {
// SAXPY-NEXT:   [[A:%.*]] = sdfg.container "a" : !sdfg.array<f32>
// SAXPY-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<N x f32>
// SAXPY-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<N x f32>
// SAXPY-NOT:    transient
// SAXPY-NEXT:   sdfg.state "BinOp_10" {
// SAXPY-NEXT:     sdfg.map "_Mult__map" ([[I:%.*]]) = (0) to (N) step (1) {
// SAXPY-NEXT:       [[VA:%.*]] = sdfg.read [[A]][] : !sdfg.array<f32>
// SAXPY-NEXT:       [[VX:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// SAXPY-NEXT:       [[P:%.*]] = sdfg.tasklet "_Mult_" ins(__in1 = [[VA]], __in2 = [[VX]]) outs(__out) : (f32, f32) -> (f32) {
// SAXPY-NEXT:       ^{{.*}}([[U:%.*]]: f32, [[V:%.*]]: f32):
// SAXPY-NEXT:         [[R:%.*]] = arith.mulf [[U]], [[V]] : f32
// SAXPY-NEXT:         sdfg.yield [[R]] : f32
// SAXPY-NEXT:       }
// SAXPY-NEXT:       [[VY:%.*]] = sdfg.read [[Y]][[[I]]] : !sdfg.array<N x f32>
// SAXPY-NEXT:       [[S:%.*]] = sdfg.tasklet "_Add_" ins(__in1 = [[P]], __in2 = [[VY]]) outs(__out) : (f32, f32) -> (f32) {
// SAXPY-NEXT:       ^{{.*}}([[U:%.*]]: f32, [[V:%.*]]: f32):
// SAXPY-NEXT:         [[R:%.*]] = arith.addf [[U]], [[V]] : f32
// SAXPY-NEXT:         sdfg.yield [[R]] : f32
// SAXPY-NEXT:       }
// SAXPY-NEXT:       sdfg.write [[S]] to [[Y]][[[I]]] : !sdfg.array<N x f32>
// SAXPY-NEXT:     }
// SAXPY-NEXT:   }
// SAXPY-NEXT: }
// SAXPY-NOT:  __tmp
// SAXPY-NOT:  sdfg.copy

// t = x * y; u = t + x; z[:] = sqrt(u): one map that reads x and y and writes z.
// CHAIN:      sdfg.sdfg @chain args ["x", "y", "z"] symbols ["N"] {
// CHAIN-NEXT:   [[X:%.*]] = sdfg.container "x" : !sdfg.array<N x f32>
// CHAIN-NEXT:   [[Y:%.*]] = sdfg.container "y" : !sdfg.array<N x f32>
// CHAIN-NEXT:   [[Z:%.*]] = sdfg.container "z" : !sdfg.array<N x f32>
// CHAIN-NOT:    sdfg.container "{{[tu]}}"
// CHAIN-NEXT:   sdfg.state "BinOp_11" {
// CHAIN-NEXT:     sdfg.map "_Mult__map" ([[I:%.*]]) = (0) to (N) step (1) {
// CHAIN-NEXT:       [[VX:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHAIN-NEXT:       [[VY:%.*]] = sdfg.read [[Y]][[[I]]] : !sdfg.array<N x f32>
// CHAIN-NEXT:       [[P:%.*]] = sdfg.tasklet "_Mult_" ins(__in1 = [[VX]], __in2 = [[VY]]) outs(__out) : (f32, f32) -> (f32) {
// CHAIN:            }
// CHAIN-NEXT:       [[VX2:%.*]] = sdfg.read [[X]][[[I]]] : !sdfg.array<N x f32>
// CHAIN-NEXT:       [[S:%.*]] = sdfg.tasklet "_Add_" ins(__in1 = [[P]], __in2 = [[VX2]]) outs(__out) : (f32, f32) -> (f32) {
// CHAIN:            }
// CHAIN-NEXT:       [[Q:%.*]] = sdfg.tasklet "_numpy_sqrt_" ins(__in1 = [[S]]) outs(__out) : (f32) -> (f32) {
// CHAIN:            }
// CHAIN-NEXT:       sdfg.write [[Q]] to [[Z]][[[I]]] : !sdfg.array<N x f32>
// CHAIN-NEXT:     }
// CHAIN-NEXT:   }
// CHAIN-NEXT: }
// CHAIN-NOT:  sdfg.container
// CHAIN-NOT:  sdfg.map
