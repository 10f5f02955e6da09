"""The reductions of ipu-vertex-extraction: each `ipu.tiled_reduce` becomes a fold
codelet placed by one `ipu.vertices` over its tile map, in a compute set of its own.

A fold codelet has one field per input (scalars whole, streamed inputs by the rule of the
reduction) and one for its results (`inout` when it accumulates into the destination).
Its slice of the streamed inputs is an A x B x C box (`fold`, one size following from
the field's length); it combines each column of B values into one of the A x C results,
starting from the reduction's identity (or, with `accumulate`, the result's current
value), in the accumulator type, converting the result back on store:

- `split outputs`: worker w computes results w, w + workers, ... (for results narrower
  than 32 bits, whole words of results, so that no two workers store into one word);
- `split folded`: there are W = the tile's worker count partial results per result;
  worker w folds values w, w + workers, ... of every column into its own W-th of the
  results (a vertex run by fewer workers, as on SDK 2, fills the other W-ths with the
  identity). When its box is rows of one 64-bit vector (`fold <1 x ? x 2>` of float32:
  the planner views a whole-array reduction so), every block holds whole vectors and
  the values are float32 arithmetic, worker w folds vectors w, w + workers, ... with
  vector ops (one `f32v2add` and a paired load per vector, as popops' reduce vertices
  do with their accumulators) and stores its vector of partial results whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, VectorType, f32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import Pure

from ipu_lower.arch import ATOMIC_STORE_BYTES
from ipu_lower.dialects import ipu
from ipu_lower.dialects.codelet_body import on_vectors
from ipu_lower.dialects.reduction import accumulator_type, combine, convert, identity, signless_value, typed_value
from ipu_lower.element_types import element_type, is_unsigned, signless
from ipu_lower.names import UniqueNames

@dataclass(frozen=True)
class FoldSignature:
    """The fields of a fold codelet: its inputs in order, then its results."""

    fields: list[ipu.FieldAttr]
    tensors: list[SSAValue]
    rules: list[ipu.SliceAttr]

    @property
    def out(self) -> int:
        return len(self.tensors) - 1

    def is_scalar(self, index: int) -> bool:
        return self.rules[index].is_whole and self.tensors[index].type.get_num_dims() == 0  # type: ignore[union-attr]

    def field_type(self, index: int) -> MemRefType:
        element = self.tensors[index].type.element_type  # type: ignore[union-attr]
        return MemRefType(element, [] if self.is_scalar(index) else [DYNAMIC_INDEX])


def plan_fold_signature(op: ipu.TiledReduceOp, reserved: tuple[str, ...]) -> FoldSignature:
    names = UniqueNames(reserved)
    fields, tensors, rules = [], [], []
    for value, rule in zip(op.ins, op.in_rules.data):
        fields.append(ipu.FieldAttr("input", names.fresh(ipu.variable_of(value).var_name.data, "field")))
        tensors.append(value)
        rules.append(rule)
    direction = "inout" if op.accumulate is not None else "output"
    fields.append(ipu.FieldAttr(direction, names.fresh(ipu.variable_of(op.out).var_name.data, "field")))
    tensors.append(op.out)
    rules.append(op.out_rule)
    return FoldSignature(fields, tensors, rules)


class _FoldBuilder:
    """Appends the code of one fold codelet to its entry block."""

    def __init__(self, op: ipu.TiledReduceOp, signature: FoldSignature, block: Block, workers: int, vector_bytes: int):
        self.op = op
        self.vector_bytes = vector_bytes
        self.signature = signature
        self.block = block
        self.fields = block.args
        self.workers = workers
        self.kind = op.kind.data
        self.out_type: Attribute = op.out.type.element_type  # type: ignore[union-attr]
        self.unsigned = is_unsigned(self.out_type)
        self.acc_type = signless(accumulator_type(self.out_type))  # what arith computes in
        self.constants: dict[int, SSAValue] = {}
        self.hoisted: dict[SSAValue, SSAValue] = {}
        self.inputs = dict(zip(op.body.block.args, op.ins))

    def add(self, op: Operation, block: Block | None = None) -> SSAValue:
        (block or self.block).add_op(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def constant(self, value: int) -> SSAValue:
        if value not in self.constants:
            self.constants[value] = self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))
        return self.constants[value]

    def named(self, value: SSAValue, hint: str) -> SSAValue:
        value.name_hint = hint
        return value

    def field_of(self, tensor: SSAValue) -> int:
        return self.signature.tensors.index(tensor)

    def build(self) -> None:
        streamed = next(k for k, r in enumerate(self.signature.rules[:-1]) if not r.is_whole)
        n = self.named(self.add(memref.DimOp(self.fields[streamed], self.constant(0))), "n")
        sizes = self.op.fold_sizes()
        known = 1
        for s in sizes:
            known *= s or 1
        rest = n if known == 1 else self.named(self.add(arith.DivUIOp(n, self.constant(known))), "m")
        a, b, c = (self.constant(s) if s is not None else rest for s in sizes)
        self.sizes = sizes
        self.a, self.b, self.c = a, b, c
        worker = self.named(self.add(ipu.WorkerIdOp()), "worker")
        workers = self.named(self.add(ipu.NumWorkersOp()), "workers")
        self.hoist_invariants()
        if self.op.split.data == "folded":
            self.folded(worker, workers)
        else:
            self.outputs(worker, workers)

    def hoist_invariants(self) -> None:
        """Loads of whole scalars, and the pure ops of only them, once before the loops."""
        for inner in self.op.body.block.ops:
            if isinstance(inner, ipu.AccessOp):
                field = self.field_of(self.inputs[inner.tensor])
                if self.signature.is_scalar(field):
                    self.hoisted[inner.result] = self.add(memref.LoadOp.get(self.fields[field], []))
            elif (
                inner.has_trait(Pure)
                and inner.results
                and all(o in self.hoisted for o in inner.operands)
                and not isinstance(inner, ipu.YieldOp)
            ):
                clone = inner.clone(value_mapper=dict(self.hoisted))
                self.block.add_op(clone)
                self.hoisted.update(zip(inner.results, clone.results))

    def point(self, block: Block, index: SSAValue) -> SSAValue:
        """The body at the point `index` of the slice: its yielded value, in the
        accumulator type."""
        values = dict(self.hoisted)
        for inner in self.op.body.block.ops:
            if inner.results and inner.results[0] in values:
                continue
            if isinstance(inner, ipu.AccessOp):
                field = self.fields[self.field_of(self.inputs[inner.tensor])]
                values[inner.result] = self.add(memref.LoadOp.get(field, [index]), block)
            elif isinstance(inner, ipu.YieldOp):
                return self.widened(block, values[inner.values[0]])
            else:
                clone = inner.clone(value_mapper=values)
                block.add_op(clone)
                values.update(zip(inner.results, clone.results))
        raise AssertionError("a tiled reduction body ends with ipu.yield")

    def first_point(self, block: Block, result: SSAValue) -> SSAValue:
        """The first point of the column of values folded into `result` (a, c):
        a B C + c."""
        a_size, b_size, c_size = self.sizes
        if a_size == 1 or result is self.constants.get(0):  # result = c
            return result
        if c_size == 1:  # result = a
            return result if b_size == 1 else self.add(arith.MuliOp(result, self.b), block)
        row = self.add(arith.DivUIOp(result, self.c), block)
        column = self.add(arith.RemUIOp(result, self.c), block)
        plane = self.add(arith.MuliOp(self.b, self.c), block)
        return self.add(arith.AddiOp(self.add(arith.MuliOp(row, plane), block), column), block)

    def fold_loop(self, block: Block, base: SSAValue, first: SSAValue, step: SSAValue, init: SSAValue) -> SSAValue:
        """Combine values first, first + step, ... of B of the column starting at
        `base` into `init`."""
        body = Block(arg_types=[IndexType(), self.acc_type])
        j, acc = body.args
        self.named(j, "j")
        self.named(acc, "acc")
        offset = j if self.sizes[2] == 1 else self.add(arith.MuliOp(j, self.c), body)
        index = offset if base is self.constants.get(0) else self.add(arith.AddiOp(base, offset), body)
        self.named(index, "i")
        value = self.point(body, index)
        combined = self.add(combine(self.kind, acc, value, self.unsigned), body)
        body.add_op(scf.YieldOp(combined))
        loop = scf.ForOp(first, self.b, step, [init], body)
        return self.named(self.add(loop, block), "total")

    def widened(self, block: Block, value: SSAValue) -> SSAValue:
        """A value of the output's (or the body's) element type as the accumulator."""
        cast = signless_value(value)
        if cast is not None:
            value = self.add(cast, block)
        extended = convert(value, self.acc_type, self.unsigned)
        return self.add(extended, block) if extended is not None else value

    def store(self, block: Block, value: SSAValue, index: SSAValue | None) -> None:
        narrowed = convert(value, signless(self.out_type))
        if narrowed is not None:
            value = self.add(narrowed, block)
        typed = typed_value(value, self.out_type)
        if typed is not None:
            value = self.add(typed, block)
        out = self.fields[self.signature.out]
        self.add(memref.StoreOp.get(value, out, [] if index is None else [index]), block)

    def result(self, block: Block, r: SSAValue) -> None:
        """Compute and store result `r` (split outputs)."""
        out = self.signature.out
        index = None if self.signature.is_scalar(out) else r
        if self.op.accumulate is not None:
            current = self.add(memref.LoadOp.get(self.fields[out], [] if index is None else [index]), block)
            init = self.widened(block, current)
        else:
            init = self.add(identity(self.kind, self.acc_type, self.unsigned), block)
        base = self.first_point(block, r)
        total = self.fold_loop(block, base, self.constant(0), self.constant(1), init)
        self.store(block, total, index)

    def outputs(self, worker: SSAValue, workers: SSAValue) -> None:
        results = self.a if self.sizes[2] == 1 else self.c if self.sizes[0] == 1 else self.add(arith.MuliOp(self.a, self.c))
        self.named(results, "results")
        out_bytes = element_type(self.out_type).bytes  # type: ignore[union-attr]
        unit = 1 if self.signature.is_scalar(self.signature.out) else max(1, ATOMIC_STORE_BYTES // out_bytes)
        body = Block(arg_types=[IndexType()])
        if unit == 1:
            self.result(body, self.named(body.args[0], "r"))
        else:  # whole 32-bit words of results per worker
            self.named(body.args[0], "u")
            first = self.add(arith.MuliOp(body.args[0], self.constant(unit)), body)
            inner = Block(arg_types=[IndexType()])
            r = self.named(self.add(arith.AddiOp(first, inner.args[0]), inner), "r")
            inside = self.add(arith.CmpiOp(r, results, "ult"), inner)
            then = Block()
            self.result(then, r)
            then.add_op(scf.YieldOp())
            inner.add_ops([scf.IfOp(inside, [], Region(then)), scf.YieldOp()])
            body.add_op(scf.ForOp(self.constant(0), self.constant(unit), self.constant(1), [], inner))
            results = self.named(self.add(arith.CeilDivUIOp(results, self.constant(unit))), "units")
        body.add_op(scf.YieldOp())
        self.add(scf.ForOp(worker, results, workers, [], body))

    def folded(self, worker: SSAValue, workers: SSAValue) -> None:
        """Worker w folds values w, w + workers, ... of each column into slot w; the
        slots of workers the vertex does not run with (none on the IPU) get the
        identity."""
        vtype = self.vector_type()
        if vtype is not None:
            self.folded_vectors(worker, workers, vtype)
            return
        a_size, _, c_size = self.sizes
        assert a_size is not None and c_size is not None
        results = a_size * c_size
        start = self.add(arith.MuliOp(worker, self.constant(results))) if results > 1 else worker

        def each_result(block: Block, action) -> None:
            if results == 1:
                action(block, self.constant(0))
                return
            inner = Block(arg_types=[IndexType()])
            action(inner, self.named(inner.args[0], "r"))
            inner.add_op(scf.YieldOp())
            block.add_op(scf.ForOp(self.constant(0), self.constant(results), self.constant(1), [], inner))

        def fold(block: Block, r: SSAValue) -> None:
            init = self.add(identity(self.kind, self.acc_type, self.unsigned), block)
            total = self.fold_loop(block, self.first_point(block, r), worker, workers, init)
            index = start if results == 1 else self.add(arith.AddiOp(start, r), block)
            self.store(block, total, index)

        each_result(self.block, fold)
        empty = Block(arg_types=[IndexType()])
        slot = self.named(empty.args[0], "slot")
        base = self.add(arith.MuliOp(slot, self.constant(results)), empty) if results > 1 else slot

        def fill(block: Block, r: SSAValue) -> None:
            index = base if results == 1 else self.add(arith.AddiOp(base, r), block)
            self.store(block, self.add(identity(self.kind, self.acc_type, self.unsigned), block), index)

        each_result(empty, fill)
        empty.add_op(scf.YieldOp())
        first_absent = self.add(arith.AddiOp(workers, worker))
        self.add(scf.ForOp(first_absent, self.constant(self.workers), workers, [], empty))

    def vector_type(self) -> VectorType | None:
        """float2 when the workers fold rows of one 64-bit vector of float32 values: the
        box is `1 x ? x lanes`, every block a whole number of vectors from a vector
        boundary, every streamed input, the partial results and what the body computes
        per point float32 (whole scalars are broadcast)."""
        lanes = self.vector_bytes // 4
        if self.sizes != [1, None, lanes] or self.out_type != f32 or self.acc_type != f32:
            return None
        tile_map = self.op.tile_map
        if tile_map.start % lanes or any(run.count % lanes for run in tile_map.runs()):
            return None
        for k, rule in enumerate(self.signature.rules[:-1]):
            if not self.signature.is_scalar(k) and self.signature.tensors[k].type.element_type != f32:  # type: ignore[union-attr]
                return None
        for inner in self.op.body.block.ops:
            if isinstance(inner, ipu.AccessOp | ipu.YieldOp) or (inner.results and inner.results[0] in self.hoisted):
                continue
            types = [v.type for v in (*inner.operands, *inner.results)]
            if inner.dialect_name() not in ("arith", "math") or any(t != f32 for t in types):
                return None
        term = self.op.body.block.last_op
        assert isinstance(term, ipu.YieldOp)
        return VectorType(f32, [lanes]) if term.values[0].type == f32 else None

    def folded_vectors(self, worker: SSAValue, workers: SSAValue, vtype: VectorType) -> None:
        """Worker w folds vectors w, w + workers, ... of its block into one vector and
        stores it at its slot; the slots of absent workers get the identity."""
        lanes = self.constant(vtype.get_shape()[0])
        start = self.add(identity(self.kind, f32))
        init = self.named(self.add(vector.BroadcastOp(start, vtype)), "identity")
        body = Block(arg_types=[IndexType(), vtype])
        u, acc = body.args
        self.named(u, "u")
        self.named(acc, "acc")
        first = self.named(self.add(arith.MuliOp(u, lanes), body), "first")
        value = self.vector_point(body, first, vtype)
        body.add_op(scf.YieldOp(self.add(combine(self.kind, acc, value), body)))
        total = self.named(self.add(scf.ForOp(worker, self.b, workers, [init], body)), "total")
        out = self.fields[self.signature.out]
        self.add(vector.StoreOp(total, out, [self.add(arith.MuliOp(worker, lanes))]))
        empty = Block(arg_types=[IndexType()])
        slot = self.named(empty.args[0], "slot")
        empty.add_ops([vector.StoreOp(init, out, [self.add(arith.MuliOp(slot, lanes), empty)]), scf.YieldOp()])
        first_absent = self.add(arith.AddiOp(workers, worker))
        self.add(scf.ForOp(first_absent, self.constant(self.workers), workers, [], empty))

    def vector_point(self, block: Block, first: SSAValue, vtype: VectorType) -> SSAValue:
        """The body on the vector of points from `first`: loads of the streamed inputs
        are vector loads, whole scalars broadcast once before the loop."""
        values: dict[SSAValue, SSAValue] = {}
        broadcasts: dict[SSAValue, SSAValue] = {}

        def lanes(value: SSAValue) -> SSAValue:
            if value in values:
                return values[value]
            if value not in broadcasts:
                broadcasts[value] = self.add(vector.BroadcastOp(self.hoisted[value], vtype))
            return broadcasts[value]

        for inner in self.op.body.block.ops:
            if inner.results and inner.results[0] in self.hoisted:
                continue
            if isinstance(inner, ipu.AccessOp):
                field = self.fields[self.field_of(self.inputs[inner.tensor])]
                values[inner.result] = self.add(vector.LoadOp(field, [first], vtype), block)
            elif isinstance(inner, ipu.YieldOp):
                return lanes(inner.values[0])
            else:
                values[inner.results[0]] = self.add(on_vectors(inner, [lanes(o) for o in inner.operands], vtype), block)
        raise AssertionError("a tiled reduction body ends with ipu.yield")


def fold_codelet_body(op: ipu.TiledReduceOp, signature: FoldSignature, workers: int, vector_bytes: int) -> Region:
    block = Block(arg_types=[signature.field_type(k) for k in range(len(signature.tensors))])
    for arg, field in zip(block.args, signature.fields):
        arg.name_hint = field.field_name.data
    _FoldBuilder(op, signature, block, workers, vector_bytes).build()
    return Region(block)


@dataclass
class ExtractFolds(RewritePattern):
    """An `ipu.tiled_reduce` becomes a fold codelet and a compute set placing it."""

    names: UniqueNames
    workers: int
    vector_bytes: int
    reserved: tuple[str, ...]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.TiledReduceOp, rewriter: PatternRewriter) -> None:
        graph = ipu.graph_of(op)  # its parent, or a loop or branch in it
        assert graph is not None
        signature = plan_fold_signature(op, self.reserved)
        name = self.names.fresh(f"{graph.sym_name.data}_{op.label.data}", "codelet")
        codelet = ipu.CodeletOp(name, signature.fields, fold_codelet_body(op, signature, self.workers, self.vector_bytes))
        first_step = next(o for o in graph.body.block.ops if not isinstance(o, ipu.VariableOp | ipu.CodeletOp))
        rewriter.insert(codelet, InsertPoint.before(first_step))
        placement = ipu.VerticesOp(name, op.tile_map, list(zip(signature.tensors, signature.rules)))
        rewriter.replace(op, ipu.ComputeSetOp(name, Region(Block([placement]))))
