"""The `poplar` dialect: the Poplar API calls the C++ printer emits, in SPMD form.

A `poplar.host_program` has two regions. `build` constructs the graph and the Engine
once (the C ABI's init): variables and their tile mappings (`poplar.map_tensor`, one op
per tensor), compute sets and their vertices (`poplar.add_vertices`, one op per tile
map: the printer emits a loop over the map's runs), host read/write handles and the
program tree, ended by `poplar.engine`. `run` is what each call of the program does:
write host data, run the engine, read results.

`poplar.codelet` is a `poplar::MultiVertex` class: its block arguments are its fields
and its body is `compute(workerId)`, printed op by op.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import ClassVar

from ipu_lower.dialects.codelet_body import (
    BlockExtentMixin,
    CodeletOpMixin,
    FieldMixin,
    WorkerOpMixin,
    codelet_in,
    count,
)
from ipu_lower.dialects.constant_value import parse_typed_value, print_typed_value, verify_value
from ipu_lower.dialects.dynamic_slice import DynamicSliceMixin, int_list
from ipu_lower.dialects.matmul import MatmulMixin
from ipu_lower.dialects.popops_elementwise import BINARY_OPS, UNARY_OPS, float_element
from ipu_lower.dialects.popops_reduce import ReduceMixin, reduce_properties
from ipu_lower.dialects.syntax import parse_body, parse_view_tail, print_body, print_view_tail
from ipu_lower.dialects.tiling import (
    SliceRuleMixin,
    GridMapMixin,
    TileMapMixin,
    check_covers,
    check_slices_inside,
    check_tiles_exist,
    parse_any_map,
    verify_placement,
)
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
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
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasAncestor,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from ipu_lower.arch import ARCHS
from ipu_lower.element_types import element_type, on_ipu


def check_poplar_type(t: Attribute, what: str) -> None:
    if not on_ipu(t):
        raise VerifyException(f"{what} has element type {t}, which Poplar does not support on the IPU")


def poplar_type_name(t: Attribute) -> str:
    """`FLOAT`, `HALF`, ...: the `poplar::Type` of an element type."""
    row = element_type(t)
    assert row is not None and row.poplar is not None
    return row.poplar


@irdl_attr_definition
class TensorType(ParametrizedAttribute, TypeAttribute):
    """A `poplar::Tensor` handle of a known shape: `!poplar.tensor<2x4xf32>`."""

    name = "poplar.tensor"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, shape: Sequence[int], element_type: Attribute):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), element_type)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def num_elements(self) -> int:
        return prod(self.get_shape())

    def verify(self) -> None:
        if any(d < 0 for d in self.get_shape()):
            raise VerifyException("!poplar.tensor needs a static, non-negative shape")
        check_poplar_type(self.element_type, "!poplar.tensor")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, element = parser.parse_ranked_shape()
        if DYNAMIC_INDEX in dims:
            parser.raise_error("!poplar.tensor needs a static shape")
        return ArrayAttr([IntAttr(d) for d in dims]), element

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<" + "".join(f"{d}x" for d in self.get_shape()))
        printer.print_attribute(self.element_type)
        printer.print_string(">")


def tensor_type(value: SSAValue) -> TensorType:
    assert isinstance(value.type, TensorType)
    return value.type


@irdl_attr_definition
class RemoteBufferType(ParametrizedAttribute, TypeAttribute):
    """A `poplar::RemoteBuffer` of `repeats` x `elements`: `!poplar.remote_buffer<4x12xf32>`
    holds 4 repeats of 12 floats."""

    name = "poplar.remote_buffer"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, repeats: int, elements: int, element_type: Attribute):
        super().__init__(ArrayAttr([IntAttr(repeats), IntAttr(elements)]), element_type)

    @property
    def repeats(self) -> int:
        return self.shape.data[0].data

    @property
    def elements(self) -> int:
        """The elements of one repeat."""
        return self.shape.data[1].data

    def verify(self) -> None:
        if len(self.shape.data) != 2 or self.repeats < 1 or self.elements < 1:
            raise VerifyException("!poplar.remote_buffer needs a positive number of repeats and of elements: <repeats x elements x type>")
        check_poplar_type(self.element_type, "!poplar.remote_buffer")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, element = parser.parse_ranked_shape()
        return ArrayAttr([IntAttr(d) for d in dims]), element

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<" + "".join(f"{d.data}x" for d in self.shape.data))
        printer.print_attribute(self.element_type)
        printer.print_string(">")


@irdl_attr_definition
class ComputeSetType(ParametrizedAttribute, TypeAttribute):
    """A `poplar::ComputeSet` handle."""

    name = "poplar.compute_set"


@irdl_attr_definition
class ProgramType(ParametrizedAttribute, TypeAttribute):
    """A `poplar::program::Program`."""

    name = "poplar.program"


@irdl_attr_definition
class TileMapAttr(TileMapMixin, ParametrizedAttribute):
    """Runs of tiles holding equal blocks (see `ipu_lower.dialects.tiling`)."""

    name = "poplar.tile_map"
    groups: ArrayAttr[IntAttr]
    first_element: IntAttr


@irdl_attr_definition
class GridMapAttr(GridMapMixin, ParametrizedAttribute):
    """Boxes of an N-dimensional tensor over tiles (see `ipu_lower.dialects.tiling`)."""

    name = "poplar.grid_map"
    dims: ArrayAttr[TileMapAttr]
    strides: ArrayAttr[IntAttr]
    DIM_MAP: ClassVar[type] = TileMapAttr


AnyTileMap = TileMapAttr | GridMapAttr


def _parse_map(parser: Parser) -> AnyTileMap:
    return parse_any_map(parser, TileMapAttr, GridMapAttr)


@irdl_attr_definition
class SliceAttr(SliceRuleMixin, ParametrizedAttribute):
    """Which slice of a tensor each vertex connects (see `ipu_lower.dialects.tiling`)."""

    name = "poplar.slice"
    kind: StringAttr
    lo: IntAttr
    hi: IntAttr
    widths: ArrayAttr[IntAttr]


@irdl_attr_definition
class FieldAttr(FieldMixin, ParametrizedAttribute):
    """A field of a vertex class: `#poplar.field<input "x">` is `poplar::Input<...> x;`,
    its C++ type following from the codelet's block argument."""

    name = "poplar.field"
    direction: StringAttr
    field_name: StringAttr


@irdl_op_definition
class HostProgramOp(IRDLOperation):
    """The host side of one compiled SDFG: `build` runs once, `run` on every call.

    `arguments` and `argument_types` give the C ABI of the run function, in order: a
    rank-0 memref is a scalar passed by value, any other memref a pointer to its data.
    """

    name = "poplar.host_program"
    sym_name = prop_def(SymbolNameConstraint())
    arch = prop_def(StringAttr)
    arguments = prop_def(ArrayAttr[StringAttr])
    argument_types = prop_def(ArrayAttr[MemRefType])
    build_body = region_def("single_block")
    run_body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator())

    def __init__(self, name: str, arch: str, arguments: Sequence[tuple[str, MemRefType]], build: Region, run: Region):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "arch": StringAttr(arch),
                "arguments": ArrayAttr([StringAttr(n) for n, _ in arguments]),
                "argument_types": ArrayAttr([t for _, t in arguments]),
            },
            regions=[build, run],
        )

    def argument_list(self) -> list[tuple[str, MemRefType]]:
        return [(n.data, t) for n, t in zip(self.arguments.data, self.argument_types.data)]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name)
        printer.print_string(" arch ")
        printer.print_attribute(self.arch)
        printer.print_string(" args ")
        printer.print_attribute(self.arguments)
        printer.print_string(" : ")
        printer.print_attribute(self.argument_types)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" build ")
        print_body(printer, self.build_body)
        printer.print_string(" run ")
        print_body(printer, self.run_body)

    @classmethod
    def parse(cls, parser: Parser) -> HostProgramOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("arch")
        arch = parser.parse_str_literal()
        parser.parse_keyword("args")
        names = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_str_literal)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_type)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        parser.parse_keyword("build")
        build = parse_body(parser)
        parser.parse_keyword("run")
        return cls.build(  # the verifier checks that names and types agree
            properties={
                "sym_name": StringAttr(name),
                "arch": StringAttr(arch),
                "arguments": ArrayAttr([StringAttr(n) for n in names]),
                "argument_types": ArrayAttr(types),
            },
            attributes=attrs.data if attrs else {},
            regions=[build, parse_body(parser)],
        )

    def verify_(self) -> None:
        if self.arch.data not in ARCHS:
            raise VerifyException(f"unknown IPU architecture '{self.arch.data}' (known: {', '.join(ARCHS)})")
        if len(self.arguments.data) != len(self.argument_types.data):
            raise VerifyException("host program needs one type per argument")
        for name, t in self.argument_list():
            check_poplar_type(t.element_type, f"argument '{name}'")
        if not isinstance(self.build_body.block.last_op, EngineOp):
            raise VerifyException("the build region must end with poplar.engine")


def _in_region(op: Operation, which: str) -> None:
    parent = op.parent_op()
    region = getattr(parent, f"{which}_body", None) if isinstance(parent, HostProgramOp) else None
    if op.parent_region() is not region:
        raise VerifyException(f"'{op.name}' must be in the {which} region of a poplar.host_program")


class BuildOp(IRDLOperation):
    """Base of the graph-construction ops (Graph member calls)."""

    def verify_(self) -> None:
        _in_region(self, "build")

    def check_tiles(self, tile_map: AnyTileMap) -> None:
        program = self.parent_op()
        if isinstance(program, HostProgramOp):
            check_tiles_exist(tile_map, program.arch.data)


class AddTensorOp(BuildOp):
    """Base of the ops that make a tensor of its own (not a view): its debug name and
    handle."""

    debug_name = prop_def(StringAttr)
    result = result_def(TensorType)


@irdl_op_definition
class AddVariableOp(AddTensorOp):
    """`graph.addVariable(type, shape, debugName)`."""

    name = "poplar.add_variable"

    assembly_format = "$debug_name attr-dict `:` type($result)"

    def __init__(self, debug_name: str, type: TensorType):
        super().__init__(properties={"debug_name": StringAttr(debug_name)}, result_types=[type])


@irdl_op_definition
class AddConstantOp(AddTensorOp):
    """`graph.addConstant(type, shape, values, debugName)`: a tensor holding `value`
    (`ipu_lower.dialects.constant_value`), which no program writes.

    `%c = poplar.add_constant "c" : !poplar.tensor<2xf32> = dense<[1.0, 2.0]>`
    """

    name = "poplar.add_constant"
    value = prop_def(DenseIntOrFPElementsAttr)

    def __init__(self, debug_name: str, type: TensorType, value: DenseIntOrFPElementsAttr):
        super().__init__(properties={"debug_name": StringAttr(debug_name), "value": value}, result_types=[type])

    def verify_(self) -> None:
        super().verify_()
        t = tensor_type(self.result)
        verify_value(self.value, t.get_shape(), t.element_type, f"constant '{self.debug_name.data}'")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.debug_name)
        print_typed_value(printer, self, self.result.type, self.value)

    @classmethod
    def parse(cls, parser: Parser) -> AddConstantOp:
        name = parser.parse_str_literal()
        attrs, t, value = parse_typed_value(parser, TensorType, TensorType.get_shape)
        if value is None:
            parser.raise_error("poplar.add_constant needs its value: `= dense<...>` after the type")
        op = cls(name, t, value)
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class MapTensorOp(BuildOp):
    """Map the row-major elements of a tensor over tiles: one `graph.setTileMapping`
    per block of `tile_map`, printed as a loop over its runs."""

    name = "poplar.map_tensor"
    tensor = operand_def(TensorType)
    tile_map = prop_def(AnyTileMap)

    def __init__(self, tensor: SSAValue, tile_map: AnyTileMap):
        super().__init__(operands=[tensor], properties={"tile_map": tile_map})

    def verify_(self) -> None:
        super().verify_()
        self.check_tiles(self.tile_map)
        check_covers(self.tile_map, tensor_type(self.tensor).get_shape(), "")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor)
        printer.print_string(f" over {self.tile_map.runs_text()}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)

    @classmethod
    def parse(cls, parser: Parser) -> MapTensorOp:
        tensor = parser.parse_unresolved_operand()
        parser.parse_keyword("over")
        tile_map = _parse_map(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(tensor, parser.parse_type()), tile_map)
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class FlattenOp(BuildOp):
    """`t.flatten()`: the row-major 1-D view."""

    name = "poplar.flatten"
    tensor = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = "$tensor attr-dict `:` type($tensor) `->` type($result)"

    def __init__(self, tensor: SSAValue):
        t = tensor_type(tensor)
        super().__init__(operands=[tensor], result_types=[TensorType([t.num_elements()], t.element_type)])

    def verify_(self) -> None:
        super().verify_()
        source, result = tensor_type(self.tensor), tensor_type(self.result)
        if result != TensorType([source.num_elements()], source.element_type):
            raise VerifyException(f"flattening {source} gives !poplar.tensor<{source.num_elements()}x{source.element_type}>")


@irdl_op_definition
class SliceOp(BuildOp):
    """`t.slice(begin, end)` of a 1-D tensor."""

    name = "poplar.slice"
    tensor = operand_def(TensorType)
    begin = prop_def(IntegerAttr[I64])
    end = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    assembly_format = "$tensor `[` $begin `:` $end `]` attr-dict `:` type($tensor) `->` type($result)"

    def __init__(self, tensor: SSAValue, begin: int, end: int):
        super().__init__(
            operands=[tensor],
            properties={"begin": IntegerAttr(begin, i64), "end": IntegerAttr(end, i64)},
            result_types=[TensorType([end - begin], tensor_type(tensor).element_type)],
        )

    def verify_(self) -> None:
        super().verify_()
        source = tensor_type(self.tensor)
        begin, end = self.begin.value.data, self.end.value.data
        if len(source.get_shape()) != 1:
            raise VerifyException(f"poplar.slice needs a 1-D tensor, got {source}; flatten it first")
        if not 0 <= begin < end <= source.num_elements():
            raise VerifyException(f"slice [{begin}:{end}] is empty or outside the {source.num_elements()} elements")
        if tensor_type(self.result) != TensorType([end - begin], source.element_type):
            raise VerifyException(f"slice [{begin}:{end}] of {source} has the wrong result type")


def _ints(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def _int_list(parser: Parser) -> list[int]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_negative=False, allow_boolean=False)
    )


class _ViewOp(BuildOp):
    """A tensor view of one tensor: `poplar.<name> %t <operands> : <type> -> <type>`,
    its integer lists printed `[a, b]`."""

    tensor = operand_def(TensorType)
    result = result_def(TensorType)

    def lists_text(self) -> str:
        """The integer lists between the tensor and the types."""
        return ""

    def expected(self, source: TensorType) -> TensorType:
        """The result type of this view of `source`; a VerifyException naming the bad
        parameters when there is none."""
        return tensor_type(self.result)

    def verify_(self) -> None:
        super().verify_()
        source, result = tensor_type(self.tensor), tensor_type(self.result)
        if (expected := self.expected(source)) != result:
            raise VerifyException(f"{self.name} of {source} gives {expected}, not {result}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor)
        printer.print_string(self.lists_text())
        print_view_tail(printer, self, self.tensor, self.result)

    @classmethod
    def parse_typed(cls, parser: Parser, tensor, properties: dict):
        """The rest of the custom syntax after the lists: attributes and types."""
        attrs, source, result = parse_view_tail(parser)
        op = cls.build(operands=[parser.resolve_operand(tensor, source)], properties=properties, result_types=[result])
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class SliceBoxOp(_ViewOp):
    """`t.slice({b0, b1, ...}, {e0, e1, ...})`: the box [begin, end) of a tensor."""

    name = "poplar.slice_box"
    begin = prop_def(DenseArrayBase[I64])
    end = prop_def(DenseArrayBase[I64])

    def __init__(self, tensor: SSAValue, begin: Sequence[int], end: Sequence[int]):
        super().__init__(
            operands=[tensor],
            properties={"begin": _ints(begin), "end": _ints(end)},
            result_types=[TensorType([e - b for b, e in zip(begin, end)], tensor_type(tensor).element_type)],
        )

    def bounds(self) -> tuple[list[int], list[int]]:
        return list(self.begin.get_values()), list(self.end.get_values())  # type: ignore[arg-type]

    def expected(self, source: TensorType) -> TensorType:
        begin, end = self.bounds()
        if len(begin) != len(source.get_shape()) or len(end) != len(begin):
            raise VerifyException(f"poplar.slice_box of {source} needs one begin and one end per dimension")
        if any(not 0 <= b < e <= n for b, e, n in zip(begin, end, source.get_shape())):
            raise VerifyException(f"box {begin} to {end} is empty or outside {source}")
        return TensorType([e - b for b, e in zip(begin, end)], source.element_type)

    def lists_text(self) -> str:
        begin, end = self.bounds()
        return f" {begin} to {end}"

    @classmethod
    def parse(cls, parser: Parser) -> SliceBoxOp:
        tensor = parser.parse_unresolved_operand()
        begin = _int_list(parser)
        parser.parse_keyword("to")
        end = _int_list(parser)
        return cls.parse_typed(parser, tensor, {"begin": _ints(begin), "end": _ints(end)})


@irdl_op_definition
class ReshapeOp(_ViewOp):
    """`t.reshape({...})`: the same elements in row-major order, another shape."""

    name = "poplar.reshape"

    def __init__(self, tensor: SSAValue, shape: Sequence[int]):
        super().__init__(operands=[tensor], result_types=[TensorType(shape, tensor_type(tensor).element_type)])

    def expected(self, source: TensorType) -> TensorType:
        result = tensor_type(self.result)
        if source.num_elements() != result.num_elements() or source.element_type != result.element_type:
            raise VerifyException(f"cannot reshape {source} to {result}")
        return result

    @classmethod
    def parse(cls, parser: Parser) -> ReshapeOp:
        tensor = parser.parse_unresolved_operand()
        return cls.parse_typed(parser, tensor, {})


@irdl_op_definition
class DimShuffleOp(_ViewOp):
    """`t.dimShuffle({...})`: result dimension k is dimension `permutation[k]` of `t`."""

    name = "poplar.dim_shuffle"
    permutation = prop_def(DenseArrayBase[I64])

    def __init__(self, tensor: SSAValue, permutation: Sequence[int]):
        t = tensor_type(tensor)
        super().__init__(
            operands=[tensor],
            properties={"permutation": _ints(permutation)},
            result_types=[TensorType([t.get_shape()[d] for d in permutation], t.element_type)],
        )

    def order(self) -> list[int]:
        return list(self.permutation.get_values())  # type: ignore[arg-type]

    def expected(self, source: TensorType) -> TensorType:
        order = self.order()
        if sorted(order) != list(range(len(source.get_shape()))):
            raise VerifyException(f"{order} is not a permutation of the dimensions of {source}")
        return TensorType([source.get_shape()[d] for d in order], source.element_type)

    def lists_text(self) -> str:
        return f" {self.order()}"

    @classmethod
    def parse(cls, parser: Parser) -> DimShuffleOp:
        tensor = parser.parse_unresolved_operand()
        order = _int_list(parser)
        return cls.parse_typed(parser, tensor, {"permutation": _ints(order)})


@irdl_op_definition
class BroadcastOp(_ViewOp):
    """`t.broadcast(times, dim)`: `t` repeated `times` times along dimension `dim`."""

    name = "poplar.broadcast"
    times = prop_def(IntegerAttr[I64])
    dim = prop_def(IntegerAttr[I64])

    def __init__(self, tensor: SSAValue, times: int, dim: int):
        t = tensor_type(tensor)
        shape = list(t.get_shape())
        shape[dim] *= times
        super().__init__(
            operands=[tensor],
            properties={"times": IntegerAttr(times, i64), "dim": IntegerAttr(dim, i64)},
            result_types=[TensorType(shape, t.element_type)],
        )

    def expected(self, source: TensorType) -> TensorType:
        times, dim = self.times.value.data, self.dim.value.data
        if not 0 <= dim < len(source.get_shape()) or times < 1:
            raise VerifyException(f"cannot broadcast {source} {times} times along dimension {dim}")
        shape = list(source.get_shape())
        shape[dim] *= times
        return TensorType(shape, source.element_type)

    def lists_text(self) -> str:
        return f" {self.times.value.data} along {self.dim.value.data}"

    @classmethod
    def parse(cls, parser: Parser) -> BroadcastOp:
        tensor = parser.parse_unresolved_operand()
        times = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_keyword("along")
        dim = parser.parse_integer(allow_negative=False, allow_boolean=False)
        return cls.parse_typed(parser, tensor, {"times": IntegerAttr(times, i64), "dim": IntegerAttr(dim, i64)})


@irdl_op_definition
class AddComputeSetOp(BuildOp):
    """`graph.addComputeSet(debugName)`."""

    name = "poplar.add_compute_set"
    debug_name = prop_def(StringAttr)
    result = result_def(ComputeSetType)
    assembly_format = "$debug_name attr-dict"

    def __init__(self, debug_name: str):
        super().__init__(properties={"debug_name": StringAttr(debug_name)}, result_types=[ComputeSetType()])


def codelet_named(op: Operation, name: str) -> CodeletOp | None:
    """The `poplar.codelet` called `name` beside the host program of `op`."""
    program = op.parent_op()
    block = program.parent_block() if program is not None else None
    if block is None:
        return None
    return codelet_in(block, name, CodeletOp)


@irdl_op_definition
class AddVerticesOp(BuildOp):
    """One vertex of `codelet` per block of `tile_map` in a compute set, each mapped to
    its block's tile, its fields connected by slice rules, and given the cycle estimate
    of its run (`cycles` has one entry per run):

    `poplar.add_vertices %cs @axpy over <0 to 2 x 4> ["a" = %a whole, "y" = %y block] cycles [40] : ...`
    """

    name = "poplar.add_vertices"
    compute_set = operand_def(ComputeSetType)
    tensors = var_operand_def(TensorType)
    codelet = prop_def(SymbolRefAttr)
    tile_map = prop_def(AnyTileMap)
    field_names = prop_def(ArrayAttr[StringAttr])
    rules = prop_def(ArrayAttr[SliceAttr])
    cycles = prop_def(DenseArrayBase[I64])

    def __init__(
        self,
        compute_set: SSAValue,
        codelet: str,
        tile_map: AnyTileMap,
        connections: Sequence[tuple[str, SSAValue, SliceAttr]],
        cycles: Sequence[int],
    ):
        super().__init__(
            operands=[compute_set, [t for _, t, _ in connections]],
            properties={
                "codelet": SymbolRefAttr(codelet),
                "tile_map": tile_map,
                "field_names": ArrayAttr([StringAttr(f) for f, _, _ in connections]),
                "rules": ArrayAttr([r for _, _, r in connections]),
                "cycles": DenseArrayBase.from_list(i64, list(cycles)),
            },
        )

    def names(self) -> list[str]:
        return [f.data for f in self.field_names.data]

    def run_cycles(self) -> list[int]:
        return list(self.cycles.get_values())  # type: ignore[arg-type]

    def verify_(self) -> None:
        super().verify_()
        self.check_tiles(self.tile_map)
        codelet = codelet_named(self, self.codelet.root_reference.data)
        if codelet is None:
            raise VerifyException(f"poplar.add_vertices adds vertices of unknown codelet {self.codelet}")
        names = self.names()
        if len(names) != len(self.tensors) or len(self.rules.data) != len(self.tensors):
            raise VerifyException("poplar.add_vertices needs one field name and one slice rule per tensor")
        fields = codelet.field_names()
        for name in names:
            if name not in fields:
                raise VerifyException(f"codelet {self.codelet} has no field '{name}' (fields: {', '.join(fields)})")
        if sorted(names) != sorted(fields):
            missing = [f for f in fields if f not in names]
            detail = f"field '{missing[0]}' is not connected" if missing else "a field is connected twice"
            raise VerifyException(f"poplar.add_vertices of {self.codelet}: {detail}")
        arg_types = dict(zip(fields, (a.type for a in codelet.body.block.args)))
        # Diagnostics name the tensor (its debug name), or the field for a view.
        tensor_names = [
            t.owner.debug_name.data if isinstance(t.owner, AddTensorOp) else n for n, t in zip(names, self.tensors)
        ]
        verify_placement(
            str(self.codelet),
            names,
            [arg_types[n] for n in names],
            self.rules.data,
            [(n, tensor_type(t).element_type, tensor_type(t).num_elements()) for n, t in zip(tensor_names, self.tensors)],
        )
        check_slices_inside(
            self.rules.data,
            self.tile_map,
            [tensor_type(t).num_elements() for t in self.tensors],
            tensor_names,
            [tensor_type(t).get_shape() for t in self.tensors],
        )
        if not isinstance(self.tile_map, GridMapAttr) and any(isinstance(o, BlockExtentOp) for o in codelet.body.walk()):
            raise VerifyException(f"codelet {self.codelet} reads block extents, which only vertices over a grid map have")
        runs = len(self.tile_map.runs())
        if len(self.run_cycles()) != runs or any(c < 0 for c in self.run_cycles()):
            raise VerifyException(f"poplar.add_vertices needs one non-negative cycle estimate per run ({runs})")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.compute_set)
        printer.print_string(" ")
        printer.print_attribute(self.codelet)
        printer.print_string(f" over {self.tile_map.runs_text()} [")

        def print_one(item):
            name, tensor, rule = item
            printer.print_string_literal(name)
            printer.print_string(" = ")
            printer.print_ssa_value(tensor)
            printer.print_string(f" {rule.rule_text()}")

        printer.print_list(list(zip(self.names(), self.tensors, self.rules.data)), print_one)
        printer.print_string("] cycles [" + ", ".join(map(str, self.run_cycles())) + "]")
        printer.print_op_attributes(self.attributes)
        if self.tensors:
            printer.print_string(" : ")
            printer.print_list([t.type for t in self.tensors], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> AddVerticesOp:
        compute_set = parser.parse_unresolved_operand()
        codelet = parser.parse_attribute()
        if not isinstance(codelet, SymbolRefAttr):
            parser.raise_error("expected a codelet symbol")
        parser.parse_keyword("over")
        tile_map = _parse_map(parser)

        def parse_connection():
            name = parser.parse_str_literal()
            parser.parse_punctuation("=")
            tensor = parser.parse_unresolved_operand()
            return name, tensor, SliceAttr.new(SliceAttr.parse_rule(parser))

        connections = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_connection)
        parser.parse_keyword("cycles")
        cycles = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        attrs = parser.parse_optional_attr_dict()
        types = []
        if parser.parse_optional_punctuation(":"):
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(connections):
            parser.raise_error(f"{count(len(connections), 'connection')} but {count(len(types), 'type')}")
        op = cls(
            parser.resolve_operand(compute_set, ComputeSetType()),
            codelet.root_reference.data,
            tile_map,
            [(n, parser.resolve_operand(t, ty), r) for (n, t, r), ty in zip(connections, types)],
            cycles,
        )
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class CreateHostWriteOp(BuildOp):
    """`graph.createHostWrite(handle, tensor)`."""

    name = "poplar.create_host_write"
    handle = prop_def(StringAttr)
    tensor = operand_def(TensorType)
    assembly_format = "$handle `to` $tensor attr-dict `:` type($tensor)"

    def __init__(self, handle: str, tensor: SSAValue):
        super().__init__(operands=[tensor], properties={"handle": StringAttr(handle)})


@irdl_op_definition
class CreateHostReadOp(BuildOp):
    """`graph.createHostRead(handle, tensor)`."""

    name = "poplar.create_host_read"
    handle = prop_def(StringAttr)
    tensor = operand_def(TensorType)
    assembly_format = "$handle `from` $tensor attr-dict `:` type($tensor)"

    def __init__(self, handle: str, tensor: SSAValue):
        super().__init__(operands=[tensor], properties={"handle": StringAttr(handle)})


@irdl_op_definition
class AddRemoteBufferOp(BuildOp):
    """`graph.addRemoteBuffer(handle, type, elements, repeats)`: an array in streaming
    memory, also the handle under which the host fills and reads it."""

    name = "poplar.add_remote_buffer"
    handle = prop_def(StringAttr)
    result = result_def(RemoteBufferType)
    assembly_format = "$handle attr-dict `:` type($result)"

    def __init__(self, handle: str, type: RemoteBufferType):
        super().__init__(properties={"handle": StringAttr(handle)}, result_types=[type])


class _RemoteCopyOp(BuildOp):
    """`program::Copy` between repeat `offset` (a scalar integer tensor read when the
    program runs) of a remote buffer and a tensor of as many elements."""

    buffer = operand_def(RemoteBufferType)
    offset = operand_def(TensorType)
    tensor = operand_def(TensorType)
    result = result_def(ProgramType)

    def __init__(self, buffer: SSAValue, offset: SSAValue, tensor: SSAValue):
        super().__init__(operands=[buffer, offset, tensor], result_types=[ProgramType()])

    def verify_(self) -> None:
        super().verify_()
        buffer, tensor, offset = self.buffer.type, tensor_type(self.tensor), tensor_type(self.offset)
        assert isinstance(buffer, RemoteBufferType)
        if offset.get_shape() or not isinstance(offset.element_type, IntegerType):
            raise VerifyException(f"'{self.name}' needs a scalar integer offset tensor, got {offset}")
        if tensor.element_type != buffer.element_type or tensor.num_elements() != buffer.elements:
            raise VerifyException(f"'{self.name}' between a repeat of {buffer} and {tensor}: element types or counts differ")


@irdl_op_definition
class RemoteLoadOp(_RemoteCopyOp):
    """`program::Copy(buffer, tensor, offset)`: repeat `offset` of the buffer into the tensor."""

    name = "poplar.remote_load"
    assembly_format = "$buffer `at` $offset `into` $tensor attr-dict `:` type($buffer) `,` type($offset) `,` type($tensor)"


@irdl_op_definition
class RemoteStoreOp(_RemoteCopyOp):
    """`program::Copy(tensor, buffer, offset)`: the tensor into repeat `offset` of the buffer."""

    name = "poplar.remote_store"
    assembly_format = "$tensor `into` $buffer `at` $offset attr-dict `:` type($buffer) `,` type($offset) `,` type($tensor)"


@irdl_op_definition
class ExecuteOp(BuildOp):
    """`program::Execute(computeSet)`."""

    name = "poplar.execute"
    compute_set = operand_def(ComputeSetType)
    result = result_def(ProgramType)
    assembly_format = "$compute_set attr-dict"

    def __init__(self, compute_set: SSAValue):
        super().__init__(operands=[compute_set], result_types=[ProgramType()])


@irdl_op_definition
class CopyOp(BuildOp):
    """`program::Copy(source, destination)` between tensors of the same elements."""

    name = "poplar.copy"
    source = operand_def(TensorType)
    destination = operand_def(TensorType)
    result = result_def(ProgramType)
    assembly_format = "$source `to` $destination attr-dict `:` type($source) `,` type($destination)"

    def __init__(self, source: SSAValue, destination: SSAValue):
        super().__init__(operands=[source, destination], result_types=[ProgramType()])

    def verify_(self) -> None:
        super().verify_()
        source, destination = tensor_type(self.source), tensor_type(self.destination)
        if source.element_type != destination.element_type or source.num_elements() != destination.num_elements():
            raise VerifyException(f"copy from {source} to {destination}: element types or counts differ")


@irdl_op_definition
class SequenceOp(BuildOp):
    """`program::Sequence{p0, p1, ...}`."""

    name = "poplar.sequence"
    programs = var_operand_def(ProgramType)
    result = result_def(ProgramType)
    assembly_format = "`(` $programs `)` attr-dict"

    def __init__(self, programs: Sequence[SSAValue]):
        super().__init__(operands=[programs], result_types=[ProgramType()])


def _check_predicate(op: Operation, predicate: SSAValue) -> None:
    t = tensor_type(predicate)
    if t.get_shape() or not isinstance(t.element_type, IntegerType):
        raise VerifyException(f"'{op.name}' needs a scalar bool or integer predicate tensor, got {t}")


@irdl_op_definition
class RepeatOp(BuildOp):
    """`program::Repeat(count, body)`."""

    name = "poplar.repeat"
    count = prop_def(IntegerAttr[I64])
    body = operand_def(ProgramType)
    result = result_def(ProgramType)
    assembly_format = "$count `times` $body attr-dict"

    def __init__(self, count: int, body: SSAValue):
        super().__init__(operands=[body], properties={"count": IntegerAttr(count, i64)}, result_types=[ProgramType()])

    def verify_(self) -> None:
        super().verify_()
        if self.count.value.data < 0:
            raise VerifyException(f"poplar.repeat count must not be negative, got {self.count.value.data}")


@irdl_op_definition
class RepeatWhileTrueOp(BuildOp):
    """`program::RepeatWhileTrue(cond, predicate, body)`: run `cond`, then `body` and
    `cond` again while the scalar predicate is true."""

    name = "poplar.repeat_while_true"
    cond = operand_def(ProgramType)
    predicate = operand_def(TensorType)
    body = operand_def(ProgramType)
    result = result_def(ProgramType)
    assembly_format = "$predicate `:` type($predicate) `cond` $cond `body` $body attr-dict"

    def __init__(self, cond: SSAValue, predicate: SSAValue, body: SSAValue):
        super().__init__(operands=[cond, predicate, body], result_types=[ProgramType()])

    def verify_(self) -> None:
        super().verify_()
        _check_predicate(self, self.predicate)


@irdl_op_definition
class IfOp(BuildOp):
    """`program::If(predicate, trueBody, falseBody)`."""

    name = "poplar.if"
    predicate = operand_def(TensorType)
    then_body = operand_def(ProgramType)
    else_body = operand_def(ProgramType)
    result = result_def(ProgramType)
    assembly_format = "$predicate `:` type($predicate) `then` $then_body `else` $else_body attr-dict"

    def __init__(self, predicate: SSAValue, then_body: SSAValue, else_body: SSAValue):
        super().__init__(operands=[predicate, then_body, else_body], result_types=[ProgramType()])

    def verify_(self) -> None:
        super().verify_()
        _check_predicate(self, self.predicate)


class _DynamicOp(DynamicSliceMixin, BuildOp):
    SCALAR_I32: ClassVar[Attribute] = TensorType([], i32)
    tensor = operand_def(TensorType)
    offsets = var_operand_def(TensorType)
    slice = operand_def(TensorType)
    dims = prop_def(DenseArrayBase[I64])
    sizes = prop_def(DenseArrayBase[I64])
    result = result_def(ProgramType)

    def __init__(
        self, tensor: SSAValue, offsets: Sequence[SSAValue], slice: SSAValue, dims: Sequence[int], sizes: Sequence[int]
    ):
        super().__init__(
            operands=[tensor, offsets, slice],
            properties={"dims": int_list(dims), "sizes": int_list(sizes)},
            result_types=[ProgramType()],
        )

    @staticmethod
    def shape_of(t: Attribute) -> tuple[int, ...]:
        assert isinstance(t, TensorType)
        return t.get_shape()

    @staticmethod
    def element_of(t: Attribute) -> Attribute:
        assert isinstance(t, TensorType)
        return t.element_type

    def verify_(self) -> None:
        super().verify_()
        self.verify_box()


@irdl_op_definition
class DynamicSliceOp(_DynamicOp):
    """`popops::dynamicSliceWithOutput(graph, slice, tensor, offset, dims, sizes, prog)`:
    a program copying the box of `tensor` at the `offsets` it reads when it runs into
    `slice` (`ipu_lower.dialects.dynamic_slice`)."""

    name = "poplar.dynamic_slice"
    KEYWORD: ClassVar[str] = "into"


@irdl_op_definition
class DynamicUpdateOp(_DynamicOp):
    """`popops::dynamicUpdate(graph, tensor, slice, offset, dims, sizes, prog)`: a program
    copying `slice` into the box of `tensor` at the offsets it reads when it runs."""

    name = "poplar.dynamic_update"
    KEYWORD: ClassVar[str] = "from"


@irdl_op_definition
class MatmulOp(MatmulMixin, BuildOp):
    """A program of poplibs calls writing `alpha op(lhs) op(rhs) + beta out` into `out`
    (`ipu_lower.dialects.matmul`): `poplin::matMulWithOutput(graph, A, B, out, prog,
    {"label"})` (grouped: `matMulGroupedWithOutput`) then `popops::mulInPlace` by alpha, or
    with beta != 0 `mulInPlace` by beta then `poplin::matMulAcc(graph, out, alpha, A, B,
    prog)` (`matMulGroupedAcc`); poplin plans the work. A vector is multiplied as a
    matrix of one column (`A @ x`: x as [K, 1], out as [M, 1]) or one row (`x @ A`: [1,
    K], out [1, N]; a dot product [1, K] x [K, 1] into [1, 1]).

    `%p = poplar.matmul "mm" %A, %B to %C : !poplar.tensor<4x5xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>`
    """

    name = "poplar.matmul"
    label = prop_def(StringAttr)
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    out = operand_def(TensorType)
    result = result_def(ProgramType)

    def __init__(self, label: str, lhs: SSAValue, rhs: SSAValue, out: SSAValue, **product: float | bool):
        """`product`: alpha, beta, transpose_a, transpose_b."""
        properties = {"label": StringAttr(label), **self.product_properties(**product)}  # type: ignore[arg-type]
        super().__init__(operands=[lhs, rhs, out], properties=properties, result_types=[ProgramType()])

    def verify_(self) -> None:
        super().verify_()
        self.verify_matmul()


_TENSOR_VIEWS = (FlattenOp, SliceOp, SliceBoxOp, ReshapeOp, DimShuffleOp, BroadcastOp)


def variable_of(tensor: SSAValue) -> SSAValue:
    """The tensor a chain of views (slices, reshapes, ...) of `tensor` starts from."""
    while isinstance(tensor.owner, _TENSOR_VIEWS):
        tensor = tensor.owner.tensor
    return tensor


@irdl_op_definition
class ReduceOp(ReduceMixin, BuildOp):
    """`popops::reduceWithOutput(graph, in, out, dims, ReduceParams(op, update), prog,
    "label", options)`: a program writing `input` reduced over `dims` into `out`
    (`ipu_lower.dialects.popops_reduce`); popops plans the work. `input` and `out` are
    variables or views of them (a box is a slice).

    `%p = poplar.reduce "Reduce" add %A to %s dims [0, 1] : !poplar.tensor<4x5xf32>, !poplar.tensor<1xf32>`
    """

    name = "poplar.reduce"
    label = prop_def(StringAttr)
    kind = prop_def(StringAttr)
    input = operand_def(TensorType)
    out = operand_def(TensorType)
    dims = prop_def(DenseArrayBase)
    update = opt_prop_def(UnitAttr)
    result = result_def(ProgramType)

    def __init__(self, label: str, kind: str, input: SSAValue, out: SSAValue, dims: Sequence[int], update: bool = False):
        properties = reduce_properties(label, kind, dims, update)
        super().__init__(operands=[input, out], properties=properties, result_types=[ProgramType()])

    @staticmethod
    def root(value: SSAValue) -> object:
        return variable_of(value)

    def verify_(self) -> None:
        super().verify_()
        self.verify_reduce()


def _same_shape_float(op: IRDLOperation, values: Sequence[SSAValue], same_element: bool = True) -> None:
    """Elementwise operands: one shape, float or half elements (one type unless
    `same_element` is off)."""
    types = [tensor_type(v) for v in values]
    if len({t.get_shape() for t in types}) != 1:
        raise VerifyException(f"'{op.name}' operands have different shapes: {', '.join(map(str, types))}")
    for t in types:
        if not float_element(t.element_type):
            raise VerifyException(f"'{op.name}' takes float32 or float16 elements, not {t.element_type}")
    if same_element and len({t.element_type for t in types}) != 1:
        raise VerifyException(f"'{op.name}' operands have different element types: {', '.join(map(str, types))}")


@irdl_op_definition
class ScaledAddOp(BuildOp):
    """`popops::scaledAddTo(graph, A, B, scaleB, prog, "label")` (include/popops/
    ScaledAdd.hpp:79-82 of graphcore/poplibs at 7eac0f26): a program adding `scale`
    times `source` to `target`, elementwise; with `subtract`,
    `popops::scaledSubtractFrom(graph, A, B, scaleB, prog, "label")` (ScaledAdd.hpp:
    129-132) subtracting it. `target` and `source` have one shape and float type;
    `scale` is one element of it.

    `%p = poplar.scaled_add "saxpy" %y, %x, %a : !poplar.tensor<100xf32>, !poplar.tensor<100xf32>, !poplar.tensor<f32>`
    """

    name = "poplar.scaled_add"
    label = prop_def(StringAttr)
    target = operand_def(TensorType)
    source = operand_def(TensorType)
    scale = operand_def(TensorType)
    subtract = opt_prop_def(UnitAttr)
    result = result_def(ProgramType)
    assembly_format = (
        "$label $target `,` $source `,` $scale (`subtract` $subtract^)? attr-dict "
        "`:` type($target) `,` type($source) `,` type($scale)"
    )

    def __init__(self, label: str, target: SSAValue, source: SSAValue, scale: SSAValue, subtract: bool = False):
        properties: dict[str, Attribute] = {"label": StringAttr(label)}
        if subtract:
            properties["subtract"] = UnitAttr()
        super().__init__(operands=[target, source, scale], properties=properties, result_types=[ProgramType()])

    def verify_(self) -> None:
        super().verify_()
        _same_shape_float(self, [self.target, self.source])
        scale = tensor_type(self.scale)
        if scale.num_elements() != 1 or scale.element_type != tensor_type(self.target).element_type:
            raise VerifyException(f"'{self.name}' scale must be one {tensor_type(self.target).element_type}, not {scale}")
        if variable_of(self.target) == variable_of(self.source):
            raise VerifyException(f"'{self.name}' source must not be its target")


@irdl_op_definition
class MapOp(BuildOp):
    """`popops::mapWithOutput(graph, popops::expr::BinaryOpType::ADD, a, b, out, prog,
    "label")`, or its UnaryOpType form of one input (include/popops/ElementWise.hpp:
    241-262 of graphcore/poplibs at 7eac0f26): a program writing `op` of the inputs into
    `out`, elementwise. When `out` is the first input (a binary op only),
    `popops::mapInPlace(graph, op, a, b, prog, "label")` (ElementWise.hpp:201-210).
    `op` names a popops expression op (`ipu_lower.dialects.popops_elementwise`).

    `%p = poplar.map "add" "ADD"(%x, %y) to %z : !poplar.tensor<8xf32>, !poplar.tensor<8xf32> -> !poplar.tensor<8xf32>`
    """

    name = "poplar.map"
    label = prop_def(StringAttr)
    op = prop_def(StringAttr)
    inputs = var_operand_def(TensorType)
    out = operand_def(TensorType)
    result = result_def(ProgramType)
    assembly_format = "$label $op `(` $inputs `)` `to` $out attr-dict `:` type($inputs) `->` type($out)"

    def __init__(self, label: str, op: str, inputs: Sequence[SSAValue], out: SSAValue):
        properties = {"label": StringAttr(label), "op": StringAttr(op)}
        super().__init__(operands=[inputs, out], properties=properties, result_types=[ProgramType()])

    def in_place(self) -> bool:
        return self.out == self.inputs[0]

    def verify_(self) -> None:
        super().verify_()
        op, arity = self.op.data, len(self.inputs)
        if op not in BINARY_OPS + UNARY_OPS:
            known = "binary ops " + ", ".join(BINARY_OPS) + "; unary ops " + ", ".join(UNARY_OPS)
            raise VerifyException(f"'{self.name}' op '{op}' is not one of the popops ops it takes ({known})")
        if (op in BINARY_OPS) != (arity == 2) or (op in UNARY_OPS) != (arity == 1):
            raise VerifyException(f"'{self.name}' op '{op}' does not take {arity} inputs")
        _same_shape_float(self, [*self.inputs, self.out])
        roots = [variable_of(v) for v in self.inputs]
        if variable_of(self.out) in roots and not (self.in_place() and arity == 2 and roots.count(roots[0]) == 1):
            raise VerifyException(f"'{self.name}' writes an input: only a binary op writes its first input, in place")


@irdl_op_definition
class CastOp(BuildOp):
    """`prog.add(popops::cast(graph, src, dst, "label"))` (include/popops/Cast.hpp:86-88 of
    graphcore/poplibs at 7eac0f26): a program converting each element of `source` into
    the other float type of `destination`, of the same shape.

    `%p = poplar.cast "c" %x to %h : !poplar.tensor<8xf32>, !poplar.tensor<8xf16>`
    """

    name = "poplar.cast"
    label = prop_def(StringAttr)
    source = operand_def(TensorType)
    destination = operand_def(TensorType)
    result = result_def(ProgramType)
    assembly_format = "$label $source `to` $destination attr-dict `:` type($source) `,` type($destination)"

    def __init__(self, label: str, source: SSAValue, destination: SSAValue):
        super().__init__(operands=[source, destination], properties={"label": StringAttr(label)}, result_types=[ProgramType()])

    def verify_(self) -> None:
        super().verify_()
        _same_shape_float(self, [self.source, self.destination], same_element=False)
        if tensor_type(self.source).element_type == tensor_type(self.destination).element_type:
            raise VerifyException(f"'{self.name}' converts between float32 and float16: both are {tensor_type(self.source).element_type}")


@irdl_op_definition
class EngineOp(BuildOp):
    """`Engine engine(graph, program); engine.load(device);` ends the build region."""

    name = "poplar.engine"
    program = operand_def(ProgramType)
    traits = traits_def(IsTerminator())
    assembly_format = "$program attr-dict"

    def __init__(self, program: SSAValue):
        super().__init__(operands=[program])


class RunRegionOp(IRDLOperation):
    """Base of the ops of the run region (Engine calls)."""

    def verify_(self) -> None:
        _in_region(self, "run")


def _host_argument(op: IRDLOperation, name: str) -> MemRefType:
    program = op.parent_op()
    assert isinstance(program, HostProgramOp)
    for arg, t in program.argument_list():
        if arg == name:
            return t
    raise VerifyException(f"'{op.name}' names unknown host argument '{name}'")


@irdl_op_definition
class WriteTensorOp(RunRegionOp):
    """`engine.writeTensor(handle, arg, arg + elements)` from a host argument."""

    name = "poplar.write_tensor"
    handle = prop_def(StringAttr)
    argument = prop_def(StringAttr)
    assembly_format = "$handle `from` $argument attr-dict"

    def __init__(self, handle: str, argument: str):
        super().__init__(properties={"handle": StringAttr(handle), "argument": StringAttr(argument)})

    def verify_(self) -> None:
        super().verify_()
        _host_argument(self, self.argument.data)


@irdl_op_definition
class ReadTensorOp(RunRegionOp):
    """`engine.readTensor(handle, arg, arg + elements)` into a host argument."""

    name = "poplar.read_tensor"
    handle = prop_def(StringAttr)
    argument = prop_def(StringAttr)
    assembly_format = "$handle `to` $argument attr-dict"

    def __init__(self, handle: str, argument: str):
        super().__init__(properties={"handle": StringAttr(handle), "argument": StringAttr(argument)})

    def verify_(self) -> None:
        super().verify_()
        if _host_argument(self, self.argument.data).get_num_dims() == 0:
            raise VerifyException(
                f"cannot read into scalar argument '{self.argument.data}': scalars are passed by value"
            )


class _RemoteBufferTransferOp(RunRegionOp):
    """Moves a host argument to or from the remote buffer `handle`, one repeat at a time."""

    handle = prop_def(StringAttr)
    argument = prop_def(StringAttr)

    def __init__(self, handle: str, argument: str):
        super().__init__(properties={"handle": StringAttr(handle), "argument": StringAttr(argument)})

    def remote_buffer(self) -> RemoteBufferType:
        """The type of the remote buffer this transfer names (verified to exist)."""
        program = self.parent_op()
        assert isinstance(program, HostProgramOp)
        return next(
            o.result.type  # type: ignore[misc]
            for o in program.build_body.block.ops
            if isinstance(o, AddRemoteBufferOp) and o.handle == self.handle
        )

    def verify_(self) -> None:
        super().verify_()
        memref = _host_argument(self, self.argument.data)
        program = self.parent_op()
        assert isinstance(program, HostProgramOp)
        buffers = [o for o in program.build_body.block.ops if isinstance(o, AddRemoteBufferOp) and o.handle == self.handle]
        if not buffers:
            raise VerifyException(f"'{self.name}' names no poplar.add_remote_buffer '{self.handle.data}'")
        buffer = buffers[0].result.type
        assert isinstance(buffer, RemoteBufferType)
        if memref.element_type != buffer.element_type or prod(memref.get_shape()) != buffer.repeats * buffer.elements or not memref.get_shape():
            raise VerifyException(f"'{self.name}' between argument '{self.argument.data}' ({memref}) and {buffer}: element types or counts differ")


@irdl_op_definition
class CopyToRemoteBufferOp(_RemoteBufferTransferOp):
    """`engine.copyToRemoteBuffer(arg + r * elements, handle, r)` for every repeat r."""

    name = "poplar.copy_to_remote_buffer"
    assembly_format = "$handle `from` $argument attr-dict"


@irdl_op_definition
class CopyFromRemoteBufferOp(_RemoteBufferTransferOp):
    """`engine.copyFromRemoteBuffer(handle, arg + r * elements, r)` for every repeat r."""

    name = "poplar.copy_from_remote_buffer"
    assembly_format = "$handle `to` $argument attr-dict"


@irdl_op_definition
class RunOp(RunRegionOp):
    """`engine.run(programIndex)`."""

    name = "poplar.run"
    program_index = prop_def(IntegerAttr[I64])
    assembly_format = "$program_index attr-dict"

    def __init__(self, index: int = 0):
        super().__init__(properties={"program_index": IntegerAttr(index, i64)})


@irdl_op_definition
class CodeletOp(CodeletOpMixin, IRDLOperation):
    """A vertex class (`poplar::MultiVertex`): its block arguments are its fields, its
    body is `compute(workerId)`, printed op by op.

    `poplar.codelet @axpy(%a: memref<f32> input "a", %y: memref<?xf32> inout "y") { ... }`
    """

    name = "poplar.codelet"
    sym_name = prop_def(SymbolNameConstraint())
    fields = prop_def(ArrayAttr[FieldAttr])
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), NoTerminator())
    FIELD_ATTRIBUTE: ClassVar[type] = FieldAttr

    @staticmethod
    def worker_ops() -> tuple[type[IRDLOperation], ...]:
        return (WorkerIdOp, NumWorkersOp, BlockStartOp, BlockExtentOp)


@irdl_op_definition
class WorkerIdOp(WorkerOpMixin, IRDLOperation):
    """`workerId`, the argument of `MultiVertex::compute`."""

    name = "poplar.worker_id"
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasAncestor(CodeletOp))


@irdl_op_definition
class NumWorkersOp(WorkerOpMixin, IRDLOperation):
    """`numWorkers()` of a MultiVertex."""

    name = "poplar.num_workers"
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasAncestor(CodeletOp))


@irdl_op_definition
class BlockStartOp(WorkerOpMixin, IRDLOperation):
    """`blockStart`, a vertex-state field the host sets to the first element of each
    vertex's block (`graph.setInitialValue(vertex["blockStart"], block.begin)`)."""

    name = "poplar.block_start"
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasAncestor(CodeletOp))


@irdl_op_definition
class BlockExtentOp(BlockExtentMixin, IRDLOperation):
    """`blockExtent<dim>`, a vertex-state field the host sets to the extent of each
    vertex's box along `dim` (vertices over a grid map)."""

    name = "poplar.block_extent"
    dim = prop_def(IntegerAttr[I64])
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasAncestor(CodeletOp))


POPLAR = Dialect(
    "poplar",
    [
        HostProgramOp,
        AddVariableOp,
        AddConstantOp,
        AddRemoteBufferOp,
        MapTensorOp,
        FlattenOp,
        SliceOp,
        SliceBoxOp,
        ReshapeOp,
        DimShuffleOp,
        BroadcastOp,
        AddComputeSetOp,
        AddVerticesOp,
        CreateHostWriteOp,
        CreateHostReadOp,
        ExecuteOp,
        CopyOp,
        RemoteLoadOp,
        RemoteStoreOp,
        SequenceOp,
        RepeatOp,
        RepeatWhileTrueOp,
        IfOp,
        DynamicSliceOp,
        DynamicUpdateOp,
        MatmulOp,
        ReduceOp,
        ScaledAddOp,
        MapOp,
        CastOp,
        EngineOp,
        WriteTensorOp,
        ReadTensorOp,
        CopyToRemoteBufferOp,
        CopyFromRemoteBufferOp,
        RunOp,
        CodeletOp,
        WorkerIdOp,
        NumWorkersOp,
        BlockStartOp,
        BlockExtentOp,
    ],
    [TensorType, RemoteBufferType, ComputeSetType, ProgramType, TileMapAttr, GridMapAttr, SliceAttr, FieldAttr],
)
