"""The `ipu` dialect: the program at tile level, in SPMD form.

An `ipu.graph` owns tile-mapped tensors (`ipu.variable`, each laid out by one
`#ipu.tile_map`; `ipu.view` is a window on one, read or copied like it) and a program
run in order: host transfers (`ipu.from_host`, `ipu.to_host`), copies (`ipu.copy`),
and compute phases. Work placed on many tiles is
one op whatever the tile count:

- before vertex extraction, `ipu.tiled_map` is a point-wise computation over a tile
  map: its body runs once per point, reads its inputs with `ipu.access` at constant
  offsets from the point, and yields the values written at the point;
- after it, `ipu.codelet` says what one vertex does (its loop over the worker's share,
  its loads and stores) and `ipu.vertices` places one vertex per block of a tile map
  inside an `ipu.compute_set`, each operand connected by a slice rule.

Slice rules (see `ipu_lower.dialects.tiling`): `whole`, `block`, `halo<l, h>`, `partial`, and
`neighbours` (a tiled map input whose halo ipu-plan-exchange has not sized yet).
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
from ipu_lower.dialects.popops_reduce import ReduceMixin, reduce_properties
from ipu_lower.dialects.syntax import (
    LabelledBodyMixin,
    parse_body,
    parse_regions,
    parse_view_tail,
    print_body,
    print_regions,
    print_view_tail,
)
from ipu_lower.dialects.tiling import (
    SLICE_KINDS,
    UNPLANNED,
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
from xdsl.ir import Attribute, Block, Dialect, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasAncestor,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from ipu_lower.arch import ARCHS
from ipu_lower.element_types import is_signedness_cast, on_ipu


def num_elements(t: Attribute) -> int:
    assert isinstance(t, MemRefType)
    return prod(t.get_shape())


@irdl_attr_definition
class TileMapAttr(TileMapMixin, ParametrizedAttribute):
    """Where consecutive row-major elements live: `#ipu.tile_map<0 to 1424 x 68, 1424 to 1472 x 66>`."""

    name = "ipu.tile_map"
    groups: ArrayAttr[IntAttr]
    first_element: IntAttr


@irdl_attr_definition
class GridMapAttr(GridMapMixin, ParametrizedAttribute):
    """Boxes of an N-dimensional array over tiles: `#ipu.grid_map<<0 to 38 x 27> * 38, <0 to 38 x 27> * 1>`
    (see `ipu_lower.dialects.tiling.GridMapMixin`)."""

    name = "ipu.grid_map"
    dims: ArrayAttr[TileMapAttr]
    strides: ArrayAttr[IntAttr]
    DIM_MAP: ClassVar[type] = TileMapAttr


AnyTileMap = TileMapAttr | GridMapAttr


def _parse_map(parser: Parser) -> AnyTileMap:
    return parse_any_map(parser, TileMapAttr, GridMapAttr)


@irdl_attr_definition
class SliceAttr(SliceRuleMixin, ParametrizedAttribute):
    """How a vertex's operand follows from its block: `#ipu.slice<halo<1, 1>>`."""

    name = "ipu.slice"
    KINDS: ClassVar[tuple[str, ...]] = (*SLICE_KINDS, UNPLANNED)
    kind: StringAttr
    lo: IntAttr
    hi: IntAttr
    widths: ArrayAttr[IntAttr]


WHOLE = SliceAttr("whole")
BLOCK = SliceAttr("block")


@irdl_attr_definition
class FieldAttr(FieldMixin, ParametrizedAttribute):
    """A codelet field: its C++ name and direction, `#ipu.field<inout "y">`. Its type is
    the codelet's block argument (`memref<f32>` scalar, `memref<?xf32>` vector)."""

    name = "ipu.field"
    direction: StringAttr
    field_name: StringAttr


@irdl_op_definition
class GraphOp(IRDLOperation):
    """The whole device program for one IPU architecture.

    `args` names the host arguments (variables with host transfers) in calling order.
    The body declares variables and codelets, then lists the program in execution order.
    """

    name = "ipu.graph"
    sym_name = prop_def(StringAttr)
    arch = prop_def(StringAttr)
    args = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator(), SymbolTable())

    def __init__(self, name: str, arch: str, args: Sequence[str], body: Region | None = None):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "arch": StringAttr(arch),
                "args": ArrayAttr([StringAttr(a) for a in args]),
            },
            regions=[body or Region(Block())],
        )

    def variables(self) -> dict[str, VariableOp]:
        return {op.var_name.data: op for op in self.body.block.ops if isinstance(op, VariableOp)}

    def host_data(self) -> dict[str, VariableOp | RemoteBufferOp]:
        """The variables and remote buffers, by name: what host transfers move."""
        return {op.var_name.data: op for op in self.body.block.ops if isinstance(op, VariableOp | RemoteBufferOp)}

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.sym_name)
        printer.print_string(" arch ")
        printer.print_attribute(self.arch)
        printer.print_string(" args ")
        printer.print_attribute(self.args)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        print_body(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> GraphOp:
        name = parser.parse_str_literal()
        parser.parse_keyword("arch")
        arch = parser.parse_str_literal()
        parser.parse_keyword("args")
        args = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_str_literal)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, arch, args, parse_body(parser))
        if attrs:
            op.attributes.update(attrs.data)
        return op

    def verify_(self) -> None:
        if self.arch.data not in ARCHS:
            raise VerifyException(f"unknown IPU architecture '{self.arch.data}' (known: {', '.join(ARCHS)})")
        data = self.host_data()
        for arg in self.args.data:
            if arg.data not in data:
                raise VerifyException(f"argument '{arg.data}' has no ipu.variable or ipu.remote_buffer")


@irdl_op_definition
class VariableOp(IRDLOperation):
    """A tensor in tile memory, laid out over tiles by `tile_map`; with a `value`
    (`ipu_lower.dialects.constant_value`), a constant holding it, which nothing writes:

    `%c = ipu.variable "c" mapping <0 to 2 x 1> : memref<2xf32> = dense<[1.0, 2.0]>`
    """

    name = "ipu.variable"
    var_name = prop_def(StringAttr)
    tile_map = prop_def(AnyTileMap)
    value = opt_prop_def(DenseIntOrFPElementsAttr)
    result = result_def(MemRefType)
    traits = traits_def(HasParent(GraphOp))

    def __init__(self, name: str, type: MemRefType, tile_map: AnyTileMap, value: DenseIntOrFPElementsAttr | None = None):
        props: dict[str, Attribute] = {"var_name": StringAttr(name), "tile_map": tile_map}
        if value is not None:
            props["value"] = value
        super().__init__(properties=props, result_types=[type])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.var_name)
        printer.print_string(f" mapping {self.tile_map.runs_text()}")
        print_typed_value(printer, self, self.result.type, self.value)

    @classmethod
    def parse(cls, parser: Parser) -> VariableOp:
        name = parser.parse_str_literal()
        parser.parse_keyword("mapping")
        tile_map = _parse_map(parser)
        attrs, memref, value = parse_typed_value(parser, MemRefType, MemRefType.get_shape)
        op = cls(name, memref, tile_map, value)
        op.attributes.update(attrs)
        return op

    def verify_(self) -> None:
        memref = self.result.type
        assert isinstance(memref, MemRefType)
        if DYNAMIC_INDEX in memref.get_shape():
            raise VerifyException(f"variable '{self.var_name.data}' must have a static shape")
        _check_tiles(self, self.tile_map)
        check_covers(self.tile_map, memref.get_shape(), f"of '{self.var_name.data}' ")
        if self.value is not None:
            verify_value(self.value, memref.get_shape(), memref.element_type, f"variable '{self.var_name.data}'")


@irdl_op_definition
class RemoteBufferOp(IRDLOperation):
    """An array in streaming memory, off the chip (Poplar's remote buffer): `repeats`
    equal parts of its row-major elements, which `ipu.remote_load` and
    `ipu.remote_store` move between it and a variable of that many elements, one part
    at a time. It takes no tile memory.

    `%A = ipu.remote_buffer "A" repeats 4 : memref<12x4xf32>` (parts of 3 x 4 elements)
    """

    name = "ipu.remote_buffer"
    var_name = prop_def(StringAttr)
    repeats = prop_def(IntegerAttr[I64])
    result = result_def(MemRefType)
    traits = traits_def(HasParent(GraphOp))
    assembly_format = "$var_name `repeats` $repeats attr-dict `:` type($result)"

    def __init__(self, name: str, type: MemRefType, repeats: int):
        super().__init__(
            properties={"var_name": StringAttr(name), "repeats": IntegerAttr(repeats, i64)}, result_types=[type]
        )

    def part_elements(self) -> int:
        """The elements of one repeat."""
        return num_elements(self.result.type) // self.repeats.value.data

    def verify_(self) -> None:
        name = self.var_name.data
        memref = self.result.type
        assert isinstance(memref, MemRefType)
        if DYNAMIC_INDEX in memref.get_shape() or not memref.get_shape():
            raise VerifyException(f"remote buffer '{name}' must be an array of a static shape, not {memref}")
        if not on_ipu(memref.element_type):
            raise VerifyException(f"remote buffer '{name}' has element type {memref.element_type}, which the IPU does not support")
        repeats, count = self.repeats.value.data, num_elements(memref)
        if repeats < 1 or count % repeats:
            raise VerifyException(f"remote buffer '{name}' of {count} elements cannot be cut into {repeats} equal repeats")


def remote_buffer_of(value: SSAValue) -> RemoteBufferOp:
    if not isinstance(value.owner, RemoteBufferOp):
        raise VerifyException("operand must be the result of an ipu.remote_buffer")
    return value.owner


class _RemoteCopyOp(IRDLOperation):
    """A copy between one repeat of a remote buffer, chosen by the scalar integer
    variable `offset` when the program runs, and a variable of as many elements."""

    buffer = operand_def(MemRefType)
    offset = operand_def(MemRefType)
    tensor = operand_def(MemRefType)
    traits = lazy_traits_def(lambda: (_IN_PROGRAM,))

    def __init__(self, buffer: SSAValue, offset: SSAValue, tensor: SSAValue):
        super().__init__(operands=[buffer, offset, tensor])

    def verify_(self) -> None:
        buffer = remote_buffer_of(self.buffer)
        name = buffer.var_name.data
        if not isinstance(self.tensor.owner, VariableOp):
            raise VerifyException(f"'{self.name}' of '{name}' needs a variable, not a view")
        landing = self.tensor.owner.var_name.data
        variable_of(self.offset)
        offset = self.offset.type
        assert isinstance(offset, MemRefType)
        if offset.get_shape() or not isinstance(offset.element_type, IntegerType):
            raise VerifyException(f"'{self.name}' of '{name}' needs a scalar integer offset variable, not {offset}")
        memref, tensor = self.buffer.type, self.tensor.type
        assert isinstance(memref, MemRefType) and isinstance(tensor, MemRefType)
        if tensor.element_type != memref.element_type or num_elements(tensor) != buffer.part_elements():
            raise VerifyException(
                f"'{self.name}' between a repeat of '{name}' ({buffer.part_elements()} x {memref.element_type}) "
                f"and '{landing}' ({num_elements(tensor)} x {tensor.element_type})"
            )


@irdl_op_definition
class RemoteLoadOp(_RemoteCopyOp):
    """Copy repeat `offset` of a remote buffer into a variable (`program::Copy(buffer,
    tensor, offset)`): `ipu.remote_load %A at %c into %A_chunk : memref<12x4xf32>,
    memref<i32>, memref<3x4xf32>`."""

    name = "ipu.remote_load"
    assembly_format = "$buffer `at` $offset `into` $tensor attr-dict `:` type($buffer) `,` type($offset) `,` type($tensor)"


@irdl_op_definition
class RemoteStoreOp(_RemoteCopyOp):
    """Copy a variable into repeat `offset` of a remote buffer (`program::Copy(tensor,
    buffer, offset)`): `ipu.remote_store %A_chunk into %A at %c : memref<12x4xf32>,
    memref<i32>, memref<3x4xf32>`."""

    name = "ipu.remote_store"
    assembly_format = "$tensor `into` $buffer `at` $offset attr-dict `:` type($buffer) `,` type($offset) `,` type($tensor)"


def graph_of(op: Operation) -> GraphOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, GraphOp):
        parent = parent.parent_op()
    return parent


def _check_tiles(op: Operation, tile_map: AnyTileMap) -> None:
    if (graph := graph_of(op)) is not None:
        check_tiles_exist(tile_map, graph.arch.data)


def variable_of(value: SSAValue) -> VariableOp:
    """The variable `value` is, or is an `ipu.view` of."""
    owner = value.owner
    if isinstance(owner, ViewOp):
        owner = owner.source.owner
    if not isinstance(owner, VariableOp):
        raise VerifyException("operand must be the result of an ipu.variable or an ipu.view of one")
    return owner


class _HostTransferOp(IRDLOperation):
    """Moves a whole variable or remote buffer between the device and the host argument
    of the same name."""

    tensor = operand_def(MemRefType)
    traits = traits_def(HasParent(GraphOp))
    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue):
        super().__init__(operands=[tensor])

    def verify_(self) -> None:
        if isinstance(self.tensor.owner, ViewOp):
            raise VerifyException("host transfers move whole variables, not views")
        owner = self.tensor.owner
        name = owner.var_name if isinstance(owner, RemoteBufferOp) else variable_of(self.tensor).var_name
        graph = self.parent_op()
        if isinstance(graph, GraphOp) and name not in graph.args.data:
            raise VerifyException(f"'{name.data}' is not an argument of the graph: it has no host data to transfer")
        if isinstance(self, ToHostOp) and self.tensor.type.get_num_dims() == 0:  # type: ignore[union-attr]
            raise VerifyException(f"cannot copy scalar '{name.data}' back to the host: scalars are passed by value")


@irdl_op_definition
class FromHostOp(_HostTransferOp):
    """Copy the host argument of the same name into the tensor."""

    name = "ipu.from_host"


@irdl_op_definition
class ToHostOp(_HostTransferOp):
    """Copy the tensor back into the host argument of the same name."""

    name = "ipu.to_host"


def _int_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def check_writable(value: SSAValue, what: str) -> None:
    """`value` may be written: it is not a view that holds elements several times."""
    owner = value.owner
    if isinstance(owner, ViewOp) and owner.is_broadcast():
        name = variable_of(value).var_name.data
        raise VerifyException(f"{what} writes a broadcast view of '{name}', which holds elements several times")


def _dims_text(dims: Sequence[int]) -> str:
    return ", ".join("*" if d == ViewOp.BROADCAST else str(d) for d in dims)


@irdl_op_definition
class ViewOp(IRDLOperation):
    """A window on a variable, no data of its own (Poplar's slice, reshape, dimShuffle
    and broadcast): the box [begin, end) of the variable, the dimensions not in `dims`
    (fixed at one index) dropped, and result dimension k walking variable dimension
    `dims[k]`, or, where `dims[k]` is BROADCAST (`*`), repeating the rest along it
    (its extent is the result type's). `%r = ipu.view %A[3, 0:7]` is row 3 of a 5x7
    `A` (`memref<7xf32>`); `ipu.view %A[0:5, 0:7] dims [1, 0]` its transpose
    (`memref<7x5xf32>`); `ipu.view %A[3, 0:7] dims [*, 0]` row 3 repeated as the rows
    of a `memref<4x7xf32>`. A view with broadcast dimensions holds elements several
    times: it may only be read.
    """

    name = "ipu.view"
    source = operand_def(MemRefType)
    begin = prop_def(DenseArrayBase[I64])
    end = prop_def(DenseArrayBase[I64])
    dims = prop_def(DenseArrayBase[I64])
    result = result_def(MemRefType)
    traits = traits_def(HasParent(GraphOp), Pure())

    BROADCAST: ClassVar[int] = -1

    def __init__(
        self,
        source: SSAValue,
        begin: Sequence[int],
        end: Sequence[int],
        dims: Sequence[int],
        broadcast_extents: Sequence[int] = (),
    ):
        """`broadcast_extents`: the extent of each broadcast dimension, in order."""
        element = source.type.element_type  # type: ignore[attr-defined]
        extents = iter(broadcast_extents)
        shape = [end[d] - begin[d] if d != ViewOp.BROADCAST else next(extents) for d in dims]
        super().__init__(
            operands=[source],
            properties={"begin": _int_array(begin), "end": _int_array(end), "dims": _int_array(dims)},
            result_types=[MemRefType(element, shape)],
        )

    def box(self) -> list[tuple[int, int]]:
        return list(zip(self.begin.get_values(), self.end.get_values()))  # type: ignore[arg-type]

    def walked(self) -> list[int]:
        return list(self.dims.get_values())  # type: ignore[arg-type]

    def kept_order(self) -> list[int]:
        """The walked dimensions in the order they have in the variable."""
        return sorted(d for d in self.walked() if d != ViewOp.BROADCAST)

    def is_broadcast(self) -> bool:
        return ViewOp.BROADCAST in self.walked()

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        if not isinstance(self.source.owner, VariableOp):
            raise VerifyException("ipu.view must view an ipu.variable")
        name = variable_of(self.source).var_name.data
        shape = source.get_shape()
        box, dims = self.box(), self.walked()
        if len(box) != len(shape) or len(self.end.get_values()) != len(shape):
            raise VerifyException(f"view of '{name}' needs one begin and one end per dimension of {source}")
        kept = self.kept_order()
        if len(set(kept)) != len(kept) or any(not (0 <= d < len(shape) or d == ViewOp.BROADCAST) for d in dims):
            raise VerifyException(
                f"view of '{name}': dims [{_dims_text(dims)}] must be distinct dimensions of {source} or *"
            )
        for d, ((begin, end), n) in enumerate(zip(box, shape)):
            if not 0 <= begin < end <= n:
                raise VerifyException(f"view of '{name}': dimension {d} range [{begin}:{end}] is empty or outside [0:{n}]")
            if d not in dims and end - begin != 1:
                raise VerifyException(f"view of '{name}' drops dimension {d}, which must then be one index, not [{begin}:{end}]")
        if result.get_num_dims() != len(dims):
            raise VerifyException(f"view of '{name}' has {len(dims)} dimensions, not those of {result}")
        extents = result.get_shape()
        expected = MemRefType(
            source.element_type, [box[d][1] - box[d][0] if d != ViewOp.BROADCAST else n for d, n in zip(dims, extents)]
        )
        if result != expected:
            raise VerifyException(f"view of '{name}' is {expected}, not {result}")

    def print(self, printer: Printer) -> None:
        dims = self.walked()
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_string(
            "[" + ", ".join(f"{b}:{e}" if d in dims else str(b) for d, (b, e) in enumerate(self.box())) + "]"
        )
        if dims != self.kept_order():
            printer.print_string(f" dims [{_dims_text(dims)}]")
        print_view_tail(printer, self, self.source, self.result)

    @classmethod
    def parse(cls, parser: Parser) -> ViewOp:
        source = parser.parse_unresolved_operand()

        def parse_range() -> tuple[int, int, bool]:
            begin = parser.parse_integer(allow_negative=False, allow_boolean=False)
            if parser.parse_optional_punctuation(":"):
                return begin, parser.parse_integer(allow_negative=False, allow_boolean=False), True
            return begin, begin + 1, False

        ranges = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_range)
        dims = [d for d, (_, _, kept) in enumerate(ranges) if kept]
        if parser.parse_optional_keyword("dims"):

            def parse_dim() -> int:
                if parser.parse_optional_punctuation("*"):
                    return ViewOp.BROADCAST
                return parser.parse_integer(allow_negative=False, allow_boolean=False)

            dims = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_dim)
        attrs, source_type, result_type = parse_view_tail(parser)
        op = cls.build(
            operands=[parser.resolve_operand(source, source_type)],
            properties={
                "begin": _int_array([b for b, _, _ in ranges]),
                "end": _int_array([e for _, e, _ in ranges]),
                "dims": _int_array(dims),
            },
            result_types=[result_type],
        )
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Copy row-major elements [source_begin, source_end) of one tensor over
    [destination_begin, destination_end) of another (an exchange when tiles differ)."""

    name = "ipu.copy"
    source = operand_def(MemRefType)
    destination = operand_def(MemRefType)
    source_begin = prop_def(IntegerAttr[I64])
    source_end = prop_def(IntegerAttr[I64])
    destination_begin = prop_def(IntegerAttr[I64])
    destination_end = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(lambda: (_IN_PROGRAM,))

    def __init__(
        self, source: SSAValue, source_range: tuple[int, int], destination: SSAValue, destination_range: tuple[int, int]
    ):
        super().__init__(
            operands=[source, destination],
            properties={
                "source_begin": IntegerAttr(source_range[0], i64),
                "source_end": IntegerAttr(source_range[1], i64),
                "destination_begin": IntegerAttr(destination_range[0], i64),
                "destination_end": IntegerAttr(destination_range[1], i64),
            },
        )

    def source_range(self) -> tuple[int, int]:
        return self.source_begin.value.data, self.source_end.value.data

    def destination_range(self) -> tuple[int, int]:
        return self.destination_begin.value.data, self.destination_end.value.data

    def verify_(self) -> None:
        for value, (begin, end) in ((self.source, self.source_range()), (self.destination, self.destination_range())):
            var = variable_of(value)
            if not 0 <= begin < end <= num_elements(value.type):
                raise VerifyException(f"copy range [{begin}:{end}] of '{var.var_name.data}' is empty or out of bounds")
        check_writable(self.destination, "ipu.copy")
        (sb, se), (db, de) = self.source_range(), self.destination_range()
        if se - sb != de - db:
            raise VerifyException("copy source and destination ranges differ in length")
        if self.source.type.element_type != self.destination.type.element_type:  # type: ignore[union-attr]
            raise VerifyException("copy between tensors of different element types")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_string("[{}:{}] to ".format(*self.source_range()))
        printer.print_ssa_value(self.destination)
        printer.print_string("[{}:{}]".format(*self.destination_range()))
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([self.source.type, self.destination.type], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> CopyOp:
        def operand_and_range():
            operand = parser.parse_unresolved_operand()
            parser.parse_punctuation("[")
            begin = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_punctuation(":")
            end = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_punctuation("]")
            return operand, (begin, end)

        source, source_range = operand_and_range()
        parser.parse_keyword("to")
        destination, destination_range = operand_and_range()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation(",")
        destination_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(source, source_type),
            source_range,
            parser.resolve_operand(destination, destination_type),
            destination_range,
        )
        op.attributes.update(attrs)
        return op


# -- operands with slice rules ----------------------------------------------------------


def print_ruled_operands(printer: Printer, values: Sequence[SSAValue], rules: Sequence[SliceRuleMixin]) -> None:
    """`(%a whole, %x block : memref<f32>, memref<10xf32>)`"""
    printer.print_string("(")
    printer.print_list(
        list(zip(values, rules)),
        lambda p: (printer.print_ssa_value(p[0]), printer.print_string(f" {p[1].rule_text()}")),
    )
    if values:
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def parse_ruled_operands(parser: Parser, rule_type: type[SliceRuleMixin]) -> tuple[list[SSAValue], list]:
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")"):
        return [], []

    def parse_one():
        operand = parser.parse_unresolved_operand()
        return operand, rule_type.new(rule_type.parse_rule(parser))  # type: ignore[attr-defined]

    items = parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_one)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(items) != len(types):
        parser.raise_error(f"{count(len(items), 'operand')} but {count(len(types), 'type')}")
    return [parser.resolve_operand(o, t) for (o, _), t in zip(items, types)], [r for _, r in items]


# -- the point-wise form -----------------------------------------------------------------


class _DynamicOp(DynamicSliceMixin, IRDLOperation):
    SCALAR_I32: ClassVar[Attribute] = MemRefType(i32, [])
    tensor = operand_def(MemRefType)
    offsets = var_operand_def(MemRefType)
    slice = operand_def(MemRefType)
    dims = prop_def(DenseArrayBase[I64])
    sizes = prop_def(DenseArrayBase[I64])
    traits = lazy_traits_def(lambda: (_IN_PROGRAM,))

    def __init__(
        self, tensor: SSAValue, offsets: Sequence[SSAValue], slice: SSAValue, dims: Sequence[int], sizes: Sequence[int]
    ):
        super().__init__(
            operands=[tensor, offsets, slice], properties={"dims": int_list(dims), "sizes": int_list(sizes)}
        )

    @staticmethod
    def shape_of(t: Attribute) -> tuple[int, ...]:
        assert isinstance(t, MemRefType)
        return tuple(t.get_shape())

    @staticmethod
    def element_of(t: Attribute) -> Attribute:
        assert isinstance(t, MemRefType)
        return t.element_type

    def verify_(self) -> None:
        for value in (self.tensor, *self.offsets, self.slice):
            variable_of(value)
        self.verify_box()


@irdl_op_definition
class DynamicSliceOp(_DynamicOp):
    """Copy the box of `tensor` at the offsets read from the variables `offsets` when
    the program runs into the variable `slice` (`ipu_lower.dialects.dynamic_slice`): how a
    step reads the elements or rows a loop counter picks (`A[t]`, `A[t, :]`).

    `ipu.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : memref<4x3xf32>, memref<3xf32>`
    """

    name = "ipu.dynamic_slice"
    KEYWORD: ClassVar[str] = "into"


@irdl_op_definition
class DynamicUpdateOp(_DynamicOp):
    """Copy the variable `slice` into the box of `tensor` at the offsets read from the
    variables `offsets` when the program runs: how a step writes what a loop counter picks."""

    name = "ipu.dynamic_update"
    KEYWORD: ClassVar[str] = "from"


@irdl_op_definition
class MatmulOp(MatmulMixin, IRDLOperation):
    """`out = alpha op(lhs) op(rhs) + beta out` of variables or views of them
    (`ipu_lower.dialects.matmul`), a program step that poplin plans: it chooses its own
    split of the work over the tiles and the exchange of the operands, so the op carries
    no tile map, and writes `out` in its layout.

    `ipu.matmul "mm" transpose %A, %B to %C beta 1.0 : memref<5x4xf32>, memref<5x6xf32>, memref<4x6xf32>`
    """

    name = "ipu.matmul"
    label = prop_def(StringAttr)
    lhs = operand_def(MemRefType)
    rhs = operand_def(MemRefType)
    out = operand_def(MemRefType)
    traits = lazy_traits_def(lambda: (_IN_PROGRAM,))

    def __init__(self, label: str, lhs: SSAValue, rhs: SSAValue, out: SSAValue, **product: float | bool):
        """`product`: alpha, beta, transpose_a, transpose_b."""
        properties = {"label": StringAttr(label), **self.product_properties(**product)}  # type: ignore[arg-type]
        super().__init__(operands=[lhs, rhs, out], properties=properties)

    @staticmethod
    def root(value: SSAValue) -> object:
        return variable_of(value)

    def verify_(self) -> None:
        self.verify_matmul()


@irdl_op_definition
class ReduceOp(ReduceMixin, IRDLOperation):
    """`input` reduced over `dims` into `out` (`ipu_lower.dialects.popops_reduce`), each a
    variable or a view of one (a box: a Poplar slice), a program step that popops plans:
    it chooses where the work runs and what moves, so the op carries no tile map.

    `ipu.reduce "Reduce" add %A to %s dims [0, 1] : memref<4x5xf32>, memref<1xf32>`
    """

    name = "ipu.reduce"
    label = prop_def(StringAttr)
    kind = prop_def(StringAttr)
    input = operand_def(MemRefType)
    out = operand_def(MemRefType)
    dims = prop_def(DenseArrayBase[I64])
    update = opt_prop_def(UnitAttr)
    traits = lazy_traits_def(lambda: (_IN_PROGRAM,))

    def __init__(self, label: str, kind: str, input: SSAValue, out: SSAValue, dims: Sequence[int], update: bool = False):
        super().__init__(operands=[input, out], properties=reduce_properties(label, kind, dims, update))

    @staticmethod
    def root(value: SSAValue) -> object:
        return variable_of(value)

    def verify_(self) -> None:
        check_writable(self.out, "ipu.reduce")
        self.verify_reduce()


@irdl_op_definition
class TiledMapOp(IRDLOperation):
    """A point-wise computation placed over `tile_map`: point k runs on the tile that
    holds element k, every `block`/`halo` operand is read around element k.

    The body has one block argument per input (the input itself); `ipu.access` reads an
    input at a constant offset from the point (none for a `whole` scalar); `ipu.yield`
    gives one value per output, written at the point. A `halo<l, h>` input may be read
    l elements before and h after the point (flat row-major offsets); a `block` input
    only at the point; a `neighbours` input anywhere (ipu-plan-exchange then gives it
    the halo its accesses need).
    """

    name = "ipu.tiled_map"
    label = prop_def(StringAttr)
    tile_map = prop_def(AnyTileMap)
    in_rules = prop_def(ArrayAttr[SliceAttr])
    out_rules = prop_def(ArrayAttr[SliceAttr])
    ins = var_operand_def(MemRefType)
    outs = var_operand_def(MemRefType)
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (_IN_PROGRAM, IsolatedFromAbove()))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        label: str,
        tile_map: AnyTileMap,
        ins: Sequence[tuple[SSAValue, SliceAttr]],
        outs: Sequence[tuple[SSAValue, SliceAttr]],
        body: Region,
    ):
        super().__init__(
            operands=[[v for v, _ in ins], [v for v, _ in outs]],
            properties={
                "label": StringAttr(label),
                "tile_map": tile_map,
                "in_rules": ArrayAttr([r for _, r in ins]),
                "out_rules": ArrayAttr([r for _, r in outs]),
            },
            regions=[body],
        )

    def verify_(self) -> None:
        label = self.label.data
        _check_tiles(self, self.tile_map)
        if len(self.in_rules.data) != len(self.ins) or len(self.out_rules.data) != len(self.outs):
            raise VerifyException(f"tiled map '{label}' needs one slice rule per operand")
        for value, rule in (*zip(self.ins, self.in_rules.data), *zip(self.outs, self.out_rules.data)):
            name = variable_of(value).var_name.data
            if not (rule.is_whole or rule.is_blockwise):
                raise VerifyException(f"tiled map '{label}' cannot connect '{name}' {rule.rule_text()}")
            if rule.is_whole and value.type.get_num_dims() != 0:  # type: ignore[union-attr]
                raise VerifyException(f"tiled map '{label}' reads array '{name}' whole; only scalars may be")
        for value, rule in zip(self.outs, self.out_rules.data):
            check_writable(value, f"tiled map '{label}'")
            name = variable_of(value).var_name.data
            if rule.is_whole and self.tile_map.total() > 1:
                raise VerifyException(f"tiled map '{label}' writes scalar '{name}' from every point")
            if rule.kind.data in ("halo", UNPLANNED):
                raise VerifyException(f"tiled map '{label}' writes '{name}' with a halo; outputs are written at the point")
            if any(v == value and r.kind.data in ("halo", UNPLANNED) for v, r in zip(self.ins, self.in_rules.data)):
                raise VerifyException(
                    f"tiled map '{label}' reads '{name}' with a halo and writes it: "
                    "a vertex would read what its neighbour writes"
                )
        rules = [*self.in_rules.data, *self.out_rules.data]
        values = [*self.ins, *self.outs]
        check_slices_inside(
            rules,
            self.tile_map,
            [num_elements(v.type) for v in values],
            [variable_of(v).var_name.data for v in values],
            [v.type.get_shape() for v in values],  # type: ignore[union-attr]
        )
        block = self.body.block
        if [a.type for a in block.args] != [v.type for v in self.ins]:
            raise VerifyException(f"body of tiled map '{label}' must take its inputs, in order")
        for op in block.walk():
            if not (
                op.dialect_name() in ("arith", "math")
                or isinstance(op, AccessOp | PointOp | YieldOp)
                or is_signedness_cast(op)
            ):
                raise VerifyException(
                    f"'{op.name}' is not allowed in tiled map '{label}' "
                    "(only arith, math, ipu.access, ipu.point and signedness casts)"
                )
            if any(not (on_ipu(r.type) or isinstance(r.type, IndexType)) for r in op.results):
                raise VerifyException(f"'{op.name}' in tiled map '{label}' computes a {op.results[0].type}")
        term = block.last_op
        assert isinstance(term, YieldOp)  # the terminator traits of the body ops see to it
        expected = [v.type.element_type for v in self.outs]  # type: ignore[union-attr]
        if [v.type for v in term.values] != expected:
            raise VerifyException(
                f"body of tiled map '{label}' yields {[str(v.type) for v in term.values]}, "
                f"expected {[str(t) for t in expected]}"
            )

    def rule_of_argument(self, arg: SSAValue) -> SliceAttr:
        index = self.body.block.args.index(arg)  # type: ignore[arg-type]
        return self.in_rules.data[index]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        printer.print_string(f" over {self.tile_map.runs_text()} ins")
        print_ruled_operands(printer, self.ins, self.in_rules.data)
        printer.print_string(" outs")
        print_ruled_operands(printer, self.outs, self.out_rules.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> TiledMapOp:
        label = parser.parse_str_literal()
        parser.parse_keyword("over")
        tile_map = _parse_map(parser)
        parser.parse_keyword("ins")
        ins = parse_ruled_operands(parser, SliceAttr)
        parser.parse_keyword("outs")
        outs = parse_ruled_operands(parser, SliceAttr)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(label, tile_map, list(zip(*ins)), list(zip(*outs)), parser.parse_region())
        if attrs:
            op.attributes.update(attrs.data)
        return op


@irdl_op_definition
class AccessOp(IRDLOperation):
    """Read an input of the enclosing `ipu.tiled_map` (or `ipu.tiled_reduce`) at a
    constant offset (one per dimension) from the current point:
    `%v = ipu.access %x[-1, 0] : memref<8x8xf32>`. A scalar input is read with no
    offsets: `ipu.access %a[] : memref<f32>`."""

    name = "ipu.access"
    tensor = operand_def(MemRefType)
    offset = prop_def(DenseArrayBase[I64])
    result = result_def()
    traits = lazy_traits_def(lambda: (Pure(), HasParent(TiledMapOp, TiledReduceOp)))

    def __init__(self, tensor: SSAValue, offset: Sequence[int]):
        super().__init__(
            operands=[tensor],
            properties={"offset": DenseArrayBase.from_list(i64, list(offset))},
            result_types=[tensor.type.element_type],  # type: ignore[attr-defined]
        )

    def offsets(self) -> list[int]:
        return list(self.offset.get_values())  # type: ignore[arg-type]

    def flat_offset(self) -> int:
        """The offset in row-major elements of the input."""
        shape = self.tensor.type.get_shape()  # type: ignore[union-attr]
        strides = [prod(shape[i + 1 :]) for i in range(len(shape))]
        return sum(o * s for o, s in zip(self.offsets(), strides))

    def verify_(self) -> None:
        memref = self.tensor.type
        assert isinstance(memref, MemRefType)
        if self.result.type != memref.element_type:
            raise VerifyException(f"ipu.access yields {self.result.type}, not the element type {memref.element_type}")
        if len(self.offsets()) != memref.get_num_dims():
            raise VerifyException(
                f"ipu.access of a rank-{memref.get_num_dims()} input needs {memref.get_num_dims()} offsets"
            )
        tiled_map = self.parent_op()
        assert isinstance(tiled_map, TiledMapOp | TiledReduceOp)
        if self.tensor not in tiled_map.body.block.args:
            raise VerifyException(f"ipu.access must read a block argument of its {tiled_map.name}")
        if len(tiled_map.in_rules.data) != len(tiled_map.ins) or self.tensor.index >= len(tiled_map.ins):  # type: ignore[attr-defined]
            return  # the parent reports it
        rule = tiled_map.rule_of_argument(self.tensor)
        name = variable_of(tiled_map.ins[self.tensor.index]).var_name.data  # type: ignore[attr-defined]
        if rule.is_unplanned:  # ipu-plan-exchange sizes the halo from these offsets
            return
        # over a grid, the halo widens the box in each dimension; else it is flat
        if isinstance(tiled_map.tile_map, GridMapAttr):
            offsets, ring, shown = self.offsets(), rule.ring(len(self.offsets())), str(self.offsets())
        else:
            offsets, ring, shown = [self.flat_offset()], [rule.halo], str(self.flat_offset())
        if any(offsets) and rule.kind.data != "halo":
            raise VerifyException(f"access at offset {shown} of '{name}', which is connected {rule.rule_text()} without a halo")
        if not all(-lo <= o <= hi for o, (lo, hi) in zip(offsets, ring)):
            halo = rule.rule_text() if rule.per_dimension else f"halo <{rule.halo[0]}, {rule.halo[1]}>"
            raise VerifyException(f"access at offset {shown} of '{name}' is outside its {halo}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor)
        printer.print_string("[" + ", ".join(map(str, self.offsets())) + "]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)

    @classmethod
    def parse(cls, parser: Parser) -> AccessOp:
        tensor = parser.parse_unresolved_operand()
        offsets = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        memref = parser.parse_type()
        if not isinstance(memref, MemRefType):
            parser.raise_error("ipu.access reads a memref")
        op = cls(parser.resolve_operand(tensor, memref), offsets)
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a tiled map's body with the values of its outputs at the point (a tiled
    reduction's with the one value the point contributes)."""

    name = "ipu.yield"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(TiledMapOp, TiledReduceOp)))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


# -- control programs ---------------------------------------------------------------------


def _verify_predicate(op: Operation, predicate: SSAValue) -> None:
    memref = predicate.type
    assert isinstance(memref, MemRefType)
    name = variable_of(predicate).var_name.data
    if memref.get_num_dims() != 0:
        raise VerifyException(f"'{op.name}' predicate '{name}' must be a scalar, not {memref}")
    if not isinstance(memref.element_type, IntegerType):
        raise VerifyException(f"'{op.name}' predicate '{name}' must be a bool or an integer, not {memref.element_type}")


def _print_predicate(printer: Printer, predicate: SSAValue) -> None:
    printer.print_string(" ")
    printer.print_ssa_value(predicate)
    printer.print_string(" : ")
    printer.print_attribute(predicate.type)


def _parse_predicate(parser: Parser) -> SSAValue:
    operand = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    return parser.resolve_operand(operand, parser.parse_type())


@irdl_op_definition
class RepeatOp(IRDLOperation):
    """Run the body `count` times (`poplar::program::Repeat`): `ipu.repeat 10 { ... }`."""

    name = "ipu.repeat"
    count = prop_def(IntegerAttr[I64])
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (NoTerminator(), _IN_PROGRAM))

    def __init__(self, count: int, body: Region | None = None):
        super().__init__(properties={"count": IntegerAttr(count, i64)}, regions=[body or Region(Block())])

    def verify_(self) -> None:
        if self.count.value.data < 0:
            raise VerifyException(f"ipu.repeat count must not be negative, got {self.count.value.data}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.count.value.data}")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        print_body(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> RepeatOp:
        count = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(count, parse_body(parser))
        if attrs:
            op.attributes.update(attrs.data)
        return op


@irdl_op_definition
class RepeatWhileOp(IRDLOperation):
    """Run the condition region, then, while the scalar `predicate` variable is true
    (non-zero), the body and the condition again (`poplar::program::RepeatWhileTrue`):
    `ipu.repeat_while %p : memref<i1> { condition } do { body }`."""

    name = "ipu.repeat_while"
    predicate = operand_def(MemRefType)
    condition = region_def("single_block")
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (NoTerminator(), _IN_PROGRAM))

    def __init__(self, predicate: SSAValue, condition: Region | None = None, body: Region | None = None):
        super().__init__(operands=[predicate], regions=[condition or Region(Block()), body or Region(Block())])

    def verify_(self) -> None:
        _verify_predicate(self, self.predicate)

    def print(self, printer: Printer) -> None:
        _print_predicate(printer, self.predicate)
        print_regions(printer, self, [("", self.condition), ("do", self.body)])

    @classmethod
    def parse(cls, parser: Parser) -> RepeatWhileOp:
        predicate = _parse_predicate(parser)
        attrs, (condition, body) = parse_regions(parser, ["do"])
        op = cls(predicate, condition, body)
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class IfOp(IRDLOperation):
    """Run the then region when the scalar `predicate` variable is true (non-zero), else
    the else region (`poplar::program::If`): `ipu.if %p : memref<i1> { } else { }`."""

    name = "ipu.if"
    predicate = operand_def(MemRefType)
    then_region = region_def("single_block")
    else_region = region_def("single_block")
    traits = lazy_traits_def(lambda: (NoTerminator(), _IN_PROGRAM))

    def __init__(self, predicate: SSAValue, then_region: Region | None = None, else_region: Region | None = None):
        super().__init__(operands=[predicate], regions=[then_region or Region(Block()), else_region or Region(Block())])

    def verify_(self) -> None:
        _verify_predicate(self, self.predicate)

    def print(self, printer: Printer) -> None:
        _print_predicate(printer, self.predicate)
        print_regions(printer, self, [("", self.then_region), ("else", self.else_region)])

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        predicate = _parse_predicate(parser)
        attrs, (then_region, else_region) = parse_regions(parser, ["else"])
        op = cls(predicate, then_region, else_region)
        op.attributes.update(attrs)
        return op


_IN_PROGRAM = HasParent(GraphOp, RepeatOp, RepeatWhileOp, IfOp)
"""Where program steps (copies, maps, compute sets, control ops) may stand."""


# -- codelets and their placement ------------------------------------------------------


@irdl_op_definition
class CodeletOp(CodeletOpMixin, IRDLOperation):
    """What one vertex does, as IR: its block arguments are its fields, its body the
    vertex's code (loops, loads, stores; see `ipu_lower.dialects.codelet_body`).

    `ipu.codelet @axpy(%a: memref<f32> input "a", %y: memref<?xf32> inout "y") { ... }`
    """

    name = "ipu.codelet"
    sym_name = prop_def(SymbolNameConstraint())
    fields = prop_def(ArrayAttr[FieldAttr])
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), HasParent(GraphOp), NoTerminator())
    FIELD_ATTRIBUTE: ClassVar[type] = FieldAttr

    @staticmethod
    def worker_ops() -> tuple[type[IRDLOperation], ...]:
        return (WorkerIdOp, NumWorkersOp, BlockStartOp, BlockExtentOp)


@irdl_op_definition
class PointOp(IRDLOperation):
    """The current point of the enclosing `ipu.tiled_map`, as the row-major index of the
    element it writes: `%p = ipu.point` (for masks over boxes that are not contiguous)."""

    name = "ipu.point"
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasParent(TiledMapOp))
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])


@irdl_op_definition
class BlockStartOp(WorkerOpMixin, IRDLOperation):
    """The row-major index of the first element of this vertex's block (what host code
    knows of each vertex as `block.begin`)."""

    name = "ipu.block_start"
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasAncestor(CodeletOp))


@irdl_op_definition
class BlockExtentOp(BlockExtentMixin, IRDLOperation):
    """The extent of this vertex's box along dimension `dim` (vertices over a grid map;
    what host code knows of each vertex as `block.end[dim] - block.begin[dim]`):
    `%w = ipu.block_extent 1`."""

    name = "ipu.block_extent"
    dim = prop_def(IntegerAttr[I64])
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasAncestor(CodeletOp))


@irdl_op_definition
class WorkerIdOp(WorkerOpMixin, IRDLOperation):
    """The worker thread running this share of the vertex (0 .. num_workers - 1)."""

    name = "ipu.worker_id"
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasAncestor(CodeletOp))


@irdl_op_definition
class NumWorkersOp(WorkerOpMixin, IRDLOperation):
    """The number of worker threads that run each vertex of the codelet."""

    name = "ipu.num_workers"
    result = result_def(IndexType)
    traits = traits_def(Pure(), HasAncestor(CodeletOp))


@irdl_op_definition
class ComputeSetOp(LabelledBodyMixin, IRDLOperation):
    """A compute phase: all its vertices run in parallel, then the tiles synchronise."""

    name = "ipu.compute_set"
    label = prop_def(StringAttr)
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (NoTerminator(), _IN_PROGRAM))



def codelet_named(op: Operation, name: str) -> CodeletOp | None:
    """The `ipu.codelet` called `name` in the graph of `op`."""
    graph = graph_of(op)
    if graph is None:
        return None
    return codelet_in(graph.body.block, name, CodeletOp)


@irdl_op_definition
class VerticesOp(IRDLOperation):
    """One vertex of `codelet` per block of `tile_map`, each operand connected to the
    codelet's field of the same position by its slice rule:

    `ipu.vertices @axpy over <0 to 1424 x 68, 1424 to 1472 x 66> (%a whole, %y block : memref<f32>, memref<100000xf32>)`
    """

    name = "ipu.vertices"
    codelet = prop_def(SymbolRefAttr)
    tile_map = prop_def(AnyTileMap)
    rules = prop_def(ArrayAttr[SliceAttr])
    tensors = var_operand_def(MemRefType)
    traits = traits_def(HasParent(ComputeSetOp))

    def __init__(self, codelet: str, tile_map: AnyTileMap, operands: Sequence[tuple[SSAValue, SliceAttr]]):
        super().__init__(
            operands=[[v for v, _ in operands]],
            properties={
                "codelet": SymbolRefAttr(codelet),
                "tile_map": tile_map,
                "rules": ArrayAttr([r for _, r in operands]),
            },
        )

    def verify_(self) -> None:
        _check_tiles(self, self.tile_map)
        codelet = codelet_named(self, self.codelet.root_reference.data)
        if codelet is None:
            raise VerifyException(f"ipu.vertices places unknown codelet {self.codelet}")
        fields = codelet.field_names()
        if len(fields) != len(self.tensors) or len(self.rules.data) != len(self.tensors):
            raise VerifyException(
                f"codelet {self.codelet} has {count(len(fields), 'field')} but ipu.vertices connects "
                f"{count(len(self.tensors), 'tensor')} with {count(len(self.rules.data), 'slice rule')}"
            )
        names = [variable_of(v).var_name.data for v in self.tensors]
        for field, value in zip(codelet.fields.data, self.tensors):
            if field.direction.data != "input":
                check_writable(value, f"ipu.vertices of {self.codelet}")
        verify_placement(
            str(self.codelet),
            fields,
            [a.type for a in codelet.body.block.args],
            self.rules.data,
            [(n, v.type.element_type, num_elements(v.type)) for n, v in zip(names, self.tensors)],  # type: ignore[union-attr]
        )
        sizes = [num_elements(v.type) for v in self.tensors]
        check_slices_inside(self.rules.data, self.tile_map, sizes, names, [v.type.get_shape() for v in self.tensors])  # type: ignore[union-attr]
        if not isinstance(self.tile_map, GridMapAttr) and any(isinstance(o, BlockExtentOp) for o in codelet.body.walk()):
            raise VerifyException(f"codelet {self.codelet} reads block extents, which only vertices over a grid map have")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.codelet)
        printer.print_string(f" over {self.tile_map.runs_text()} ")
        print_ruled_operands(printer, self.tensors, self.rules.data)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> VerticesOp:
        codelet = parser.parse_attribute()
        if not isinstance(codelet, SymbolRefAttr):
            parser.raise_error("expected a codelet symbol")
        parser.parse_keyword("over")
        tile_map = _parse_map(parser)
        values, rules = parse_ruled_operands(parser, SliceAttr)
        op = cls(codelet.root_reference.data, tile_map, list(zip(values, rules)))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op


FOLD_SPLITS = ("outputs", "folded")


@irdl_op_definition
class TiledReduceOp(IRDLOperation):
    """A reduction placed over `tile_map`: one vertex per block, each combining the
    values of its points with `kind` (add, mul, min, max) into results.

    `ipu.tiled_reduce "m" add over <0 to 4 x 250> fold <1 x ? x 1> split folded
       ins(%x block : memref<1000xf32>) outs(%p partials<6> : memref<24xf32>) { ... }`

    Each vertex sees the slices of its streamed inputs (all connected by the same rule:
    `block`, `rows<n>` or `columns<n>`) as the points of an A x B x C box, row-major, the
    `fold` sizes, one of them `?` (the slice length over the other two). The body runs
    at every point like a tiled map's (reading the inputs at the point, scalars
    `whole`) and yields one value; the values are combined along B into the A x C
    results of the vertex, in the accumulator type (`ipu_lower.dialects.reduction`).
    `split outputs`: the workers share the results, and the vertex writes them into its
    slice of the output (`partials<n>`, `block`, or `whole` for one scalar result),
    converted to its element type; with `accumulate`, combined with the values there
    (the destination of a write-conflict resolution). `split folded`: the workers share
    B, each its own A x C partial results, worker w writing elements [w A C,
    (w + 1) A C) of the vertex's `partials` slice.
    """

    name = "ipu.tiled_reduce"
    label = prop_def(StringAttr)
    kind = prop_def(StringAttr)
    tile_map = prop_def(TileMapAttr)
    fold = prop_def(DenseArrayBase[I64])
    split = prop_def(StringAttr)
    accumulate = opt_prop_def(UnitAttr)
    in_rules = prop_def(ArrayAttr[SliceAttr])
    out_rule = prop_def(SliceAttr)
    ins = var_operand_def(MemRefType)
    out = operand_def(MemRefType)
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (_IN_PROGRAM, IsolatedFromAbove()))

    def __init__(
        self,
        label: str,
        kind: str,
        tile_map: TileMapAttr,
        fold: Sequence[int | None],
        split: str,
        ins: Sequence[tuple[SSAValue, SliceAttr]],
        out: tuple[SSAValue, SliceAttr],
        body: Region,
        accumulate: bool = False,
    ):
        properties: dict[str, Attribute] = {
            "label": StringAttr(label),
            "kind": StringAttr(kind),
            "tile_map": tile_map,
            "fold": DenseArrayBase.from_list(i64, [-1 if f is None else f for f in fold]),
            "split": StringAttr(split),
            "in_rules": ArrayAttr([r for _, r in ins]),
            "out_rule": out[1],
        }
        if accumulate:
            properties["accumulate"] = UnitAttr()
        super().__init__(operands=[[v for v, _ in ins], out[0]], properties=properties, regions=[body])

    def fold_sizes(self) -> list[int | None]:
        """(A, B, C), None for the size that follows from the slice length."""
        return [None if v < 0 else v for v in self.fold.get_values()]  # type: ignore[union-attr]

    def results_per_vertex(self) -> int | None:
        """A x C, None when one of them follows from the slice length."""
        a, _, c = self.fold_sizes()
        return None if a is None or c is None else a * c

    def streamed_rule(self) -> SliceAttr | None:
        return next((r for r in self.in_rules.data if not r.is_whole), None)

    def rule_of_argument(self, arg: SSAValue) -> SliceAttr:
        index = self.body.block.args.index(arg)  # type: ignore[arg-type]
        return self.in_rules.data[index]

    def verify_(self) -> None:
        from ipu_lower.dialects.reduction import REDUCTION_KINDS, accumulator_type

        label = self.label.data
        what = f"tiled reduction '{label}'"
        _check_tiles(self, self.tile_map)
        if self.kind.data not in REDUCTION_KINDS:
            raise VerifyException(f"{what}: unknown reduction '{self.kind.data}' (expected {', '.join(REDUCTION_KINDS)})")
        fold = self.fold_sizes()
        if len(fold) != 3 or fold.count(None) != 1 or any(f is not None and f < 1 for f in fold):
            raise VerifyException(f"{what}: fold needs three sizes, exactly one of them '?', the others positive")
        if self.split.data not in FOLD_SPLITS:
            raise VerifyException(f"{what}: split '{self.split.data}' is not one of {', '.join(FOLD_SPLITS)}")
        folded = self.split.data == "folded"
        if folded and self.accumulate is not None:
            raise VerifyException(f"{what}: workers that split the folded values write partial results; they cannot accumulate")
        if len(self.in_rules.data) != len(self.ins):
            raise VerifyException(f"{what} needs one slice rule per input")
        streamed = [r for r in self.in_rules.data if not r.is_whole]
        for value, rule in zip(self.ins, self.in_rules.data):
            name = variable_of(value).var_name.data
            if rule.is_whole and value.type.get_num_dims() != 0:  # type: ignore[union-attr]
                raise VerifyException(f"{what} reads array '{name}' whole; only scalars may be")
            if not rule.is_whole and rule.kind.data not in ("block", "rows", "columns"):
                raise VerifyException(f"{what} cannot fold '{name}' connected {rule.rule_text()}")
        if not streamed:
            raise VerifyException(f"{what} folds no input: connect one block, rows<n> or columns<n>")
        if any(r != streamed[0] for r in streamed):
            raise VerifyException(f"{what} connects its inputs by different rules: {', '.join(r.rule_text() for r in streamed)}")
        out_name = variable_of(self.out).var_name.data
        rule = self.out_rule
        results = self.results_per_vertex()
        if rule.kind.data not in ("partials", "block", "whole"):
            raise VerifyException(f"{what} cannot write '{out_name}' {rule.rule_text()}")
        if rule.is_whole and (self.out.type.get_num_dims() != 0 or self.tile_map.num_blocks() != 1):  # type: ignore[union-attr]
            raise VerifyException(f"{what} writes '{out_name}' whole: only one vertex may, into a scalar")
        if folded and (rule.kind.data != "partials" or results is None):
            raise VerifyException(f"{what}: workers that split the folded values write a fixed number of partial results (partials<n>)")
        if rule.kind.data == "partials":
            if results is None:
                raise VerifyException(f"{what} writes partials<{rule.size}> but its number of results per vertex varies")
            graph = graph_of(self)
            workers = ARCHS[graph.arch.data].workers_per_tile if graph and graph.arch.data in ARCHS else None
            expected = results * (workers or 0) if folded else results
            if (not folded or workers is not None) and rule.size != expected:
                per = f"{workers} workers x {results}" if folded else f"{results}"
                raise VerifyException(f"{what} writes partials<{rule.size}> but each vertex has {per} results")
        values = [*self.ins, self.out]
        rules = [*self.in_rules.data, rule]
        check_slices_inside(
            rules, self.tile_map, [num_elements(v.type) for v in values], [variable_of(v).var_name.data for v in values]
        )
        known = prod(f for f in fold if f is not None)
        source = next(v for v, r in zip(self.ins, self.in_rules.data) if r == streamed[0])
        for run in self.tile_map.runs():
            length = streamed[0].slice_size(run.count, num_elements(source.type))
            if length % known:
                raise VerifyException(
                    f"{what}: the vertices on tiles {run.first} to {run.end} see {length} values of "
                    f"'{variable_of(source).var_name.data}', which is no whole number of {known} (the fold's known sizes)"
                )
        block = self.body.block
        if [a.type for a in block.args] != [v.type for v in self.ins]:
            raise VerifyException(f"body of {what} must take its inputs, in order")
        for op in block.walk():
            if not (op.dialect_name() in ("arith", "math") or isinstance(op, AccessOp | YieldOp) or is_signedness_cast(op)):
                raise VerifyException(f"'{op.name}' is not allowed in {what} (only arith, math, ipu.access, signedness casts)")
            if any(not on_ipu(r.type) for r in op.results):
                raise VerifyException(f"'{op.name}' in {what} computes a {op.results[0].type}")
        term = block.last_op
        assert isinstance(term, YieldOp)
        if len(term.values) != 1:
            raise VerifyException(f"body of {what} must yield one value, not {len(term.values)}")
        element = self.out.type.element_type  # type: ignore[union-attr]
        if accumulator_type(term.values[0].type) != accumulator_type(element):
            raise VerifyException(
                f"{what} yields {term.values[0].type} values, which do not reduce into {element} results"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        fold = " x ".join("?" if f is None else str(f) for f in self.fold_sizes())
        printer.print_string(f" {self.kind.data} over {self.tile_map.runs_text()} fold <{fold}> split {self.split.data}")
        if self.accumulate is not None:
            printer.print_string(" accumulate")
        printer.print_string(" ins")
        print_ruled_operands(printer, self.ins, self.in_rules.data)
        printer.print_string(" outs")
        print_ruled_operands(printer, [self.out], [self.out_rule])
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> TiledReduceOp:
        from ipu_lower.dialects.reduction import REDUCTION_KINDS

        label = parser.parse_str_literal()
        kind = parser.parse_keyword_in(REDUCTION_KINDS, " (a reduction)")
        parser.parse_keyword("over")
        tile_map = TileMapAttr.new(TileMapAttr.parse_runs(parser))
        parser.parse_keyword("fold")
        parser.parse_punctuation("<")
        fold: list[int | None] = []
        for k in range(3):
            if k:
                parser.parse_keyword("x")
            fold.append(None if parser.parse_optional_punctuation("?") else parser.parse_integer(allow_boolean=False))
        parser.parse_punctuation(">")
        parser.parse_keyword("split")
        split = parser.parse_keyword_in(FOLD_SPLITS, " (what the workers split)")
        accumulate = parser.parse_optional_keyword("accumulate") is not None
        parser.parse_keyword("ins")
        ins = parse_ruled_operands(parser, SliceAttr)
        parser.parse_keyword("outs")
        outs = parse_ruled_operands(parser, SliceAttr)
        if len(outs[0]) != 1:
            parser.raise_error("a tiled reduction writes one output")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(label, kind, tile_map, fold, split, list(zip(*ins)), (outs[0][0], outs[1][0]), parser.parse_region(), accumulate)
        if attrs:
            op.attributes.update(attrs.data)
        return op


IPU = Dialect(
    "ipu",
    [
        GraphOp,
        VariableOp,
        RemoteBufferOp,
        RemoteLoadOp,
        RemoteStoreOp,
        ViewOp,
        FromHostOp,
        ToHostOp,
        CopyOp,
        TiledMapOp,
        AccessOp,
        PointOp,
        YieldOp,
        RepeatOp,
        RepeatWhileOp,
        IfOp,
        DynamicSliceOp,
        DynamicUpdateOp,
        MatmulOp,
        ReduceOp,
        CodeletOp,
        WorkerIdOp,
        NumWorkersOp,
        BlockStartOp,
        BlockExtentOp,
        ComputeSetOp,
        VerticesOp,
        TiledReduceOp,
    ],
    [TileMapAttr, GridMapAttr, SliceAttr, FieldAttr],
)
