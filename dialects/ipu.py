"""The `ipu` dialect: the program at tile level.

An `ipu.graph` owns tile-mapped tensors (`ipu.variable`, each with a `#ipu.tile_map`
saying which tile holds which slice of its row-major elements) and a program run in
order: host transfers (`ipu.from_host`, `ipu.to_host`), partitioned elementwise maps
(`ipu.tiled_map`, before vertex extraction) and compute sets (`ipu.compute_set`) of
vertex instances (`ipu.vertex`) running outlined codelets (`ipu.codelet`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import prod

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    ParametrizedAttribute,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from ipu_lower.arch import ARCHS
from ipu_lower.names import is_c_identifier


def num_elements(t: Attribute) -> int:
    assert isinstance(t, MemRefType)
    return prod(t.get_shape())


@irdl_attr_definition
class TileMapAttr(ParametrizedAttribute):
    """Where the row-major elements of a tensor live: consecutive blocks in tile order.

    `#ipu.tile_map<0 to 1424 x 68, 1424 to 1472 x 66>` means tiles 0..1423 hold 68
    elements each (tile 0 elements [0, 68), tile 1 [68, 136), ...), then tiles
    1424..1471 hold 66 each, continuing where the previous group stopped.
    """

    name = "ipu.tile_map"
    groups: ArrayAttr[IntAttr]
    """Flat (first_tile, end_tile, elements_per_tile) triples."""

    def __init__(self, groups: Sequence[tuple[int, int, int]]):
        super().__init__(ArrayAttr([IntAttr(v) for g in groups for v in g]))

    def triples(self) -> list[tuple[int, int, int]]:
        v = [a.data for a in self.groups.data]
        return [(v[i], v[i + 1], v[i + 2]) for i in range(0, len(v), 3)]

    def intervals(self) -> Iterator[tuple[int, int, int]]:
        """(tile, begin, end) for each tile holding elements, in element order."""
        offset = 0
        for first, end, count in self.triples():
            for tile in range(first, end):
                yield tile, offset, offset + count
                offset += count

    def total(self) -> int:
        return sum((end - first) * count for first, end, count in self.triples())

    def max_per_tile(self) -> int:
        return max((count for _, _, count in self.triples()), default=0)

    def last_tile(self) -> int:
        return max((end - 1 for _, end, _ in self.triples()), default=-1)

    def owner(self, begin: int, end: int) -> int | None:
        """The tile holding all of [begin, end), or None if it is split or unmapped."""
        offset = 0
        for first, last, count in self.triples():
            size = (last - first) * count
            if offset <= begin < offset + size:
                tile = first + (begin - offset) // count
                tile_end = offset + (tile - first + 1) * count
                return tile if end <= tile_end else None
            offset += size
        return None

    def verify(self) -> None:
        if len(self.groups.data) % 3:
            raise VerifyException("#ipu.tile_map needs (first, end, count) triples")
        previous_end = 0
        for first, end, count in self.triples():
            if first < previous_end or end <= first:
                raise VerifyException(
                    f"#ipu.tile_map groups must cover increasing, non-empty tile ranges "
                    f"(group {first} to {end} starts before tile {previous_end} or is empty)"
                )
            if count <= 0:
                raise VerifyException(f"#ipu.tile_map group holds {count} elements per tile")
            previous_end = end

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def parse_group() -> tuple[int, int, int]:
            first = parser.parse_integer(allow_negative=False)
            parser.parse_keyword("to")
            end = parser.parse_integer(allow_negative=False)
            parser.parse_keyword("x")
            return first, end, parser.parse_integer(allow_negative=False)

        groups = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_group)
        return (ArrayAttr([IntAttr(v) for g in groups for v in g]),)

    def print_parameters(self, printer: Printer) -> None:
        text = ", ".join(f"{f} to {e} x {c}" for f, e, c in self.triples())
        printer.print_string(f"<{text}>")


_DIRECTIONS = ("input", "output", "inout")


@irdl_attr_definition
class FieldAttr(ParametrizedAttribute):
    """A codelet field: `#ipu.field<input "x" vector f32>` (or `scalar`)."""

    name = "ipu.field"
    field_name: StringAttr
    direction: StringAttr
    is_vector: IntAttr
    element_type: Attribute

    def __init__(self, name: str, direction: str, is_vector: bool, element_type: Attribute):
        super().__init__(StringAttr(name), StringAttr(direction), IntAttr(int(is_vector)), element_type)

    @property
    def readable(self) -> bool:
        return self.direction.data in ("input", "inout")

    @property
    def writable(self) -> bool:
        return self.direction.data in ("output", "inout")

    def verify(self) -> None:
        if not is_c_identifier(self.field_name.data):
            raise VerifyException(f"field name '{self.field_name.data}' is not a C++ identifier")
        if self.direction.data not in _DIRECTIONS:
            raise VerifyException(
                f"field direction '{self.direction.data}' is not one of {', '.join(_DIRECTIONS)}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            direction = parser.parse_identifier()
            name = parser.parse_str_literal()
            shape = parser.parse_identifier()
            if shape not in ("vector", "scalar"):
                parser.raise_error("expected 'vector' or 'scalar'")
            element_type = parser.parse_type()
        return (StringAttr(name), StringAttr(direction), IntAttr(int(shape == "vector")), element_type)

    def print_parameters(self, printer: Printer) -> None:
        shape = "vector" if self.is_vector.data else "scalar"
        printer.print_string(f"<{self.direction.data} ")
        printer.print_string_literal(self.field_name.data)
        printer.print_string(f" {shape} ")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


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

    assembly_format = "$sym_name `arch` $arch `args` $args attr-dict-with-keyword $body"

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
        return {
            op.var_name.data: op for op in self.body.block.ops if isinstance(op, VariableOp)
        }

    def verify_(self) -> None:
        if self.arch.data not in ARCHS:
            raise VerifyException(
                f"unknown IPU architecture '{self.arch.data}' (known: {', '.join(ARCHS)})"
            )
        tiles = ARCHS[self.arch.data].tiles
        variables = self.variables()
        for op in self.body.block.ops:
            if isinstance(op, VariableOp) and op.tile_map.last_tile() >= tiles:
                raise VerifyException(
                    f"variable '{op.var_name.data}' is mapped to tile "
                    f"{op.tile_map.last_tile()} but {self.arch.data} has {tiles} tiles"
                )
        for arg in self.args.data:
            if arg.data not in variables:
                raise VerifyException(f"argument '{arg.data}' has no ipu.variable")


@irdl_op_definition
class VariableOp(IRDLOperation):
    """A tensor in tile memory, laid out over tiles by `tile_map`."""

    name = "ipu.variable"
    var_name = prop_def(StringAttr)
    tile_map = prop_def(TileMapAttr)
    result = result_def(MemRefType)
    traits = traits_def(HasParent(GraphOp))

    assembly_format = "$var_name `mapping` $tile_map attr-dict `:` type($result)"

    def __init__(self, name: str, type: MemRefType, tile_map: TileMapAttr):
        super().__init__(
            properties={"var_name": StringAttr(name), "tile_map": tile_map},
            result_types=[type],
        )

    def verify_(self) -> None:
        if self.result.type.get_shape().count(DYNAMIC_INDEX):  # type: ignore[union-attr]
            raise VerifyException(f"variable '{self.var_name.data}' must have a static shape")
        elements = num_elements(self.result.type)
        if self.tile_map.total() != elements:
            raise VerifyException(
                f"tile map of '{self.var_name.data}' covers {self.tile_map.total()} "
                f"elements but the tensor has {elements}"
            )


def _variable_of(value: SSAValue) -> VariableOp:
    owner = value.owner
    if not isinstance(owner, VariableOp):
        raise VerifyException("operand must be the result of an ipu.variable")
    return owner


class _HostTransferOp(IRDLOperation):
    """Moves a whole variable between the device and the host argument of the same name."""

    tensor = operand_def(MemRefType)
    traits = traits_def(HasParent(GraphOp))
    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue):
        super().__init__(operands=[tensor])

    def verify_(self) -> None:
        _variable_of(self.tensor)


@irdl_op_definition
class FromHostOp(_HostTransferOp):
    """Copy the host argument of the same name into the tensor."""

    name = "ipu.from_host"


@irdl_op_definition
class ToHostOp(_HostTransferOp):
    """Copy the tensor back into the host argument of the same name."""

    name = "ipu.to_host"


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
    traits = traits_def(HasParent(GraphOp))

    def __init__(
        self,
        source: SSAValue,
        source_range: tuple[int, int],
        destination: SSAValue,
        destination_range: tuple[int, int],
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
        for value, (begin, end) in (
            (self.source, self.source_range()),
            (self.destination, self.destination_range()),
        ):
            var = _variable_of(value)
            if not 0 <= begin < end <= num_elements(value.type):
                raise VerifyException(
                    f"copy range [{begin}:{end}] of '{var.var_name.data}' is empty or out of bounds"
                )
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
            begin = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(":")
            end = parser.parse_integer(allow_negative=False)
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


def _print_operand_group(printer: Printer, keyword: str, values: Sequence[SSAValue]):
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_ssa_value)
    if values:
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def _parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    parser.parse_keyword(keyword)
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")"):
        return []
    names = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"{len(names)} operands but {len(types)} types")
    return [parser.resolve_operand(n, t) for n, t in zip(names, types)]


@irdl_op_definition
class TiledMapOp(IRDLOperation):
    """An elementwise map partitioned owner-computes over tiles.

    Element k of the iteration space is computed on the tile that `tile_map` gives it.
    Each input is read at element k, or is a rank-0 tensor read whole (a broadcast);
    the body gets one block argument per input and yields one value per output.
    Outputs are written at element k. Every non-scalar operand has the same tile map
    as the op, so all accesses are tile-local.
    """

    name = "ipu.tiled_map"
    label = prop_def(StringAttr)
    tile_map = prop_def(TileMapAttr)
    ins = var_operand_def(MemRefType)
    outs = var_operand_def(MemRefType)
    body = region_def("single_block")
    traits = traits_def(HasParent(GraphOp))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        label: str,
        tile_map: TileMapAttr,
        ins: Sequence[SSAValue],
        outs: Sequence[SSAValue],
        body: Region,
    ):
        super().__init__(
            operands=[ins, outs],
            properties={"label": StringAttr(label), "tile_map": tile_map},
            regions=[body],
        )

    def verify_(self) -> None:
        for value in (*self.ins, *self.outs):
            var = _variable_of(value)
            if num_elements(value.type) == 1 and value.type.get_num_dims() == 0:  # type: ignore[union-attr]
                continue
            if var.tile_map != self.tile_map:
                raise VerifyException(
                    f"'{var.var_name.data}' is not laid out like the iterations of "
                    f"'{self.label.data}': {var.tile_map} vs {self.tile_map}"
                )
        for value in self.outs:
            if value.type.get_num_dims() == 0 and self.tile_map.total() > 1:  # type: ignore[union-attr]
                raise VerifyException(
                    f"'{self.label.data}' writes scalar '{_variable_of(value).var_name.data}' "
                    "from every iteration"
                )
        _verify_body(self.body.block, [v.type.element_type for v in self.ins],  # type: ignore[union-attr]
                     [v.type.element_type for v in self.outs], self.label.data)  # type: ignore[union-attr]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)
        printer.print_string(" over ")
        printer.print_attribute(self.tile_map)
        _print_operand_group(printer, "ins", self.ins)
        _print_operand_group(printer, "outs", self.outs)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> TiledMapOp:
        label = parser.parse_str_literal()
        parser.parse_keyword("over")
        tile_map = parser.parse_attribute()
        if not isinstance(tile_map, TileMapAttr):
            parser.raise_error("expected an #ipu.tile_map")
        ins = _parse_operand_group(parser, "ins")
        outs = _parse_operand_group(parser, "outs")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(label, tile_map, ins, outs, parser.parse_region())
        if attrs:
            op.attributes.update(attrs.data)
        return op


def _verify_body(block: Block, arg_types: list[Attribute], yield_types: list[Attribute], what: str):
    if [a.type for a in block.args] != arg_types:
        raise VerifyException(
            f"body of '{what}' takes {[str(a.type) for a in block.args]}, "
            f"expected {[str(t) for t in arg_types]}"
        )
    term = block.last_op
    if not isinstance(term, YieldOp):
        raise VerifyException(f"body of '{what}' must end with ipu.yield")
    if [v.type for v in term.values] != yield_types:
        raise VerifyException(
            f"body of '{what}' yields {[str(v.type) for v in term.values]}, "
            f"expected {[str(t) for t in yield_types]}"
        )


@irdl_op_definition
class CodeletOp(IRDLOperation):
    """An outlined vertex body, run elementwise over its vector fields.

    The block takes one value per readable field (input, inout) in field order and
    `ipu.yield`s one value per writable field (output, inout). Scalar fields are read
    whole; vector fields of one vertex all have the same length.
    """

    name = "ipu.codelet"
    sym_name = prop_def(SymbolNameConstraint())
    fields = prop_def(ArrayAttr[FieldAttr])
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), HasParent(GraphOp))

    assembly_format = "$sym_name `fields` $fields attr-dict-with-keyword $body"

    def __init__(self, name: str, fields: Sequence[FieldAttr], body: Region):
        super().__init__(
            properties={"sym_name": StringAttr(name), "fields": ArrayAttr(fields)},
            regions=[body],
        )

    def verify_(self) -> None:
        names = [f.field_name.data for f in self.fields.data]
        if len(set(names)) != len(names):
            raise VerifyException(f"codelet '{self.sym_name.data}' repeats a field name")
        if not any(f.is_vector.data for f in self.fields.data if f.writable):
            if any(f.is_vector.data for f in self.fields.data):
                raise VerifyException(
                    f"codelet '{self.sym_name.data}' has vector inputs but no vector output"
                )
        _verify_body(
            self.body.block,
            [f.element_type for f in self.fields.data if f.readable],
            [f.element_type for f in self.fields.data if f.writable],
            self.sym_name.data,
        )


@irdl_op_definition
class ComputeSetOp(IRDLOperation):
    """A compute phase: all its vertices run in parallel, then the tiles synchronise."""

    name = "ipu.compute_set"
    label = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), HasParent(GraphOp))

    assembly_format = "$label attr-dict-with-keyword $body"

    def __init__(self, label: str, body: Region | None = None):
        super().__init__(properties={"label": StringAttr(label)}, regions=[body or Region(Block())])


@irdl_op_definition
class VertexOp(IRDLOperation):
    """One instance of a codelet on one tile, its fields connected in field order.

    `slices` holds a (begin, end) pair of row-major element offsets per operand; a
    pair (0, 0) on a rank-0 tensor connects the whole scalar.
    """

    name = "ipu.vertex"
    codelet = prop_def(SymbolRefAttr)
    tile = prop_def(IntegerAttr[I64])
    slices = prop_def(DenseArrayBase[I64])
    tensors = var_operand_def(MemRefType)
    traits = traits_def(HasParent(ComputeSetOp))

    def __init__(
        self, codelet: str, tile: int, tensors: Sequence[SSAValue], slices: Sequence[tuple[int, int]]
    ):
        super().__init__(
            operands=[tensors],
            properties={
                "codelet": SymbolRefAttr(codelet),
                "tile": IntegerAttr(tile, i64),
                "slices": DenseArrayBase.from_list(i64, [v for s in slices for v in s]),
            },
        )

    def on_tile(self) -> int:
        return self.tile.value.data

    def slice_pairs(self) -> list[tuple[int, int]]:
        v = list(self.slices.get_values())
        return [(v[i], v[i + 1]) for i in range(0, len(v), 2)]

    def verify_(self) -> None:
        codelet = SymbolTable.lookup_symbol(self, self.codelet)
        if not isinstance(codelet, CodeletOp):
            raise VerifyException(f"vertex refers to unknown codelet {self.codelet}")
        if len(codelet.fields.data) != len(self.tensors):
            raise VerifyException(
                f"codelet {self.codelet} has {len(codelet.fields.data)} fields but the "
                f"vertex on tile {self.on_tile()} connects {len(self.tensors)} tensors"
            )
        bounds = len(self.slices.get_values())
        if bounds != 2 * len(self.tensors):
            raise VerifyException(
                f"vertex on tile {self.on_tile()} has {len(self.tensors)} tensors but "
                f"{bounds} slice bounds"
            )
        for value, (begin, end) in zip(self.tensors, self.slice_pairs()):
            var = _variable_of(value)
            if value.type.get_num_dims() == 0:  # type: ignore[union-attr]
                if (begin, end) != (0, 0):
                    raise VerifyException(
                        f"scalar '{var.var_name.data}' is connected whole: its slice must be (0, 0)"
                    )
                continue
            if not 0 <= begin < end <= num_elements(value.type):
                raise VerifyException(
                    f"slice [{begin}:{end}] of '{var.var_name.data}' is empty or out of bounds"
                )
            if var.tile_map.owner(begin, end) != self.on_tile():
                raise VerifyException(
                    f"slice [{begin}:{end}] of '{var.var_name.data}' is not held by tile "
                    f"{self.on_tile()}"
                )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.codelet)
        printer.print_string(f" tile {self.on_tile()} (")

        def print_one(item: tuple[SSAValue, tuple[int, int]]):
            value, (begin, end) = item
            printer.print_ssa_value(value)
            if value.type.get_num_dims() != 0:  # type: ignore[union-attr]
                printer.print_string(f"[{begin}:{end}]")

        printer.print_list(list(zip(self.tensors, self.slice_pairs())), print_one)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.tensors], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> VertexOp:
        codelet = parser.parse_attribute()
        if not isinstance(codelet, SymbolRefAttr):
            parser.raise_error("expected a codelet symbol")
        parser.parse_keyword("tile")
        tile = parser.parse_integer(allow_negative=False)

        def parse_one():
            operand = parser.parse_unresolved_operand()
            if parser.parse_optional_punctuation("["):
                begin = parser.parse_integer(allow_negative=False)
                parser.parse_punctuation(":")
                end = parser.parse_integer(allow_negative=False)
                parser.parse_punctuation("]")
                return operand, (begin, end)
            return operand, (0, 0)

        items = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_one)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(items):
            parser.raise_error(f"{len(items)} operands but {len(types)} types")
        tensors = [parser.resolve_operand(o, t) for (o, _), t in zip(items, types)]
        op = cls(codelet.root_reference.data, tile, tensors, [s for _, s in items])
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends an elementwise body with the values of its outputs."""

    name = "ipu.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), TiledMapOp | CodeletOp):
            raise VerifyException("ipu.yield must end an ipu.tiled_map or ipu.codelet body")


IPU = Dialect(
    "ipu",
    [
        GraphOp,
        VariableOp,
        FromHostOp,
        ToHostOp,
        CopyOp,
        TiledMapOp,
        CodeletOp,
        ComputeSetOp,
        VertexOp,
        YieldOp,
    ],
    [TileMapAttr, FieldAttr],
)
