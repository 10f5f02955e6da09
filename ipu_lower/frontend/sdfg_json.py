"""Safe loading of `.sdfg` / `.sdfgz` files: check every string before DaCe sees it.

`dace.SDFG.from_json` (DaCe 1.0.2) runs file strings through Python `eval` in these ways, so
`validate_sdfg_json` walks the whole document (nested SDFGs, regions, states, nodes, edges)
and checks each of these fields with `safe_expr.check_expression` or a stricter rule:

* `symbolic.pystr_to_symbolic` -> `sympy.sympify` (eval). On a failure it retries with `[`
  replaced by `(`, so `x[1]` becomes the call `x(1)`.
  - data descriptors (`_arrays`, `constants_prop`): `shape`, `strides`, `offset`
    (`ShapeProperty.from_json`), `total_size` (`SymbolicProperty`), Stream `offset`
    (`ListProperty(pystr_to_symbolic)`), `buffer_size`; `location["bank"]` goes through
    `subsets.Range.from_string` in `sdfg.validate()` (`fpga.parse_location_bank`).
  - `Range.from_json`: `ranges[*].start/end/step/tile` (strings or `{main, approx}`);
    `Indices.from_json`: `indices`; `SubsetProperty` also takes range strings
    (`Range.from_string`, mirrored by `safe_expr.check_range_string`).
  - Memlet `subset`, `other_subset`, `volume`; Map `range`, `params` (`propagation`);
    Consume `num_pes`, `pe_index`; Pipeline `init_size`, `drain_size`, `additional_iterators`.
  - InterstateEdge `condition` (`InterstateEdge.condition_sympy`) and `assignments` values
    (`symbolic.free_symbols_and_functions` in `validation.validate_control_flow_region`).
  - LoopRegion `loop_condition`, `init_statement`, `update_statement`, `loop_variable`
    (`passes.analysis.loop_analysis`); ConditionalBlock `branches[i][0]`.
  - NestedSDFG `symbol_mapping`, CodeNode/SDFGState `location` values
    (`DictProperty(value_type=pystr_to_symbolic)`), SDFGState `ranges`, `executions`.
  - typeclass `vector.elements` (`dtypes.vector.from_json`); library-node `SymbolicProperty`
    fields (`Gemv.alpha`, `Dot.n`, ...) and untyped ones (`Gemm.alpha`, `Reduce.identity`).
* `eval`: Memlet and Reduce `wcr` lambdas (`LambdaProperty`), evaluated by
  `frontend.operations.detect_reduction_type` from `Memlet.__str__` (validation messages).
  Checked as `lambda a, b: <expression of a and b>`.
* imports / lookups by name:
  - LibraryNode `classpath` (`nodes.LibraryNode.from_json` -> `pydoc.locate`, which imports
    any module) and `transformation_hist` entries (`ExpandTransformation.from_json` classpath,
    other entries by class name): must name a DaCe library class.
  - every `type` field (`serialize.from_json` -> `get_serializer(type).from_json`), also inside
    dicts that no typed property owns (`debuginfo`, `assignments`, `constants_prop`, untyped
    library-node properties), which DaCe deserializes recursively; only the expected types
    are accepted at each position.
  - typeclass strings (`symbols`, connectors, `dtype`): `json_to_typeclass` ->
    `get_serializer(name)` (any registered class), `TypeClassProperty.from_string` ->
    `pydoc.locate("dace.dtypes." + name)`; `opaque.ctype` -> `get_serializer(ctype)()`.
  - `orig_sdfg` / NestedSDFG `sdfg` given as a JSON string (`json.loads`, `SDFG.from_json`).
* Not reachable from `from_json` in 1.0.2 but rejected if they appear: `SetProperty.from_string`
  (eval), `TypeProperty.from_string` (`pydoc.locate`). Tasklet and global code is only
  `ast.parse`d (syntax-checked here); MLIR/SystemVerilog code (parsed by third-party parsers in
  `infer_connector_types`) is rejected. `validate()`, `infer_connector_types`,
  `set_default_schedule_and_storage_types` and `dfs_topological_sort` read only fields above.

Unknown attribute keys are ignored, as DaCe ignores them.
"""

from __future__ import annotations

import ast
import gzip
import json
import os
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any

from ipu_lower.dace_types import register
from ipu_lower.frontend.constant_range import INT64_MAX, INT64_MIN, constant_value
from ipu_lower.frontend.safe_expr import (
    MAX_EXPRESSION_LENGTH,
    UnsafeExpressionError,
    check_expression,
    check_range_string,
    is_identifier,
)

__all__ = [
    "MAX_SDFG_BYTES",
    "SdfgInputError",
    "load_sdfg_json",
    "read_sdfg_file",
    "sdfg_from_json_safely",
    "validate_sdfg_json",
]

MAX_SDFG_BYTES = 256 * 1024 * 1024  # decompressed JSON text
MAX_CODE_LENGTH = 1024 * 1024  # one tasklet / global code block
_GUNZIP_SLICE = 1024 * 1024

# fmt: off
_BASIC_TYPECLASSES = frozenset({
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
})
# TypeClassProperty strings resolve through `dace.dtypes.<name>`, which also has `bool_`.
_TYPECLASS_PROPERTY_NAMES = _BASIC_TYPECLASSES | {"bool_"}
_BLOCK_TYPES = (
    "SDFGState", "LoopRegion", "ConditionalBlock", "ControlFlowRegion", "NamedRegion",
    "FunctionCallRegion", "BreakBlock", "ContinueBlock", "ReturnBlock",
)
_NODE_TYPES = (
    "AccessNode", "Tasklet", "MapEntry", "MapExit", "ConsumeEntry", "ConsumeExit",
    "PipelineEntry", "PipelineExit", "NestedSDFG", "LibraryNode",
)
_SCOPE_ENTRIES = ("MapEntry", "ConsumeEntry", "PipelineEntry")
_SCOPE_EXITS = ("MapExit", "ConsumeExit", "PipelineExit")
_DATA_TYPES = ("Scalar", "Array", "ArrayView", "ArrayReference", "Stream")
_UNSUPPORTED_DATA = {
    "Structure", "StructureView", "StructureReference", "ContainerArray", "ContainerView",
    "ContainerArrayReference", "Tensor",
}
_BLOCK_KIND = {
    "SDFGState": "state",
    "LoopRegion": "loop",
    "ConditionalBlock": "conditional block",
    "ControlFlowRegion": "region",
    "NamedRegion": "region",
    "FunctionCallRegion": "function call region",
    "BreakBlock": "break block",
    "ContinueBlock": "continue block",
    "ReturnBlock": "return block",
}
_LIBRARY_PACKAGES = (
    "blas", "standard", "lapack", "linalg", "fft", "sparse", "stencil", "mpi", "pblas",
)
# fmt: on
_C_TYPE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_:]*( ?[*&])*")
_CLASSPATH = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_NUMBER_TEXT = re.compile(
    r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)|True|False"
)


class SdfgInputError(Exception):
    """A `.sdfg` file that cannot be loaded: `where` names the place, `message` the problem."""

    def __init__(self, message: str, where: str = ""):
        self.message = _one_line(message)
        self.where = _one_line(where)
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _quote(name: object, limit: int = 60) -> str:
    s = name if isinstance(name, str) else repr(name)
    s = _one_line(s)
    if len(s) > limit:
        s = s[: limit - 3] + "..."
    return f"'{s}'"


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover - JSON has no other types


# --------------------------------------------------------------------------------------------
# Reading the file


def read_sdfg_file(stream: IO[bytes], filename: str) -> dict:
    """`load_sdfg_json` of what `stream` holds, reading no more than the size limit allows."""
    return load_sdfg_json(_read_bounded(stream, filename), filename)


def _read_bounded(stream: IO[bytes], where: str) -> bytes:
    """The bytes of `stream`, refused before reading when the file is known to be too large."""
    try:
        size = os.fstat(stream.fileno()).st_size
    except (OSError, AttributeError):  # in-memory streams (a pipe reports size 0)
        size = 0
    if size > MAX_SDFG_BYTES:
        raise SdfgInputError(f"file is larger than {MAX_SDFG_BYTES} bytes", where)
    data = stream.read(MAX_SDFG_BYTES + 1)
    if len(data) > MAX_SDFG_BYTES:
        raise SdfgInputError(f"file is larger than {MAX_SDFG_BYTES} bytes", where)
    return data


def load_sdfg_json(data: bytes | bytearray, filename: str) -> dict:
    """Decode a `.sdfg` (JSON) or `.sdfgz` (gzip) file into a dict, without loading it in DaCe."""
    where = filename
    if len(data) > MAX_SDFG_BYTES:
        raise SdfgInputError(f"file is larger than {MAX_SDFG_BYTES} bytes", where)
    if filename.endswith(".sdfgz") or data[:2] == b"\x1f\x8b":
        data = _gunzip(data, where)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise SdfgInputError(
            f"not UTF-8 text: {err.reason} at byte {err.start}", where
        ) from None
    del data  # the text is a copy: keep one of the two alive
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise SdfgInputError(
            f"not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})", where
        ) from None
    except RecursionError:
        raise SdfgInputError("not valid JSON: nested too deeply", where) from None
    except ValueError as err:  # e.g. integers with more digits than Python converts
        raise SdfgInputError(f"not valid JSON: {err}", where) from None
    if not isinstance(obj, dict):
        raise SdfgInputError(
            f"top level is {_describe(obj)}, expected an SDFG object", where
        )
    return obj


def _gunzip(data: bytes, where: str) -> bytearray:
    """The decompressed members of `data`, produced a slice at a time so that a bomb stops
    at the size limit with no more than the limit in memory."""
    out = bytearray()
    rest = data
    try:
        while rest:
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            pending = rest
            while pending and not d.eof:
                out += d.decompress(pending, _GUNZIP_SLICE)
                if len(out) > MAX_SDFG_BYTES:
                    raise SdfgInputError(
                        f"decompressed size exceeds {MAX_SDFG_BYTES} bytes", where
                    )
                pending = d.unconsumed_tail
            if not d.eof:
                raise SdfgInputError("not a valid gzip file: truncated data", where)
            rest = d.unused_data
    except (zlib.error, gzip.BadGzipFile, EOFError) as err:
        raise SdfgInputError(f"not a valid gzip file: {err}", where) from None
    return out


# --------------------------------------------------------------------------------------------
# DaCe glue


def sdfg_from_json_safely(obj: dict):
    """Validate `obj` and load it with `dace.SDFG.from_json`; all failures are SdfgInputError."""
    import dace
    from dace.config import set_temporary

    register()
    validate_sdfg_json(obj)
    where = f"SDFG {_quote(obj['attributes'].get('name'))}"
    try:
        # Without this, DaCe turns objects it fails to deserialize into placeholders and warns.
        with set_temporary("testing", "deserialize_exception", value=True):
            return dace.SDFG.from_json(obj)
    except Exception as err:  # DaCe raises many exception types for bad input
        raise SdfgInputError(
            f"cannot be loaded by DaCe: {type(err).__name__}: {err}", where
        ) from err


# --------------------------------------------------------------------------------------------
# Validation


def validate_sdfg_json(obj: dict) -> None:
    """Raise SdfgInputError unless `obj` is an SDFG document DaCe may safely deserialize."""
    register()
    try:
        _Validator().sdfg(obj, ())
    except RecursionError:
        raise SdfgInputError("the document is nested too deeply", "SDFG") from None


@dataclass(frozen=True)
class _Scope:
    """What expressions of one SDFG may refer to."""

    arrays: frozenset[str]


_Where = tuple[str, ...]


class _Validator:
    def __init__(self) -> None:
        import dace
        from dace import properties as P
        from dace import serialize

        self.dace = dace
        self.P = P
        self.types = serialize._DACE_SERIALIZE_TYPES
        self._library_classes: dict[str, type] | None = None
        self._expansion_classes: dict[str, type] | None = None

    # ---- helpers ---------------------------------------------------------------------------

    def error(self, message: str, where: _Where) -> SdfgInputError:
        return SdfgInputError(message, ", ".join(where))

    def dict_(self, value: object, where: _Where, what: str) -> dict:
        if not isinstance(value, dict):
            raise self.error(f"{what} must be an object, got {_describe(value)}", where)
        return value

    def list_(self, value: object, where: _Where, what: str) -> list:
        # tuples only occur in the in-memory result of `SDFG.to_json()`, never in files
        if not isinstance(value, (list, tuple)):
            raise self.error(f"{what} must be a list, got {_describe(value)}", where)
        return value

    def str_(self, value: object, where: _Where, what: str) -> str:
        if not isinstance(value, str):
            raise self.error(f"{what} must be a string, got {_describe(value)}", where)
        return value

    def identifier(self, value: object, where: _Where, what: str) -> str:
        name = self.str_(value, where, what)
        if not is_identifier(name):
            raise self.error(f"{what} {_quote(name)} is not a valid name", where)
        return name

    def typed(
        self, value: object, where: _Where, what: str, allowed: Iterable[str]
    ) -> tuple[dict, str]:
        obj = self.dict_(value, where, what)
        t = obj.get("type")
        allowed = tuple(allowed)
        if t not in allowed:
            if not isinstance(t, str):
                raise self.error(f"{what} has no valid 'type' field", where)
            known = "known DaCe type" if t in self.types else "unknown type"
            raise self.error(
                f"{what} has type {_quote(t)} ({known}); expected {' or '.join(allowed)}",
                where,
            )
        return obj, t

    def attributes(self, obj: dict, where: _Where) -> dict:
        return self.dict_(obj.get("attributes"), where, "'attributes'")

    def index(
        self, value: object, where: _Where, what: str, size: int | None = None
    ) -> int:
        """An int or a string of digits (DaCe calls int() on node ids)."""
        if isinstance(value, str) and re.fullmatch(r"[0-9]{1,9}", value):
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.error(f"{what} must be a node index, got {_quote(value)}", where)
        if size is not None and value >= size:
            raise self.error(
                f"{what} {value} is out of range (there are {size})", where
            )
        return value

    def expr(
        self,
        value: object,
        where: _Where,
        what: str,
        scope: _Scope | None = None,
        *,
        subscripts: bool = False,
    ) -> None:
        """A symbolic expression: a string checked by the whitelist, or a plain number."""
        if isinstance(value, bool):
            raise self.error(f"{what} must be an expression or a number, got a boolean", where)
        if isinstance(value, (int, float)):  # JSON numbers need no parsing
            if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
                raise self.error(f"{what}: integer {value} is outside the 64-bit range", where)
            return
        if not isinstance(value, str):
            raise self.error(
                f"{what} must be an expression string, got {_describe(value)}", where
            )
        try:
            tree = check_expression(value, allow_subscripts=subscripts)
        except UnsafeExpressionError as err:
            raise self.error(f"{what}: {err}", where) from None
        if subscripts:
            self.subscript_bases(tree, value, where, what, scope)

    def subscript_bases(
        self, tree: ast.AST, text: str, where: _Where, what: str, scope: _Scope | None
    ) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript):
                assert isinstance(node.value, ast.Name)
                if scope is None or node.value.id not in scope.arrays:
                    raise self.error(
                        f"{what}: expression {_quote(text)} subscripts {_quote(node.value.id)}, "
                        "which is not a data container of this SDFG",
                        where,
                    )

    def code_string(
        self, value: object, where: _Where, what: str, limit: int = MAX_CODE_LENGTH
    ) -> str:
        text = self.str_(value, where, what)
        if len(text) > limit:
            raise self.error(f"{what} is longer than {limit} characters", where)
        return text

    # ---- SDFG ------------------------------------------------------------------------------

    def sdfg(self, value: object, where: _Where) -> None:
        obj, _ = self.typed(value, where or ("SDFG",), "the SDFG", ("SDFG",))
        attrs = self.attributes(obj, where or ("SDFG",))
        name = attrs.get("name")
        here = (*where, f"SDFG {_quote(name)}")
        if not isinstance(name, str) or not re.fullmatch(
            r"[A-Za-z_][A-Za-z0-9_]*", name
        ):
            raise self.error(
                f"SDFG name {_quote(name)} is not a valid name", (*where, "SDFG")
            )
        arrays = self.arrays(attrs.get("_arrays"), (*here, "field '_arrays'"))
        scope = _Scope(frozenset(arrays))
        if attrs.get("constants_prop") is not None:
            self.constants(attrs["constants_prop"], (*here, "field 'constants_prop'"))
        symbols = attrs.get("symbols")
        if symbols is not None:
            for key in self.dict_(symbols, (*here, "field 'symbols'"), "'symbols'"):
                self.identifier(key, (*here, "field 'symbols'"), "symbol name")
        for key in ("_pgrids", "_subarrays", "_rdistrarrays"):
            if attrs.get(key):
                raise self.error(
                    "MPI process grids and distributed arrays are not supported",
                    (*here, f"field '{key}'"),
                )
        skip = {
            "name",
            "_arrays",
            "constants_prop",
            "_pgrids",
            "_subarrays",
            "_rdistrarrays",
        }
        self.properties(self.types["SDFG"], attrs, here, scope, skip=skip)
        self.region_contents(obj, here, scope)

    def arrays(self, value: object, where: _Where) -> list[str]:
        if value is None:
            return []
        arrays = self.dict_(value, where, "'_arrays'")
        for name, desc in arrays.items():
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or name in (
                "True",
                "False",
                "None",
            ):
                raise self.error(
                    f"data container name {_quote(name)} is not a valid name", where
                )
            self.data_descriptor(desc, (*where[:-1], f"data {_quote(name)}"))
        return list(arrays)

    def data_descriptor(self, value: object, where: _Where) -> None:
        t = value.get("type") if isinstance(value, dict) else None
        if isinstance(t, str) and t in _UNSUPPORTED_DATA:
            raise self.error(
                f"data descriptor type {_quote(t)} is not supported", where
            )
        obj, t = self.typed(value, where, "data descriptor", _DATA_TYPES)
        attrs = self.attributes(obj, where)
        self.properties(self.types[t], attrs, where, None)
        if t != "Scalar":  # DaCe gives a scalar its shape whatever the file says
            self.shape_lengths(attrs, where)

    def shape_lengths(self, attrs: dict, where: _Where) -> None:
        """`strides` and `offset` have one entry a dimension; constant dimensions are not negative."""
        shape = attrs.get("shape", [])
        if not isinstance(shape, list):
            return
        for key in ("strides", "offset"):
            other = attrs.get(key)
            if isinstance(other, list) and len(other) != len(shape):
                raise self.error(
                    f"'{key}' has {len(other)} entries but 'shape' has {len(shape)} dimensions", where
                )
        for i, dim in enumerate(shape):
            size = constant_value(check_expression(dim)) if isinstance(dim, str) else dim
            if isinstance(size, (int, float)) and size < 0:
                raise self.error(f"'shape' dimension {i} is negative ({dim})", where)

    def constants(self, value: object, where: _Where) -> None:
        consts = self.dict_(value, where, "'constants_prop'")
        for name, entry in consts.items():
            here = (*where, f"constant {_quote(name)}")
            self.identifier(name, where, "constant name")
            pair = self.list_(entry, here, "a constant")
            if len(pair) != 2:
                raise self.error("a constant must be a [descriptor, value] pair", here)
            desc, val = pair
            self.data_descriptor(desc, here)
            self.constant_value(val, here)

    def constant_value(self, value: object, where: _Where, depth: int = 0) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, (int, float)):
            if isinstance(value, int) and value.bit_length() > 256:
                raise self.error("constant value is too large", where)
            return
        if isinstance(value, str):
            # numpy scalars are saved as their str(); DaCe converts them back with np.<dtype>(s)
            if not _NUMBER_TEXT.fullmatch(value):
                raise self.error(
                    f"constant value {_quote(value)} is not a number", where
                )
            return
        if isinstance(value, list):
            for v in value:
                if isinstance(v, (dict, str)):
                    raise self.error("constant arrays may only contain numbers", where)
                self.constant_value(v, where, depth + 1)
            return
        if isinstance(value, dict) and depth == 0:
            obj, _ = self.typed(value, where, "constant value", ("ndarray",))
            dtype = obj.get("dtype")
            if dtype is not None and dtype not in _BASIC_TYPECLASSES:
                raise self.error(
                    f"constant array dtype {_quote(dtype)} is not supported", where
                )
            data = obj.get("data")
            if not isinstance(data, (list, int, float, bool)):
                raise self.error(
                    "constant array 'data' must be a list of numbers", where
                )
            self.constant_value(data, where, depth + 1)
            return
        raise self.error(
            f"constant value must be a number or an array, got {_describe(value)}",
            where,
        )

    # ---- control flow ----------------------------------------------------------------------

    def region_contents(self, obj: dict, where: _Where, scope: _Scope) -> None:
        nodes = self.list_(obj.get("nodes"), where, "'nodes'")
        edges = self.list_(obj.get("edges"), where, "'edges'")
        labels = []
        for i, block in enumerate(nodes):
            labels.append(self.block(block, where, scope, i))
        for i, edge in enumerate(edges):
            self.interstate_edge(edge, where, scope, i, labels)
        start = obj.get("start_block")
        if start is not None:
            if isinstance(start, bool) or not isinstance(start, int):
                raise self.error(
                    f"'start_block' must be a block index, got {_quote(start)}", where
                )
            if not 0 <= start < max(len(nodes), 1):
                raise self.error(f"'start_block' {start} is out of range", where)

    def block(self, value: object, where: _Where, scope: _Scope, index: int) -> str:
        obj, t = self.typed(
            value, (*where, f"block #{index}"), "control-flow block", _BLOCK_TYPES
        )
        label = obj.get("label")
        if not isinstance(label, str):
            raise self.error(
                "block 'label' must be a string", (*where, f"block #{index} ({t})")
            )
        here = (*where, f"{_BLOCK_KIND[t]} {_quote(label)}")
        attrs = self.attributes(obj, here)
        self.properties(self.types[t], attrs, here, scope)
        if t == "SDFGState":
            self.state_contents(obj, here, scope)
        elif t == "ConditionalBlock":
            branches = self.list_(obj.get("branches"), here, "'branches'")
            for i, branch in enumerate(branches):
                bwhere = (*here, f"branch {i}")
                pair = self.list_(branch, bwhere, "a branch")
                if len(pair) != 2:
                    raise self.error(
                        "a branch must be a [condition, region] pair", bwhere
                    )
                cond, region = pair
                if cond is not None:
                    self.code_block(cond, bwhere, scope, "condition")
                robj, _ = self.typed(
                    region, bwhere, "branch region", ("ControlFlowRegion",)
                )
                rlabel = robj.get("label")
                if not isinstance(rlabel, str):
                    raise self.error("region 'label' must be a string", bwhere)
                rwhere = (*bwhere, f"region {_quote(rlabel)}")
                self.properties(
                    self.types["ControlFlowRegion"],
                    self.attributes(robj, rwhere),
                    rwhere,
                    scope,
                )
                self.region_contents(robj, rwhere, scope)
        elif t in (
            "LoopRegion",
            "ControlFlowRegion",
            "NamedRegion",
            "FunctionCallRegion",
        ):
            self.region_contents(obj, here, scope)
        return label

    def interstate_edge(
        self, value: object, where: _Where, scope: _Scope, index: int, labels: list[str]
    ) -> None:
        ewhere = (*where, f"interstate edge #{index}")
        obj, _ = self.typed(value, ewhere, "interstate edge", ("Edge",))
        src = self.index(obj.get("src"), ewhere, "'src'", len(labels))
        dst = self.index(obj.get("dst"), ewhere, "'dst'", len(labels))
        here = (
            *where,
            f"interstate edge {_quote(labels[src])} -> {_quote(labels[dst])}",
        )
        attrs = self.attributes(obj, here)
        data, _ = self.typed(
            attrs.get("data"), here, "interstate edge data", ("InterstateEdge",)
        )
        self.properties(
            self.types["InterstateEdge"], self.attributes(data, here), here, scope
        )

    def assignments(self, value: object, where: _Where, scope: _Scope) -> None:
        assigns = self.dict_(value, where, "'assignments'")
        for key, rhs in assigns.items():
            self.identifier(key, where, "assignment target")
            if key in ("type", "attributes"):
                raise self.error(
                    f"assignment target {_quote(key)} is reserved by DaCe's JSON format",
                    where,
                )
            if not isinstance(rhs, str):
                raise self.error(
                    f"assignment to {_quote(key)} must be an expression string, got {_describe(rhs)}",
                    where,
                )
            self.expr(
                rhs, where, f"assignment to {_quote(key)}", scope, subscripts=True
            )

    # ---- dataflow --------------------------------------------------------------------------

    def state_contents(self, obj: dict, where: _Where, scope: _Scope) -> None:
        nodes = self.list_(obj.get("nodes"), where, "'nodes'")
        edges = self.list_(obj.get("edges"), where, "'edges'")
        labels = [
            self.node(n, where, scope, i, len(nodes)) for i, n in enumerate(nodes)
        ]
        for i, edge in enumerate(edges):
            self.dataflow_edge(edge, where, scope, i, labels)

    def node(
        self, value: object, where: _Where, scope: _Scope, index: int, count: int
    ) -> str:
        t = value.get("type") if isinstance(value, dict) else None
        if t == "RTLTasklet":
            raise self.error(
                "RTL tasklets are not supported", (*where, f"node #{index}")
            )
        obj, t = self.typed(
            value, (*where, f"node #{index}"), "dataflow node", _NODE_TYPES
        )
        attrs = self.attributes(obj, (*where, f"node #{index} ({t})"))
        label = attrs.get(
            "label", attrs.get("data", attrs.get("name", obj.get("label")))
        )
        label = label if isinstance(label, str) else f"#{index}"
        here = (*where, f"node {_quote(label)} ({t})")
        if t in _SCOPE_ENTRIES and "scope_exit" not in obj and not obj.get("scope_exits"):
            raise self.error("scope entry has no 'scope_exit'", here)
        if t in _SCOPE_EXITS and "scope_entry" not in obj:
            raise self.error("scope exit has no 'scope_entry'", here)
        if t == "AccessNode":
            data = self.str_(attrs.get("data"), here, "'data' of an access node")
            if data not in scope.arrays:
                raise self.error(f"access node of {_quote(data)}, which is not a data container of this SDFG", here)
        for key in ("scope_entry", "scope_exit"):
            if obj.get(key) is not None:
                self.index(obj[key], here, f"'{key}'", count)
        if obj.get("scope_exits") is not None:
            for v in self.list_(obj["scope_exits"], here, "'scope_exits'"):
                self.index(v, here, "'scope_exits'", count)
        cls = self.types[t]
        if t == "LibraryNode":
            cls = self.library_class(obj.get("classpath"), here)
        self.properties(cls, attrs, here, scope)
        return label

    def dataflow_edge(
        self, value: object, where: _Where, scope: _Scope, index: int, labels: list[str]
    ) -> None:
        ewhere = (*where, f"edge #{index}")
        obj, _ = self.typed(value, ewhere, "dataflow edge", ("MultiConnectorEdge",))
        src = self.index(obj.get("src"), ewhere, "'src'", len(labels))
        dst = self.index(obj.get("dst"), ewhere, "'dst'", len(labels))
        here = (*where, f"edge {_quote(labels[src])} -> {_quote(labels[dst])}")
        for key in ("src_connector", "dst_connector"):
            if key not in obj:
                raise self.error(f"'{key}' is missing", here)
            if obj[key] is not None and not isinstance(obj[key], str):
                raise self.error(f"'{key}' must be a string or null", here)
        attrs = self.attributes(obj, here)
        memlet, _ = self.typed(attrs.get("data"), here, "edge data", ("Memlet",))
        mattrs = self.attributes(memlet, here)
        if mattrs.get("is_data_src") is not None and not isinstance(
            mattrs["is_data_src"], bool
        ):
            raise self.error(
                "'is_data_src' must be a boolean", (*here, "field 'is_data_src'")
            )
        self.properties(self.types["Memlet"], mattrs, here, scope)

    def library_class(self, classpath: object, where: _Where) -> type:
        if not isinstance(classpath, str):
            raise self.error(
                f"library node 'classpath' must be a string, got {_describe(classpath)}",
                where,
            )
        if not classpath.startswith("dace.libraries.") or not _CLASSPATH.fullmatch(
            classpath
        ):
            raise self.error(
                f"library node classpath {_quote(classpath)} is not a DaCe library class",
                where,
            )
        cls = self.library_classes().get(classpath)
        if cls is None:
            raise self.error(f"unknown library node class {_quote(classpath)}", where)
        return cls

    def library_classes(self) -> dict[str, type]:
        if self._library_classes is None:
            import importlib

            from dace.sdfg.nodes import LibraryNode
            from dace.transformation.transformation import ExpandTransformation

            for pkg in _LIBRARY_PACKAGES:  # a fixed list: never a name from the file
                try:
                    importlib.import_module(f"dace.libraries.{pkg}")
                except Exception:  # noqa: BLE001, S112 - a library whose optional dependency is missing
                    continue
            self._library_classes = _class_paths(LibraryNode)
            self._expansion_classes = _class_paths(ExpandTransformation)
        return self._library_classes

    # ---- properties ------------------------------------------------------------------------

    def properties(
        self,
        cls: type,
        attrs: dict,
        where: _Where,
        scope: _Scope | None,
        skip: Iterable[str] = (),
    ) -> None:
        props = getattr(cls, "__properties__", {})
        skip = set(skip)
        for key, value in attrs.items():
            if key in skip:
                continue
            prop = props.get(key)
            if prop is None:
                continue  # DaCe only reads declared properties
            self.property(cls, key, prop, value, (*where, f"field '{key}'"), scope)

    def property(
        self,
        cls: type,
        key: str,
        prop: Any,
        value: object,
        where: _Where,
        scope: _Scope | None,
    ) -> None:
        P = self.P
        nodes = self.dace.sdfg.nodes
        state = self.dace.sdfg.state
        if value is None:
            return  # every property deserializes null without parsing anything
        what = f"'{key}'"

        # Properties whose meaning goes beyond their declared kind.
        if key == "assignments" and cls is self.types["InterstateEdge"]:
            return self.assignments(value, where, scope)
        if key == "condition" and cls is self.types["InterstateEdge"]:
            return self.code_block(value, where, scope, "condition")
        if issubclass(cls, state.LoopRegion):
            if key == "loop_condition":
                return self.code_block(value, where, scope, "condition")
            if key in ("init_statement", "update_statement"):
                return self.code_block(value, where, scope, "assignment")
            if key == "loop_variable":
                if value != "":
                    self.identifier(value, where, "loop variable")
                return None
        if key == "params" and issubclass(cls, (nodes.Map, nodes.MapEntry)):
            for p in self.list_(value, where, what):
                self.identifier(p, where, "map parameter")
            return None
        if key == "pe_index" and issubclass(cls, (nodes.Consume, nodes.ConsumeEntry)):
            self.identifier(value, where, "processing-element index")
            return None
        if key == "additional_iterators" and issubclass(
            cls, (nodes.PipelineScope, nodes.PipelineEntry)
        ):
            for k, v in self.dict_(value, where, what).items():
                self.identifier(k, where, "iterator name")
                self.expr(v, where, f"iterator {_quote(k)}")
            return None
        if key == "location" and issubclass(cls, self.dace.data.Data):
            for k, v in self.dict_(value, where, what).items():
                self.str_(v, where, f"location {_quote(k)}")
                if k == "bank":  # parsed with Range.from_string by sdfg.validate()
                    try:
                        check_range_string(v)
                    except UnsafeExpressionError as err:
                        raise self.error(f"location 'bank': {err}", where) from None
            return None
        if key == "symbol_mapping" and issubclass(cls, nodes.NestedSDFG):
            for k, v in self.dict_(value, where, what).items():
                self.identifier(k, where, "symbol name")
                self.expr(v, where, f"mapping of symbol {_quote(k)}")
            return None

        kind = type(prop)
        if isinstance(
            prop, P.SDFGReferenceProperty
        ):  # also OptionalSDFGReferenceProperty
            return self.nested_sdfg(value, where)
        if kind is P.TransformationHistProperty:
            for i, entry in enumerate(self.list_(value, where, what)):
                if entry is not None:
                    self.transformation(entry, (*where, f"entry {i}"))
            return None
        if kind is P.DebugInfoProperty:
            return self.debuginfo(value, where)
        if kind is P.RangeProperty:
            return self.subset(value, where, ("Range",))
        if kind is P.SubsetProperty:
            return self.subset(value, where, ("Range", "Indices"))
        if kind is P.SymbolicProperty:
            return self.expr(value, where, what)
        if kind is P.ShapeProperty:
            for i, v in enumerate(self.list_(value, where, what)):
                self.expr(v, where, f"{what}[{i}]")
            return None
        if kind is P.TypeClassProperty:
            return self.typeclass(value, where, property_string=True)
        if kind is P.LambdaProperty:
            return self.wcr(value, where)
        if kind is P.CodeProperty:
            return self.code_block(value, where, scope, "code")
        if kind is P.DataProperty:
            self.str_(value, where, what)
            return None
        if kind is P.EnumProperty:
            enum = prop.dtype
            if not isinstance(value, str) or value not in enum.__members__:
                raise self.error(f"unknown {enum.__name__} {_quote(value)}", where)
            return None
        if kind is P.LibraryImplementationProperty:
            self.str_(value, where, what)
            return None
        if kind is P.DictProperty:
            return self.dict_property(prop, value, where, scope)
        if kind is P.ListProperty:
            return self.list_property(prop, value, where, scope)
        if kind is P.SetProperty:
            for v in self.list_(value, where, what):
                if isinstance(v, bool) or not isinstance(v, (str, int)):
                    raise self.error(
                        f"{what} must be a list of strings or integers", where
                    )
            return None
        if kind is P.Property:
            return self.plain_property(cls, key, prop, value, where)
        raise self.error(f"property kind {kind.__name__} is not supported", where)

    def plain_property(
        self, cls: type, key: str, prop: Any, value: object, where: _Where
    ) -> None:
        import numbers

        what = f"'{key}'"
        if not _default_from_json(prop):
            raise self.error(
                f"property {what} of {cls.__name__} is not supported", where
            )
        dtype = prop._dtype
        if dtype is bool:
            if not isinstance(value, bool):
                raise self.error(
                    f"{what} must be a boolean, got {_describe(value)}", where
                )
        elif dtype is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.error(
                    f"{what} must be an integer, got {_describe(value)}", where
                )
            if not INT64_MIN <= value <= INT64_MAX:
                raise self.error(f"{what}: integer {value} is outside the 64-bit range", where)
        elif dtype is float or dtype is numbers.Number:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise self.error(
                    f"{what} must be a number, got {_describe(value)}", where
                )
        elif dtype is str:
            self.str_(value, where, what)
        elif dtype is None:
            # Untyped (e.g. Gemm.alpha, Reduce.identity): library expansions may sympify strings.
            if isinstance(value, (list, dict)):
                raise self.error(
                    f"{what} must be a number or an expression, got {_describe(value)}",
                    where,
                )
            if not isinstance(value, bool):  # a boolean identity is a value, not an expression
                self.expr(value, where, what)
        else:
            raise self.error(
                f"property {what} of {cls.__name__} is not supported", where
            )

    def dict_property(
        self, prop: Any, value: object, where: _Where, scope: _Scope | None
    ) -> None:
        from dace import dtypes, subsets, symbolic
        from dace.properties import CodeBlock

        items = self.dict_(value, where, f"'{prop.attr_name}'")
        ktype, vtype = prop.key_type, prop.value_type
        for k, v in items.items():
            if ktype is str:
                pass
            elif ktype is int:
                if not re.fullmatch(r"-?[0-9]{1,18}", k):
                    raise self.error(f"key {_quote(k)} must be an integer", where)
            elif ktype is symbolic.symbol:
                self.identifier(k, where, "symbol name")
            else:
                raise self.error(
                    f"dictionary keys of type {ktype.__name__} are not supported", where
                )
            vwhat = f"entry {_quote(k)}"
            if v is None:
                continue
            if vtype is dtypes.typeclass:
                self.typeclass(v, where)
            elif vtype is str:
                self.str_(v, where, vwhat)
            elif vtype is int:
                if not isinstance(v, int):
                    raise self.error(f"{vwhat} must be an integer", where)
            elif vtype is list:
                for item in self.list_(v, where, vwhat):
                    self.str_(item, where, vwhat)
            elif vtype is tuple:  # copied with tuple(), never deserialized
                for item in self.list_(v, where, vwhat):
                    if isinstance(item, (list, dict)):
                        raise self.error(
                            f"{vwhat} must be a list of numbers or strings", where
                        )
            elif vtype is dict:
                self.dict_(v, where, vwhat)  # copied with dict(), never deserialized
            elif vtype is CodeBlock:
                self.code_block(v, (*where, f"entry {_quote(k)}"), scope, "code")
            elif vtype is symbolic.pystr_to_symbolic:
                self.expr(v, where, vwhat)
            elif vtype is subsets.Range:
                self.subset(v, (*where, f"entry {_quote(k)}"), ("Range",))
            else:
                name = getattr(vtype, "__name__", str(vtype))
                raise self.error(
                    f"dictionary values of type {name} are not supported", where
                )

    def list_property(
        self, prop: Any, value: object, where: _Where, scope: _Scope | None
    ) -> None:
        from dace import symbolic
        from dace.sdfg.sdfg import LogicalGroup

        what = f"'{prop.attr_name}'"
        items = self.list_(value, where, what)
        etype = prop.element_type
        for i, v in enumerate(items):
            ewhat = f"{what}[{i}]"
            if etype is str:
                self.str_(v, where, ewhat)
            elif etype is int:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise self.error(f"{ewhat} must be an integer", where)
            elif etype is tuple:
                for x in self.list_(v, where, ewhat):
                    if isinstance(x, (list, dict)):
                        raise self.error(
                            f"{ewhat} must be a list of numbers or strings", where
                        )
            elif etype is symbolic.pystr_to_symbolic:
                self.expr(v, where, ewhat)
            elif etype is LogicalGroup:
                group = self.dict_(v, where, ewhat)
                attrs = (
                    self.dict_(group["attributes"], where, ewhat)
                    if "attributes" in group
                    else group
                )
                self.properties(LogicalGroup, attrs, (*where, f"entry {i}"), scope)
            else:
                name = getattr(etype, "__name__", str(etype))
                raise self.error(f"lists of {name} are not supported", where)

    # ---- values ----------------------------------------------------------------------------

    def nested_sdfg(self, value: object, where: _Where) -> None:
        if isinstance(value, str):  # DaCe accepts a JSON string here and json.loads it
            if len(value) > MAX_SDFG_BYTES:
                raise self.error("nested SDFG text is too large", where)
            try:
                value = json.loads(value)
            except (ValueError, RecursionError) as err:
                raise self.error(
                    f"nested SDFG string is not valid JSON: {err}", where
                ) from None
        self.sdfg(value, where)

    def debuginfo(self, value: object, where: _Where) -> None:
        obj, _ = self.typed(value, where, "debug information", ("DebugInfo",))
        for key in ("start_line", "end_line", "start_column", "end_column"):
            v = obj.get(key)
            if isinstance(v, bool) or not isinstance(v, int) or not INT64_MIN <= v <= INT64_MAX:
                raise self.error(f"debug information '{key}' must be an integer, got {_describe(v)}", where)
        if "filename" not in obj:
            raise self.error("debug information has no 'filename'", where)
        f = obj["filename"]
        if f is not None and not isinstance(f, str):
            raise self.error("debug information 'filename' must be a string", where)

    def subset(self, value: object, where: _Where, allowed: tuple[str, ...]) -> None:
        if isinstance(value, str) and "Indices" in allowed:
            # SubsetProperty.__set__ parses strings with Range.from_string
            try:
                check_range_string(value)
            except UnsafeExpressionError as err:
                raise self.error(str(err), where) from None
            return
        obj, t = self.typed(value, where, "subset", allowed)
        if t == "Range":
            for i, dim in enumerate(self.list_(obj.get("ranges"), where, "'ranges'")):
                d = self.dict_(dim, where, f"range dimension {i}")
                for part in ("start", "end", "step", "tile"):
                    if part not in d:
                        raise self.error(f"range dimension {i} has no '{part}'", where)
                    v = d[part]
                    what = f"dimension {i} {part}"
                    if isinstance(v, dict):  # a SymExpr: {"main": ..., "approx": ...}
                        for sub in ("main", "approx"):
                            self.expr(self.str_(v.get(sub), where, f"{what} ({sub})"), where, f"{what} ({sub})")
                    else:  # Range.from_json reads anything but a string as a SymExpr object
                        self.expr(self.str_(v, where, what), where, what)
        else:
            for i, v in enumerate(self.list_(obj.get("indices"), where, "'indices'")):
                self.expr(v, where, f"index {i}")

    def typeclass(
        self,
        value: object,
        where: _Where,
        property_string: bool = False,
        depth: int = 0,
    ) -> None:
        if depth > 20:
            raise self.error("data type is nested too deeply", where)
        if isinstance(value, str):
            names = _TYPECLASS_PROPERTY_NAMES if property_string else _BASIC_TYPECLASSES
            if value not in names:
                raise self.error(f"unknown data type {_quote(value)}", where)
            return
        obj, t = self.typed(
            value,
            where,
            "data type",
            ("pointer", "vector", "opaque", "struct", "string", "callback"),
        )
        if t == "pointer":
            if obj.get("dtype") is not None:
                self.typeclass(obj["dtype"], where, depth=depth + 1)
        elif t == "vector":
            self.typeclass(obj.get("dtype"), where, depth=depth + 1)
            self.expr(obj.get("elements"), where, "vector length")
        elif t == "opaque":
            ctype = obj.get("ctype")
            if ctype == "pyobject":
                return
            if (
                not isinstance(ctype, str)
                or not _C_TYPE_NAME.fullmatch(ctype)
                or ctype in self.types
                or ctype in _BASIC_TYPECLASSES
            ):
                raise self.error(
                    f"opaque type name {_quote(ctype)} is not allowed", where
                )
        elif t == "struct":
            self.identifier(obj.get("name"), where, "struct name")
            for field in self.list_(obj.get("data"), where, "struct 'data'"):
                pair = self.list_(field, where, "struct field")
                if len(pair) != 2:
                    raise self.error("struct field must be a [name, type] pair", where)
                self.identifier(pair[0], where, "struct field name")
                self.typeclass(pair[1], where, depth=depth + 1)
            for field in self.list_(obj.get("length"), where, "struct 'length'"):
                pair = self.list_(field, where, "struct length")
                if (
                    len(pair) != 2
                    or not isinstance(pair[0], str)
                    or isinstance(pair[1], (list, dict))
                ):
                    raise self.error(
                        "struct length must be a [name, value] pair", where
                    )
            b = obj.get("bytes")
            if isinstance(b, bool) or not isinstance(b, int):
                raise self.error("struct 'bytes' must be an integer", where)
        elif t == "callback":
            for r in self.list_(
                obj.get("returntypes"), where, "callback 'returntypes'"
            ):
                if r:
                    self.typeclass(r, where, depth=depth + 1)
            for a in self.list_(obj.get("arguments"), where, "callback 'arguments'"):
                if isinstance(a, dict) and a.get("type") in _DATA_TYPES:
                    self.data_descriptor(a, where)
                elif a is not None:
                    self.typeclass(a, where, depth=depth + 1)

    def wcr(self, value: object, where: _Where) -> None:
        text = self.str_(value, where, "write-conflict resolution")

        def fail(reason: str) -> SdfgInputError:
            return self.error(
                f"write-conflict resolution {_quote(text)} is not allowed: {reason}",
                where,
            )

        if len(text) > MAX_EXPRESSION_LENGTH:
            raise fail(f"longer than {MAX_EXPRESSION_LENGTH} characters")
        source = text.strip(" \t\r\n")
        if any(not (c.isascii() and c.isprintable()) or c in "#\\" for c in source):
            raise fail("unexpected character")
        try:
            tree = ast.parse(source, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise fail("invalid syntax") from None
        if not isinstance(tree, ast.Lambda):
            raise fail("it must be a lambda of two arguments")
        args = tree.args
        if (
            args.posonlyargs
            or args.vararg
            or args.kwonlyargs
            or args.kwarg
            or args.defaults
            or args.kw_defaults
            or len(args.args) != 2
        ):
            raise fail("it must be a lambda of two plain arguments")
        params = set()
        for a in args.args:
            if not is_identifier(a.arg):
                raise fail(f"parameter name {_quote(a.arg)}")
            params.add(a.arg)
        body = ast.get_source_segment(source, tree.body)
        if body is None:  # pragma: no cover - positions always exist for parsed source
            raise fail("cannot locate the lambda body")
        try:
            checked = check_expression(body)
        except UnsafeExpressionError as err:
            raise fail(err.reason) from None
        called = {id(n.func) for n in ast.walk(checked) if isinstance(n, ast.Call)}
        for n in ast.walk(checked):
            if isinstance(n, ast.Name) and id(n) not in called and n.id not in params:
                raise fail(f"it reads {_quote(n.id)}, which is not a lambda parameter")

    def code_block(
        self, value: object, where: _Where, scope: _Scope | None, role: str
    ) -> None:
        """A CodeBlock JSON object `{"string_data": ..., "language": ...}`.

        role "condition": a Python expression (may read data); "assignment": Python
        `name = expression` statements; "code": any Python statements (syntax-checked only),
        or C++ text.
        """
        obj = self.dict_(value, where, "code")
        lang = obj.get("language")
        if lang is None:
            lang = "Python"
        if not isinstance(lang, str):
            raise self.error("code 'language' must be a string", where)
        if lang == "NoCode":
            return
        if lang.endswith("Python"):
            lang = "Python"
        elif lang.endswith("CPP"):
            lang = "CPP"
        else:
            raise self.error(f"code language {_quote(lang)} is not supported", where)
        text = self.code_string(obj.get("string_data"), where, "code 'string_data'")
        if role != "code" and lang != "Python":
            raise self.error(f"a {role} must be Python code, not {lang}", where)
        if role == "condition":
            return self.expr(text, where, "condition", scope, subscripts=True)
        if lang != "Python":
            return None
        try:
            module = ast.parse(text)
        except SyntaxError as err:
            raise self.error(
                f"invalid Python syntax in {_quote(text)}: {err.msg} (line {err.lineno})",
                where,
            ) from None
        except (ValueError, RecursionError, MemoryError) as err:
            raise self.error(
                f"cannot parse the code ({type(err).__name__})", where
            ) from None
        if role == "assignment":
            self.assignment_statements(text, module, where, scope)
        return None

    def assignment_statements(
        self, text: str, module: ast.Module, where: _Where, scope: _Scope | None
    ) -> None:
        if any(
            c in "#\\" or not (c.isascii() and (c.isprintable() or c == "\n"))
            for c in text
        ):
            raise self.error(
                f"statement {_quote(text)} contains a comment, backslash or unexpected character",
                where,
            )
        for stmt in module.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AugAssign):
                target, value = stmt.target, stmt.value
            else:
                raise self.error(
                    f"statement {_quote(text)} must be assignments 'name = expression'",
                    where,
                )
            if not isinstance(target, ast.Name) or not is_identifier(target.id):
                raise self.error(
                    f"statement {_quote(text)} must assign to a plain name", where
                )
            segment = ast.get_source_segment(text, value)
            if segment is None or "\n" in segment:
                raise self.error(f"statement {_quote(text)} must be on one line", where)
            self.expr(
                segment,
                where,
                f"assignment to {_quote(target.id)}",
                scope,
                subscripts=True,
            )

    def transformation(self, value: object, where: _Where) -> None:
        from dace.transformation.transformation import (
            PatternTransformation,
            SubgraphTransformation,
        )

        obj, t = self.typed(
            value,
            where,
            "transformation",
            ("PatternTransformation", "SubgraphTransformation", "ExpandTransformation"),
        )
        name = self.identifier(obj.get("transformation"), where, "transformation name")
        if t == "ExpandTransformation":
            classpath = obj.get("classpath")
            if (
                not isinstance(classpath, str)
                or not classpath.startswith("dace.libraries.")
                or not _CLASSPATH.fullmatch(classpath)
            ):
                raise self.error(
                    f"expansion classpath {_quote(classpath)} is not a DaCe library class",
                    where,
                )
            self.library_classes()
            assert self._expansion_classes is not None
            cls = self._expansion_classes.get(classpath)
        elif t == "PatternTransformation":
            cls = next(
                (
                    c
                    for c in PatternTransformation.subclasses_recursive(
                        all_subclasses=True
                    )
                    if c.__name__ == name
                ),
                None,
            )
        else:
            cls = next(
                (
                    c
                    for c in SubgraphTransformation.subclasses_recursive()
                    if c.__name__ == name
                ),
                None,
            )
        if cls is None:
            raise self.error(f"unknown transformation {_quote(name)}", where)
        here = (*where, f"transformation {_quote(name)}")
        for key in ("expr_index", "cfg_id", "state_id"):
            v = obj.get(key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise self.error(f"'{key}' must be an integer", here)
        sub = obj.get("_subgraph")
        if sub is not None:
            for k, v in self.dict_(sub, here, "'_subgraph'").items():
                if (
                    not re.fullmatch(r"[0-9]{1,9}", k)
                    or isinstance(v, bool)
                    or not isinstance(v, int)
                ):
                    raise self.error(
                        "'_subgraph' must map node indices to node ids", here
                    )
        # DaCe reads the properties from 'attributes' when present, else from the object itself
        attrs = (
            self.dict_(obj["attributes"], here, "'attributes'")
            if "attributes" in obj
            else obj
        )
        self.properties(
            cls, attrs, here, None, skip={"type", "transformation", "classpath"}
        )


def _default_from_json(prop: Any) -> bool:
    """Whether a plain Property deserializes with DaCe's generic `serialize.from_json`."""
    fj = getattr(prop, "_from_json", None)
    return getattr(fj, "__qualname__", "") == "Property.__init__.<locals>.<lambda>"


def _class_paths(base: type) -> dict[str, type]:
    from dace.sdfg.nodes import full_class_path

    result: dict[str, type] = {}
    stack = [base]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            path = full_class_path(sub)
            if path.startswith("dace.libraries."):
                result[path] = sub
    return result
