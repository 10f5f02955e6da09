"""The `sdfg` dialect: a mirror of DaCe's stateful dataflow multigraphs.

One `sdfg.sdfg` holds the data containers of a DaCe SDFG (`sdfg.container`) and its
states (`sdfg.state`), executed in order. Inside a state, `sdfg.map` is a parametric
parallel scope whose parameters are the block arguments of its body;
`sdfg.read`/`sdfg.write` are memlets of one element, their subset an index expression
per dimension over those block arguments and the SDFG's symbols (`%x[%i + 1, N - %j]`);
`sdfg.copy` moves a box between containers; `sdfg.tasklet` computes with `arith`/`math`.

Sizes, ranges and subsets are `#sdfg.expr` attributes (`ipu_lower.dialects.index_expr`):
structured integer expressions, so `x[i + 0]` is the element `x[i]` and `A[i - 1, j]`
is the element at offset (-1, 0) of the iteration point.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from ipu_lower.dialects.constant_value import parse_typed_value, print_typed_value, verify_value
from ipu_lower.dialects.index_expr import IndexExpr, check_symbol_name, parse_index_expr
from ipu_lower.dialects.matmul import MatmulMixin
from ipu_lower.dialects.popops_reduce import ReduceMixin, parse_head, parse_tail, popops_element, reduce_properties
from ipu_lower.dialects.reduction import REDUCTION_KINDS, is_neutral, typed_value
from ipu_lower.dialects.syntax import LabelledBodyMixin, parse_body, parse_regions, print_body, print_regions
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    Data,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from ipu_lower.element_table import element_type_named
from ipu_lower.element_types import element_type, mlir_type, signless

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN = re.compile(r"[0-9]+|[A-Za-z_][A-Za-z0-9_]*")


def is_identifier(text: str) -> bool:
    return _IDENTIFIER.fullmatch(text) is not None


@irdl_attr_definition
class IndexExprAttr(Data[IndexExpr]):
    """An integer expression over SDFG symbols and dimensions: `#sdfg.expr<d0 * N + 1>`.

    Dimensions are numbered operands of the op holding the expression; in op syntax
    they are printed as those operands (`%x[%i * N + 1]`).
    """

    name = "sdfg.expr"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IndexExpr:
        with parser.in_angle_brackets():
            return parse_index_expr(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.format()}>")


def expr_attr(value: IndexExpr | int) -> IndexExprAttr:
    return IndexExprAttr(IndexExpr.lift(value))


def exprs(attr: ArrayAttr[IndexExprAttr]) -> list[IndexExpr]:
    return [e.data for e in attr.data]


def _print_expr(printer: Printer, expr: IndexExpr, operands: Sequence[SSAValue] = ()) -> None:
    """Print `expr` with its dimensions spelled as the SSA names of `operands`."""
    marker = "\x00"
    text = expr.format(lambda d: f"{marker}{d}{marker}")
    for index, piece in enumerate(text.split(marker)):
        if index % 2:
            printer.print_ssa_value(operands[int(piece)])
        else:
            printer.print_string(piece)


def _print_expr_list(printer: Printer, values: Sequence[IndexExpr], delims: str = "()", operands=()):
    printer.print_string(delims[0])
    printer.print_list(values, lambda e: _print_expr(printer, e, operands))
    printer.print_string(delims[1])


def _parse_expr_list(parser: Parser, delimiter=Parser.Delimiter.PAREN) -> list[IndexExpr]:
    return parser.parse_comma_separated_list(delimiter, lambda: parse_index_expr(parser))


class _OperandDims:
    """Collects the SSA operands of a subset, in order of first use, as dimensions."""

    def __init__(self, parser: Parser):
        self.parser = parser
        self.operands: list[UnresolvedOperand] = []
        self.keys: list[tuple[str, int]] = []

    def __call__(self) -> int | None:
        operand = self.parser.parse_optional_unresolved_operand()
        if operand is None:
            return None
        key = (operand.span.text, operand.index)
        if key not in self.keys:
            self.keys.append(key)
            self.operands.append(operand)
        return self.keys.index(key)

    def resolve(self) -> list[SSAValue]:
        return [self.parser.resolve_operand(o, IndexType()) for o in self.operands]


def _verify_no_dims(values: Sequence[IndexExpr], what: str) -> None:
    for e in values:
        if e.dims():
            raise VerifyException(f"{what} may use symbols only, not dimensions: '{e}'")


def first_use_order(values: Sequence[IndexExpr]) -> list[int]:
    """The dimensions of `values` in the order their text form first names them."""
    order: list[int] = []
    for e in values:
        for index, piece in enumerate(e.format(lambda d: f"\x00{d}\x00").split("\x00")):
            if index % 2 and int(piece) not in order:
                order.append(int(piece))
    return order


def access_operands(operands: Sequence[SSAValue], subset: Sequence[IndexExpr]) -> tuple[list[SSAValue], list[IndexExpr]]:
    """The index operands and subset of a memlet (read, write, accumulate) whose
    expressions use `operands` as d0, d1, ...: only the operands used, numbered in order
    of first use, as the ops require."""
    used = first_use_order(subset)
    renumber = {d: IndexExpr.dim(k) for k, d in enumerate(used)}
    return [operands[d] for d in used], [e.substitute(dims=renumber) for e in subset]


def access_ranges(operands: Sequence[SSAValue], ranges: Sequence[Range]) -> tuple[list[SSAValue], list[Range]]:
    """`access_operands` of boxes: the operands the ranges use and the ranges over them."""
    used, flat = access_operands(operands, [e for r in ranges for e in r])
    return used, list(zip(flat[::2], flat[1::2]))


def _verify_declared(op: Operation, values: Sequence[IndexExpr]) -> None:
    """Every symbol of `values` is declared by the SDFG holding `op`."""
    sdfg = op.parent_op()
    while sdfg is not None and not isinstance(sdfg, SdfgOp):
        sdfg = sdfg.parent_op()
    if sdfg is None:
        return
    declared = set(sdfg.symbol_names())
    for e in values:
        if unknown := sorted(e.symbols() - declared):
            raise VerifyException(f"uses symbol '{unknown[0]}', which sdfg '{sdfg.sym_name.data}' does not declare")


@irdl_attr_definition
class ArrayType(ParametrizedAttribute, TypeAttribute):
    """A DaCe data container: `!sdfg.array<N x 4 x f32>`; rank 0 is a DaCe Scalar.

    A dimension is an integer, a symbol or a parenthesized expression of symbols
    (`(N * M) x f32`).
    """

    name = "sdfg.array"
    shape: ArrayAttr[IndexExprAttr]
    element_type: Attribute

    def __init__(self, shape: Sequence[IndexExpr | int], element_type: Attribute):
        super().__init__(ArrayAttr([expr_attr(d) for d in shape]), element_type)

    @property
    def rank(self) -> int:
        return len(self.shape.data)

    def dims(self) -> list[IndexExpr]:
        return exprs(self.shape)

    def static_shape(self) -> tuple[int, ...] | None:
        values = [d.constant_value() for d in self.dims()]
        return None if any(v is None for v in values) else tuple(values)  # type: ignore[misc]

    def verify(self) -> None:
        if element_type(self.element_type) is None:
            raise VerifyException(f"unsupported element type {self.element_type} in !sdfg.array")
        _verify_no_dims(self.dims(), "array dimension")
        for dim in self.dims():
            value = dim.constant_value()
            if value is not None and value < 0:
                raise VerifyException(f"negative dimension {value} in !sdfg.array")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        dims: list[IndexExpr] = []
        with parser.in_angle_brackets():
            while True:
                if (value := parser.parse_optional_integer(allow_boolean=False)) is not None:
                    dims.append(IndexExpr.constant(value))
                elif parser.parse_optional_punctuation("("):
                    dims.append(parse_index_expr(parser))
                    parser.parse_punctuation(")")
                else:
                    ident = parser.parse_identifier()
                    if not parser.parse_optional_keyword("x"):
                        row = element_type_named(ident)
                        if row is None:
                            parser.raise_error(
                                f"expected an element type, got '{ident}' "
                                "(a compound dimension is written in parentheses: (N + 1) x f32)"
                            )
                        return (ArrayAttr([expr_attr(d) for d in dims]), mlir_type(row))
                    try:
                        dims.append(IndexExpr.symbol(ident))
                    except ValueError as err:
                        parser.raise_error(str(err))
                    continue
                parser.parse_keyword("x")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for dim in self.dims():
            text = str(dim)
            bare = _TOKEN.fullmatch(text) or (dim.is_simple() and text.startswith("("))
            printer.print_string(text if bare else f"({text})")
            printer.print_string(" x ")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


def _label_prop():
    return prop_def(StringAttr)


def index_exprs(op: Operation | Block) -> Iterator[tuple[Operation, IndexExpr]]:
    """Every (op, expression) pair of `op` (or of a block) and the ops nested in it."""
    for inner in op.walk():
        yield from ((inner, e) for e in op_index_exprs(inner))


def op_index_exprs(op: Operation) -> Iterator[IndexExpr]:
    """The expressions of `op` itself: its properties' and its results' shapes."""
    for result in op.results:
        if isinstance(result.type, ArrayType):
            yield from result.type.dims()
    for value in op.properties.values():
        yield from _nested_exprs(value)


def sdfg_index_exprs(block: Block) -> Iterator[tuple[Operation, IndexExpr]]:
    """`index_exprs` of the body of an SDFG, without the SDFGs nested in it (whose
    expressions are in their own symbols): what the SDFG's symbols must declare."""
    for op in block.ops:
        yield from ((op, e) for e in op_index_exprs(op))
        if not isinstance(op, NestedOp):
            for region in op.regions:
                for inner in region.blocks:
                    yield from sdfg_index_exprs(inner)


def _nested_exprs(value: Attribute) -> Iterator[IndexExpr]:
    """The expressions of an attribute and of the arrays (of arrays) it holds."""
    if isinstance(value, IndexExprAttr):
        yield value.data
    elif isinstance(value, ArrayAttr):
        for e in value.data:
            yield from _nested_exprs(e)


@irdl_op_definition
class SdfgOp(IRDLOperation):
    """An SDFG: its containers, then its states and control-flow ops (`sdfg.for`,
    `sdfg.while`, `sdfg.if`) in execution order.

    `arg_names` lists the non-transient containers in calling order (DaCe's arglist);
    `symbols` the free symbols (sizes) it is parametric in: every expression inside
    may use these and no other symbol.
    """

    name = "sdfg.sdfg"
    sym_name = prop_def(StringAttr)
    arg_names = prop_def(ArrayAttr[StringAttr])
    symbols = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator())

    def __init__(self, name: str, arg_names: Sequence[str], symbols: Sequence[str], body: Region):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "arg_names": ArrayAttr([StringAttr(a) for a in arg_names]),
                "symbols": ArrayAttr([StringAttr(s) for s in symbols]),
            },
            regions=[body],
        )

    def containers(self) -> list[ContainerOp]:
        return [op for op in self.body.block.ops if isinstance(op, ContainerOp)]

    def symbol_names(self) -> list[str]:
        return [s.data for s in self.symbols.data]

    def verify_(self) -> None:
        by_name: dict[str, ContainerOp] = {}
        for op in self.containers():
            if op.container_name.data in by_name:
                raise VerifyException(f"container '{op.container_name.data}' is declared twice")
            by_name[op.container_name.data] = op
        for arg in self.arg_names.data:
            container = by_name.get(arg.data)
            if container is None:
                raise VerifyException(f"argument '{arg.data}' has no sdfg.container")
            if container.transient is not None:
                raise VerifyException(f"argument '{arg.data}' is declared transient")
        arg_set = {a.data for a in self.arg_names.data}
        for name, op in by_name.items():
            if op.transient is None and name not in arg_set:
                raise VerifyException(f"container '{name}' is neither transient nor an argument")
        for op in self.body.block.ops:
            if not isinstance(op, ContainerOp | StateOp | ForOp | WhileOp | IfOp):
                raise VerifyException(
                    f"'{op.name}' is not allowed directly in sdfg.sdfg "
                    "(expected sdfg.container, sdfg.state, sdfg.for, sdfg.while or sdfg.if)"
                )
        for name in self.symbol_names():
            try:
                check_symbol_name(name)
            except ValueError as err:
                raise VerifyException(str(err)) from err
        if len(set(self.symbol_names())) != len(self.symbol_names()):
            raise VerifyException(f"sdfg '{self.sym_name.data}' declares a symbol twice")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name)
        printer.print_string(" args ")
        printer.print_attribute(self.arg_names)
        printer.print_string(" symbols ")
        printer.print_attribute(self.symbols)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        print_body(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> SdfgOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("args")
        args = parser.parse_attribute()
        parser.parse_keyword("symbols")
        symbols = parser.parse_attribute()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parse_body(parser)
        for attr in (args, symbols):
            if not isinstance(attr, ArrayAttr) or not all(isinstance(a, StringAttr) for a in attr.data):
                parser.raise_error("expected a list of strings")
        return cls.build(
            properties={"sym_name": StringAttr(name), "arg_names": args, "symbols": symbols},
            attributes=attrs.data if attrs else {},
            regions=[body],
        )


CONTAINER_STORAGES = ("IPU_Tile", "IPU_Streaming")
"""DaCe's storage types for IPU data: tile memory, or off-chip streaming memory."""


@irdl_op_definition
class ContainerOp(IRDLOperation):
    """A data container of the SDFG (DaCe `Array` or `Scalar`), by its DaCe name, and
    its DaCe storage when the SDFG names one of `CONTAINER_STORAGES`: `IPU_Streaming`
    keeps an array in streaming memory (a remote buffer), which maps reach in chunks
    (sdfg-stream-chunks); `IPU_Tile`, like no storage, in tile memory.

    `%A = sdfg.container "A" storage "IPU_Streaming" : !sdfg.array<N x M x f32>`

    A constant of the SDFG (DaCe's `constants_prop`: an array literal of the program)
    is a transient with a `value` (`ipu_lower.dialects.constant_value`), of a static
    shape in tile memory, that nothing writes:

    `%c = sdfg.container "c" transient : !sdfg.array<2 x f32> = dense<[1.0, 2.0]>`
    """

    name = "sdfg.container"
    container_name = prop_def(StringAttr)
    transient = opt_prop_def(UnitAttr)
    storage = opt_prop_def(StringAttr)
    value = opt_prop_def(DenseIntOrFPElementsAttr)
    result = result_def(ArrayType)
    traits = traits_def(HasParent(SdfgOp))

    def __init__(
        self,
        name: str,
        type: ArrayType,
        transient: bool = False,
        storage: str | None = None,
        value: DenseIntOrFPElementsAttr | None = None,
    ):
        props: dict[str, Attribute] = {"container_name": StringAttr(name)}
        if transient:
            props["transient"] = UnitAttr()
        if storage is not None:
            props["storage"] = StringAttr(storage)
        if value is not None:
            props["value"] = value
        super().__init__(properties=props, result_types=[type])

    def is_streaming(self) -> bool:
        return self.storage is not None and self.storage.data == "IPU_Streaming"

    def verify_(self) -> None:
        ctype = self.result.type
        assert isinstance(ctype, ArrayType)
        _verify_declared(self, ctype.dims())
        name = self.container_name.data
        if self.storage is not None and self.storage.data not in CONTAINER_STORAGES:
            raise VerifyException(
                f"container '{name}' has storage '{self.storage.data}', not one of {', '.join(CONTAINER_STORAGES)}"
            )
        if self.is_streaming() and ctype.rank == 0:
            raise VerifyException(
                f"scalar '{name}' cannot be in streaming memory: scalars are passed by value and live on tile 0"
            )
        if self.value is not None:
            self.verify_value(name, ctype)

    def verify_value(self, name: str, ctype: ArrayType) -> None:
        if self.transient is None or self.is_streaming():
            raise VerifyException(f"constant container '{name}' must be a transient in tile memory")
        verify_value(self.value, ctype.static_shape(), ctype.element_type, f"container '{name}'")  # type: ignore[arg-type]
        for use in self.result.uses:
            if use.operation.operands[use.index] is writes_operand(use.operation):
                raise VerifyException(f"constant container '{name}' is written by '{use.operation.name}'")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.container_name)
        if self.transient is not None:
            printer.print_string(" transient")
        if self.storage is not None:
            printer.print_string(" storage ")
            printer.print_attribute(self.storage)
        print_typed_value(printer, self, self.result.type, self.value)

    @classmethod
    def parse(cls, parser: Parser) -> ContainerOp:
        name = parser.parse_str_literal()
        transient = parser.parse_optional_keyword("transient") is not None
        storage = parser.parse_str_literal() if parser.parse_optional_keyword("storage") else None
        attrs, ctype, value = parse_typed_value(parser, ArrayType, ArrayType.static_shape)
        op = cls(name, ctype, transient, storage, value)
        op.attributes.update(attrs)
        return op


def writes_operand(op: Operation) -> SSAValue | None:
    """The container operand `op` writes, if it writes one."""
    if isinstance(op, WriteOp | AccumulateOp):
        return op.container
    if isinstance(op, CopyOp):
        return op.destination
    if isinstance(op, MatmulOp | ReduceOp):
        return op.out
    return None


def is_streaming(value: SSAValue) -> bool:
    """Whether `value` is a container in streaming memory."""
    return isinstance(value.owner, ContainerOp) and value.owner.is_streaming()


def container_name(value: SSAValue) -> str:
    """The DaCe name of the container `value` is the result of."""
    owner = value.owner
    assert isinstance(owner, ContainerOp)
    return owner.container_name.data


@irdl_op_definition
class StateOp(LabelledBodyMixin, IRDLOperation):
    """A DaCe state: its dataflow, maps and tasklets in a valid execution order."""

    name = "sdfg.state"
    label = _label_prop()
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def verify_(self) -> None:
        _verify_in_program(self)


MAP_SCHEDULES = ("IPU_Device", "IPU_Workers")
"""DaCe's schedules for IPU maps: spread over the tiles, or on one tile's workers."""


@irdl_op_definition
class MapOp(IRDLOperation):
    """A parallel map scope. Each block argument of the body is one parameter, ranging
    over [lower, upper) with step `step`: expressions of symbols and, for a map nested in
    another, of the `indices`, parameters of enclosing maps (`0:i + 1` inside a map over
    `i`; numbered in order of first use, as in memlets). The DaCe schedule, when the SDFG
    names one of `MAP_SCHEDULES`, says where it runs: `IPU_Workers` keeps the map and the
    arrays it touches on one tile; otherwise ipu-tile-partition decides.

    `sdfg.map "m" (%i, %j) = (0, 0) to (N, M) step (1, 1) { ... }`
    `sdfg.map "m" (%i) = (0) to (N) step (1) schedule "IPU_Workers" { ... }`
    `sdfg.map "inner" (%j) = (0) to (%i + 1) step (1) { ... }` (in a map over `%i`)
    """

    name = "sdfg.map"
    label = _label_prop()
    lower = prop_def(ArrayAttr[IndexExprAttr])
    upper = prop_def(ArrayAttr[IndexExprAttr])
    step = prop_def(ArrayAttr[IndexExprAttr])
    schedule = opt_prop_def(StringAttr)
    indices = var_operand_def(IndexType)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(
        self,
        label: str,
        lower: Sequence[IndexExpr | int],
        upper: Sequence[IndexExpr | int],
        step: Sequence[IndexExpr | int],
        body: Region | None = None,
        param_names: Sequence[str] = (),
        schedule: str | None = None,
        indices: Sequence[SSAValue] = (),
    ):
        if body is None:
            block = Block(arg_types=[IndexType()] * len(lower))
            for arg, hint in zip(block.args, param_names):
                arg.name_hint = hint if is_identifier(hint) else None
            body = Region(block)
        super().__init__(
            operands=[indices],
            properties={
                "label": StringAttr(label),
                "lower": ArrayAttr([expr_attr(e) for e in lower]),
                "upper": ArrayAttr([expr_attr(e) for e in upper]),
                "step": ArrayAttr([expr_attr(e) for e in step]),
                **({"schedule": StringAttr(schedule)} if schedule is not None else {}),
            },
            regions=[body],
        )

    @property
    def params(self) -> tuple[SSAValue, ...]:
        return self.body.block.args

    def on_one_tile(self) -> bool:
        return self.schedule is not None and self.schedule.data == "IPU_Workers"

    def ranges(self) -> list[tuple[IndexExpr, IndexExpr, IndexExpr]]:
        return list(zip(exprs(self.lower), exprs(self.upper), exprs(self.step)))

    def verify_(self) -> None:
        label = self.label.data
        n = len(self.params)
        counts = (len(self.lower.data), len(self.upper.data), len(self.step.data))
        if counts != (n, n, n):
            raise VerifyException(
                f"map '{label}' has {n} parameters but {counts[0]}/{counts[1]}/{counts[2]} "
                "lower bounds/upper bounds/steps"
            )
        if any(not isinstance(p.type, IndexType) for p in self.params):
            raise VerifyException(f"map '{label}' parameters must be of type index")
        if self.schedule is not None and self.schedule.data not in MAP_SCHEDULES:
            raise VerifyException(
                f"map '{label}' has schedule '{self.schedule.data}', not one of {', '.join(MAP_SCHEDULES)}"
            )
        _verify_no_dims(exprs(self.step), f"step of map '{label}'")
        bounds = exprs(self.lower) + exprs(self.upper)  # in the order the text names them
        if any(d >= len(self.indices) for e in bounds for d in e.dims()):
            raise VerifyException(f"range of map '{label}' uses a dimension that is not an operand")
        if first_use_order(bounds) != list(range(len(self.indices))):
            raise VerifyException(f"map '{label}' must use each index operand, in the order its ranges first name them")
        enclosing = map_parameters(self)
        if any(index not in enclosing for index in self.indices):
            raise VerifyException(f"the ranges of map '{label}' may use the parameters of enclosing maps only")
        for s in exprs(self.step):
            if (value := s.constant_value()) is not None and value <= 0:
                raise VerifyException(f"map '{label}' has non-positive step {value}")
        _verify_declared(self, [e for r in self.ranges() for e in r])
        if not isinstance(self.parent_op(), StateOp | MapOp):
            raise VerifyException("sdfg.map must be inside an sdfg.state or sdfg.map")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        printer.print_string(" (")
        printer.print_list(self.params, printer.print_ssa_value)
        printer.print_string(") = ")
        _print_expr_list(printer, exprs(self.lower), operands=self.indices)
        printer.print_string(" to ")
        _print_expr_list(printer, exprs(self.upper), operands=self.indices)
        printer.print_string(" step ")
        _print_expr_list(printer, exprs(self.step))
        if self.schedule is not None:
            printer.print_string(" schedule ")
            printer.print_attribute(self.schedule)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        label = parser.parse_str_literal()
        params = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        dims = _OperandDims(parser)
        lower = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parse_index_expr(parser, dims))
        parser.parse_keyword("to")
        upper = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parse_index_expr(parser, dims))
        parser.parse_keyword("step")
        step = _parse_expr_list(parser)
        schedule = parser.parse_str_literal() if parser.parse_optional_keyword("schedule") else None
        attrs = parser.parse_optional_attr_dict_with_keyword()
        indices = dims.resolve()
        body = parser.parse_region([p.resolve(IndexType()) for p in params])
        op = cls(label, lower, upper, step, body, schedule=schedule, indices=indices)
        if attrs:
            op.attributes.update(attrs.data)
        return op


def _print_access(printer: Printer, container: SSAValue, subset: Sequence[IndexExpr], indices) -> None:
    printer.print_ssa_value(container)
    _print_expr_list(printer, subset, "[]", indices)


def _verify_access(op: ReadOp | WriteOp | AccumulateOp, what: str) -> ArrayType:
    ctype = op.container.type
    assert isinstance(ctype, ArrayType)
    subset = op.subset_exprs()
    if len(subset) != ctype.rank:
        raise VerifyException(f"{what} of a rank-{ctype.rank} container has {len(subset)} indices")
    for e in subset:
        if any(d >= len(op.indices) for d in e.dims()):
            raise VerifyException(f"{what} subset '{e}' uses a dimension that is not an operand")
    if first_use_order(subset) != list(range(len(op.indices))):
        raise VerifyException(f"{what} must use each index operand, in the order the subset first names them")
    _verify_declared(op, subset)
    return ctype


@irdl_op_definition
class ReadOp(IRDLOperation):
    """A memlet into a tasklet: `%v = sdfg.read %x[%i, %j + 1] : !sdfg.array<...>`.

    `indices` are the dimensions of the `subset` expressions, in order of first use.
    """

    name = "sdfg.read"
    container = operand_def(ArrayType)
    indices = var_operand_def(IndexType)
    subset = prop_def(ArrayAttr[IndexExprAttr])
    result = result_def()

    def subset_exprs(self) -> list[IndexExpr]:
        return exprs(self.subset)

    def __init__(self, container: SSAValue, indices: Sequence[SSAValue], subset: Sequence[IndexExpr | int]):
        assert isinstance(container.type, ArrayType)
        super().__init__(
            operands=[container, indices],
            properties={"subset": ArrayAttr([expr_attr(e) for e in subset])},
            result_types=[container.type.element_type],
        )

    def verify_(self) -> None:
        ctype = _verify_access(self, "read")
        if self.result.type != ctype.element_type:
            raise VerifyException(
                f"read result type {self.result.type} is not the element type "
                f"{ctype.element_type} of the container"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self.container, self.subset_exprs(), self.indices)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.container.type)

    @classmethod
    def parse(cls, parser: Parser) -> ReadOp:
        container = parser.parse_unresolved_operand()
        dims = _OperandDims(parser)
        subset = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parse_index_expr(parser, dims)
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ctype = parser.parse_type()
        if not isinstance(ctype, ArrayType):
            parser.raise_error("sdfg.read expects an !sdfg.array container")
        op = cls(parser.resolve_operand(container, ctype), dims.resolve(), subset)
        op.attributes.update(attrs)
        return op


class _StoreMixin:
    """What `sdfg.write` and `sdfg.accumulate` share: a value of the container's element
    type stored at the element `subset` names, spelled `%v to %y[subset] : !sdfg.array<...>`.
    An op declares `value`, `container`, `indices` and `subset`."""

    def subset_exprs(self) -> list[IndexExpr]:
        return exprs(self.subset)  # type: ignore[attr-defined]

    def verify_stored(self, what: str, adjective: str) -> ArrayType:
        ctype = _verify_access(self, what)  # type: ignore[arg-type]
        value_type = self.value.type  # type: ignore[attr-defined]
        if value_type != ctype.element_type:
            raise VerifyException(
                f"{adjective} value type {value_type} is not the element type {ctype.element_type} of the container"
            )
        return ctype

    def print_stored(self, printer: Printer) -> None:
        printer.print_ssa_value(self.value)  # type: ignore[attr-defined]
        printer.print_string(" to ")
        _print_access(printer, self.container, self.subset_exprs(), self.indices)  # type: ignore[attr-defined]
        printer.print_op_attributes(self.attributes)  # type: ignore[attr-defined]
        printer.print_string(" : ")
        printer.print_attribute(self.container.type)  # type: ignore[attr-defined]

    @staticmethod
    def parse_stored(parser: Parser, name: str) -> tuple[SSAValue, SSAValue, list[SSAValue], list[IndexExpr], dict]:
        """(value, container, indices, subset, attributes) of `%v to %y[subset] {...} : type`."""
        value = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        container = parser.parse_unresolved_operand()
        dims = _OperandDims(parser)
        subset = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_index_expr(parser, dims))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ctype = parser.parse_type()
        if not isinstance(ctype, ArrayType):
            parser.raise_error(f"{name} expects an !sdfg.array container")
        resolved_value = parser.resolve_operand(value, ctype.element_type)
        return resolved_value, parser.resolve_operand(container, ctype), dims.resolve(), subset, attrs


@irdl_op_definition
class WriteOp(_StoreMixin, IRDLOperation):
    """A memlet out of a tasklet: `sdfg.write %v to %y[%i] : !sdfg.array<...>`."""

    name = "sdfg.write"
    value = operand_def()
    container = operand_def(ArrayType)
    indices = var_operand_def(IndexType)
    subset = prop_def(ArrayAttr[IndexExprAttr])

    def __init__(
        self,
        value: SSAValue,
        container: SSAValue,
        indices: Sequence[SSAValue],
        subset: Sequence[IndexExpr | int],
    ):
        super().__init__(
            operands=[value, container, indices],
            properties={"subset": ArrayAttr([expr_attr(e) for e in subset])},
        )

    def verify_(self) -> None:
        self.verify_stored("write", "written")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.print_stored(printer)

    @classmethod
    def parse(cls, parser: Parser) -> WriteOp:
        value, container, indices, subset, attrs = cls.parse_stored(parser, "sdfg.write")
        op = cls(value, container, indices, subset)
        op.attributes.update(attrs)
        return op


Range = tuple[IndexExpr, IndexExpr]


def _print_ranges(printer: Printer, container: SSAValue, ranges: Sequence[Range], operands: Sequence[SSAValue]) -> None:
    printer.print_ssa_value(container)
    printer.print_string("[")
    printer.print_list(
        ranges,
        lambda r: (
            _print_expr(printer, r[0], operands),
            printer.print_string(":"),
            _print_expr(printer, r[1], operands),
        ),
    )
    printer.print_string("]")


def _parse_ranges(parser: Parser, dims: _OperandDims) -> list[Range]:
    def parse_range() -> Range:
        begin = parse_index_expr(parser, dims)
        parser.parse_punctuation(":")
        return begin, parse_index_expr(parser, dims)

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_range)


def _parse_boxes(parser: Parser, dims: _OperandDims) -> tuple[UnresolvedOperand, list[Range], UnresolvedOperand, list[Range]]:
    """`%in[ranges] to %out[ranges]`."""
    source = parser.parse_unresolved_operand()
    source_subset = _parse_ranges(parser, dims)
    parser.parse_keyword("to")
    out = parser.parse_unresolved_operand()
    return source, source_subset, out, _parse_ranges(parser, dims)


def _flat(ranges: Sequence[Range]) -> ArrayAttr[IndexExprAttr]:
    return ArrayAttr([expr_attr(e) for r in ranges for e in r])


def _pairs(flat: ArrayAttr[IndexExprAttr]) -> list[Range]:
    d = exprs(flat)
    return [(d[i], d[i + 1]) for i in range(0, len(d), 2)]


@irdl_op_definition
class CopyOp(IRDLOperation):
    """An AccessNode-to-AccessNode memlet: copy a box of one container into another.

    Each subset has one `begin:end` (exclusive end, step 1) per dimension; rank-0
    containers have empty subsets. Both boxes hold the same number of elements. The
    ranges are expressions of symbols and of the `indices`, variables of enclosing
    `sdfg.for` loops (`%A[%t:%t + 1, 0:N]`: a row that moves with the loop); a box's
    sizes never depend on them.
    """

    name = "sdfg.copy"
    source = operand_def(ArrayType)
    destination = operand_def(ArrayType)
    indices = var_operand_def(IndexType)
    source_subset = prop_def(ArrayAttr[IndexExprAttr])
    destination_subset = prop_def(ArrayAttr[IndexExprAttr])

    def __init__(
        self,
        source: SSAValue,
        source_subset: Sequence[Range],
        destination: SSAValue,
        destination_subset: Sequence[Range],
        indices: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[source, destination, indices],
            properties={
                "source_subset": _flat(source_subset),
                "destination_subset": _flat(destination_subset),
            },
        )

    def source_ranges(self) -> list[Range]:
        return _pairs(self.source_subset)

    def destination_ranges(self) -> list[Range]:
        return _pairs(self.destination_subset)

    def verify_(self) -> None:
        for value, subset, what in (
            (self.source, self.source_subset, "source"),
            (self.destination, self.destination_subset, "destination"),
        ):
            assert isinstance(value.type, ArrayType)
            if len(subset.data) != 2 * value.type.rank:
                raise VerifyException(
                    f"copy {what} subset needs one range per dimension of a rank-{value.type.rank} container"
                )
            for begin, end in _pairs(subset):
                for e in (begin, end):
                    if any(d >= len(self.indices) for d in e.dims()):
                        raise VerifyException(f"copy {what} range '{e}' uses a dimension that is not an operand")
                if (end - begin).dims():
                    names = [v.name_hint or f"d{k}" for k, v in enumerate(self.indices)]
                    text = f"{begin.format(lambda d: names[d])}:{end.format(lambda d: names[d])}"
                    raise VerifyException(f"copy {what} range '{text}' has a size that depends on a loop variable")
            _verify_declared(self, exprs(subset))
        if first_use_order(exprs(self.source_subset) + exprs(self.destination_subset)) != list(range(len(self.indices))):
            raise VerifyException("copy must use each index operand, in the order its subsets first name them")
        enclosing = loop_variables(self)
        if any(value not in enclosing for value in self.indices):
            raise VerifyException("copy ranges may use the variables of enclosing sdfg.for loops only")
        if self.source.type.element_type != self.destination.type.element_type:  # type: ignore[union-attr]
            raise VerifyException("copy between containers of different element types")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_ranges(printer, self.source, self.source_ranges(), self.indices)
        printer.print_string(" to ")
        _print_ranges(printer, self.destination, self.destination_ranges(), self.indices)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(", ")
        printer.print_attribute(self.destination.type)

    @classmethod
    def parse(cls, parser: Parser) -> CopyOp:
        source = parser.parse_unresolved_operand()
        dims = _OperandDims(parser)
        source_subset = _parse_ranges(parser, dims)
        parser.parse_keyword("to")
        destination = parser.parse_unresolved_operand()
        destination_subset = _parse_ranges(parser, dims)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation(",")
        destination_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(source, source_type),
            source_subset,
            parser.resolve_operand(destination, destination_type),
            destination_subset,
            dims.resolve(),
        )
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class TaskletOp(IRDLOperation):
    """A DaCe tasklet. Operands feed the input connectors, results are the outputs.

    The body is isolated: its block arguments are the input connectors, its ops are
    `arith`/`math`, and `sdfg.yield` returns one value per output connector.
    """

    name = "sdfg.tasklet"
    label = _label_prop()
    in_connectors = prop_def(ArrayAttr[StringAttr])
    out_connectors = prop_def(ArrayAttr[StringAttr])
    inputs = var_operand_def()
    outputs = var_result_def()
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), Pure())

    def __init__(
        self,
        label: str,
        inputs: Sequence[tuple[str, SSAValue]],
        outputs: Sequence[tuple[str, Attribute]],
        body: Region,
    ):
        super().__init__(
            operands=[[v for _, v in inputs]],
            result_types=[[t for _, t in outputs]],
            properties={
                "label": StringAttr(label),
                "in_connectors": ArrayAttr([StringAttr(n) for n, _ in inputs]),
                "out_connectors": ArrayAttr([StringAttr(n) for n, _ in outputs]),
            },
            regions=[body],
        )

    def verify_(self) -> None:
        label = self.label.data
        ins = [c.data for c in self.in_connectors.data]
        outs = [c.data for c in self.out_connectors.data]
        if len(ins) != len(self.inputs) or len(outs) != len(self.outputs):
            raise VerifyException(
                f"tasklet '{label}' has {len(ins)} input and {len(outs)} output "
                f"connector names for {len(self.inputs)} operands and {len(self.outputs)} results"
            )
        for name in ins + outs:
            if not is_identifier(name):
                raise VerifyException(f"tasklet '{label}' connector '{name}' is not an identifier")
        block = self.body.block
        if [a.type for a in block.args] != [v.type for v in self.inputs]:
            raise VerifyException(f"tasklet '{label}' block arguments do not match its operand types")
        term = block.last_op
        if not isinstance(term, YieldOp):
            raise VerifyException(f"tasklet '{label}' must end with sdfg.yield")
        if [v.type for v in term.values] != [r.type for r in self.outputs]:
            raise VerifyException(
                f"tasklet '{label}' yields {[str(v.type) for v in term.values]} "
                f"but has results {[str(r.type) for r in self.outputs]}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        printer.print_string(" ins(")
        pairs = list(zip(self.in_connectors.data, self.inputs))
        printer.print_list(
            pairs, lambda p: (printer.print_string(f"{p[0].data} = "), printer.print_ssa_value(p[1]))
        )
        printer.print_string(") outs(")
        printer.print_list(self.out_connectors.data, lambda c: printer.print_string(c.data))
        printer.print_string(") : (")
        printer.print_list([v.type for v in self.inputs], printer.print_attribute)
        printer.print_string(") -> (")
        printer.print_list([r.type for r in self.outputs], printer.print_attribute)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> TaskletOp:
        label = parser.parse_str_literal()
        parser.parse_keyword("ins")

        def parse_input():
            name = parser.parse_identifier()
            parser.parse_punctuation("=")
            return name, parser.parse_unresolved_operand()

        ins = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_input)
        parser.parse_keyword("outs")
        outs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_identifier)
        parser.parse_punctuation(":")
        in_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        out_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        if len(in_types) != len(ins) or len(out_types) != len(outs):
            parser.raise_error("tasklet connector and type counts differ")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        operands = [(name, parser.resolve_operand(v, t)) for (name, v), t in zip(ins, in_types)]
        op = cls(label, operands, list(zip(outs, out_types)), body)
        if attrs:
            op.attributes.update(attrs.data)
        return op


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a tasklet body, giving the values of its output connectors in order."""

    name = "sdfg.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(TaskletOp))

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


# -- structured control flow ------------------------------------------------------------


def _verify_in_program(op: Operation) -> None:
    """`op` (a state or a control-flow op) is in the body of an SDFG, a loop, or a
    branch of an `sdfg.if`: never in a condition region or inside a state."""
    parent = op.parent_op()
    region = op.parent_region()
    if isinstance(parent, SdfgOp | ForOp | WhileOp):
        if region is parent.body:
            return
    elif isinstance(parent, IfOp) and region in (parent.then_region, parent.else_region):
        return
    raise VerifyException(
        f"'{op.name}' must be in an sdfg.sdfg, the body of an sdfg.for or sdfg.while, "
        "or a branch of an sdfg.if"
    )


def _verify_program_block(block: Block, what: str) -> None:
    for op in block.ops:
        if not isinstance(op, StateOp | ForOp | WhileOp | IfOp | BreakOp):
            raise VerifyException(
                f"'{op.name}' is not allowed in {what} (expected sdfg.state, sdfg.for, sdfg.while, sdfg.if or sdfg.break)"
            )


def loop_variables(op: Operation) -> list[SSAValue]:
    """The loop variables of the `sdfg.for` ops enclosing `op`, outermost first."""
    found: list[SSAValue] = []
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, SdfgOp):
        if isinstance(parent, ForOp):
            found.insert(0, parent.variable)
        parent = parent.parent_op()
    return found


def is_integer_scalar(value: SSAValue) -> bool:
    """A rank-0 container of an integer type (not bool): a value a loop bound may read."""
    t = value.type
    return (
        isinstance(t, ArrayType)
        and t.rank == 0
        and isinstance(t.element_type, IntegerType)
        and t.element_type.width.data > 1
    )


class _TypedOperandDims(_OperandDims):
    """Like `_OperandDims`, but the operands are resolved later with their types."""

    def resolve_typed(self, types: Sequence[Attribute]) -> list[SSAValue]:
        if len(types) != len(self.operands):
            self.parser.raise_error(
                f"{len(self.operands)} operands in the expressions but {len(types)} types"
            )
        return [self.parser.resolve_operand(o, t) for o, t in zip(self.operands, types)]


@irdl_op_definition
class ForOp(IRDLOperation):
    """A counted loop (DaCe's `for t in range(lower, upper, step)`): the body runs with
    its block argument, the loop variable, set to `lower`, `lower + step`, ... while it is
    below `upper` (above it for a negative step).

    `sdfg.for "for_5" %t = 1 to %T - 1 step 1 : (!sdfg.array<i32>) { states }`

    `lower` and `upper` are index expressions of the SDFG's symbols and of the operands,
    which are the loop variables of enclosing loops (`index`) and rank-0 integer
    containers (read at run time); `step` is a non-zero integer. As in DaCe's state
    machine, `upper` is evaluated before every iteration and `lower` once, on entry. The
    body holds states and control-flow ops; inside it the loop variable may index
    memlets (`%A[%t]`) and feed tasklets through `sdfg.apply`.
    """

    name = "sdfg.for"
    label = _label_prop()
    lower = prop_def(IndexExprAttr)
    upper = prop_def(IndexExprAttr)
    step = prop_def(IndexExprAttr)
    bound_operands = var_operand_def()
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(
        self,
        label: str,
        lower: IndexExpr | int,
        upper: IndexExpr | int,
        step: IndexExpr | int,
        operands: Sequence[SSAValue] = (),
        body: Region | None = None,
        variable_name: str | None = None,
    ):
        if body is None:
            block = Block(arg_types=[IndexType()])
            if variable_name is not None and is_identifier(variable_name):
                block.args[0].name_hint = variable_name
            body = Region(block)
        super().__init__(
            operands=[operands],
            properties={
                "label": StringAttr(label),
                "lower": expr_attr(lower),
                "upper": expr_attr(upper),
                "step": expr_attr(step),
            },
            regions=[body],
        )

    @property
    def variable(self) -> SSAValue:
        return self.body.block.args[0]

    def bounds(self) -> tuple[IndexExpr, IndexExpr, IndexExpr]:
        return self.lower.data, self.upper.data, self.step.data

    def step_value(self) -> int:
        value = self.step.data.constant_value()
        assert value is not None  # verified
        return value

    def trip_count(self) -> int | None:
        """The number of iterations when the bounds are constants."""
        lower, upper = self.lower.data.constant_value(), self.upper.data.constant_value()
        if lower is None or upper is None:
            return None
        step = self.step_value()
        return max(0, -((lower - upper) // step)) if step > 0 else max(0, -((upper - lower) // -step))

    def verify_(self) -> None:
        label = self.label.data
        block = self.body.block
        if len(block.args) != 1 or not isinstance(block.args[0].type, IndexType):
            raise VerifyException(f"loop '{label}' must have one loop variable, of type index")
        step = self.step.data.constant_value()
        if step is None or step == 0:
            raise VerifyException(f"loop '{label}' needs a non-zero integer step, got '{self.step.data}'")
        values = list(self.bounds())
        for e in values:
            if any(d >= len(self.bound_operands) for d in e.dims()):
                raise VerifyException(f"bound '{e}' of loop '{label}' uses a dimension that is not an operand")
        if first_use_order(values) != list(range(len(self.bound_operands))):
            raise VerifyException(f"loop '{label}' must use each operand, in the order its bounds first name them")
        for value in self.bound_operands:  # an index value in scope is an enclosing loop's variable
            if not isinstance(value.type, IndexType) and not is_integer_scalar(value):
                raise VerifyException(
                    f"bound of loop '{label}' reads {value.type}; only rank-0 integer containers may be read"
                )
        _verify_declared(self, values)
        _verify_in_program(self)
        _verify_program_block(block, f"loop '{label}'")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        printer.print_string(" ")
        printer.print_ssa_value(self.variable)
        printer.print_string(" = ")
        _print_expr(printer, self.lower.data, self.bound_operands)
        printer.print_string(" to ")
        _print_expr(printer, self.upper.data, self.bound_operands)
        printer.print_string(" step ")
        _print_expr(printer, self.step.data, self.bound_operands)
        if self.bound_operands:
            printer.print_string(" : (")
            printer.print_list([v.type for v in self.bound_operands], printer.print_attribute)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        print_body(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        label = parser.parse_str_literal()
        variable = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        dims = _TypedOperandDims(parser)
        lower = parse_index_expr(parser, dims)
        parser.parse_keyword("to")
        upper = parse_index_expr(parser, dims)
        parser.parse_keyword("step")
        step = parse_index_expr(parser, dims)
        types: list[Attribute] = []
        if parser.parse_optional_punctuation(":"):
            types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        operands = dims.resolve_typed(types)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([variable.resolve(IndexType())])
        if not body.blocks:
            body.add_block(Block(arg_types=[IndexType()]))
        op = cls(label, lower, upper, step, operands, body)
        if attrs:
            op.attributes.update(attrs.data)
        return op


def _verify_condition_region(op: IfOp | WhileOp, what: str) -> None:
    block = op.condition.block
    for inner in block.ops:
        if not isinstance(inner, ReadOp | TaskletOp | ApplyOp | CopyOp | ConditionOp):
            raise VerifyException(
                f"'{inner.name}' is not allowed in the condition of {what} "
                "(expected sdfg.read, sdfg.tasklet, sdfg.apply, sdfg.copy and a final sdfg.condition)"
            )
    if not isinstance(block.last_op, ConditionOp):
        raise VerifyException(f"the condition of {what} must end with sdfg.condition")


@irdl_op_definition
class IfOp(IRDLOperation):
    """A branch: the condition region computes a value (reads, tasklets, `sdfg.apply`)
    and ends with `sdfg.condition`; the then region runs when it is true, the else
    region (possibly empty) otherwise.

    `sdfg.if "if_8" { ...; sdfg.condition %c } then { states } else { states }`
    """

    name = "sdfg.if"
    label = _label_prop()
    condition = region_def("single_block")
    then_region = region_def("single_block")
    else_region = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, label: str, condition: Region, then_region: Region | None = None, else_region: Region | None = None):
        super().__init__(
            properties={"label": StringAttr(label)},
            regions=[condition, then_region or Region(Block()), else_region or Region(Block())],
        )

    def verify_(self) -> None:
        what = f"branch '{self.label.data}'"
        _verify_condition_region(self, what)
        _verify_in_program(self)
        _verify_program_block(self.then_region.block, f"the then region of {what}")
        _verify_program_block(self.else_region.block, f"the else region of {what}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        print_regions(printer, self, [("", self.condition), ("then", self.then_region), ("else", self.else_region)])

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        label = parser.parse_str_literal()
        attrs, (condition, then_region, else_region) = parse_regions(parser, ["then", "else"])
        op = cls(label, condition, then_region, else_region)  # type: ignore[arg-type]
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class WhileOp(IRDLOperation):
    """A loop that runs its condition region, then its body while the condition is true
    (DaCe's `while` loops and loops that are not counted).

    `sdfg.while "while_30" { ...; sdfg.condition %c } do { states }`
    """

    name = "sdfg.while"
    label = _label_prop()
    condition = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, label: str, condition: Region, body: Region | None = None):
        super().__init__(properties={"label": StringAttr(label)}, regions=[condition, body or Region(Block())])

    def verify_(self) -> None:
        what = f"loop '{self.label.data}'"
        _verify_condition_region(self, what)
        _verify_in_program(self)
        _verify_program_block(self.body.block, what)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        print_regions(printer, self, [("", self.condition), ("do", self.body)])

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        label = parser.parse_str_literal()
        attrs, (condition, body) = parse_regions(parser, ["do"])
        op = cls(label, condition, body)  # type: ignore[arg-type]
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class BreakOp(IRDLOperation):
    """`break`: leaves the innermost enclosing `sdfg.for` or `sdfg.while`. It is the last
    op of the loop's body or of an arm of an `sdfg.if` inside it (the ops after it would
    never run); `sdfg-lower-breaks` turns it into a predicate the loop tests.

    `sdfg.if "if_7" { ...; sdfg.condition %c } then { sdfg.state "found" { ... } sdfg.break } else { }`
    """

    name = "sdfg.break"
    assembly_format = "attr-dict"

    def verify_(self) -> None:
        if self.next_op is not None:
            raise VerifyException("sdfg.break must be the last op of its block")
        if innermost_loop(self) is None:
            raise VerifyException(
                "sdfg.break must be in the body of an sdfg.for or sdfg.while, or in an arm of an sdfg.if inside one"
            )


def innermost_loop(op: Operation) -> ForOp | WhileOp | None:
    """The loop whose body holds `op`, directly or in arms of `sdfg.if`s; None when
    something else (a state, a map, a condition, an SDFG) comes first."""
    region, parent = op.parent_region(), op.parent_op()
    while isinstance(parent, IfOp) and region in (parent.then_region, parent.else_region):
        region, parent = parent.parent_region(), parent.parent_op()
    if isinstance(parent, ForOp | WhileOp) and region is parent.body:
        return parent
    return None


@irdl_op_definition
class ConditionOp(IRDLOperation):
    """Ends the condition region of an `sdfg.if` or `sdfg.while` with its value (i1)."""

    name = "sdfg.condition"
    value = operand_def(i1)
    traits = traits_def(IsTerminator(), HasParent(IfOp, WhileOp))
    assembly_format = "$value attr-dict"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])


@irdl_op_definition
class ApplyOp(IRDLOperation):
    """The value of an index expression as an integer, for a tasklet: its dimensions are
    the operands (loop variables or map parameters), its symbols the SDFG's.

    `%v = sdfg.apply %t * 2 + N : i32`
    """

    name = "sdfg.apply"
    expr = prop_def(IndexExprAttr)
    indices = var_operand_def(IndexType)
    result = result_def(IntegerType)
    traits = traits_def(Pure())

    def __init__(self, expr: IndexExpr | int, indices: Sequence[SSAValue] = (), result_type: Attribute = i32):
        super().__init__(operands=[indices], properties={"expr": expr_attr(expr)}, result_types=[result_type])

    def verify_(self) -> None:
        e = self.expr.data
        if any(d >= len(self.indices) for d in e.dims()):
            raise VerifyException(f"sdfg.apply '{e}' uses a dimension that is not an operand")
        if first_use_order([e]) != list(range(len(self.indices))):
            raise VerifyException("sdfg.apply must use each operand, in the order its expression first names them")
        if self.result.type.width.data < 8:  # type: ignore[union-attr]
            raise VerifyException(f"sdfg.apply gives an integer of at least 8 bits, not {self.result.type}")
        _verify_declared(self, [e])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_expr(printer, self.expr.data, self.indices)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> ApplyOp:
        dims = _OperandDims(parser)
        e = parse_index_expr(parser, dims)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        op = cls(e, dims.resolve(), result_type)
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class AccumulateOp(_StoreMixin, IRDLOperation):
    """A memlet with write-conflict resolution out of a tasklet: combine the value with
    the element it lands on, `element = element <kind> value`.

    `sdfg.accumulate add %v to %s[0] : !sdfg.array<1 x f32>`

    Inside a map, every iteration accumulates into its element and the iterations that
    land on the same element are combined in any order (DaCe's WCR memlet; `kind` is one
    of REDUCTION_KINDS, all associative and commutative): a map over (i, j) that
    accumulates into `s[%i]` reduces axis j. The element's value before the map takes
    part; a reduction that starts from an identity writes it first.
    """

    name = "sdfg.accumulate"
    kind = prop_def(StringAttr)
    value = operand_def()
    container = operand_def(ArrayType)
    indices = var_operand_def(IndexType)
    subset = prop_def(ArrayAttr[IndexExprAttr])

    def __init__(
        self,
        kind: str,
        value: SSAValue,
        container: SSAValue,
        indices: Sequence[SSAValue],
        subset: Sequence[IndexExpr | int],
    ):
        super().__init__(
            operands=[value, container, indices],
            properties={"kind": StringAttr(kind), "subset": ArrayAttr([expr_attr(e) for e in subset])},
        )

    def verify_(self) -> None:
        if self.kind.data not in REDUCTION_KINDS:
            raise VerifyException(
                f"unknown reduction '{self.kind.data}' (expected {', '.join(REDUCTION_KINDS)})"
            )
        ctype = self.verify_stored("accumulate", "accumulated")
        row = element_type(ctype.element_type)
        if row is None or row.name == "i1":
            raise VerifyException(f"cannot accumulate '{self.kind.data}' into {ctype.element_type} elements")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data} ")
        self.print_stored(printer)

    @classmethod
    def parse(cls, parser: Parser) -> AccumulateOp:
        kind = parser.parse_keyword_in(REDUCTION_KINDS, " (a reduction)")
        value, container, indices, subset, attrs = cls.parse_stored(parser, "sdfg.accumulate")
        op = cls(kind, value, container, indices, subset)
        op.attributes.update(attrs)
        return op


BoxEntry = tuple[IndexExpr, IndexExpr, bool]
"""One dimension of a box: [begin, end), and whether the box walks it (a dimension it
does not walk is fixed at `begin` and dropped: `%A[3, 0:N]` is a row)."""


def _box_attr(box: Sequence[BoxEntry]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([expr_attr(b), expr_attr(e)] if walked else [expr_attr(b)]) for b, e, walked in box])


@irdl_op_definition
class MatmulOp(MatmulMixin, IRDLOperation):
    """DaCe's BLAS product nodes (`MatMul`, `Gemm`, `Gemv`, `BatchedMatMul`, `Dot`):
    `out = alpha op(lhs) op(rhs) + beta out` (`ipu_lower.dialects.matmul`), float32 or
    float16, or float64 until `ipu-demote-f64`. It stands in a state, outside maps.

    Each operand is a container or a static box of one (`lhs_box`, `rhs_box`,
    `out_box`: per container dimension a range `b:e` it walks or an index at which it
    is fixed, expressions of symbols only), which the product sees with the walked
    dimensions' extents: `%A[1:3, 0:K]` is a 2 x K matrix, `%A[2, 0:K]` a vector.

    `sdfg.matmul "gemm" transpose %A, %B[0:K, 1:N + 1] to %C alpha 2.0 beta 1.0 : ...`
    """

    name = "sdfg.matmul"
    label = _label_prop()
    lhs = operand_def(ArrayType)
    rhs = operand_def(ArrayType)
    out = operand_def(ArrayType)
    lhs_box = opt_prop_def(ArrayAttr[ArrayAttr[IndexExprAttr]])
    rhs_box = opt_prop_def(ArrayAttr[ArrayAttr[IndexExprAttr]])
    out_box = opt_prop_def(ArrayAttr[ArrayAttr[IndexExprAttr]])
    traits = traits_def(HasParent(StateOp))

    BOXES: ClassVar[tuple[str, str, str]] = ("lhs_box", "rhs_box", "out_box")
    ELEMENTS: ClassVar[tuple[type[Attribute], ...]] = (Float64Type, Float32Type, Float16Type)

    def __init__(
        self,
        label: str,
        lhs: SSAValue,
        rhs: SSAValue,
        out: SSAValue,
        boxes: Sequence[Sequence[BoxEntry] | None] = (None, None, None),
        **product: float | bool,
    ):
        """`boxes`: the box of each operand (None: the whole container); `product`:
        alpha, beta, transpose_a, transpose_b."""
        props: dict[str, Attribute] = {"label": StringAttr(label), **self.product_properties(**product)}  # type: ignore[arg-type]
        props.update((key, _box_attr(box)) for key, box in zip(self.BOXES, boxes) if box is not None)
        super().__init__(operands=[lhs, rhs, out], properties=props)

    def box(self, k: int) -> list[BoxEntry] | None:
        """The box of operand k (0: A, 1: B, 2: C), None for the whole container."""
        attr = self.properties.get(self.BOXES[k])
        if attr is None:
            return None
        entries = []
        for entry in attr.data:  # type: ignore[attr-defined]
            values = [e.data for e in entry.data]
            entries.append((values[0], values[-1] if len(values) == 2 else values[0] + 1, len(values) == 2))
        return entries

    def box_exprs(self) -> list[IndexExpr]:
        """Every expression the boxes hold."""
        return [e for key in self.BOXES if key in self.properties for e in _nested_exprs(self.properties[key])]

    def operand_shape(self, k: int) -> list[Any]:
        box = self.box(k)
        if box is None:
            return self.shape_of(self.operand_values()[k].type)
        return [end - begin for begin, end, walked in box if walked]

    def describe(self, k: int, op: bool = False) -> str:
        text = super().describe(k, op)
        box = self.box(k)
        if box is not None:
            text += "[" + ", ".join(f"{b}:{e}" if walked else f"{b}" for b, e, walked in box) + "]"
        return text

    def verify_(self) -> None:
        for k, key in enumerate(self.BOXES):
            attr = self.properties.get(key)
            box = self.box(k)
            if box is None:
                continue
            value = self.operand_values()[k]
            rank = value.type.rank  # type: ignore[attr-defined]
            if any(len(entry.data) not in (1, 2) for entry in attr.data):  # type: ignore[attr-defined]
                raise VerifyException(f"'{self.name}' {key} has an entry that is neither a range [begin, end] nor an index [i]")
            if len(box) != rank:
                raise VerifyException(f"'{self.name}' {key} needs one range or index per dimension of {value.type}")
            for (begin, end, _), size in zip(box, self.shape_of(value.type)):
                _verify_no_dims([begin, end], key)
                extent, first = (end - begin).constant_value(), begin.constant_value()
                if extent is not None and extent < 1:
                    raise VerifyException(f"'{self.name}' {key} range {begin}:{end} is empty")
                last = (end - size).constant_value()
                if (first is not None and first < 0) or (last is not None and last > 0):
                    raise VerifyException(f"'{self.name}' {key} range {begin}:{end} leaves {value.type}")
            _verify_declared(self, [e for entry in box for e in entry[:2]])
        self.verify_matmul()

    def print_operand(self, printer: Printer, k: int) -> None:
        super().print_operand(printer, k)
        box = self.box(k)
        if box is None:
            return

        def entry(e: BoxEntry) -> None:
            _print_expr(printer, e[0])
            if e[2]:
                printer.print_string(":")
                _print_expr(printer, e[1])

        printer.print_string("[")
        printer.print_list(box, entry)
        printer.print_string("]")

    @classmethod
    def parse_operand(cls, parser: Parser) -> tuple[UnresolvedOperand, list[BoxEntry] | None]:
        operand = parser.parse_unresolved_operand()

        def entry() -> BoxEntry:
            begin = parse_index_expr(parser)
            if parser.parse_optional_punctuation(":") is None:
                return begin, begin + 1, False
            return begin, parse_index_expr(parser), True

        box = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE, entry)
        return operand, box

    @classmethod
    def build_parsed(cls, label: str, values: list[SSAValue], extras: list[Any]) -> MatmulOp:
        return cls(label, *values, boxes=extras)


class _ReduceBoxes:
    """The boxes of `sdfg.reduce` and `sdfg.library_reduce`, as ranges."""

    def input_ranges(self) -> list[Range]:
        return _pairs(self.input_subset)  # type: ignore[attr-defined]

    def output_ranges(self) -> list[Range]:
        return _pairs(self.output_subset)  # type: ignore[attr-defined]


@irdl_op_definition
class ReduceOp(_ReduceBoxes, ReduceMixin, IRDLOperation):
    """A DaCe `Reduce` library node that popops reduces (`ipu_lower.dialects.popops_reduce`):
    the box `input_subset` of `input` reduced over `dims` (dimensions of the box) into
    the box `output_subset` of `out`, combined with the value there when `update`. The
    boxes are static (`begin:end` of symbols, one per dimension); the op stands in a
    state, outside maps.

    `sdfg.reduce "Reduce" add %A[0:M, 1:N] to %s[0:1] dims [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>`
    """

    name = "sdfg.reduce"
    label = _label_prop()
    kind = prop_def(StringAttr)
    input = operand_def(ArrayType)
    out = operand_def(ArrayType)
    input_subset = prop_def(ArrayAttr[IndexExprAttr])
    output_subset = prop_def(ArrayAttr[IndexExprAttr])
    dims = prop_def(DenseArrayBase)
    update = opt_prop_def(UnitAttr)
    traits = traits_def(HasParent(StateOp))

    def __init__(
        self,
        label: str,
        kind: str,
        input: SSAValue,
        input_subset: Sequence[Range],
        out: SSAValue,
        output_subset: Sequence[Range],
        dims: Sequence[int],
        update: bool = False,
    ):
        properties = reduce_properties(label, kind, dims, update)
        properties.update(input_subset=_flat(input_subset), output_subset=_flat(output_subset))
        super().__init__(operands=[input, out], properties=properties)

    def in_shape(self) -> list[IndexExpr]:
        return [end - begin for begin, end in self.input_ranges()]

    def out_shape(self) -> list[IndexExpr]:
        return [end - begin for begin, end in self.output_ranges()]

    def verify_(self) -> None:
        for value, subset, what in ((self.input, self.input_subset, "input"), (self.out, self.output_subset, "output")):
            assert isinstance(value.type, ArrayType)
            if len(subset.data) != 2 * value.type.rank:
                raise VerifyException(
                    f"'sdfg.reduce' {what} subset needs one range per dimension of a rank-{value.type.rank} container"
                )
            _verify_no_dims(exprs(subset), f"'sdfg.reduce' {what} subset")
            _verify_declared(self, exprs(subset))
        self.verify_reduce()

    def print(self, printer: Printer) -> None:
        self.print_head(printer)
        _print_ranges(printer, self.input, self.input_ranges(), ())
        printer.print_string(" to ")
        _print_ranges(printer, self.out, self.output_ranges(), ())
        self.print_tail(printer)

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        label, kind = parse_head(parser)
        no_dims = _OperandDims(parser)
        source, source_subset, out, out_subset = _parse_boxes(parser, no_dims)
        if no_dims.operands:
            parser.raise_error("'sdfg.reduce' subsets use symbols only, not SSA values")
        dims, update, attrs, types = parse_tail(parser)
        op = cls(
            label, kind, parser.resolve_operand(source, types[0]), source_subset,
            parser.resolve_operand(out, types[1]), out_subset, dims.get_values(), update,  # type: ignore[arg-type]
        )
        op.attributes.update(attrs)
        return op


def kept_shape_error(in_sizes: Sequence[IndexExpr], axes: Sequence[int], out_sizes: Sequence[IndexExpr]) -> str | None:
    """Why a box of `out_sizes` cannot hold the reduction of a box of `in_sizes` over
    `axes` (the kept extents, in order, extent-1 dimensions not counting on either
    side); None when it can."""
    one = IndexExpr.constant(1)
    kept = [n for d, n in enumerate(in_sizes) if d not in axes and n != one]
    varying = [n for n in out_sizes if n != one]
    if kept == varying:
        return None
    return (
        f"the kept input dimensions ({', '.join(map(str, kept)) or 'none'}) do not match the output "
        f"({', '.join(map(str, varying)) or 'one element'})"
    )


def constant_tasklet(label: str, value: IntegerAttr | FloatAttr) -> TaskletOp:
    """A tasklet without inputs yielding `value` (an unsigned one is a signless constant
    cast to its type: arith has no unsigned constants)."""
    element = value.type
    constant = arith.ConstantOp(IntegerAttr(value.value.data, signless(element), truncate_bits=True) if isinstance(value, IntegerAttr) else value)
    ops: list[Operation] = [constant]
    if (typed := typed_value(constant.result, element)) is not None:
        ops.append(typed)
    return TaskletOp(label, [], [("out", element)], Region(Block([*ops, YieldOp(ops[-1].results[0])])))


REDUCTION_PATHS = ("popops", "tree")
"""Where a `sdfg.library_reduce` goes: `sdfg.reduce` (popops) or a map of `sdfg.accumulate`."""


@irdl_op_definition
class LibraryReduceOp(_ReduceBoxes, IRDLOperation):
    """DaCe's `Reduce` library node as the SDFG holds it: the box `input_subset` of
    `input` reduced with `kind` over `axes` (dimensions of the box) into the box
    `output_subset` of `out`. With an `identity` (a value of the output's element type)
    the output is set to it first and every value combined into it; without one the
    values are combined into the output's old value; `update` is a write-conflict
    resolution of the same kind on the output memlet, which combines the result into the
    old value too (DaCe's pure expansion, dace/libraries/standard/nodes/reduce.py).

    It stands in a state or in a map, and its boxes are ranges of symbols and of the
    `indices`: variables of enclosing `sdfg.for` loops and parameters of enclosing maps
    (`%A[%i:%i + 1, 0:N]`, the row a map parameter picks), whose sizes never depend on
    them. `padded` says that `static_loop_extents` made the input a padded transient
    (holding the identity outside the box a loop variable sized), to be set by its pass
    once it is one. `path` is the decision of sdfg-choose-reductions; `"popops"` is
    checked against what popops reduces (`dialects/popops_reduce.py`).

    A separate op from `sdfg.reduce`, which is what popops takes: that op's verifier
    states poplibs' rules (element types, static boxes, updates of sums only, outside
    maps) that ipu-tile-partition relies on; this one holds whatever a DaCe program
    holds, for passes to hoist, copy, choose and expand (`sdfg-expand-reductions`).

    `sdfg.library_reduce "Reduce" add %A[%i:%i + 1, 0:N] to %t[] axes [0, 1]
    identity(0.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<f32>`
    """

    name = "sdfg.library_reduce"
    label = _label_prop()
    kind = prop_def(StringAttr)
    input = operand_def(ArrayType)
    out = operand_def(ArrayType)
    indices = var_operand_def(IndexType)
    input_subset = prop_def(ArrayAttr[IndexExprAttr])
    output_subset = prop_def(ArrayAttr[IndexExprAttr])
    axes = prop_def(DenseArrayBase)
    identity = opt_prop_def(IntegerAttr | FloatAttr)
    update = opt_prop_def(UnitAttr)
    padded = opt_prop_def(UnitAttr)
    path = opt_prop_def(StringAttr)
    traits = traits_def(HasParent(StateOp, MapOp))

    def __init__(
        self,
        label: str,
        kind: str,
        input: SSAValue,
        input_subset: Sequence[Range],
        out: SSAValue,
        output_subset: Sequence[Range],
        axes: Sequence[int],
        indices: Sequence[SSAValue] = (),
        identity: IntegerAttr | FloatAttr | None = None,
        update: bool = False,
        padded: bool = False,
        path: str | None = None,
    ):
        properties: dict[str, Attribute] = {
            "label": StringAttr(label),
            "kind": StringAttr(kind),
            "input_subset": _flat(input_subset),
            "output_subset": _flat(output_subset),
            "axes": DenseArrayBase.from_list(i64, list(axes)),
        }
        if identity is not None:
            properties["identity"] = identity
        properties.update((key, UnitAttr()) for key, on in (("update", update), ("padded", padded)) if on)
        if path is not None:
            properties["path"] = StringAttr(path)
        super().__init__(operands=[input, out, indices], properties=properties)

    def axis_list(self) -> list[int]:
        return list(self.axes.get_values())  # type: ignore[arg-type]

    def element(self) -> Attribute:
        return self.out.type.element_type  # type: ignore[union-attr]

    def verify_(self) -> None:
        if self.kind.data not in REDUCTION_KINDS:
            raise VerifyException(f"unknown reduction '{self.kind.data}' (expected {', '.join(REDUCTION_KINDS)})")
        sizes = []
        for value, subset, what in ((self.input, self.input_subset, "input"), (self.out, self.output_subset, "output")):
            assert isinstance(value.type, ArrayType)
            if len(subset.data) != 2 * value.type.rank:
                raise VerifyException(f"{what} subset needs one range per dimension of a rank-{value.type.rank} container")
            names = [v.name_hint or f"d{k}" for k, v in enumerate(self.indices)]
            for begin, end in _pairs(subset):
                if any(d >= len(self.indices) for e in (begin, end) for d in e.dims()):
                    raise VerifyException(f"{what} range '{begin}:{end}' uses a dimension that is not an operand")
                if (end - begin).dims():
                    text = f"{begin.format(lambda d: names[d])}:{end.format(lambda d: names[d])}"
                    raise VerifyException(f"{what} range '{text}' has a size that depends on an index operand")
            _verify_declared(self, exprs(subset))
            sizes.append([end - begin for begin, end in _pairs(subset)])
        if first_use_order(exprs(self.input_subset) + exprs(self.output_subset)) != list(range(len(self.indices))):
            raise VerifyException("must use each index operand, in the order its subsets first name them")
        enclosing = loop_variables(self) + map_parameters(self)
        if any(value not in enclosing for value in self.indices):
            raise VerifyException("index operands must be variables of enclosing sdfg.for loops or parameters of enclosing maps")
        axes, rank = self.axis_list(), len(sizes[0])
        if not rank:
            raise VerifyException("reduces a scalar")
        if axes != sorted(set(axes)) or any(not 0 <= a < rank for a in axes):
            raise VerifyException(f"axes {axes} must be distinct ascending dimensions of the rank-{rank} input")
        if (message := kept_shape_error(sizes[0], axes, sizes[1])) is not None:
            raise VerifyException(message)
        if self.identity is not None and self.identity.type != self.element():
            raise VerifyException(f"identity {self.identity} is not a value of the output's element type {self.element()}")
        if self.path is not None:
            if self.path.data not in REDUCTION_PATHS:
                raise VerifyException(f"path '{self.path.data}' is not one of {', '.join(REDUCTION_PATHS)}")
            if self.path.data == "popops" and (reason := self.not_popops()) is not None:
                raise VerifyException(f"cannot take the popops path: {reason}")

    def not_popops(self) -> str | None:
        """Why popops cannot reduce this (`dialects/popops_reduce.py`), None when it can;
        an input box the indices move is copied first (sdfg-copy-reduction-boxes)."""
        element = self.element()
        if not popops_element(self.input.type.element_type) or self.input.type.element_type != element:  # type: ignore[union-attr]
            return f"it reduces float32, float16 or int32 into the same type, not {self.input.type.element_type} into {element}"  # type: ignore[union-attr]
        if not isinstance(self.parent_op(), StateOp):
            return "it is inside a map"
        if self.out == self.input:
            return "its output is its input (poplibs writes one while it reads the other)"
        if self.padded is not None:
            return "its input is padded (our tree fuses the padding away)"
        if self.kind.data != "add" and (self.update is not None or not self.neutral()):
            return f"poplibs updates only sums, and this {self.kind.data} updates its output (no neutral identity, or update)"
        if self.update is not None and self.identity is not None and not self.neutral():
            return "it updates its output from an identity that is not neutral, which would be written over the output's value"
        if any(e.dims() for e in exprs(self.output_subset)):
            return "its output box moves with an index operand"
        one = IndexExpr.constant(1)
        sizes = [end - begin for begin, end in self.input_ranges()]
        if all(sizes[a] == one for a in self.axis_list()):
            return "it reduces no dimension of more than one element"
        return None

    def neutral(self) -> bool:
        """Whether the identity leaves every value unchanged (False without one)."""
        return self.identity is not None and is_neutral(self.kind.data, self.identity.value.data, self.element())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        printer.print_string(f" {self.kind.data} ")
        _print_ranges(printer, self.input, self.input_ranges(), self.indices)
        printer.print_string(" to ")
        _print_ranges(printer, self.out, self.output_ranges(), self.indices)
        printer.print_string(f" axes {self.axis_list()}")
        if self.identity is not None:
            printer.print_string(" identity(")
            printer.print_attribute(self.identity)
            printer.print_string(")")
        for key in ("update", "padded"):
            if key in self.properties:
                printer.print_string(f" {key}")
        if self.path is not None:
            printer.print_string(" path ")
            printer.print_attribute(self.path)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([self.input.type, self.out.type], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> LibraryReduceOp:
        label, kind = parse_head(parser)
        dims = _OperandDims(parser)
        source, source_subset, out, out_subset = _parse_boxes(parser, dims)
        parser.parse_keyword("axes")
        axes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))
        identity = None
        if parser.parse_optional_keyword("identity") is not None:
            parser.parse_punctuation("(")
            identity = parser.parse_attribute()
            parser.parse_punctuation(")")
            if not isinstance(identity, IntegerAttr | FloatAttr):
                parser.raise_error(f"identity {identity} is not an integer or float value")
        flags = {key: parser.parse_optional_keyword(key) is not None for key in ("update", "padded")}
        path = parser.parse_str_literal() if parser.parse_optional_keyword("path") is not None else None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        in_type = parser.parse_type()
        parser.parse_punctuation(",")
        out_type = parser.parse_type()
        op = cls(
            label, kind, parser.resolve_operand(source, in_type), source_subset, parser.resolve_operand(out, out_type),
            out_subset, axes, dims.resolve(), identity, path=path, **flags,  # type: ignore[arg-type]
        )
        op.attributes.update(attrs)
        return op


NESTED_DIRECTIONS = ("in", "out", "inout")
"""How a nested SDFG uses an argument: DaCe's in connectors, out connectors, or both."""

_OWN_DIM = 1 << 20
"""Where the parser numbers an argument's own dimensions until it knows the operands."""


@irdl_op_definition
class NestedOp(IRDLOperation):
    """DaCe's NestedSDFG node: its region holds the called SDFG (one `sdfg.sdfg`, with
    its own containers, arguments and symbols), run where the op stands, in a state or
    a map.

    Each connector binds an argument of the inner SDFG to caller data: the container
    operand `data[k]` and, per dimension of that container, its index as an expression
    of the argument's own indices (`d0`, `d1`, ...), the caller's symbols and the
    `indices` (variables of enclosing `sdfg.for` loops, parameters of enclosing maps):
    the alias DaCe spells with the connector memlet's subset and the argument's strides,
    made explicit. `x = %a[d0 + 1]` is `inner(a[1:])`, `y = %B[2, d0]` a row of B. A
    direction says whether the inner SDFG reads the argument, writes it or both.
    `symbols` maps every symbol of the inner SDFG to an expression of the caller's
    symbols and the `indices` (DaCe's symbol_mapping).

    `sdfg.nested "f" (in x = %a[d0 + 1], out y = %b[d0]) symbols (K = N - 1)
        : !sdfg.array<N x f32>, !sdfg.array<N x f32> { sdfg.sdfg @f ... }`

    In an expression of a binding, dimension j < len(indices) is `indices[j]` and
    dimension len(indices) + k the argument's index k.
    """

    name = "sdfg.nested"
    label = _label_prop()
    connectors = prop_def(ArrayAttr[StringAttr])
    directions = prop_def(ArrayAttr[StringAttr])
    bindings = prop_def(ArrayAttr[ArrayAttr[IndexExprAttr]])
    symbol_names = prop_def(ArrayAttr[StringAttr])
    symbol_values = prop_def(ArrayAttr[IndexExprAttr])
    data = var_operand_def(ArrayType)
    indices = var_operand_def(IndexType)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        label: str,
        arguments: Sequence[tuple[str, str, SSAValue, Sequence[IndexExpr]]],
        symbols: Sequence[tuple[str, IndexExpr]],
        indices: Sequence[SSAValue],
        inner: SdfgOp,
    ):
        """`arguments`: (connector, direction, container, binding) each."""
        super().__init__(
            operands=[[a[2] for a in arguments], indices],
            properties={
                "label": StringAttr(label),
                "connectors": ArrayAttr([StringAttr(a[0]) for a in arguments]),
                "directions": ArrayAttr([StringAttr(a[1]) for a in arguments]),
                "bindings": ArrayAttr([ArrayAttr([expr_attr(e) for e in a[3]]) for a in arguments]),
                "symbol_names": ArrayAttr([StringAttr(n) for n, _ in symbols]),
                "symbol_values": ArrayAttr([expr_attr(v) for _, v in symbols]),
            },
            regions=[Region(Block([inner]))],
        )

    @property
    def inner(self) -> SdfgOp:
        op = self.body.block.first_op
        assert isinstance(op, SdfgOp)  # verified
        return op

    def arguments(self) -> list[tuple[str, str, SSAValue, list[IndexExpr]]]:
        """(connector, direction, container, binding) of each argument."""
        return [
            (c.data, d.data, v, exprs(b))
            for c, d, v, b in zip(self.connectors.data, self.directions.data, self.data, self.bindings.data)
        ]

    def symbol_mapping(self) -> dict[str, IndexExpr]:
        return {n.data: v for n, v in zip(self.symbol_names.data, exprs(self.symbol_values))}

    def verify_(self) -> None:
        label = self.label.data
        ops = list(self.body.block.ops)
        if len(ops) != 1 or not isinstance(ops[0], SdfgOp):
            raise VerifyException(f"nested SDFG '{label}' must hold exactly one sdfg.sdfg")
        inner = ops[0]
        counts = {len(self.connectors.data), len(self.directions.data), len(self.bindings.data), len(self.data)}
        if len(counts) != 1:
            raise VerifyException(
                f"nested SDFG '{label}' has {len(self.connectors.data)} connectors, {len(self.directions.data)} "
                f"directions, {len(self.bindings.data)} bindings and {len(self.data)} containers"
            )
        self._verify_arguments(label, inner)
        names = [n.data for n in self.symbol_names.data]
        if len(names) != len(self.symbol_values.data):
            raise VerifyException(
                f"nested SDFG '{label}' maps {len(names)} symbols to {len(self.symbol_values.data)} values"
            )
        for name in names:
            if names.count(name) > 1:
                raise VerifyException(f"nested SDFG '{label}' maps symbol '{name}' twice")
            if name not in inner.symbol_names():
                raise VerifyException(
                    f"nested SDFG '{label}' maps '{name}', which is not a symbol of sdfg '{inner.sym_name.data}'"
                )
        for name in inner.symbol_names():
            if name not in names:
                raise VerifyException(
                    f"symbol '{name}' of sdfg '{inner.sym_name.data}' is not mapped by nested SDFG '{label}'"
                )
        n = len(self.indices)
        for e in exprs(self.symbol_values):
            if any(d >= n for d in e.dims()):
                raise VerifyException(
                    f"nested SDFG '{label}' maps a symbol to '{e}', which uses a dimension that is not an operand"
                )
        used = [d for d in first_use_order(self.index_exprs()) if d < n]
        if used != list(range(n)):
            raise VerifyException(
                f"nested SDFG '{label}' must use each index operand, in the order its bindings and symbols first name them"
            )
        scope = loop_variables(self) + map_parameters(self)
        if any(value not in scope for value in self.indices):
            raise VerifyException(
                f"the index operands of nested SDFG '{label}' may be variables of enclosing sdfg.for loops "
                "and parameters of enclosing maps only"
            )
        _verify_declared(self, self.index_exprs())
        if not isinstance(self.parent_op(), StateOp | MapOp):
            raise VerifyException("sdfg.nested must be inside an sdfg.state or sdfg.map")

    def _verify_arguments(self, label: str, inner: SdfgOp) -> None:
        args = {c.container_name.data: c for c in inner.containers() if c.transient is None}
        n = len(self.indices)
        seen: set[str] = set()
        for name, direction, value, binding in self.arguments():
            what = f"connector '{name}' of nested SDFG '{label}'"
            if not is_identifier(name):
                raise VerifyException(f"{what} is not an identifier")
            if name in seen:
                raise VerifyException(f"{what} is bound twice")
            seen.add(name)
            if direction not in NESTED_DIRECTIONS:
                raise VerifyException(f"{what} has direction '{direction}', not one of {', '.join(NESTED_DIRECTIONS)}")
            if name not in args:
                raise VerifyException(f"{what} is not an argument of sdfg '{inner.sym_name.data}'")
            outer, own = value.type, args[name].result.type
            assert isinstance(outer, ArrayType) and isinstance(own, ArrayType)
            if len(binding) != outer.rank:
                raise VerifyException(f"{what} has {len(binding)} indices for a rank-{outer.rank} container")
            for e in binding:
                if any(d >= n + own.rank for d in e.dims()):
                    raise VerifyException(
                        f"{what} index '{e}' uses a dimension the rank-{own.rank} argument does not have"
                    )
            if own.element_type != outer.element_type:
                raise VerifyException(f"{what} has element type {own.element_type} but is bound to {outer}")
            if direction == "in" and any(_writes(use) for use in args[name].result.uses):
                raise VerifyException(f"{what} is an input, but sdfg '{inner.sym_name.data}' writes it")
        for name in args:
            if name not in seen:
                raise VerifyException(
                    f"argument '{name}' of sdfg '{inner.sym_name.data}' is not bound by nested SDFG '{label}'"
                )

    def index_exprs(self) -> list[IndexExpr]:
        """The bindings' expressions, then the symbols' values, in printed order."""
        return [e for b in self.bindings.data for e in exprs(b)] + exprs(self.symbol_values)

    def print(self, printer: Printer) -> None:
        n = len(self.indices)

        def expr(e: IndexExpr) -> None:
            marker = "\x00"
            for k, piece in enumerate(e.format(lambda d: f"{marker}{d}{marker}").split(marker)):
                if k % 2 == 0:
                    printer.print_string(piece)
                elif int(piece) < n:
                    printer.print_ssa_value(self.indices[int(piece)])
                else:
                    printer.print_string(f"d{int(piece) - n}")

        def argument(arg: tuple[str, str, SSAValue, list[IndexExpr]]) -> None:
            printer.print_string(f"{arg[1]} {arg[0]} = ")
            printer.print_ssa_value(arg[2])
            printer.print_string("[")
            printer.print_list(arg[3], expr)
            printer.print_string("]")

        printer.print_string(" ")
        printer.print_attribute(self.label)
        printer.print_string(" (")
        printer.print_list(self.arguments(), argument)
        printer.print_string(")")
        if self.symbol_names.data:
            printer.print_string(" symbols (")
            printer.print_list(
                self.symbol_mapping().items(), lambda item: (printer.print_string(f"{item[0]} = "), expr(item[1]))
            )
            printer.print_string(")")
        if self.data:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.data], printer.print_attribute)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> NestedOp:
        label = parser.parse_str_literal()
        dims = _OperandDims(parser)

        def expr() -> IndexExpr:
            return parse_index_expr(parser, dims, lambda k: _OWN_DIM + k)

        def argument() -> tuple[str, str, UnresolvedOperand, list[IndexExpr]]:
            direction = parser.parse_keyword_in(NESTED_DIRECTIONS, " (a direction)")
            name = parser.parse_identifier()
            parser.parse_punctuation("=")
            container = parser.parse_unresolved_operand()
            return name, direction, container, parser.parse_comma_separated_list(parser.Delimiter.SQUARE, expr)

        def symbol() -> tuple[str, IndexExpr]:
            name = parser.parse_identifier()
            parser.parse_punctuation("=")
            value = expr()
            if any(d >= _OWN_DIM for d in value.dims()):
                parser.raise_error(f"the value of symbol '{name}' uses an argument's index")
            return name, value

        arguments = parser.parse_comma_separated_list(parser.Delimiter.PAREN, argument)
        symbols = []
        if parser.parse_optional_keyword("symbols"):
            symbols = parser.parse_comma_separated_list(parser.Delimiter.PAREN, symbol)
        types: list[Attribute] = []
        if parser.parse_optional_punctuation(":"):
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(arguments):
            parser.raise_error(f"{len(arguments)} arguments but {len(types)} container types")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        n = len(dims.operands)
        top = max((d for a in arguments for e in a[3] for d in e.dims()), default=_OWN_DIM)
        own = {d: IndexExpr.dim(n + d - _OWN_DIM) for d in range(_OWN_DIM, top + 1)}
        resolved = [
            (name, direction, parser.resolve_operand(container, t), [e.substitute(dims=own) for e in binding])
            for (name, direction, container, binding), t in zip(arguments, types)
        ]
        inner = body.block.first_op if body.blocks else None
        body_ops = list(body.block.ops) if body.blocks else []
        if len(body_ops) != 1 or not isinstance(inner, SdfgOp):
            parser.raise_error("sdfg.nested holds exactly one sdfg.sdfg")
        inner.detach()
        op = cls(label, resolved, symbols, dims.resolve(), inner)
        if attrs:
            op.attributes.update(attrs.data)
        return op


def _writes(use) -> bool:
    """Whether the op of `use` writes the container it uses there (a nested SDFG: as
    an argument it does not only read)."""
    op = use.operation
    if isinstance(op, NestedOp):
        return op.directions.data[use.index].data != "in"  # the containers are its first operands
    return writes_operand(op) is op.operands[use.index]


def first_nested(op: Operation) -> NestedOp | None:
    """The first `sdfg.nested` in `op`: the passes after sdfg-inline-nested take none."""
    return next((o for o in op.walk() if isinstance(o, NestedOp)), None)


def map_parameters(op: Operation) -> list[SSAValue]:
    """The parameters of the `sdfg.map` ops enclosing `op` in its SDFG, outermost first."""
    found: list[SSAValue] = []
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, SdfgOp):
        if isinstance(parent, MapOp):
            found[:0] = parent.params
        parent = parent.parent_op()
    return found


SDFG = Dialect(
    "sdfg",
    [
        SdfgOp,
        ContainerOp,
        StateOp,
        MapOp,
        ReadOp,
        WriteOp,
        CopyOp,
        TaskletOp,
        YieldOp,
        ForOp,
        IfOp,
        WhileOp,
        ConditionOp,
        BreakOp,
        ApplyOp,
        AccumulateOp,
        MatmulOp,
        ReduceOp,
        LibraryReduceOp,
        NestedOp,
    ],
    [IndexExprAttr, ArrayType],
)
