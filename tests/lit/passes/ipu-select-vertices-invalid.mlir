// RUN: rm -f %t.mlir && not ipu-opt %s -p 'ipu-select-vertices{prefer=fast}' -o %t.mlir 2>&1 | filecheck %s
// RUN: test ! -e %t.mlir
// RUN: not ipu-opt %examples/saxpy.sdfg --symbols N=8 -p 'sdfg-to-poplar{prefer=fast}' 2>&1 | filecheck %s

// A preference other than auto, codelet or poplibs is one line naming the three, with
// exit code 1 and no output file, alone or through the pipeline.
// CHECK: ipu-opt: error: ipu-select-vertices: prefer must be one of auto, codelet, poplibs, not 'fast'

builtin.module {}
