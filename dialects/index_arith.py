"""Index expressions as `arith` ops on 32-bit integers: how a codelet computes a loop
bound, a loop variable's value in a tasklet (`sdfg.apply`) or the element a loop
counter picks, at run time.

`materialize(expr, dims, block)` appends ops computing `expr` with dimension k bound to
the i32 value `dims[k]`, and returns the result. The expression must have no symbols left
(sdfg-specialize substitutes them). `floordiv`, `ceildiv` and `mod` keep the index
expressions' meaning (floor division, a remainder with the sign of the divisor: Python's
`//` and `%`), not C's truncating division.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block, Operation, SSAValue

from ipu_lower.dialects.index_expr import IndexExpr


class _Builder:
    def __init__(self, dims: Sequence[SSAValue], block: Block):
        self.dims = dims
        self.block = block
        self.constants: dict[int, SSAValue] = {}

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        if value not in self.constants:
            self.constants[value] = self.add(arith.ConstantOp(IntegerAttr(value, i32)))
        return self.constants[value]

    def expr(self, e: IndexExpr) -> SSAValue:
        total: SSAValue | None = None
        for mono, coefficient in e.terms:
            factors = [self.atom(a) for a in mono]
            value = factors[0] if factors else None
            for factor in factors[1:]:
                value = self.add(arith.MuliOp(value, factor))
            if value is None:
                value = self.constant(coefficient)
            elif coefficient != 1:
                value = self.add(arith.MuliOp(self.constant(coefficient), value))
            total = value if total is None else self.add(arith.AddiOp(total, value))
        return self.constant(0) if total is None else total

    def atom(self, atom: tuple) -> SSAValue:
        kind = atom[0]
        if kind == "d":
            return self.dims[atom[1]]
        if kind == "s":
            raise ValueError(f"symbol '{atom[1]}' has no value (run sdfg-specialize first)")
        a, b = self.expr(atom[1]), self.expr(atom[2])
        if kind == "floordiv":
            return self.add(arith.FloorDivSIOp(a, b))
        if kind == "ceildiv":  # ceil(a / b) = -floor(-a / b)
            negated = self.add(arith.SubiOp(self.constant(0), a))
            return self.add(arith.SubiOp(self.constant(0), self.add(arith.FloorDivSIOp(negated, b))))
        if kind == "mod":  # a - b * floor(a / b)
            quotient = self.add(arith.FloorDivSIOp(a, b))
            return self.add(arith.SubiOp(a, self.add(arith.MuliOp(b, quotient))))
        if kind == "min":
            return self.add(arith.MinSIOp(a, b))
        return self.add(arith.MaxSIOp(a, b))


def materialize(expr: IndexExpr, dims: Sequence[SSAValue], block: Block) -> SSAValue:
    """Append to `block` the i32 ops computing `expr`, dimension k being `dims[k]` (i32);
    ValueError when a symbol is left."""
    return _Builder(dims, block).expr(expr)
