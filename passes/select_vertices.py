"""ipu-select-vertices: our codelet or a poplibs call for each placement, from the two estimates.

A placement whose codelet does what one poplibs call does is priced both ways: our
codelet as `cost_model.VertexCost` reads its body, poplibs' vertex as poplibs' own
estimator says (`ipu_lower.poplibs_estimates`), each for the busiest tile of the
placement's tile map. The work poplibs has a vertex for, read from what the codelet
stores (every store of the one field it writes computes the same expression of the
elements its loads read at the stored index, and of whole scalars):

- `y = y + s * x` (or `y += x * s`, `s * x + y`, ...), `s` a scalar: `popops::scaledAddTo`
  (ScaledAddSupervisor); `y = y - s * x`: `popops::scaledSubtractFrom`;
- one binary op of two tensors (add, sub, mul, div, max, min) into a third, or in place
  into the first: `popops::mapWithOutput` / `mapInPlace` (BinaryOp1D / BinaryOp1DInPlace);
- one unary op (neg, abs, exp, exp2, log, sqrt, rsqrt, tanh, ceil, floor, trunc) into
  another tensor: `popops::mapWithOutput` (UnaryOp1D);
- a float <-> half conversion into another tensor: `popops::cast` (Cast1D).

A longer expression of such ops over whole tensors (`w = x * y + z`) is a chain: poplibs
would run one call per op, each a compute set that reads and writes its tensors in tile
memory (and a sync between them), where the fused codelet reads each input once. Its
poplibs price is the sum of those calls' estimates and syncs; it is recorded, and the
codelet stays under every preference, since the program has no temporaries for the calls.

Only a placement alone in its compute set, whose tensors are whole (scalars) or sliced
by block with the tile map covering them from element 0, and of float or half elements
(poplibs' estimators model those), is priced.

The decision is the attribute `vertex_choice` of the `ipu.vertices`: `impl` ("poplibs"
or "codelet"), `call` (the poplibs function), `ops` (popops' expression ops, one per
call, for map calls), `fields` (the placement's operands in the call's argument order),
`codelet_cycles` and `poplibs_cycles`. `prefer=auto` (default) picks the smaller,
`codelet` or `poplibs` force one side; convert-ipu-to-poplar lowers the choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, vector
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.utils.exceptions import PassFailedException

from ipu_lower.arch import Arch, get_arch
from ipu_lower.dialects import ipu
from ipu_lower.dialects.popops_elementwise import BINARY_OPS as POPOPS_BINARY, CHOICE
from ipu_lower.passes.convert_ipu_to_poplar import run_extents, slice_sizes
from ipu_lower.poplibs_estimates import (
    FLOAT,
    HALF,
    binary_op_1d,
    binary_op_1d_in_place,
    cast_1d,
    scaled_add_supervisor,
    scaled_subtract_supervisor,
    unary_op_1d,
)

PREFERENCES = ("auto", "codelet", "poplibs")

BINARY_OPS: dict[type[Operation], str] = {
    arith.AddfOp: "ADD",
    arith.SubfOp: "SUBTRACT",
    arith.MulfOp: "MULTIPLY",
    arith.DivfOp: "DIVIDE",
    arith.MaximumfOp: "MAXIMUM",
    arith.MinimumfOp: "MINIMUM",
}
"""popops::expr::BinaryOpType of each float op (include/popops/ExprOp.hpp:18-45)."""

UNARY_OPS: dict[type[Operation], str] = {
    arith.NegfOp: "NEGATE",
    mathd.AbsFOp: "ABSOLUTE",
    mathd.ExpOp: "EXPONENT",
    mathd.Exp2Op: "EXPONENT2",
    mathd.LogOp: "LOGARITHM",
    mathd.SqrtOp: "SQRT",
    mathd.RsqrtOp: "RSQRT",
    mathd.TanhOp: "TANH",
    mathd.CeilOp: "CEIL",
    mathd.FloorOp: "FLOOR",
    mathd.TruncOp: "TRUNC",
}
"""popops::expr::UnaryOpType of each float op (include/popops/ExprOp.hpp:47-82)."""

COMMUTATIVE = frozenset({"ADD", "MULTIPLY", "MAXIMUM", "MINIMUM"})

_DTYPES = {Float32Type: FLOAT, Float16Type: HALF}

Expr = tuple
"""An expression a codelet stores: ("field", k) an element of operand k at the stored
index, ("scalar", k) the whole scalar operand k, ("CAST", e), or (popops op, *operands)."""


@dataclass(frozen=True)
class Work:
    """What poplibs would run for a placement: `call` with `ops` (map calls), its
    operands `fields` (positions in the placement) in the call's order; `calls` > 1
    for a chain, which has no `fields`."""

    call: str
    ops: tuple[str, ...] = ()
    fields: tuple[int, ...] = ()

    @property
    def calls(self) -> int:
        return max(1, len(self.ops))


def _expression(value: SSAValue, index: tuple[SSAValue, ...], fields: dict[SSAValue, int]) -> Expr | None:
    """The expression `value` computes from loads of `fields` at `index` and whole
    scalars, or None when it reads anything else."""
    op = value.owner
    if isinstance(op, memref.LoadOp | vector.LoadOp):
        base = op.memref if isinstance(op, memref.LoadOp) else op.base
        if base not in fields:
            return None
        if not op.indices:
            return ("scalar", fields[base])
        return ("field", fields[base]) if tuple(op.indices) == index else None
    if isinstance(op, vector.BroadcastOp):
        inner = _expression(op.source, index, fields)
        return inner if inner is not None and inner[0] == "scalar" else None
    if isinstance(op, vector.FMAOp):
        terms = [_expression(v, index, fields) for v in (op.lhs, op.rhs, op.acc)]
        return None if None in terms else ("ADD", ("MULTIPLY", terms[0], terms[1]), terms[2])
    if isinstance(op, arith.ExtFOp | arith.TruncFOp):
        inner = _expression(op.input, index, fields)
        return None if inner is None else ("CAST", inner)
    if type(op) in BINARY_OPS:
        terms = [_expression(v, index, fields) for v in op.operands]
        return None if None in terms else (BINARY_OPS[type(op)], *terms)
    if type(op) in UNARY_OPS:
        inner = _expression(op.operands[0], index, fields)
        return None if inner is None else (UNARY_OPS[type(op)], inner)
    return None


def stored_expression(body: Block) -> tuple[int, Expr] | None:
    """The one field a codelet body writes and the one expression every store into it
    computes, or None when it writes several fields or different things."""
    fields: dict[SSAValue, int] = {arg: k for k, arg in enumerate(body.args)}
    stored: set[tuple[int, Expr | None]] = set()
    for op in body.walk():
        if isinstance(op, memref.StoreOp | vector.StoreOp):
            base = op.memref if isinstance(op, memref.StoreOp) else op.base
            value = op.value if isinstance(op, memref.StoreOp) else op.vector
            if base not in fields or not op.indices:
                return None
            stored.add((fields[base], _expression(value, tuple(op.indices), fields)))
    if len(stored) != 1:
        return None
    (out, expression), = stored
    return None if expression is None else (out, expression)


def _ops(expression: Expr) -> list[str] | None:
    """The popops ops of a chain over fields only, operands first; None if it reads a
    scalar or casts."""
    if expression[0] == "field":
        return []
    if expression[0] in ("scalar", "CAST"):
        return None
    inner = [_ops(e) for e in expression[1:]]
    if any(i is None for i in inner):
        return None
    return [op for i in inner for op in i] + [expression[0]]  # type: ignore[union-attr]


def _scaled(expression: Expr, out: int) -> Work | None:
    """`out + s * x` in any order of its terms and factors, or `out - s * x`."""
    kind, *terms = expression
    if kind not in ("ADD", "SUBTRACT") or len(terms) != 2:
        return None
    if kind == "ADD" and terms[1] == ("field", out):
        terms.reverse()
    if terms[0] != ("field", out) or terms[1][0] != "MULTIPLY":
        return None
    factors = sorted(terms[1][1:])  # ("field", k) before ("scalar", s)
    if [f[0] for f in factors] != ["field", "scalar"] or factors[0][1] == out:
        return None
    return Work("scaledAddTo" if kind == "ADD" else "scaledSubtractFrom", (), (out, factors[0][1], factors[1][1]))


def match_work(out: int, expression: Expr) -> Work | None:
    """The poplibs work of storing `expression` into operand `out` (see the module
    docstring), or None when poplibs has no vertex for it."""
    if (scaled := _scaled(expression, out)) is not None:
        return scaled
    kind, *terms = expression
    if kind == "CAST":
        return Work("cast", (), (terms[0][1], out)) if terms[0][0] == "field" and terms[0][1] != out else None
    ops = _ops(expression)
    if not ops:
        return None
    if len(ops) > 1:
        return Work("map", tuple(ops))
    inputs = [t[1] for t in terms]
    if out not in inputs:
        return Work("mapWithOutput", (kind,), (*inputs, out))
    if len(inputs) == 2 and inputs.count(out) == 1 and (inputs[0] == out or kind in COMMUTATIVE):
        return Work("mapInPlace", (kind,), (out, inputs[1 - inputs.index(out)]))
    return None


def _dtype(t: Attribute) -> str | None:
    return _DTYPES.get(type(getattr(t, "element_type", t)))


def poplibs_cycles(work: Work, dtypes: Sequence[str], elements: int, workers: int, sync_cycles: int) -> int:
    """poplibs' estimate of `work` over `elements` on one tile; operand element types
    `dtypes` in the placement's order. A chain pays one vertex per op and a sync
    between two calls."""
    first = dtypes[work.fields[0]] if work.fields else dtypes[0]
    if work.call == "scaledAddTo":
        return scaled_add_supervisor(first, elements, False, workers)
    if work.call == "scaledSubtractFrom":
        return scaled_subtract_supervisor(first, elements, workers)
    if work.call == "cast":
        return cast_1d(first, dtypes[work.fields[1]], elements, workers)
    if work.call == "mapInPlace":
        return binary_op_1d_in_place(work.ops[0].lower(), first, elements, workers)
    total = 0
    for op in work.ops:
        binary = op in POPOPS_BINARY
        total += (binary_op_1d if binary else unary_op_1d)(op.lower(), first, elements, workers)
    return total + (work.calls - 1) * sync_cycles


def _placement_work(placement: ipu.VerticesOp, codelet: ipu.CodeletOp) -> tuple[Work, int] | None:
    """The poplibs work of a placement and the operand it writes, if it can be priced
    (see the module docstring)."""
    if len(placement.parent_block().ops) != 1:  # type: ignore[union-attr]
        return None
    if isinstance(placement.tile_map, ipu.TileMapAttr) and placement.tile_map.start != 0:
        return None
    found = stored_expression(codelet.body.block)
    if found is None or (work := match_work(*found)) is None:
        return None
    vectors = [t for t, r in zip(placement.tensors, placement.rules.data) if r != ipu.WHOLE]
    for tensor, rule in zip(placement.tensors, placement.rules.data):
        if _dtype(tensor.type) is None or rule not in (ipu.WHOLE, ipu.BLOCK):
            return None
        if rule == ipu.WHOLE and ipu.num_elements(tensor.type) != 1:
            return None
    if len({t.type.get_shape() for t in vectors}) != 1:  # type: ignore[union-attr]
        return None
    if placement.tile_map.total() != ipu.num_elements(vectors[0].type):
        return None
    return work, found[0]


def choose(placement: ipu.VerticesOp, codelet: ipu.CodeletOp, arch: Arch, prefer: str) -> DictionaryAttr | None:
    """The decision for a placement (see the module docstring), or None when poplibs has
    no vertex for its work."""
    found = _placement_work(placement, codelet)
    if found is None:
        return None
    work, out = found
    from ipu_lower.cost_model import VertexCost  # imported when used, as convert-ipu-to-poplar does

    workers = arch.workers_per_tile
    cost = VertexCost(codelet.body.block)
    runs = list(enumerate(run_extents(placement.tile_map)))
    ours = max(cost.cycles(slice_sizes(placement, r, e), workers, e) for r, e in runs)
    busiest = max(slice_sizes(placement, r, e)[out] for r, e in runs)
    dtypes = [_dtype(t.type) for t in placement.tensors]
    theirs = poplibs_cycles(work, dtypes, busiest, workers, arch.sync_cycles)  # type: ignore[arg-type]
    lowerable = work.calls == 1
    impl = "poplibs" if lowerable and (prefer == "poplibs" or (prefer == "auto" and theirs < ours)) else "codelet"
    entries: dict[str, Attribute] = {
        "impl": StringAttr(impl),
        "call": StringAttr(work.call),
        "codelet_cycles": IntegerAttr(ours, i64),
        "poplibs_cycles": IntegerAttr(theirs, i64),
    }
    if work.ops:
        entries["ops"] = ArrayAttr([StringAttr(o) for o in work.ops])
    if work.fields:
        entries["fields"] = DenseArrayBase.from_list(i64, work.fields)
    return DictionaryAttr(entries)


def choice_summary(choice: DictionaryAttr) -> dict[str, object]:
    """A decision as plain values: `implementation`, `call`, `ops`, `codelet_cycles`,
    `poplibs_cycles` (what program.json and the report list)."""
    entries = choice.data
    return {
        "implementation": entries["impl"].data,  # type: ignore[attr-defined]
        "call": entries["call"].data,  # type: ignore[attr-defined]
        "ops": [o.data for o in entries["ops"].data] if "ops" in entries else [],  # type: ignore[attr-defined]
        "codelet_cycles": entries["codelet_cycles"].value.data,  # type: ignore[attr-defined]
        "poplibs_cycles": entries["poplibs_cycles"].value.data,  # type: ignore[attr-defined]
    }


@dataclass
class _Choose(RewritePattern):
    prefer: str

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.VerticesOp, rewriter: PatternRewriter) -> None:
        if CHOICE in op.attributes:
            return
        graph = ipu.graph_of(op)
        codelet = ipu.codelet_named(op, op.codelet.root_reference.data)
        assert graph is not None and codelet is not None  # the verifier checked them
        decision = choose(op, codelet, get_arch(graph.arch.data), self.prefer)
        if decision is not None:
            op.attributes[CHOICE] = decision
            rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class IpuSelectVerticesPass(ModulePass):
    name = "ipu-select-vertices"

    prefer: str = "auto"
    """auto: the implementation of fewer estimated cycles; codelet or poplibs: that one
    wherever poplibs has a vertex for the work."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.prefer not in PREFERENCES:
            raise PassFailedException(
                f"ipu-select-vertices: prefer must be one of {', '.join(PREFERENCES)}, not '{self.prefer}'"
            )
        PatternRewriteWalker(_Choose(self.prefer), apply_recursively=False).rewrite_module(op)
