// RUN: not timeout 60 ipu-opt %s 2>&1 | filecheck %s

// A quote that is never closed, with the rest of a line after it, is an error at once:
// xDSL 0.75's string-literal pattern backtracked exponentially in the length of that rest
// (minutes for this line); dialects/string_literal.py makes it fail in linear time.

// CHECK: unterminated-string.mlir:[[# @LINE + 1]]:17: error: End of file reached before closing string literal.
%0 = ipu.access "%A_1[0, 0] : memref<6x5x4x3x2xi16> {a = #ipu.tile_map<0 to 2 x 5>}
