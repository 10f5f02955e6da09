"""sdfg-weaken-literals: Python numbers in tasklets as numpy's weak scalars (NEP 50).

DaCe 1.0.2 types `B[i] = A[i] * 0.5 + 3` with float32 `A` as numpy did before 2.0: its
frontend casts the input up (`dace.float64(__in1) * 0.5`, imported as `arith.extf` to
f64) and gives the temporaries it writes float64, which no IPU computes in. Numpy 2
(NEP 50) keeps float32: a Python number takes the type of the array operand it meets.

This pass applies that rule to the imported IR. In a tasklet body a constant is weak
(a Python number), a block argument strong (an array element), and an `arith.extf` to
f64 of a block argument or constant is DaCe's promotion cast, which NEP 50 does not
make: it has its operand's type. A float operation then has NEP 50's type of its
operands (`f32 op weak` is f32; `f32 op f64` is f64). A tasklet whose one result is
f64 but whose value has a narrower float type T under that rule yields T instead, and
so do the values it feeds, when everything that value reaches can take T: other
tasklets' inputs (SSA values), and transient containers that only tasklet writes of
such values write and only reads into tasklets read. A tasklet that yields a block
argument or a conversion of one (`dace.float64(x)`, or DaCe's assignment tasklet) is
the program's own conversion: its type is kept.

Each tasklet whose inputs changed type is typed again by the same rule (its float
operations in the narrower type when NEP 50 says so, a conversion at its yield to the
outputs it keeps); operations outside the rule keep their types, their operands
converted back. It repeats until nothing changes, since temporaries feed temporaries.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, FloatAttr, IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from ipu_lower.dialects import sdfg as sd

_WEAK = "weak"
"""The type of a Python number (a constant of a tasklet body)."""

_BINARY = (
    arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp,
    arith.MaximumfOp, arith.MinimumfOp, arith.MaxnumfOp, arith.MinnumfOp, mathd.PowFOp, mathd.Atan2Op, mathd.CopySignOp,
)  # fmt: skip
_UNARY = (
    arith.NegfOp, mathd.SqrtOp, mathd.ExpOp, mathd.Exp2Op, mathd.ExpM1Op, mathd.LogOp, mathd.Log2Op,
    mathd.Log10Op, mathd.Log1pOp, mathd.SinOp, mathd.CosOp, mathd.TanOp, mathd.AsinOp, mathd.AcosOp,
    mathd.AtanOp, mathd.SinhOp, mathd.CoshOp, mathd.TanhOp, mathd.AsinhOp, mathd.AcoshOp, mathd.AtanhOp,
    mathd.FloorOp, mathd.CeilOp, mathd.TruncOp, mathd.ErfOp, mathd.CbrtOp, mathd.AbsFOp,
)  # fmt: skip
_CONVERSIONS = (arith.ExtFOp, arith.TruncFOp, arith.SIToFPOp, arith.UIToFPOp, arith.FPToSIOp, arith.FPToUIOp)


class SdfgWeakenLiteralsPass(ModulePass):
    """Narrow the float64 values NEP 50 computes in a narrower float (module docstring)."""

    name = "sdfg-weaken-literals"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _materialize(op, _narrowed_types(op))


def _width(t: Attribute | str) -> int:
    return {Float16Type: 16, Float32Type: 32, Float64Type: 64}.get(type(t), 0)


def _combine(a: Attribute | str, b: Attribute | str) -> Attribute | str:
    """NEP 50's type of a float operation on operands of types `a` and `b`."""
    if a == _WEAK:
        return b
    if b == _WEAK:
        return a
    return a if _width(a) >= _width(b) else b


def _is_promotion(op: Operation) -> bool:
    """DaCe's cast of an input or a number to float64 for an operation."""
    if not isinstance(op, arith.ExtFOp) or not isinstance(op.results[0].type, Float64Type):
        return False
    return isinstance(op.operands[0].owner, Block | arith.ConstantOp)


def nep50_types(block: Block, input_types: Iterable[Attribute]) -> dict[SSAValue, Attribute | str]:
    """The NEP 50 type of each value of a tasklet body whose inputs have `input_types`:
    `_WEAK` for Python numbers."""
    types: dict[SSAValue, Attribute | str] = dict(zip(block.args, input_types))
    for op in block.ops:
        if isinstance(op, arith.ConstantOp):
            types[op.result] = _WEAK
        elif _is_promotion(op):
            types[op.results[0]] = types[op.operands[0]]
        elif isinstance(op, _BINARY):
            types[op.results[0]] = _combine(types[op.operands[0]], types[op.operands[1]])
        elif isinstance(op, _UNARY):
            types[op.results[0]] = types[op.operands[0]]
        elif isinstance(op, arith.SelectOp) and _width(op.result.type):
            types[op.result] = _combine(types[op.operands[1]], types[op.operands[2]])
        else:
            types.update((r, r.type) for r in op.results)
    return types


def narrowed_result(tasklet: sd.TaskletOp, input_types: Iterable[Attribute]) -> Attribute | None:
    """The float narrower than f64 that the one f64 result of `tasklet` has under NEP 50
    when its inputs have `input_types`; None when it has another, or when the tasklet is
    a conversion (module docstring)."""
    if len(tasklet.outputs) != 1 or not isinstance(tasklet.outputs[0].type, Float64Type):
        return None
    block = tasklet.body.block
    yielded = block.last_op.operands[0]  # type: ignore[union-attr]
    if isinstance(yielded.owner, Block) or isinstance(yielded.owner, _CONVERSIONS):
        return None
    t = nep50_types(block, input_types)[yielded]
    return t if t != _WEAK and 0 < _width(t) < 64 else None  # type: ignore[return-value]


class _Retyper:
    """A tasklet body typed again by NEP 50 for new input and output types."""

    def __init__(self, old: Block, input_types: Iterable[Attribute], output_types: list[Attribute]):
        self.block = Block(arg_types=list(input_types))
        for new, arg in zip(self.block.args, old.args):
            new.name_hint = arg.name_hint
        self.new: dict[SSAValue, SSAValue] = dict(zip(old.args, self.block.args))
        self.kinds: dict[SSAValue, Attribute | str] = {a: new.type for a, new in self.new.items()}
        for op in old.ops:
            self.op(op, output_types)

    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def value(self, old: SSAValue, t: Attribute) -> SSAValue:
        """`old`'s new value as a value of type `t`."""
        v = self.new[old]
        if v.type == t:
            return v
        if isinstance(v.owner, arith.ConstantOp) and self.kinds[old] == _WEAK:
            value = v.owner.value
            number = value.value.data
            attr = FloatAttr(float(number), t) if _width(t) else IntegerAttr(int(number), t)  # type: ignore[arg-type]
            return self.add(arith.ConstantOp(attr)).results[0]
        if _width(v.type) and _width(t):
            cast = arith.ExtFOp if _width(t) > _width(v.type) else arith.TruncFOp
            return self.add(cast(v, t)).results[0]
        raise AssertionError(f"no conversion from {v.type} to {t} in a retyped tasklet")

    def target(self, kind: Attribute | str, original: Attribute) -> Attribute:
        return original if kind == _WEAK else kind  # type: ignore[return-value]

    def op(self, op: Operation, output_types: list[Attribute]) -> None:
        if isinstance(op, sd.YieldOp):
            self.add(sd.YieldOp(*(self.value(v, t) for v, t in zip(op.operands, output_types))))
            return
        if isinstance(op, arith.ConstantOp):
            self.kinds[op.result] = _WEAK
            self.new[op.result] = self.add(op.clone()).results[0]
            return
        if _is_promotion(op):
            self.new[op.results[0]] = self.new[op.operands[0]]
            self.kinds[op.results[0]] = self.kinds[op.operands[0]]
            return
        if isinstance(op, (*_BINARY, *_UNARY)) or (isinstance(op, arith.SelectOp) and _width(op.result.type)):
            floats = op.operands[1:] if isinstance(op, arith.SelectOp) else op.operands
            kind = _WEAK
            for v in floats:
                kind = _combine(kind, self.kinds[v])
            t = self.target(kind, op.results[0].type)
            operands = [self.value(v, t) for v in floats]
            if isinstance(op, arith.SelectOp):
                operands = [self.new[op.operands[0]], *operands]
            clone = self.add(
                type(op).create(
                    operands=operands,
                    result_types=[t],
                    properties=dict(op.properties),
                    attributes=dict(op.attributes),
                )
            )
            self.new[op.results[0]], self.kinds[op.results[0]] = clone.results[0], kind
            return
        if isinstance(op, arith.ExtFOp | arith.TruncFOp):  # the program's conversion, from the new type
            self.new[op.results[0]] = self.value(op.operands[0], op.results[0].type)
            self.kinds[op.results[0]] = op.results[0].type
            return
        if isinstance(op, arith.CmpfOp):
            lhs, rhs = op.operands
            t = self.target(_combine(self.kinds[lhs], self.kinds[rhs]), lhs.type)
            operands = [self.value(lhs, t), self.value(rhs, t)]
        else:  # outside the rule: its operands as they were
            operands = [self.value(v, v.type) for v in op.operands]
        clone = self.add(op.clone(value_mapper=dict(zip(op.operands, operands)), clone_name_hints=True))
        for old, new in zip(op.results, clone.results):
            self.new[old], self.kinds[old] = new, new.type


def retyped(tasklet: sd.TaskletOp, output_types: list[Attribute]) -> sd.TaskletOp:
    """`tasklet` for the types its operands have now and `output_types`."""
    body = Region(_Retyper(tasklet.body.block, [v.type for v in tasklet.inputs], output_types).block)
    region_dce(body)  # the constants the new types made again
    names = [c.data for c in tasklet.in_connectors.data]
    outs = [c.data for c in tasklet.out_connectors.data]
    return sd.TaskletOp(
        tasklet.label.data, list(zip(names, tasklet.inputs)), list(zip(outs, output_types)), body
    )


def _narrowed_types(module: ModuleOp) -> dict[SSAValue, Attribute]:
    """The narrower type of each tasklet result and container that NEP 50 gives,
    found group by group until nothing changes (no op is rewritten yet)."""
    tasklets = [op for op in module.walk() if isinstance(op, sd.TaskletOp)]
    groups = _groups(tasklets)
    narrowed: dict[SSAValue, Attribute] = {}

    def typed(value: SSAValue) -> Attribute:
        if isinstance(value.owner, sd.ReadOp):
            return narrowed.get(value.owner.container, value.type)
        return narrowed.get(value, value.type)

    changed = True
    while changed:
        changed = False
        for results, containers in groups:
            if results[0] in narrowed:
                continue
            types = {narrowed_result(r.owner, [typed(v) for v in r.owner.inputs]) for r in results}  # type: ignore[union-attr]
            if len(types) == 1 and (t := types.pop()) is not None:
                narrowed.update((item, t) for item in (*results, *containers))
                changed = True
    return narrowed


def _groups(tasklets: list[sd.TaskletOp]) -> list[tuple[list[SSAValue], list[SSAValue]]]:
    """The (tasklet results, transient containers) that can only narrow together: the
    f64 results of one-result tasklets joined by the containers they are written to,
    where everything a result reaches can take another type (module docstring)."""
    candidates = {op.outputs[0] for op in tasklets if len(op.outputs) == 1 and isinstance(op.outputs[0].type, Float64Type)}
    seen: set[SSAValue] = set()
    groups = []
    for start in candidates:
        if start in seen:
            continue
        results, containers, ok = [start], [], True
        seen.add(start)
        pending = [start]
        while pending:
            item = pending.pop()
            if item in containers:
                ok = ok and _narrowable_container(item)
                writes = [u.operation for u in item.uses if isinstance(u.operation, sd.WriteOp)]
                for value in (w.value for w in writes):
                    if value not in seen:
                        seen.add(value)
                        results.append(value)
                        pending.append(value)
                continue
            ok = ok and item in candidates
            for use in item.uses:
                user = use.operation
                if isinstance(user, sd.WriteOp) and use.index == 0:
                    if user.container not in containers:
                        containers.append(user.container)
                        pending.append(user.container)
                elif not isinstance(user, sd.TaskletOp):
                    ok = False
        if ok:
            groups.append((results, containers))
    return groups


def _narrowable_container(value: SSAValue) -> bool:
    """A transient float64 container that only writes write and only reads into
    tasklets read."""
    owner = value.owner
    if not isinstance(owner, sd.ContainerOp) or owner.transient is None or owner.value is not None:
        return False
    if not isinstance(value.type.element_type, Float64Type):  # type: ignore[attr-defined]
        return False
    for use in value.uses:
        user = use.operation
        if isinstance(user, sd.ReadOp):
            if any(not isinstance(u.operation, sd.TaskletOp) for u in user.result.uses):
                return False
        elif not (isinstance(user, sd.WriteOp) and use.index == 1):
            return False
    return True


def _materialize(module: ModuleOp, narrowed: dict[SSAValue, Attribute]) -> None:
    """Rewrite the containers, reads and tasklets whose types `narrowed` changes."""
    if not narrowed:
        return
    touched: set[sd.TaskletOp] = set()
    for item, t in narrowed.items():
        owner = item.owner
        if isinstance(owner, sd.TaskletOp):
            touched.add(owner)
            continue
        assert isinstance(owner, sd.ContainerOp)
        new = sd.ContainerOp(
            owner.container_name.data, sd.ArrayType(item.type.dims(), t), True, owner.storage and owner.storage.data  # type: ignore[attr-defined]
        )
        new.attributes.update(owner.attributes)
        Rewriter.replace_op(owner, new)
        for use in list(new.result.uses):
            read = use.operation
            if isinstance(read, sd.ReadOp):
                fresh = sd.ReadOp(new.result, list(read.indices), read.subset_exprs())
                Rewriter.replace_op(read, fresh)
                touched.update(u.operation for u in fresh.result.uses)  # type: ignore[misc]
    for tasklet in list(touched):
        touched.update(u.operation for r in tasklet.outputs for u in r.uses if isinstance(u.operation, sd.TaskletOp))
    for tasklet in [op for op in module.walk() if op in touched]:  # producers before consumers
        outputs = [narrowed.get(r, r.type) for r in tasklet.outputs]
        Rewriter.replace_op(tasklet, retyped(tasklet, outputs))  # type: ignore[arg-type]
