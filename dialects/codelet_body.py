"""The checks every codelet body passes, at the `ipu` and at the `poplar` level.

A codelet body says what one vertex does, in ops the C++ printer can print and the
cost model can read: `arith`, `math`, `memref.load`/`memref.store`/`memref.dim` on the
codelet's own fields, 64-bit vectors (`vector.load`/`vector.store` of a field,
`vector.broadcast`, `vector.fma`, arith/math on `vector<2xf32>` and `vector<4xf16>`),
`scf.for`/`scf.if`/`scf.yield`, signedness casts between an unsigned type and the signless
integer arith computes it in (`ipu_lower.element_types`), and the dialect's worker ops. Its
block arguments are the fields: `memref<T>` for a scalar field, `memref<?xT>` for a vector
field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import ClassVar, TypeVar
from weakref import WeakKeyDictionary

from xdsl.dialects import memref, scf, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    VectorType,
    f16,
    f32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ipu_lower.element_types import is_signedness_cast, on_ipu
from ipu_lower.names import is_c_identifier

FIELD_DIRECTIONS = ("input", "output", "inout")

_Codelet = TypeVar("_Codelet", bound=Operation)

# Per block of codelets, the first op of each name, to check with every lookup.
_BY_NAME: WeakKeyDictionary[Block, dict[str, Operation]] = WeakKeyDictionary()


def codelet_in(block: Block, name: str, kind: type[_Codelet]) -> _Codelet | None:
    """The first op of `kind` in `block` whose `sym_name` is `name`. Every placement's
    verifier looks its codelet up: an index of the block, rebuilt when it misses or is
    out of date, keeps that linear in the number of placements, not quadratic."""
    found = _BY_NAME.get(block, {}).get(name)
    if not (isinstance(found, kind) and found.parent is block and found.sym_name.data == name):  # type: ignore[attr-defined]
        index: dict[str, Operation] = {}
        for op in block.ops:
            if isinstance(op, kind):
                index.setdefault(op.sym_name.data, op)  # type: ignore[attr-defined]
        _BY_NAME[block] = index
        found = index.get(name)
    return found if isinstance(found, kind) else None

_ALLOWED_DIALECTS = ("arith", "math")
_ALLOWED_OPS = (
    memref.LoadOp,
    memref.StoreOp,
    memref.DimOp,
    vector.LoadOp,
    vector.StoreOp,
    vector.BroadcastOp,
    vector.FMAOp,
    scf.ForOp,
    scf.IfOp,
    scf.YieldOp,
)

VECTOR_TYPES = (VectorType(f32, [2]), VectorType(f16, [4]))
"""The IPU's 64-bit vectors with arithmetic: float2 and half4."""


def count(n: int, noun: str) -> str:
    """`1 field`, `2 fields`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def field_type_problem(t: Attribute) -> str | None:
    """Why `t` cannot be the type of a field, or None."""
    if not isinstance(t, MemRefType):
        return f"{t} is not a memref"
    shape = t.get_shape()
    if shape not in ((), (DYNAMIC_INDEX,)):
        return f"{t} is neither a scalar (memref<T>) nor a vector (memref<?xT>) field"
    if not on_ipu(t.element_type):
        return f"{t} has an element type the IPU does not support"
    return None


def is_vector_field(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and t.get_num_dims() == 1


def _value_type_ok(t: Attribute) -> bool:
    return isinstance(t, IndexType) or on_ipu(t) or t in VECTOR_TYPES


def verify_codelet_body(
    name: str, block: Block, directions: Sequence[str], field_names: Sequence[str], worker_ops: tuple[type, ...]
) -> None:
    if len(block.args) != len(directions):
        raise VerifyException(
            f"codelet '{name}' has {count(len(directions), 'field')} but {count(len(block.args), 'block argument')}"
        )
    for arg, field in zip(block.args, field_names):
        if problem := field_type_problem(arg.type):
            raise VerifyException(f"field '{field}' of codelet '{name}': {problem}")
    direction_of = dict(zip(block.args, directions))
    name_of = dict(zip(block.args, field_names))

    def field(value: SSAValue, op: Operation) -> str:
        if value not in direction_of:
            raise VerifyException(f"'{op.name}' in codelet '{name}' must access one of its fields")
        return direction_of[value]

    for op in block.walk():
        if not (
            op.dialect_name() in _ALLOWED_DIALECTS or isinstance(op, _ALLOWED_OPS + worker_ops) or is_signedness_cast(op)
        ):
            raise VerifyException(f"'{op.name}' is not allowed in codelet '{name}'")
        for result in op.results:
            if not _value_type_ok(result.type):
                raise VerifyException(f"'{op.name}' in codelet '{name}' computes a {result.type}")
        if isinstance(op, memref.StoreOp | vector.StoreOp) and field(_stored(op), op) == "input":
            raise VerifyException(f"codelet '{name}' stores to its input field '{name_of[_stored(op)]}'")
        if isinstance(op, memref.LoadOp | vector.LoadOp) and field(_loaded(op), op) == "output":
            raise VerifyException(
                f"codelet '{name}' reads its output field '{name_of[_loaded(op)]}' (make it inout)"
            )
        if isinstance(op, memref.DimOp):
            field(op.source, op)


def _loaded(op: memref.LoadOp | vector.LoadOp) -> SSAValue:
    return op.memref if isinstance(op, memref.LoadOp) else op.base


def _stored(op: memref.StoreOp | vector.StoreOp) -> SSAValue:
    return op.memref if isinstance(op, memref.StoreOp) else op.base


@dataclass(frozen=True)
class VectorStreams:
    """The fields a codelet body reads (`loaded`) and writes (`stored`) as 64-bit vectors,
    by position. Two vector loads can issue as one `ld2x64pace`, and with a store as one
    `ld2xst64pace`, when their fields lie in different memory elements; a field loaded
    and stored in the same loop must be in interleaved memory for its load and store to
    share a cycle (poplibs lib/popops/codelets/asm/ScaledAddSupervisor_fp.S, 69-118)."""

    loaded: frozenset[int]
    stored: frozenset[int]

    @property
    def fields(self) -> list[int]:
        return sorted(self.loaded | self.stored)

    @property
    def interleaved(self) -> frozenset[int]:
        return self.loaded & self.stored

    def apart(self) -> list[tuple[int, int]]:
        """The pairs of fields that must lie in different memory elements."""
        return list(combinations(self.fields, 2))


def vector_streams(block: Block) -> VectorStreams:
    position = {arg: k for k, arg in enumerate(block.args)}
    loaded = {position[op.base] for op in block.walk() if isinstance(op, vector.LoadOp)}
    stored = {position[op.base] for op in block.walk() if isinstance(op, vector.StoreOp)}
    return VectorStreams(frozenset(loaded), frozenset(stored))


class FieldMixin:
    """A field attribute: `<direction "name">`. A dialect declares `name` and the
    parameters `direction` and `field_name`."""

    direction: StringAttr
    field_name: StringAttr

    def __init__(self, direction: str, name: str):
        super().__init__(StringAttr(direction), StringAttr(name))  # type: ignore[call-arg]

    def verify(self) -> None:
        if not is_c_identifier(self.field_name.data):
            raise VerifyException(f"field name '{self.field_name.data}' is not a C++ identifier")
        if self.direction.data not in FIELD_DIRECTIONS:
            raise VerifyException(
                f"field direction '{self.direction.data}' is not one of {', '.join(FIELD_DIRECTIONS)}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            direction = parser.parse_keyword_in(FIELD_DIRECTIONS, " (a field direction)")
            return (StringAttr(direction), StringAttr(parser.parse_str_literal()))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.direction.data} ")
        printer.print_string_literal(self.field_name.data)
        printer.print_string(">")


class CodeletOpMixin:
    """A codelet op: `@name(%a: memref<f32> input "a", ...) { body }`. A dialect declares
    `sym_name`, `fields`, `body`, its `FIELD_ATTRIBUTE` class and its `worker_ops()`."""

    FIELD_ATTRIBUTE: ClassVar[type]

    @staticmethod
    def worker_ops() -> tuple[type, ...]:
        raise NotImplementedError

    def __init__(self, name: str, fields: Sequence[Attribute], body: Region):
        super().__init__(  # type: ignore[call-arg]
            properties={"sym_name": StringAttr(name), "fields": ArrayAttr(fields)}, regions=[body]
        )

    def field_names(self) -> list[str]:
        return [f.field_name.data for f in self.fields.data]

    def verify_(self) -> None:
        name = self.sym_name.data
        if not is_c_identifier(name):
            raise VerifyException(f"codelet name '{name}' is not a C++ identifier")
        names = self.field_names()
        if len(set(names)) != len(names):
            raise VerifyException(f"codelet '{name}' repeats a field name")
        directions = [f.direction.data for f in self.fields.data]
        verify_codelet_body(name, self.body.block, directions, names, self.worker_ops())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name)
        printer.print_string("(")

        def print_one(pair):
            arg, field = pair
            printer.print_block_argument(arg)
            printer.print_string(f" {field.direction.data} ")
            printer.print_string_literal(field.field_name.data)

        printer.print_list(list(zip(self.body.block.args, self.fields.data)), print_one)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    @classmethod
    def parse(cls, parser: Parser):
        name = parser.parse_symbol_name().data

        def parse_one():
            arg = parser.parse_argument()
            direction = parser.parse_keyword_in(FIELD_DIRECTIONS, " (a field direction)")
            return arg, cls.FIELD_ATTRIBUTE(direction, parser.parse_str_literal())

        items = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_one)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, [f for _, f in items], parser.parse_region([a for a, _ in items]))
        if attrs:
            op.attributes.update(attrs.data)
        return op


class WorkerOpMixin:
    """An op giving a fact about the worker threads (`%w = <op>`) in a codelet body."""

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])  # type: ignore[call-arg]


class BlockExtentMixin:
    """The extent of the vertex's box along one dimension (`%e = <op> 1`), a vertex
    member the host sets, for vertices placed over a grid map."""

    def __init__(self, dim: int):
        super().__init__(properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()])  # type: ignore[call-arg]

    @property
    def dimension(self) -> int:
        return self.dim.value.data  # type: ignore[attr-defined]

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.dimension}")  # type: ignore[attr-defined]
        printer.print_op_attributes(self.attributes)  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, parser: Parser):
        op = cls(parser.parse_integer(allow_negative=False, allow_boolean=False))
        op.attributes.update(parser.parse_optional_attr_dict())  # type: ignore[attr-defined]
        return op

    def verify_(self) -> None:
        if self.dimension < 0:  # type: ignore[attr-defined]
            raise VerifyException(f"block extent of dimension {self.dimension}")  # type: ignore[attr-defined]


def on_vectors(op: Operation, operands: Sequence[SSAValue], vtype: VectorType) -> Operation:
    """A new `op` (an elementwise arith/math op) computing on `vtype` vectors of its
    operands' lanes: how a point-wise body becomes vector code."""
    return type(op).create(
        operands=list(operands), result_types=[vtype], properties=dict(op.properties), attributes=dict(op.attributes)
    )
