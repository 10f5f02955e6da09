"""The `poplar` dialect: one op per Poplar API call the C++ printer emits.

A `poplar.host_program` has two regions. `build` constructs the graph and the Engine
once (the C ABI's init): variables, tile mappings, compute sets, vertices, connections,
host read/write handles and the program tree, ended by `poplar.engine`. `run` is what
each call of the program does: write host data, run the engine, read results.
`poplar.codelet` is a `poplar::MultiVertex` class whose `compute(workerId)` runs its
body elementwise over its vector fields, split across the tile's worker threads.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    f16,
    f32,
    i1,
    i64,
    i8,
    i16,
    i32,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    base,
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
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from ipu_lower.dialects.ipu import FieldAttr

# Element types Poplar supports on the IPU, with their poplar::Type names. There is no
# DOUBLE or LONG on the IPU: f64 must be demoted (ipu-demote-f64) before this level.
POPLAR_TYPES: dict[Attribute, str] = {
    f32: "FLOAT",
    f16: "HALF",
    i32: "INT",
    i16: "SHORT",
    i8: "SIGNED_CHAR",
    i1: "BOOL",
}


def check_poplar_type(t: Attribute, what: str) -> None:
    if t not in POPLAR_TYPES:
        raise VerifyException(
            f"{what} has element type {t}, which Poplar does not support on the IPU"
        )


@irdl_attr_definition
class TensorType(ParametrizedAttribute, TypeAttribute):
    """A `poplar::Tensor` handle."""

    name = "poplar.tensor"


@irdl_attr_definition
class ComputeSetType(ParametrizedAttribute, TypeAttribute):
    """A `poplar::ComputeSet` handle."""

    name = "poplar.compute_set"


@irdl_attr_definition
class VertexType(ParametrizedAttribute, TypeAttribute):
    """A `poplar::VertexRef`."""

    name = "poplar.vertex"


@irdl_attr_definition
class ProgramType(ParametrizedAttribute, TypeAttribute):
    """A `poplar::program::Program`."""

    name = "poplar.program"


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

    assembly_format = (
        "$sym_name `arch` $arch `args` $arguments `:` $argument_types attr-dict-with-keyword "
        "`build` $build_body `run` $run_body"
    )

    def __init__(
        self,
        name: str,
        arch: str,
        arguments: Sequence[tuple[str, MemRefType]],
        build: Region,
        run: Region,
    ):
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

    def verify_(self) -> None:
        if len(self.arguments.data) != len(self.argument_types.data):
            raise VerifyException("host program needs one type per argument")
        for name, t in self.argument_list():
            check_poplar_type(t.element_type, f"argument '{name}'")
        if not isinstance(self.build_body.block.last_op, EngineOp):
            raise VerifyException("the build region must end with poplar.engine")


def _in_build(op: IRDLOperation) -> None:
    parent = op.parent_op()
    if not isinstance(parent, HostProgramOp) or op.parent_region() is not parent.build_body:
        raise VerifyException(f"'{op.name}' must be in the build region of a poplar.host_program")


def _in_run(op: IRDLOperation) -> None:
    parent = op.parent_op()
    if not isinstance(parent, HostProgramOp) or op.parent_region() is not parent.run_body:
        raise VerifyException(f"'{op.name}' must be in the run region of a poplar.host_program")


class BuildOp(IRDLOperation):
    """Base of the graph-construction ops (Graph member calls)."""

    def verify_(self) -> None:
        _in_build(self)


@irdl_op_definition
class AddVariableOp(BuildOp):
    """`graph.addVariable(type, shape, debugName)`."""

    name = "poplar.add_variable"
    debug_name = prop_def(StringAttr)
    element_type = prop_def(Attribute)
    shape = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)

    assembly_format = "$debug_name $element_type $shape attr-dict"

    def __init__(self, debug_name: str, element_type: Attribute, shape: Sequence[int]):
        super().__init__(
            properties={
                "debug_name": StringAttr(debug_name),
                "element_type": element_type,
                "shape": DenseArrayBase.from_list(i64, list(shape)),
            },
            result_types=[TensorType()],
        )

    def verify_(self) -> None:
        super().verify_()
        check_poplar_type(self.element_type, f"variable '{self.debug_name.data}'")


@irdl_op_definition
class FlattenOp(BuildOp):
    """`t.flatten()`: the row-major 1-D view."""

    name = "poplar.flatten"
    tensor = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = "$tensor attr-dict"

    def __init__(self, tensor: SSAValue):
        super().__init__(operands=[tensor], result_types=[TensorType()])


@irdl_op_definition
class SliceOp(BuildOp):
    """`t.slice(begin, end)` along the first dimension."""

    name = "poplar.slice"
    tensor = operand_def(TensorType)
    begin = prop_def(IntegerAttr[I64])
    end = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    assembly_format = "$tensor `[` $begin `:` $end `]` attr-dict"

    def __init__(self, tensor: SSAValue, begin: int, end: int):
        super().__init__(
            operands=[tensor],
            properties={"begin": IntegerAttr(begin, i64), "end": IntegerAttr(end, i64)},
            result_types=[TensorType()],
        )

    def verify_(self) -> None:
        super().verify_()
        if not 0 <= self.begin.value.data < self.end.value.data:
            raise VerifyException(
                f"empty or negative slice [{self.begin.value.data}:{self.end.value.data}]"
            )


@irdl_op_definition
class SetTileMappingOp(BuildOp):
    """`graph.setTileMapping(tensorOrVertex, tile)`."""

    name = "poplar.set_tile_mapping"
    target = operand_def(base(TensorType) | base(VertexType))
    tile = prop_def(IntegerAttr[I64])
    assembly_format = "$target `to` $tile attr-dict `:` type($target)"

    def __init__(self, target: SSAValue, tile: int):
        super().__init__(operands=[target], properties={"tile": IntegerAttr(tile, i64)})


@irdl_op_definition
class AddComputeSetOp(BuildOp):
    """`graph.addComputeSet(debugName)`."""

    name = "poplar.add_compute_set"
    debug_name = prop_def(StringAttr)
    result = result_def(ComputeSetType)
    assembly_format = "$debug_name attr-dict"

    def __init__(self, debug_name: str):
        super().__init__(
            properties={"debug_name": StringAttr(debug_name)}, result_types=[ComputeSetType()]
        )


@irdl_op_definition
class AddVertexOp(BuildOp):
    """`graph.addVertex(computeSet, vertexClass)`; the class is a `poplar.codelet`."""

    name = "poplar.add_vertex"
    compute_set = operand_def(ComputeSetType)
    codelet = prop_def(StringAttr)
    result = result_def(VertexType)
    assembly_format = "$compute_set $codelet attr-dict"

    def __init__(self, compute_set: SSAValue, codelet: str):
        super().__init__(
            operands=[compute_set],
            properties={"codelet": StringAttr(codelet)},
            result_types=[VertexType()],
        )


@irdl_op_definition
class ConnectOp(BuildOp):
    """`graph.connect(vertex[field], tensor)`."""

    name = "poplar.connect"
    vertex = operand_def(VertexType)
    field = prop_def(StringAttr)
    tensor = operand_def(TensorType)
    assembly_format = "$vertex `[` $field `]` `to` $tensor attr-dict"

    def __init__(self, vertex: SSAValue, field: str, tensor: SSAValue):
        super().__init__(operands=[vertex, tensor], properties={"field": StringAttr(field)})


@irdl_op_definition
class SetPerfEstimateOp(BuildOp):
    """`graph.setPerfEstimate(vertex, cycles)` (used by the IPU Model and the emulator)."""

    name = "poplar.set_perf_estimate"
    vertex = operand_def(VertexType)
    cycles = prop_def(IntegerAttr[I64])
    assembly_format = "$vertex `cycles` $cycles attr-dict"

    def __init__(self, vertex: SSAValue, cycles: int):
        super().__init__(operands=[vertex], properties={"cycles": IntegerAttr(cycles, i64)})


@irdl_op_definition
class CreateHostWriteOp(BuildOp):
    """`graph.createHostWrite(handle, tensor)`."""

    name = "poplar.create_host_write"
    handle = prop_def(StringAttr)
    tensor = operand_def(TensorType)
    assembly_format = "$handle `to` $tensor attr-dict"

    def __init__(self, handle: str, tensor: SSAValue):
        super().__init__(operands=[tensor], properties={"handle": StringAttr(handle)})


@irdl_op_definition
class CreateHostReadOp(BuildOp):
    """`graph.createHostRead(handle, tensor)`."""

    name = "poplar.create_host_read"
    handle = prop_def(StringAttr)
    tensor = operand_def(TensorType)
    assembly_format = "$handle `from` $tensor attr-dict"

    def __init__(self, handle: str, tensor: SSAValue):
        super().__init__(operands=[tensor], properties={"handle": StringAttr(handle)})


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
    """`program::Copy(source, destination)` between tensors."""

    name = "poplar.copy"
    source = operand_def(TensorType)
    destination = operand_def(TensorType)
    result = result_def(ProgramType)
    assembly_format = "$source `to` $destination attr-dict"

    def __init__(self, source: SSAValue, destination: SSAValue):
        super().__init__(operands=[source, destination], result_types=[ProgramType()])


@irdl_op_definition
class SequenceOp(BuildOp):
    """`program::Sequence{p0, p1, ...}`."""

    name = "poplar.sequence"
    programs = var_operand_def(ProgramType)
    result = result_def(ProgramType)
    assembly_format = "`(` $programs `)` attr-dict"

    def __init__(self, programs: Sequence[SSAValue]):
        super().__init__(operands=[programs], result_types=[ProgramType()])


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
        _in_run(self)


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


@irdl_op_definition
class RunOp(RunRegionOp):
    """`engine.run(programIndex)`."""

    name = "poplar.run"
    program_index = prop_def(IntegerAttr[I64])
    assembly_format = "$program_index attr-dict"

    def __init__(self, index: int = 0):
        super().__init__(properties={"program_index": IntegerAttr(index, i64)})


@irdl_op_definition
class CodeletOp(IRDLOperation):
    """A `poplar::MultiVertex` class, its body applied elementwise over vector fields.

    The body takes one value per readable field and `poplar.yield`s one per writable
    field, in field order (see `ipu.codelet`).
    """

    name = "poplar.codelet"
    sym_name = prop_def(SymbolNameConstraint())
    fields = prop_def(ArrayAttr[FieldAttr])
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    assembly_format = "$sym_name `fields` $fields attr-dict-with-keyword $body"

    def __init__(self, name: str, fields: Sequence[FieldAttr], body: Region):
        super().__init__(
            properties={"sym_name": StringAttr(name), "fields": ArrayAttr(fields)},
            regions=[body],
        )

    def verify_(self) -> None:
        for field in self.fields.data:
            check_poplar_type(field.element_type, f"field '{field.field_name.data}'")
        block = self.body.block
        readable = [f.element_type for f in self.fields.data if f.readable]
        writable = [f.element_type for f in self.fields.data if f.writable]
        if [a.type for a in block.args] != readable:
            raise VerifyException(
                f"codelet '{self.sym_name.data}' body arguments do not match its readable fields"
            )
        term = block.last_op
        if not isinstance(term, YieldOp) or [v.type for v in term.values] != writable:
            raise VerifyException(
                f"codelet '{self.sym_name.data}' must yield one value per writable field"
            )


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a codelet body with the values of its writable fields."""

    name = "poplar.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(CodeletOp))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


POPLAR = Dialect(
    "poplar",
    [
        HostProgramOp,
        AddVariableOp,
        FlattenOp,
        SliceOp,
        SetTileMappingOp,
        AddComputeSetOp,
        AddVertexOp,
        ConnectOp,
        SetPerfEstimateOp,
        CreateHostWriteOp,
        CreateHostReadOp,
        ExecuteOp,
        CopyOp,
        SequenceOp,
        EngineOp,
        WriteTensorOp,
        ReadTensorOp,
        RunOp,
        CodeletOp,
        YieldOp,
    ],
    [TensorType, ComputeSetType, VertexType, ProgramType],
)
