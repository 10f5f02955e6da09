"""Import a DaCe SDFG object into the `sdfg` dialect.

Control flow first: each control-flow region (the SDFG, a `LoopRegion`, a branch of a
`ConditionalBlock`) is structured into loops, branches and sequences
(`ipu_lower.frontend.control_flow`). A loop that counts a symbol (`t = lb` on entry,
`t < ub` at its guard, `t = t + c` on its back edge) becomes `sdfg.for`, its variable a
block argument, its bounds index expressions of symbols, of enclosing loop variables and
of rank-0 integer containers read at run time; any other loop becomes `sdfg.while`, a
two-way branch `sdfg.if`, the conditions of both condition regions (reads, a tasklet
computing the condition, `sdfg.condition`). Symbols assigned on interstate edges that are
not counted loop variables hold data at run time (`__tmp0 = A[0]`): each becomes a
transient scalar container, written by a state that computes the assignment.

Then, in each state, the dataflow in topological order. Maps become `sdfg.map` (a map
nested in a map inside it, its bounds over the enclosing parameters as operands),
tasklets `sdfg.tasklet` with `arith`/`math` bodies (a symbol the code reads, such as a
loop variable, is an extra input: `sdfg.apply` for loop variables and sizes, a read for
symbols that hold data), memlets `sdfg.read`/`sdfg.write`, AccessNode-to-AccessNode
edges `sdfg.copy` (a read and a write when a loop variable picks the element).
Transient scalars that only connect tasklets inside one map scope become SSA values.
Memlets with write-conflict resolution become `sdfg.accumulate`; a `Reduce` node, in a
state or in a map, one `sdfg.library_reduce` as it is, which the sdfg-*-reductions
passes transform; an integer `Dot` a map that accumulates (`ipu_lower.frontend.reductions`).
A container that is a constant of the SDFG (`constants_prop`: an array literal of the
program) carries its values (`ipu_lower.dialects.constant_value`).
A NestedSDFG node becomes `sdfg.nested`, its SDFG imported alone by another importer (its
arguments' strides are those of the caller's data, so they need not be row-major there):
each argument is bound to the caller's container on its connector's memlet (the root of a
view), as an index per dimension of the container over the argument's indices
(`views.descriptor_window`, with the node's symbol mapping applied to the argument's
shape and strides), the map parameters and loop variables in scope becoming index
operands; the symbol mapping, for the symbols the inner SDFG declares. Nothing is inlined
here: `sdfg-inline-nested` does it.
Anything not supported yet raises `SdfgImportError` naming the SDFG, state and node.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import sympy
from dace import data as dt
from dace import dtypes, nodes
from dace.sdfg import SDFG, SDFGState
from dace.sdfg.infer_types import infer_connector_types
from dace.sdfg.state import (
    BreakBlock,
    ConditionalBlock,
    ContinueBlock,
    ControlFlowRegion,
    LoopRegion,
    ReturnBlock,
)
from dace.sdfg.utils import dfs_topological_sort
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, ModuleOp, i1, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.transforms.dead_code_elimination import region_dce

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.constant_arrays import converted, dense_value
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.element_table import element_type_of_numpy
from ipu_lower.element_types import element_type, mlir_type
from ipu_lower.frontend import control_flow as cf
from ipu_lower.frontend import views
from ipu_lower.frontend.library_fallbacks import expand_library_fallbacks
from ipu_lower.frontend.loop_extents import LoopExtentError, static_loop_extents
from ipu_lower.frontend.map_loops import MapLoopError, interchange_map_loops
from ipu_lower.frontend.matmul import import_product, is_product, stays_a_reduction
from ipu_lower.frontend.reductions import ReductionImporter, library_kind, reduction_kind, unknown_reduction
from ipu_lower.frontend.symbolic import SymbolicError, read_symbolic, to_index_expr
from ipu_lower.frontend.tasklet import MODULE_NAMES, TaskletError, translate_tasklet


class SdfgImportError(Exception):
    """An SDFG construct the importer cannot translate; one line naming the place."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def import_sdfg(sdfg: SDFG) -> ModuleOp:
    """Translate `sdfg` (which is modified: connector types get inferred)."""
    reject_python_callbacks(sdfg)
    reject_malformed_maps(sdfg)
    return ModuleOp([_SdfgImporter(sdfg).run()])


def reject_python_callbacks(sdfg: SDFG) -> None:
    """Fail on a call DaCe could not parse and left to the Python interpreter (a callback
    symbol, such as `numpy_outer` for np.outer): the IPU runs no Python."""
    for inner in sdfg.all_sdfgs_recursive():
        callbacks = [name for name, t in inner.symbols.items() if isinstance(t, dtypes.callback)]
        if callbacks:
            raise SdfgImportError(
                _caller(inner, callbacks),
                f"calls back into the Python interpreter ('{callbacks[0]}', which DaCe could not turn into "
                "dataflow); the IPU runs no Python, so write it with operations DaCe supports",
            )


def _caller(sdfg: SDFG, callbacks: list[str]) -> str:
    """Where the first call of a callback is: its tasklet, or the SDFG."""
    for state in sdfg.all_states():
        for node in state.nodes():
            if isinstance(node, nodes.Tasklet) and any(f"{c}(" in node.code.as_string for c in callbacks):
                return _place(sdfg, state, node)
    return f"SDFG '{sdfg.name}'"


def _place(sdfg: SDFG, state: SDFGState, node: nodes.Node) -> str:
    return f"SDFG '{sdfg.name}', state '{state.label}', node '{node.label}' ({type(node).__name__})"


def reject_malformed_maps(sdfg: SDFG) -> None:
    """Fail on a map with no parameters, or whose parameters and ranges differ in number
    (as DaCe's validation does; only a hand-made .sdfg file has them): every step of the
    import pairs them one to one, and a parameter without a range would read as a symbol."""
    for inner in sdfg.all_sdfgs_recursive():
        for state in inner.all_states():
            for node in state.nodes():
                if isinstance(node, nodes.MapEntry) and (message := _malformed(node.map)):
                    raise SdfgImportError(_place(inner, state, node), f"map '{node.map.label}' {message}")


def _malformed(m: nodes.Map) -> str | None:
    params, ranges = m.params, len(m.range)
    if not params:
        return "has no parameters: a map needs at least one"
    if len(params) != ranges:
        return (f"has {len(params)} parameter{'s' * (len(params) != 1)} ({', '.join(params)}) but {ranges} "
                f"range{'s' * (ranges != 1)}: a map needs one range per parameter")
    return None


class _SdfgImporter:
    def __init__(self, sdfg: SDFG, nested: bool = False):
        self.sdfg = sdfg
        self.nested_sdfg = nested
        """Whether `sdfg` is the SDFG of a NestedSDFG node: its arguments' strides are
        those of the caller's data, which the node's bindings hold."""
        self.where = f"SDFG '{sdfg.name}'"
        self.containers: dict[str, SSAValue] = {}
        self.container_ops: list[sd.ContainerOp] = []
        self.map_params: dict[str, SSAValue] = {}
        """The parameters of the map being imported, by DaCe name."""
        self.loop_vars: dict[str, SSAValue] = {}
        """The variables of the `sdfg.for` loops being imported, by DaCe name."""
        self.data_symbols: dict[str, SSAValue] = {}
        """Symbols assigned on interstate edges that hold data: their containers."""
        self.assigned = _assigned_symbols(sdfg)
        """Every symbol some interstate edge or loop assigns."""
        self.aliases: dict[str, views.Alias] = {}
        """The views of the state being imported, by name (see `views`)."""
        self.padded: set = set()
        """The library nodes `static_loop_extents` made read padded transients."""
        self.values_of: set[str] = set()
        """Transients some map holds as SSA values between its tasklets."""

    @cached_property
    def free_symbols(self) -> frozenset[str]:
        """The SDFG's free symbols, by name: computed once, since DaCe walks every state
        for them (once a tasklet made the import quadratic in the number of states)."""
        return frozenset(map(str, self.sdfg.free_symbols))

    def fail(self, message: str, state: SDFGState | None = None, node=None) -> SdfgImportError:
        where = self.where
        if state is not None:
            where += f", state '{state.label}'"
        if node is not None:
            where += f", node '{node.label if hasattr(node, 'label') else node}' ({type(node).__name__})"
        return SdfgImportError(where, message)

    def run(self) -> sd.SdfgOp:
        expand_library_fallbacks(self.sdfg)
        try:
            interchange_map_loops(self.sdfg)
        except MapLoopError as err:
            raise self.fail(err.message, err.state, err.node) from err
        try:
            self.padded = static_loop_extents(self.sdfg)
        except LoopExtentError as err:
            raise self.fail(err.message, err.state, err.node) from err
        try:
            infer_connector_types(self.sdfg)
        except Exception as err:  # DaCe raises many kinds; report them as input errors
            raise self.fail(f"DaCe cannot infer connector types: {err}") from err
        args = self.argument_names()
        for name, desc in self.sdfg.arrays.items():
            if not views.is_view(desc):  # views are resolved to what they view
                self.container_ops.append(self.container(name, desc))
        program = self.program(self.sdfg)
        # a transient that became SSA values only is no container any more
        containers = [op for op in self.container_ops if op.result.uses or op.container_name.data not in self.values_of]
        body = Block([*containers, *program])
        symbols = sorted(set().union(*(e.symbols() for _, e in sd.sdfg_index_exprs(body))))
        return sd.SdfgOp(self.sdfg.name, args, symbols, Region(body))

    def argument_names(self) -> list[str]:
        """DaCe's arg_names, then the other non-transient containers (such as the
        `__return` arrays of a program that returns values) in DaCe's arglist order."""
        names = list(self.sdfg.arg_names)
        names += [  # the data arguments of DaCe's SDFG.arglist, which also computes symbols
            n
            for n, desc in self.sdfg.arrays.items()
            if not desc.transient and n not in names and not (isinstance(desc, dt.Scalar) and n.startswith("__dace"))
        ]
        for name in names:
            desc = self.sdfg.arrays.get(name)
            if desc is None:
                raise self.fail(f"argument '{name}' is not a data container")
            if desc.transient:
                raise self.fail(f"argument '{name}' is transient")
        return names

    def element_type(self, dtype, what: str) -> Attribute:
        numpy_type = getattr(dtype, "type", None)
        scalar = isinstance(numpy_type, type) and issubclass(numpy_type, np.generic)  # not a struct's ctypes class
        row = element_type_of_numpy(np.dtype(numpy_type).name) if scalar else None
        if row is None:
            raise self.fail(f"{what} has unsupported data type '{_dtype_name(dtype)}'")
        return mlir_type(row)

    def expr(self, value, what: str, state=None, node=None, dims=None) -> IndexExpr:
        try:
            e = to_index_expr(value, dims)
        except SymbolicError as err:
            raise self.fail(f"{what}: {err}", state, node) from err
        if used := sorted(e.symbols() & self.assigned):
            raise self.fail(
                f"{what}: '{value}' uses '{used[0]}', which a loop or an interstate edge assigns, where only "
                "sizes may appear (a shape, a map range, an array slice); not supported yet",
                state,
                node,
            )
        return e

    def container(self, name: str, desc: dt.Data) -> sd.ContainerOp:
        what = f"container '{name}'"
        if isinstance(desc, dt.Stream):
            raise self.fail(f"{what} is a stream; streams are not supported yet")
        if not isinstance(desc, dt.Array | dt.Scalar) or isinstance(desc, dt.View):
            raise self.fail(f"{what} is a {type(desc).__name__}, which is not supported yet")
        if isinstance(desc.dtype, dtypes.struct):
            state, node = next(((s, n) for s in self.sdfg.all_states() for n in s.data_nodes() if n.data == name), (None, None))
            raise self.fail(
                f"{what} holds structs '{desc.dtype.name}' (np.argmin and np.argmax reduce value-index pairs in "
                "them); structs, and so argmin and argmax, are not supported yet",
                state,
                node,
            )
        element = self.element_type(desc.dtype, what)
        if isinstance(desc, dt.Scalar):
            shape: list[IndexExpr] = []
        else:
            if not _is_row_major(desc) and (desc.transient or not self.nested_sdfg):
                raise self.fail(f"{what} is not a contiguous row-major array")
            shape = [self.expr(d, f"{what} has an unsupported shape") for d in desc.shape]
        storage = desc.storage.name if desc.storage.name in sd.CONTAINER_STORAGES else None
        if storage == "IPU_Streaming" and not shape:
            raise self.fail(f"{what} is a scalar in IPU_Streaming; scalars live in tile memory")
        value = self.constant(name, desc, shape, element) if name in self.sdfg.constants_prop else None
        op = sd.ContainerOp(name, sd.ArrayType(shape, element), transient=desc.transient, storage=storage, value=value)
        if SSAValue.is_valid_name(name):
            op.result.name_hint = name
        self.containers[name] = op.result
        return op

    def constant(
        self, name: str, desc: dt.Array | dt.Scalar, shape: list[IndexExpr], element: Attribute
    ) -> DenseIntOrFPElementsAttr:
        """The values of the container `name`, a constant of the SDFG (`constants_prop`)."""
        what = f"constant '{name}'"
        if not desc.transient:
            raise self.fail(f"{what} is an argument; only transient constants are supported")
        if desc.storage.name == "IPU_Streaming":
            raise self.fail(f"{what} is in IPU_Streaming; constants live in tile memory")
        dims = [d.constant_value() for d in shape]
        if None in dims:
            raise self.fail(f"{what} has the symbolic shape {list(desc.shape)}; a constant needs a static shape")
        raw = self.sdfg.constants_prop[name][1]
        if isinstance(raw, str):  # DaCe's JSON keeps a numpy scalar as its text
            try:
                raw = np.asarray(raw).astype(element_type(element).numpy)  # type: ignore[union-attr]
            except ValueError as err:
                raise self.fail(f"{what} holds '{raw}', which {element} cannot represent") from err
        values = np.asarray(raw)
        if (list(values.shape) != dims) if shape else (values.size != 1):
            raise self.fail(f"{what} holds {list(values.shape)} values but its container has shape {dims}")
        try:
            return dense_value(converted(values, element).reshape(dims), element)  # type: ignore[arg-type]
        except ValueError as err:
            raise self.fail(f"{what} {err}") from err

    # -- control flow -----------------------------------------------------------------

    def program(self, cfg: ControlFlowRegion) -> list[Operation]:
        """The ops of a control-flow region, in execution order."""
        try:
            items = cf.structure(cfg)
        except cf.ControlFlowError as err:
            raise self.fail(err.message) from err
        return self.items(items)

    def items(self, items: list[cf.Item]) -> list[Operation]:
        ops: list[Operation] = []
        for item in items:
            if isinstance(item, cf.Block):
                ops.extend(self.block(item.block))
            elif isinstance(item, cf.Assign):
                ops.extend(self.assign(item.assignments, item.where))
            elif isinstance(item, cf.Loop):
                ops.extend(self.loop(item, item.header))
            elif isinstance(item, cf.Break):
                ops.append(sd.BreakOp())
            else:
                condition = self.condition_region(item.condition, item.block)
                ops.append(sd.IfOp(item.label, condition, Region(Block(self.items(item.then))),
                                   Region(Block(self.items(item.otherwise)))))
        return ops

    def block(self, block) -> list[Operation]:
        if isinstance(block, SDFGState):
            return self.state(block) if block.nodes() else []
        if isinstance(block, LoopRegion):
            return self.loop_region(block)
        if isinstance(block, ConditionalBlock):
            return self.conditional(block, 0)
        if isinstance(block, BreakBlock | ContinueBlock | ReturnBlock):
            raise self.fail(f"{type(block).__name__} '{block.label}' is not supported yet")
        if isinstance(block, ControlFlowRegion):
            return self.program(block)
        raise self.fail(f"control-flow block '{block.label}' ({type(block).__name__}) is not supported yet")

    def loop_region(self, region: LoopRegion) -> list[Operation]:
        try:
            item = cf.loop_of_region(region)
        except cf.ControlFlowError as err:
            raise self.fail(err.message) from err
        return self.loop(item, region)

    def conditional(self, block: ConditionalBlock, index: int) -> list[Operation]:
        """Branch `index` of a conditional block and those after it, as nested ifs."""
        if index >= len(block.branches):
            return []
        condition, region = block.branches[index]
        if condition is None:
            return self.program(region)
        test = self.condition_region(condition.as_string, block)
        then = self.program(region)
        otherwise = self.conditional(block, index + 1)
        return [sd.IfOp(block.label, test, Region(Block(then)), Region(Block(otherwise)))]

    def loop(self, item: cf.Loop, where) -> list[Operation]:
        counted = self.counted(item)
        if counted is None:
            ops = self.assign(item.entry, where)
            test = self.condition_region(item.condition, where)
            body = self.items(item.body) + self.assign(item.latch, where)
            return [*ops, sd.WhileOp(item.label, test, Region(Block(body)))]
        variable = item.variable
        assert variable is not None
        op = sd.ForOp(item.label, counted.lower, counted.upper, counted.step, counted.operands, variable_name=variable)
        outer = self.loop_vars.get(variable)
        self.loop_vars[variable] = op.variable
        try:
            op.body.block.add_ops(self.items(item.body) + self.assign(counted.latch, where))
        finally:
            if outer is None:
                del self.loop_vars[variable]
            else:
                self.loop_vars[variable] = outer
        return [*self.assign(counted.entry, where), op]

    def counted(self, item: cf.Loop) -> _Counted | None:
        """How the loop counts, when it counts its variable by a constant step towards a
        bound the condition compares it with, and nothing else assigns it; else None
        (the loop becomes an sdfg.while)."""
        variable = item.variable
        if variable is None or variable in self.data_symbols or _assigns(item.body, variable):
            return None
        count = cf.counting(item)
        if count is None:
            return None
        entry = [(n, v) for n, v in item.entry if n != variable]
        latch = [(n, v) for n, v in item.latch if n != variable]
        names = list(self.loop_vars) + [
            n for n, d in self.sdfg.arrays.items()
            if isinstance(d, dt.Scalar) and _integer(d) and n not in self.loop_vars
        ]
        dims = {n: k for k, n in enumerate(names)}
        try:
            lower = to_index_expr(read_symbolic(count.init), dims)
            upper = to_index_expr(read_symbolic(count.bound), dims) + count.offset
        except SymbolicError:  # not an index expression of symbols, loop variables and integer scalars
            return None
        if (lower.symbols() | upper.symbols()) & self.assigned:
            return None
        used = sd.first_use_order([lower, upper])
        renumber = {d: IndexExpr.dim(k) for k, d in enumerate(used)}
        operands = [self.loop_vars.get(names[d]) or self.containers[names[d]] for d in used]
        return _Counted(
            lower.substitute(dims=renumber), upper.substitute(dims=renumber), count.step, operands, entry, latch
        )

    def assign(self, assignments: cf.Assignments, where) -> list[Operation]:
        """Interstate assignments, each a state computing the value into the symbol's
        container."""
        ops: list[Operation] = []
        for name, text in assignments:
            container = self.data_symbol(name, where)
            state = sd.StateOp(f"assign_{name}")
            block = state.body.block
            element = container.type.element_type  # type: ignore[union-attr]
            value = self.expression(text, element, block, where, f"assign_{name}")
            block.add_op(sd.WriteOp(value, container, [], []))
            ops.append(state)
        return ops

    def data_symbol(self, name: str, where) -> SSAValue:
        """The container of a symbol assigned at run time, made on first use."""
        if name in self.data_symbols:
            return self.data_symbols[name]
        if name in self.loop_vars:
            raise self.fail(f"loop variable '{name}' is assigned inside its loop; not supported yet")
        if name in self.sdfg.arrays:
            raise self.fail(f"interstate edge out of '{where.label}' assigns data container '{name}'")
        dtype = self.sdfg.symbols.get(name, dtypes.int32)
        element = self.element_type(dtype, f"symbol '{name}'")
        if isinstance(element, IntegerType) and element.width.data > 32:
            element = i32  # symbols are 32-bit integers on the IPU
        op = sd.ContainerOp(self.fresh_container_name(name), sd.ArrayType([], element), transient=True)
        if SSAValue.is_valid_name(name):
            op.result.name_hint = name
        self.container_ops.append(op)
        self.data_symbols[name] = op.result
        return op.result

    def fresh_container_name(self, name: str) -> str:
        taken = set(self.sdfg.arrays) | {c.container_name.data for c in self.container_ops}
        candidate, k = name, 0
        while candidate in taken:
            k += 1
            candidate = f"{name}_{k}"
        return candidate

    def condition_region(self, text: str, where) -> Region:
        block = Block()
        value = self.expression(text, i1, block, where, "condition")
        block.add_op(sd.ConditionOp(value))
        return Region(block)

    def expression(self, text: str, result_type: Attribute, block: Block, where, label: str) -> SSAValue:
        """Ops appended to `block` computing the Python expression `text` (an interstate
        condition or assignment) as a `result_type` value: reads of the containers,
        symbols and elements it names, then one tasklet."""
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as err:
            raise self.fail(f"cannot parse '{text}': {err.msg}", where) from err
        inputs: dict[str, SSAValue] = {}

        def element(name: str, indices: list[ast.expr]) -> ast.expr | None:
            if name not in self.sdfg.arrays:
                return None
            subset = [self.subset_index(ast.unparse(i), f"subscript of '{name}' in '{text}'", where) for i in indices]
            value = self.read_element(name, subset, block, where, text)
            return self.input_name(inputs, f"__e{len(inputs)}", value)

        def symbol(name: str) -> None:
            if name not in inputs and (value := self.symbol_value(name, block, where)) is not None:
                inputs[name] = value

        code = ast.unparse(cf.replace_reads(tree, element, symbol))
        body = Block(arg_types=[v.type for v in inputs.values()])
        try:
            results = translate_tasklet(f"__out = {code}", body, list(inputs), [("__out", result_type)])
        except TaskletError as err:
            raise self.fail(f"'{text}': {err}", where) from err
        body.add_op(sd.YieldOp(*results))
        tasklet = sd.TaskletOp(label, list(inputs.items()), [("__out", result_type)], Region(body))
        block.add_op(tasklet)
        return tasklet.outputs[0]

    @staticmethod
    def input_name(inputs: dict[str, SSAValue], name: str, value: SSAValue) -> ast.Name:
        inputs[name] = value
        return ast.Name(name, ast.Load())

    def subset_index(self, text: str, what: str, where):
        try:
            return read_symbolic(text)
        except SymbolicError as err:
            raise self.fail(f"{what}: cannot read '{text}' ({err})", where) from err

    def read_element(self, name: str, subset: list, block: Block, where, text: str) -> SSAValue:
        desc = self.sdfg.arrays[name]
        shape = [] if isinstance(desc, dt.Scalar) else list(desc.shape)
        if len(subset) != max(len(shape), 1):
            raise self.fail(f"'{text}' indexes '{name}' with {len(subset)} indices", where)
        names = list(self.loop_vars)
        exprs = [self.expr(v, f"subscript of '{name}' in '{text}'", where, dims={n: k for k, n in enumerate(names)})
                 for v in subset]
        if not shape:
            exprs = []
        used = sd.first_use_order(exprs)
        renumber = {d: IndexExpr.dim(k) for k, d in enumerate(used)}
        read = sd.ReadOp(self.containers[name], [self.loop_vars[names[d]] for d in used],
                         [e.substitute(dims=renumber) for e in exprs])
        block.add_op(read)
        return read.result

    def symbol_value(self, name: str, block: Block, where) -> SSAValue | None:
        """The value a symbol or scalar container has, as a tasklet input appended to
        `block`: loop variables, map parameters and sizes through `sdfg.apply` (i32),
        symbols that hold data and scalar containers through a read. None when `name` is
        none of these (a function or a local name)."""
        if name in self.loop_vars or name in self.map_params:
            apply = sd.ApplyOp(IndexExpr.dim(0), [self.loop_vars.get(name) or self.map_params[name]], i32)
        elif name in self.data_symbols or (name in self.assigned and name not in self.sdfg.arrays):
            if name not in self.data_symbols:
                raise self.fail(f"symbol '{name}' is read where no value is assigned to it (a loop variable "
                                "outside its loop?)", where)
            read = sd.ReadOp(self.data_symbols[name], [], [])
            block.add_op(read)
            return read.result
        elif name in self.sdfg.arrays:
            desc = self.sdfg.arrays[name]
            if not isinstance(desc, dt.Scalar):
                raise self.fail(f"array '{name}' is used as a value without an index", where)
            read = sd.ReadOp(self.containers[name], [], [])
            block.add_op(read)
            return read.result
        elif name in self.sdfg.symbols or (name not in MODULE_NAMES and name in self.free_symbols):
            # `dace` in `dace.float32(x)` is no symbol: asking DaCe for the free symbols
            # walks every state (a fifth of importing a 200-state chain)
            apply = sd.ApplyOp(IndexExpr.symbol(name), [], i32)
        else:
            return None
        block.add_op(apply)
        return apply.result

    # -- dataflow ---------------------------------------------------------------------

    def state(self, state: SDFGState) -> list[Operation]:
        op = sd.StateOp(state.label)
        try:
            scope_children = state.scope_children()
        except (ValueError, RuntimeError) as err:  # DaCe's check of the nesting of map scopes
            raise self.fail(f"the map scopes of the state do not nest: {err}", state) from err
        top = set(scope_children[None])
        block = op.body.block
        values: dict = {}
        try:
            self.aliases = views.state_aliases(self.sdfg, state)
        except views.ViewError as err:
            raise self.fail(err.message, state, err.node) from err
        for node in dfs_topological_sort(state):
            if node not in top:
                continue
            if isinstance(node, nodes.MapEntry):
                block.add_op(self.map(state, node, scope_children))
                self.map_params = {}
            elif isinstance(node, nodes.AccessNode):
                for edge in state.out_edges(node):
                    if isinstance(edge.dst, nodes.AccessNode) and not views.is_view_edge(self.sdfg, state, edge):
                        block.add_op(self.copy(state, edge))
            elif isinstance(node, nodes.Tasklet):
                self.tasklet_with_memlets(state, node, block, values)
            elif isinstance(node, nodes.MapExit):
                continue
            elif is_product(node) and not stays_a_reduction(self, state, node):
                block.add_ops(import_product(self, state, node))
            elif library_kind(node) is not None:
                block.add_ops(getattr(ReductionImporter(self, state), library_kind(node))(node))
            elif views.is_transpose(node):
                block.add_op(self.transpose(state, node))
            elif isinstance(node, nodes.NestedSDFG):
                block.add_op(self.nested(state, node))
            else:
                raise self.fail(
                    f"{type(node).__name__} nodes are not supported yet", state, node
                )
        return [op]

    def nested(self, state: SDFGState, node: nodes.NestedSDFG) -> sd.NestedOp:
        """A NestedSDFG node: its SDFG, imported alone, and what the node binds to each
        argument and symbol (see `sd.NestedOp`), in the map parameters and loop
        variables in scope."""
        inner = _SdfgImporter(node.sdfg, nested=True).run()
        scope = {**self.loop_vars, **self.map_params}
        names = list(scope)
        own = len(names)  # an argument's index k is dimension own + k until the operands are known
        dims = {n: k for k, n in enumerate(names)}
        symbols, mapping = [], {}
        for name in inner.symbol_names():
            if name not in node.symbol_mapping:
                raise self.fail(f"symbol '{name}' of nested SDFG '{node.label}' is not mapped", state, node)
            value = node.symbol_mapping[name]
            symbols.append((name, self.expr(value, f"symbol '{name}' of nested SDFG '{node.label}'", state, node, dims)))
            mapping[name] = to_index_expr(value)  # loop variables as symbols, as in the memlets' subsets
        arguments = []
        for name in inner.arg_names.data:
            direction, outer, binding = self.argument(state, node, name.data, mapping)
            binding = [e.substitute({n: IndexExpr.dim(dims[n]) for n in e.symbols() if n in dims},
                                    {k: IndexExpr.dim(own + k) for k in e.dims()}) for e in binding]
            if assigned := sorted(set().union(*(e.symbols() for e in binding)) & self.assigned):
                raise self.fail(
                    f"argument '{name.data}' of nested SDFG '{node.label}' is the part of '{sd.container_name(outer)}' "
                    f"at '{assigned[0]}', a symbol an interstate edge assigns (data at run time); not supported yet",
                    state, node,
                )
            arguments.append((name.data, direction, outer, binding))
        every = [e for *_, b in arguments for e in b] + [v for _, v in symbols]
        used = [d for d in sd.first_use_order(every) if d < own]
        n = len(used)
        renumber = {**{d: IndexExpr.dim(k) for k, d in enumerate(used)},
                    **{own + k: IndexExpr.dim(n + k) for e in every for k in (d - own for d in e.dims()) if k >= 0}}
        return sd.NestedOp(
            node.label,
            [(c, d, v, [e.substitute(dims=renumber) for e in b]) for c, d, v, b in arguments],
            [(name, v.substitute(dims=renumber)) for name, v in symbols],
            [scope[names[d]] for d in used],
            inner,
        )

    def argument(self, state: SDFGState, node: nodes.NestedSDFG, name: str, symbols) -> tuple[str, SSAValue, list]:
        """The direction of the argument `name` of a nested SDFG, the caller's container
        its connector's memlet gives it (the root of a view) and the container's index
        of each dimension, over the argument's own indices and the symbols in scope."""
        edges = [e for e in state.in_edges(node) if e.dst_conn == name] + [
            e for e in state.out_edges(node) if e.src_conn == name
        ]
        if not edges:
            raise self.fail(f"argument '{name}' of nested SDFG '{node.label}' is not connected", state, node)
        if len({(e.data.data, str(e.data.subset)) for e in edges}) != 1:
            raise self.fail(
                f"argument '{name}' of nested SDFG '{node.label}' is read and written through different memlets",
                state, node,
            )
        memlet = edges[0].data
        if memlet.data is None or (memlet.data not in self.containers and memlet.data not in self.aliases):
            raise self.fail(f"argument '{name}' of nested SDFG '{node.label}' is not given a container", state, node)
        try:
            indices = views.descriptor_window(
                name, node.sdfg.arrays[name], memlet.data, self.sdfg.arrays[memlet.data], memlet.subset,
                kind="argument", symbols=symbols,
            )
        except views.ViewError as err:
            raise self.fail(f"nested SDFG '{node.label}': {err.message}", state, node) from err
        alias = views.Alias(memlet.data, indices)
        if memlet.data in self.aliases:
            alias = alias.through(self.aliases[memlet.data])
        reads, writes = name in node.in_connectors, name in node.out_connectors
        direction = "inout" if reads and writes else "out" if writes else "in"
        return direction, self.containers[alias.root], list(alias.indices)

    def copy(self, state: SDFGState, edge) -> sd.CopyOp | sd.MapOp:
        """A copy between containers (either possibly a view); its ranges may use the
        loop variables in scope (a row `A[t, 0:N]` that moves with the loop)."""
        memlet = edge.data
        self.check_memlet(state, edge)
        src, dst = edge.src.data, edge.dst.data
        if memlet.data == src:
            src_subset, dst_subset = memlet.subset, memlet.other_subset
        else:
            src_subset, dst_subset = memlet.other_subset, memlet.subset
        names = list(self.loop_vars)
        dims = {n: k for k, n in enumerate(names)}
        src_ranges = self.ranges(state, edge.src, src, src_subset, dims)
        dst_ranges = self.ranges(state, edge.dst, dst, dst_subset, dims)
        used = sd.first_use_order([e for r in src_ranges + dst_ranges for e in r])
        renumber = {d: IndexExpr.dim(k) for k, d in enumerate(used)}
        src_type, dst_type = self.sdfg.arrays[src].dtype, self.sdfg.arrays[dst].dtype
        if src_type != dst_type:
            raise self.fail(
                f"copy from '{src}' ({src_type.to_string()}) to '{dst}' ({dst_type.to_string()}) "
                "converts element types, which is not supported yet",
                state,
                edge.dst,
            )

        def renumbered(ranges):
            return [(b.substitute(dims=renumber), e.substitute(dims=renumber)) for b, e in ranges]

        indices = [self.loop_vars[names[d]] for d in used]
        return self.views_copy(
            state, edge.dst, f"copy_{src}_{dst}", (src, renumbered(src_ranges)), (dst, renumbered(dst_ranges)),
            indices=indices,
        )

    def transpose(self, state: SDFGState, node) -> sd.MapOp:
        """A `Transpose` library node: a map writing each element of the output from the
        input element at the transposed index."""
        (inp,), (out,) = state.in_edges(node), state.out_edges(node)
        for edge in (inp, out):
            self.check_memlet(state, edge)
        ends = [(e.data.data, self.ranges(state, node, e.data.data, e.data.subset, {})) for e in (inp, out)]
        return self.views_copy(state, node, node.label, *ends, permutation=(1, 0))  # type: ignore[return-value]

    def views_copy(
        self, state, node, label, source, destination, permutation=None, indices=()
    ) -> sd.CopyOp | sd.MapOp:
        """Copy (name, box) to (name, box), either side possibly a view; the boxes may use
        `indices` (loop variables) as dimensions."""
        ends = []
        for name, ranges in (source, destination):
            alias = self.aliases.get(name) or views.Alias.identity(name, len(ranges))
            ends.append((self.containers[alias.root], alias, ranges))
        try:
            return views.copy_op(label, ends[0], ends[1], permutation, indices)
        except views.ViewError as err:
            raise self.fail(err.message, state, node) from err

    def ranges(self, state, node, name: str, subset, dims) -> list[tuple[IndexExpr, IndexExpr]]:
        desc = self.sdfg.arrays[name]
        if isinstance(desc, dt.Scalar):
            return []
        what = f"copy subset of '{name}'"
        if subset is None:
            return [(IndexExpr.constant(0), self.expr(d, what, state, node)) for d in desc.shape]
        result = []
        for begin, end, step in subset.ndrange():
            if step != 1:
                raise self.fail(f"copy with a strided subset of '{name}'", state, node)
            first, last = self.expr(begin, what, state, node, dims), self.expr(end, what, state, node, dims) + 1
            if (last - first).dims():
                raise self.fail(
                    f"{what} '{subset}' has a size that depends on a loop variable; not supported yet", state, node
                )
            result.append((first, last))
        return result

    def check_memlet(self, state: SDFGState, edge, wcr: bool = False) -> None:
        """`wcr`: whether the memlet may have write-conflict resolution (a tasklet's
        output written into a container)."""
        memlet = edge.data
        node = edge.dst if isinstance(edge.dst, nodes.Tasklet | nodes.AccessNode) else edge.src
        if memlet.wcr is not None:
            if not wcr:  # the text of the memlet would evaluate the lambda: name its parts
                raise self.fail(
                    f"memlet of '{memlet.data}' has write-conflict resolution '{memlet.wcr}' on a "
                    f"{'copy' if isinstance(edge.src, nodes.AccessNode) else 'value passed between tasklets'}, "
                    "which is not supported yet",
                    state,
                    node,
                )
            if reduction_kind(memlet.wcr) is None:
                raise self.fail(unknown_reduction(memlet.wcr), state, node)
        if memlet.dynamic:
            raise self.fail(f"dynamic memlet '{_memlet_text(memlet)}' is not supported yet", state, node)

    def map(self, state: SDFGState, entry: nodes.MapEntry, scope_children, outer: dict | None = None) -> sd.MapOp:
        """The map of `entry`, with the maps nested in it; `outer` holds the SSA values
        of the enclosing map's scope (see `tasklet_with_memlets`)."""
        m = entry.map
        dims = {name: k for k, name in enumerate(self.map_params)}  # an enclosing map's parameters
        lower, upper, step = [], [], []
        for begin, end, stride in m.range.ranges:
            lower.append(self.expr(begin, "unsupported map range", state, entry, dims))
            upper.append(self.expr(end, "unsupported map range", state, entry, dims) + 1)
            step.append(self.expr(stride, "unsupported map range", state, entry, dims))
        if any(e.dims() for e in step):
            raise self.fail("the step of the map depends on a parameter of an enclosing map; not supported yet", state, entry)
        indices, bounds = sd.access_operands(list(self.map_params.values()), lower + upper)
        lower, upper = bounds[: len(lower)], bounds[len(lower) :]
        schedule = m.schedule.name if m.schedule.name in sd.MAP_SCHEDULES else None
        op = sd.MapOp(entry.label, lower, upper, step, param_names=list(m.params), schedule=schedule, indices=indices)
        enclosing = self.map_params
        self.map_params = {**enclosing, **dict(zip(m.params, op.params))}
        block = op.body.block
        values: dict = dict(outer or {})
        inside = set(scope_children[entry])
        for node in dfs_topological_sort(state, sources=[entry]):
            if node not in inside:
                continue
            if isinstance(node, nodes.Tasklet):
                self.tasklet_with_memlets(state, node, block, values)
            elif isinstance(node, nodes.AccessNode):
                desc = node.desc(self.sdfg)
                if not (desc.transient and desc.total_size == 1):
                    raise self.fail(
                        "access nodes inside a map must be transient scalars", state, node
                    )
            elif isinstance(node, nodes.MapEntry):
                block.add_op(self.map(state, node, scope_children, values))
            elif library_kind(node) == "reduce":
                block.add_ops(ReductionImporter(self, state).reduce(node))
            elif isinstance(node, nodes.NestedSDFG):
                block.add_op(self.nested(state, node))
            elif not isinstance(node, nodes.MapExit):
                raise self.fail(
                    f"{type(node).__name__} nodes inside a map are not supported yet", state, node
                )
        self.map_params = enclosing
        return op

    def tasklet_with_memlets(
        self,
        state: SDFGState,
        tasklet: nodes.Tasklet,
        block: Block,
        values: dict,
    ) -> None:
        """Reads for the inputs, the tasklet, writes (or SSA values) for the outputs.

        `values` holds the SSA values of map-local transient scalars (by access node) and
        of tasklet outputs feeding other tasklets directly (by tasklet and connector).
        """
        if tasklet.language != dtypes.Language.Python:
            raise self.fail(
                f"tasklet language {tasklet.language.name} is not supported (only Python)",
                state,
                tasklet,
            )
        inputs: list[tuple[str, SSAValue]] = []
        for edge in sorted(state.in_edges(tasklet), key=lambda e: e.dst_conn or ""):
            if edge.dst_conn is None:  # an ordering-only edge
                continue
            self.check_memlet(state, edge)
            conn = edge.dst_conn
            first = state.memlet_path(edge)[0]  # through the entries of nested maps
            src = first.src
            if isinstance(src, nodes.Tasklet):  # a value passed between tasklets
                inputs.append((conn, values[(src, first.src_conn)]))
            elif isinstance(src, nodes.AccessNode) and src in values:
                inputs.append((conn, values[src]))
            else:
                read = sd.ReadOp(*self.element_subset(state, tasklet, edge.data))
                block.add_op(read)
                inputs.append((conn, read.result))
        connectors = {c for c, _ in inputs}
        for name in _free_names(tasklet.code.as_string):
            if name not in connectors and name not in tasklet.out_connectors:
                value = self.symbol_value(name, block, state)
                if value is not None:
                    inputs.append((name, value))
        outputs = [e for e in state.out_edges(tasklet) if e.src_conn is not None]
        typed_outputs = []
        for edge in outputs:
            self.check_memlet(state, edge, wcr=self.writes_container(state, edge))
            dtype = (
                tasklet.out_connectors[edge.src_conn]
                if edge.data.data is None
                else self.sdfg.arrays[edge.data.data].dtype
            )
            typed_outputs.append((edge.src_conn, self.element_type(dtype, f"output '{edge.src_conn}'")))
        body = Block(arg_types=[v.type for _, v in inputs])
        try:
            results = translate_tasklet(
                tasklet.code.as_string, body, [c for c, _ in inputs], typed_outputs
            )
        except TaskletError as err:
            raise self.fail(str(err), state, tasklet) from err
        body.add_op(sd.YieldOp(*results))
        region = Region(body)
        region_dce(region)  # what a branch computes into names no output takes
        op = sd.TaskletOp(tasklet.label, inputs, typed_outputs, region)
        block.add_op(op)
        for edge, result in zip(outputs, op.outputs):
            dst = edge.dst
            if isinstance(dst, nodes.Tasklet):
                values[(tasklet, edge.src_conn)] = result
            elif isinstance(dst, nodes.AccessNode) and state.entry_node(dst) is not None:
                values[dst] = result
                self.values_of.add(dst.data)
            else:
                container, indices, subset = self.element_subset(state, tasklet, edge.data)
                if edge.data.wcr is not None:
                    kind = reduction_kind(edge.data.wcr)
                    block.add_op(sd.AccumulateOp(kind, result, container, indices, subset))  # type: ignore[arg-type]
                else:
                    block.add_op(sd.WriteOp(result, container, indices, subset))

    def writes_container(self, state: SDFGState, edge) -> bool:
        """Whether a tasklet's output edge becomes a memlet into a container (not an SSA
        value passed to another tasklet or through a map-local transient)."""
        dst = edge.dst
        if isinstance(dst, nodes.Tasklet):
            return False
        return not (isinstance(dst, nodes.AccessNode) and state.entry_node(dst) is not None)

    def element_subset(self, state, tasklet, memlet) -> tuple[SSAValue, list[SSAValue], list[IndexExpr]]:
        """The single element a tasklet connector reads or writes: its container (the root
        of a view), the map parameters and loop variables it uses (in order of first use)
        and one expression of them per dimension."""
        subset = memlet.subset
        if memlet.data is None or subset is None:
            raise self.fail("a tasklet connector has an empty memlet (no data container)", state, tasklet)
        if subset.num_elements() != 1:
            raise self.fail(
                f"memlet '{_memlet_text(memlet)}' moves more than one element into a tasklet; "
                "only element-wise tasklets are supported yet",
                state,
                tasklet,
            )
        names = list(self.map_params) + [n for n in self.loop_vars if n not in self.map_params]
        dims = {n: k for k, n in enumerate(names)}
        exprs = [self.expr(begin, "unsupported memlet subset", state, tasklet, dims) for begin, _, _ in subset.ndrange()]
        scope = {**self.loop_vars, **self.map_params}
        return self.resolved(memlet.data, exprs, [scope[n] for n in names])

    def resolved(self, name: str, subset: list[IndexExpr], operands) -> tuple[SSAValue, list[SSAValue], list[IndexExpr]]:
        """The container (the root of a view), index operands and subset of an access of
        `name` at `subset`, whose dimension k stands for `operands[k]`."""
        root, exprs = views.resolve(self.aliases, name, subset)
        if isinstance(self.sdfg.arrays[root], dt.Scalar):
            return self.containers[root], [], []
        return self.containers[root], *sd.access_operands(operands, exprs)


@dataclass(frozen=True)
class _Counted:
    """A loop that counts: its bounds over `operands` (loop variables and integer
    scalars), its step, and the entry and latch assignments of other symbols."""

    lower: IndexExpr
    upper: IndexExpr
    step: int
    operands: list[SSAValue]
    entry: cf.Assignments
    latch: cf.Assignments


def _free_names(code: str) -> list[str]:
    """The names Python code reads and never assigns, in order of first use (symbols a
    tasklet uses besides its connectors; also function names, which callers skip)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []  # the tasklet translator reports it
    assigned = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    return [n for n in dict.fromkeys(names) if n not in assigned]


def _assigned_symbols(sdfg: SDFG) -> frozenset[str]:
    """The symbols some interstate edge or loop of `sdfg` assigns."""
    names = {name for e in sdfg.all_interstate_edges(recursive=True) for name in e.data.assignments}
    for region in sdfg.all_control_flow_regions(recursive=True):
        if isinstance(region, LoopRegion) and region.loop_variable:
            names.add(region.loop_variable)
    return frozenset(names)


def _assigns(items: list[cf.Item], name: str) -> bool:
    """Whether any of `items` (or what they hold) assigns symbol `name`."""
    for item in items:
        if isinstance(item, cf.Assign) and name in dict(item.assignments):
            return True
        if isinstance(item, cf.Loop) and (
            name in dict(item.entry) or name in dict(item.latch) or _assigns(item.body, name)
        ):
            return True
        if isinstance(item, cf.Branch) and (_assigns(item.then, name) or _assigns(item.otherwise, name)):
            return True
        if isinstance(item, cf.Block) and isinstance(item.block, ControlFlowRegion | ConditionalBlock):
            if name in _assigned_symbols_of(item.block):
                return True
    return False


def _assigned_symbols_of(block) -> set[str]:
    regions = [block] if isinstance(block, ControlFlowRegion) else [r for _, r in block.branches]
    names: set[str] = set()
    for region in regions:
        for inner in region.all_control_flow_regions(recursive=True):
            if isinstance(inner, LoopRegion) and inner.loop_variable:
                names.add(inner.loop_variable)
            if isinstance(inner, ControlFlowRegion):
                names.update(n for e in inner.edges() for n in e.data.assignments)
    return names


def _dtype_name(dtype) -> str:
    """DaCe's name of a data type; an opaque one has no `typename`, only its C type."""
    try:
        return dtype.to_string()
    except AttributeError:
        return str(getattr(dtype, "ctype", dtype))


def _integer(desc: dt.Data) -> bool:
    numpy_type = getattr(desc.dtype, "type", None)
    return isinstance(numpy_type, type) and np.issubdtype(numpy_type, np.integer)


def _memlet_text(memlet) -> str:
    """`x[i]`, also for a memlet with write-conflict resolution (whose own text, through
    DaCe's detect_reduction_type, would evaluate the lambda)."""
    if memlet.wcr is None:
        return str(memlet)
    return f"{memlet.data}[{memlet.subset}] (write-conflict resolution '{memlet.wcr}')"


def _is_row_major(desc: dt.Array) -> bool:
    expected = 1
    for dim, stride in zip(reversed(desc.shape), reversed(desc.strides)):
        if sympy.simplify(stride - expected) != 0:
            return False
        expected = expected * dim
    return not desc.offset or all(sympy.simplify(o) == 0 for o in desc.offset)

