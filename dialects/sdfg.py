"""The `sdfg` dialect: a mirror of DaCe's stateful dataflow multigraphs.

One `sdfg.sdfg` holds the data containers of a DaCe SDFG (`sdfg.container`) and its
states (`sdfg.state`), executed in order. Inside a state, `sdfg.map` is a parametric
parallel scope, `sdfg.read`/`sdfg.write` are memlets (one element of a container, the
subset given as symbolic expressions over map parameters and SDFG symbols), and
`sdfg.tasklet` is a computation whose body is made of `arith`/`math` ops.

Symbolic sizes and indices are `#sdfg.sym<"...">` attributes; they are checked by the
whitelist expression parser, never evaluated as Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    StringAttr,
    UnitAttr,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
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
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from ipu_lower.frontend.safe_expr import UnsafeExpressionError, check_expression

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# Element types a container may hold; f64 is allowed here and demoted or rejected later.
ELEMENT_TYPES: dict[str, Attribute] = {
    "f16": f16,
    "f32": f32,
    "f64": f64,
    "i1": i1,
    "i8": i8,
    "i16": i16,
    "i32": i32,
    "i64": i64,
}


def is_element_type(t: Attribute) -> bool:
    return t in ELEMENT_TYPES.values()


@irdl_attr_definition
class SymExprAttr(ParametrizedAttribute):
    """A symbolic integer expression over SDFG symbols and map parameters.

    Custom syntax `#sdfg.sym<"N + 1">`. Inside other sdfg ops it is printed bare when it
    is a plain integer or identifier, and quoted otherwise.
    """

    name = "sdfg.sym"
    expr: StringAttr

    def __init__(self, expr: str | int):
        super().__init__(StringAttr(str(expr)))

    @property
    def text(self) -> str:
        return self.expr.data

    def as_int(self) -> int | None:
        """The value when the expression is an integer literal."""
        try:
            return int(self.text)
        except ValueError:
            return None

    def verify(self) -> None:
        try:
            check_expression(self.text)
        except UnsafeExpressionError as err:
            raise VerifyException(str(err)) from err

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (StringAttr(parser.parse_str_literal()),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{_quote(self.text)}>")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def print_sym(printer: Printer, expr: SymExprAttr) -> None:
    """Print an expression bare when it is an int or identifier, quoted otherwise."""
    text = expr.text
    if _IDENTIFIER.fullmatch(text) or re.fullmatch(r"-?[0-9]+", text):
        printer.print_string(text)
    else:
        printer.print_string(_quote(text))


def parse_sym(parser: AttrParser) -> SymExprAttr:
    """Parse an integer, an identifier or a quoted expression."""
    if (value := parser.parse_optional_integer()) is not None:
        return SymExprAttr(value)
    if (text := parser.parse_optional_str_literal()) is not None:
        return SymExprAttr(text)
    return SymExprAttr(parser.parse_identifier())


@irdl_attr_definition
class ArrayType(ParametrizedAttribute, TypeAttribute):
    """A DaCe data container: `!sdfg.array<N x 4 x f32>`; rank 0 is a DaCe Scalar.

    Each dimension is an integer or a symbolic expression (`#sdfg.sym`).
    """

    name = "sdfg.array"
    shape: ArrayAttr[SymExprAttr]
    element_type: Attribute

    def __init__(self, shape: Sequence[SymExprAttr | int | str], element_type: Attribute):
        dims = [d if isinstance(d, SymExprAttr) else SymExprAttr(d) for d in shape]
        super().__init__(ArrayAttr(dims), element_type)

    @property
    def rank(self) -> int:
        return len(self.shape.data)

    def static_shape(self) -> tuple[int, ...] | None:
        dims = [d.as_int() for d in self.shape.data]
        return None if any(d is None for d in dims) else tuple(dims)  # type: ignore[misc]

    def verify(self) -> None:
        if not is_element_type(self.element_type):
            raise VerifyException(
                f"unsupported element type {self.element_type} in !sdfg.array"
            )
        for dim in self.shape.data:
            value = dim.as_int()
            if value is not None and value < 0:
                raise VerifyException(f"negative dimension {value} in !sdfg.array")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        dims: list[SymExprAttr] = []
        with parser.in_angle_brackets():
            while True:
                if (value := parser.parse_optional_integer()) is not None:
                    dims.append(SymExprAttr(value))
                elif (text := parser.parse_optional_str_literal()) is not None:
                    dims.append(SymExprAttr(text))
                else:
                    ident = parser.parse_identifier()
                    if not parser.parse_optional_keyword("x"):
                        if ident not in ELEMENT_TYPES:
                            parser.raise_error(f"expected an element type, got '{ident}'")
                        return (ArrayAttr(dims), ELEMENT_TYPES[ident])
                    dims.append(SymExprAttr(ident))
                    continue
                parser.parse_keyword("x")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for dim in self.shape.data:
            print_sym(printer, dim)
            printer.print_string(" x ")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


def _parse_sym_list(parser: Parser) -> list[SymExprAttr]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parse_sym(parser)
    )


def _print_sym_list(printer: Printer, exprs: Sequence[SymExprAttr], delims="()") -> None:
    printer.print_string(delims[0])
    printer.print_list(exprs, lambda e: print_sym(printer, e))
    printer.print_string(delims[1])


def _label_prop():
    return prop_def(StringAttr)


@irdl_op_definition
class SdfgOp(IRDLOperation):
    """An SDFG: its containers, then its states in execution order.

    `arg_names` lists the non-transient containers in calling order (DaCe's arglist);
    `symbols` the free symbols (sizes) it is parametric in.
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
                raise VerifyException(
                    f"container '{name}' is neither transient nor an argument"
                )
        for op in self.body.block.ops:
            if not isinstance(op, ContainerOp | StateOp):
                raise VerifyException(
                    f"'{op.name}' is not allowed directly in sdfg.sdfg "
                    "(expected sdfg.container or sdfg.state)"
                )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name)
        printer.print_string(" args ")
        printer.print_attribute(self.arg_names)
        printer.print_string(" symbols ")
        printer.print_attribute(self.symbols)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> SdfgOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("args")
        args = parser.parse_attribute()
        parser.parse_keyword("symbols")
        symbols = parser.parse_attribute()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        for attr in (args, symbols):
            if not isinstance(attr, ArrayAttr) or not all(
                isinstance(a, StringAttr) for a in attr.data
            ):
                parser.raise_error("expected a list of strings")
        op = cls.build(
            properties={"sym_name": StringAttr(name), "arg_names": args, "symbols": symbols},
            attributes=attrs.data if attrs else {},
            regions=[body],
        )
        return op


@irdl_op_definition
class ContainerOp(IRDLOperation):
    """A data container of the SDFG (DaCe `Array` or `Scalar`), by its DaCe name."""

    name = "sdfg.container"
    container_name = prop_def(StringAttr)
    transient = opt_prop_def(UnitAttr)
    result = result_def(ArrayType)
    traits = traits_def(HasParent(SdfgOp))

    assembly_format = "$container_name (`transient` $transient^)? attr-dict `:` type($result)"

    def __init__(self, name: str, type: ArrayType, transient: bool = False):
        props: dict[str, Attribute] = {"container_name": StringAttr(name)}
        if transient:
            props["transient"] = UnitAttr()
        super().__init__(properties=props, result_types=[type])


@irdl_op_definition
class StateOp(IRDLOperation):
    """A DaCe state: its dataflow, maps and tasklets in a valid execution order."""

    name = "sdfg.state"
    label = _label_prop()
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), HasParent(SdfgOp))

    assembly_format = "$label attr-dict-with-keyword $body"

    def __init__(self, label: str, body: Region | None = None):
        super().__init__(
            properties={"label": StringAttr(label)},
            regions=[body or Region(Block())],
        )


@irdl_op_definition
class MapOp(IRDLOperation):
    """A parallel map scope: `params` range over [lower, upper) with `step`.

    The body reads and writes containers through `sdfg.read`/`sdfg.write`, whose subsets
    may use the parameters by name.
    """

    name = "sdfg.map"
    label = _label_prop()
    params = prop_def(ArrayAttr[StringAttr])
    lower = prop_def(ArrayAttr[SymExprAttr])
    upper = prop_def(ArrayAttr[SymExprAttr])
    step = prop_def(ArrayAttr[SymExprAttr])
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(
        self,
        label: str,
        params: Sequence[str],
        lower: Sequence[SymExprAttr],
        upper: Sequence[SymExprAttr],
        step: Sequence[SymExprAttr],
        body: Region | None = None,
    ):
        super().__init__(
            properties={
                "label": StringAttr(label),
                "params": ArrayAttr([StringAttr(p) for p in params]),
                "lower": ArrayAttr(lower),
                "upper": ArrayAttr(upper),
                "step": ArrayAttr(step),
            },
            regions=[body or Region(Block())],
        )

    @property
    def param_names(self) -> list[str]:
        return [p.data for p in self.params.data]

    def verify_(self) -> None:
        n = len(self.params.data)
        if not (len(self.lower.data) == len(self.upper.data) == len(self.step.data) == n):
            raise VerifyException(
                f"map '{self.label.data}' has {n} parameters but "
                f"{len(self.lower.data)}/{len(self.upper.data)}/{len(self.step.data)} "
                "lower bounds/upper bounds/steps"
            )
        if len(set(self.param_names)) != n:
            raise VerifyException(f"map '{self.label.data}' repeats a parameter name")
        for p in self.param_names:
            if not _IDENTIFIER.fullmatch(p):
                raise VerifyException(f"map parameter '{p}' is not an identifier")
        for s in self.step.data:
            if (value := s.as_int()) is not None and value <= 0:
                raise VerifyException(f"map '{self.label.data}' has non-positive step {value}")
        if not isinstance(self.parent_op(), StateOp | MapOp):
            raise VerifyException("sdfg.map must be inside an sdfg.state or sdfg.map")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        printer.print_string(" (" + ", ".join(self.param_names) + ") = ")
        _print_sym_list(printer, self.lower.data)
        printer.print_string(" to ")
        _print_sym_list(printer, self.upper.data)
        printer.print_string(" step ")
        _print_sym_list(printer, self.step.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        label = parser.parse_str_literal()
        params = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_identifier
        )
        parser.parse_punctuation("=")
        lower = _parse_sym_list(parser)
        parser.parse_keyword("to")
        upper = _parse_sym_list(parser)
        parser.parse_keyword("step")
        step = _parse_sym_list(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(label, params, lower, upper, step, parser.parse_region())
        if attrs:
            op.attributes.update(attrs.data)
        return op


def _print_subset(printer: Printer, container: SSAValue, subset: ArrayAttr[SymExprAttr]):
    printer.print_ssa_value(container)
    _print_sym_list(printer, subset.data, "[]")


def _parse_subset(parser: Parser) -> list[SymExprAttr]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parse_sym(parser)
    )


def _verify_subset(container: SSAValue, subset: ArrayAttr[SymExprAttr], what: str) -> ArrayType:
    ctype = container.type
    assert isinstance(ctype, ArrayType)
    if len(subset.data) != ctype.rank:
        raise VerifyException(
            f"{what} of a rank-{ctype.rank} container has {len(subset.data)} indices"
        )
    return ctype


@irdl_op_definition
class ReadOp(IRDLOperation):
    """A memlet into a tasklet: one element of a container, `%v = sdfg.read %x[i, j]`."""

    name = "sdfg.read"
    container = operand_def(ArrayType)
    subset = prop_def(ArrayAttr[SymExprAttr])
    result = result_def()

    def __init__(self, container: SSAValue, subset: Sequence[SymExprAttr]):
        assert isinstance(container.type, ArrayType)
        super().__init__(
            operands=[container],
            properties={"subset": ArrayAttr(subset)},
            result_types=[container.type.element_type],
        )

    def verify_(self) -> None:
        ctype = _verify_subset(self.container, self.subset, "read")
        if self.result.type != ctype.element_type:
            raise VerifyException(
                f"read result type {self.result.type} is not the element type "
                f"{ctype.element_type} of the container"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_subset(printer, self.container, self.subset)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.container.type)

    @classmethod
    def parse(cls, parser: Parser) -> ReadOp:
        operand = parser.parse_unresolved_operand()
        subset = _parse_subset(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ctype = parser.parse_type()
        if not isinstance(ctype, ArrayType):
            parser.raise_error("sdfg.read expects an !sdfg.array container")
        op = cls(parser.resolve_operand(operand, ctype), subset)
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class WriteOp(IRDLOperation):
    """A memlet out of a tasklet: `sdfg.write %v to %y[i]` stores one element."""

    name = "sdfg.write"
    value = operand_def()
    container = operand_def(ArrayType)
    subset = prop_def(ArrayAttr[SymExprAttr])

    def __init__(self, value: SSAValue, container: SSAValue, subset: Sequence[SymExprAttr]):
        super().__init__(operands=[value, container], properties={"subset": ArrayAttr(subset)})

    def verify_(self) -> None:
        ctype = _verify_subset(self.container, self.subset, "write")
        if self.value.type != ctype.element_type:
            raise VerifyException(
                f"written value type {self.value.type} is not the element type "
                f"{ctype.element_type} of the container"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(" to ")
        _print_subset(printer, self.container, self.subset)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.container.type)

    @classmethod
    def parse(cls, parser: Parser) -> WriteOp:
        value = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        container = parser.parse_unresolved_operand()
        subset = _parse_subset(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ctype = parser.parse_type()
        if not isinstance(ctype, ArrayType):
            parser.raise_error("sdfg.write expects an !sdfg.array container")
        op = cls(
            parser.resolve_operand(value, ctype.element_type),
            parser.resolve_operand(container, ctype),
            subset,
        )
        op.attributes.update(attrs)
        return op


Range = tuple[SymExprAttr, SymExprAttr]


def _print_ranges(printer: Printer, container: SSAValue, ranges: Sequence[Range]) -> None:
    printer.print_ssa_value(container)
    printer.print_string("[")
    printer.print_list(
        ranges,
        lambda r: (print_sym(printer, r[0]), printer.print_string(":"), print_sym(printer, r[1])),
    )
    printer.print_string("]")


def _parse_ranges(parser: Parser) -> list[Range]:
    def parse_range() -> Range:
        begin = parse_sym(parser)
        parser.parse_punctuation(":")
        return begin, parse_sym(parser)

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_range)


def _flat(ranges: Sequence[Range]) -> ArrayAttr[SymExprAttr]:
    return ArrayAttr([e for r in ranges for e in r])


def _pairs(flat: ArrayAttr[SymExprAttr]) -> list[Range]:
    d = flat.data
    return [(d[i], d[i + 1]) for i in range(0, len(d), 2)]


@irdl_op_definition
class CopyOp(IRDLOperation):
    """An AccessNode-to-AccessNode memlet: copy a box of one container into another.

    Each subset has one `begin:end` (exclusive end, step 1) per dimension; rank-0
    containers have empty subsets. Both boxes hold the same number of elements.
    """

    name = "sdfg.copy"
    source = operand_def(ArrayType)
    destination = operand_def(ArrayType)
    source_subset = prop_def(ArrayAttr[SymExprAttr])
    destination_subset = prop_def(ArrayAttr[SymExprAttr])

    def __init__(
        self,
        source: SSAValue,
        source_subset: Sequence[Range],
        destination: SSAValue,
        destination_subset: Sequence[Range],
    ):
        super().__init__(
            operands=[source, destination],
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
                    f"copy {what} subset needs one range per dimension of a "
                    f"rank-{value.type.rank} container"
                )
        if self.source.type.element_type != self.destination.type.element_type:  # type: ignore[union-attr]
            raise VerifyException("copy between containers of different element types")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_ranges(printer, self.source, self.source_ranges())
        printer.print_string(" to ")
        _print_ranges(printer, self.destination, self.destination_ranges())
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(", ")
        printer.print_attribute(self.destination.type)

    @classmethod
    def parse(cls, parser: Parser) -> CopyOp:
        source = parser.parse_unresolved_operand()
        source_subset = _parse_ranges(parser)
        parser.parse_keyword("to")
        destination = parser.parse_unresolved_operand()
        destination_subset = _parse_ranges(parser)
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
        ins = [c.data for c in self.in_connectors.data]
        outs = [c.data for c in self.out_connectors.data]
        if len(ins) != len(self.inputs) or len(outs) != len(self.outputs):
            raise VerifyException(
                f"tasklet '{self.label.data}' has {len(ins)} input and {len(outs)} output "
                f"connector names for {len(self.inputs)} operands and {len(self.outputs)} results"
            )
        for name in ins + outs:
            if not _IDENTIFIER.fullmatch(name):
                raise VerifyException(
                    f"tasklet '{self.label.data}' connector '{name}' is not an identifier"
                )
        block = self.body.block
        if [a.type for a in block.args] != [v.type for v in self.inputs]:
            raise VerifyException(
                f"tasklet '{self.label.data}' block arguments do not match its operand types"
            )
        term = block.last_op
        if not isinstance(term, YieldOp):
            raise VerifyException(f"tasklet '{self.label.data}' must end with sdfg.yield")
        if [v.type for v in term.values] != [r.type for r in self.outputs]:
            raise VerifyException(
                f"tasklet '{self.label.data}' yields {[str(v.type) for v in term.values]} "
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
        operands = [
            (name, parser.resolve_operand(v, t)) for (name, v), t in zip(ins, in_types)
        ]
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


SDFG = Dialect(
    "sdfg",
    [SdfgOp, ContainerOp, StateOp, MapOp, ReadOp, WriteOp, CopyOp, TaskletOp, YieldOp],
    [SymExprAttr, ArrayType],
)
