"""Loading `.sdfg` files never evaluates a string of the file as Python.

Real SDFG JSON is built from small DaCe programs; hostile strings are injected into every field
that DaCe would hand to sympy/eval/import, and the safe loader must reject each one with an
`SdfgInputError` naming the place, before DaCe sees it (no marker file appears).
"""

import copy
import gzip
import json
from collections.abc import Callable, Iterator

import dace
import numpy as np
import pytest
from dace import serialize
from dace.sdfg.infer_types import (
    infer_connector_types,
    set_default_schedule_and_storage_types,
)
from dace.sdfg.utils import dfs_topological_sort
from dace.transformation.dataflow import MapTiling
from dace.transformation.passes.pattern_matching import match_patterns

from ipu_lower.dace_types import register
from ipu_lower.frontend import sdfg_json
from ipu_lower.frontend.safe_expr import (
    UnsafeExpressionError,
    check_expression,
    check_range_string,
    split_range_string,
)
from ipu_lower.frontend.sdfg_json import (
    SdfgInputError,
    load_sdfg_json,
    sdfg_from_json_safely,
    validate_sdfg_json,
)

N = dace.symbol("N")
M = dace.symbol("M")
K = dace.symbol("K")


@dace.program
def saxpy(x: dace.float32[N], y: dace.float32[N]):
    y[:] = 2 * x + y


@dace.program
def loops(a: dace.float32[N], T: dace.int32):
    for t in range(T):
        if a[0] > 0:
            a[:] = a + 1
        else:
            a[:] = a - 1


@dace.program(use_experimental_cfg_blocks=True)
def loops_cfg(a: dace.float32[N], T: dace.int32):
    for t in range(T):
        if a[0] > 0:
            a[:] = a + 1
        else:
            a[:] = a - 1


@dace.program
def reduction(x: dace.float32[N], s: dace.float32[1]):
    s[0] = np.sum(x)


@dace.program
def matmul(A: dace.float32[M, K], B: dace.float32[K, N], C: dace.float32[M, N]):
    C[:] = A @ B


@dace.program
def wcr_sum(x: dace.float32[N], s: dace.float32[1]):
    for i in dace.map[0:N]:
        s[0] += x[i]


@dace.program
def nested(x: dace.float32[N], y: dace.float32[N]):
    for i in dace.map[0:N]:
        with dace.tasklet:
            a << x[i]  # noqa: F821 - DaCe tasklet syntax
            b >> y[i]  # noqa: F821
            b = a * 2  # noqa: F841, F821


_PROGRAMS = {
    "saxpy": (saxpy, True),
    "loops": (loops, True),
    "loops_cfg": (loops_cfg, True),
    "reduction": (reduction, True),
    "matmul": (matmul, True),
    "wcr_sum": (wcr_sum, True),
    "nested": (nested, False),  # keeps the NestedSDFG inside the map
}


def _matmul_expanded() -> dace.SDFG:
    """Expansion records a transformation history and keeps the original SDFG (`orig_sdfg`)."""
    sdfg = matmul.to_sdfg(simplify=True)
    sdfg.expand_library_nodes()
    return sdfg


def _saxpy_tiled() -> dace.SDFG:
    """A pattern transformation applied with `append=True` is recorded in the history."""
    sdfg = saxpy.to_sdfg(simplify=True)
    xform = next(match_patterns(sdfg, MapTiling))
    xform.tile_sizes = (64,)
    xform.apply_pattern(append=True)
    return sdfg


_BUILDERS: dict[str, Callable[[], dace.SDFG]] = {
    **{
        name: (lambda p=prog, s=simplify: p.to_sdfg(simplify=s))
        for name, (prog, simplify) in _PROGRAMS.items()
    },
    "matmul_expanded": _matmul_expanded,
    "saxpy_tiled": _saxpy_tiled,
}


def _as_file_json(sdfg: dace.SDFG) -> dict:
    """What a `.sdfg` file holds: plain JSON (lists, not tuples)."""
    return json.loads(serialize.dumps(sdfg.to_json()))


@pytest.fixture(scope="module")
def documents() -> dict[str, dict]:
    register()
    docs = {name: _as_file_json(build()) for name, build in _BUILDERS.items()}
    assert docs["matmul_expanded"]["attributes"]["transformation_hist"]
    assert isinstance(docs["matmul_expanded"]["attributes"]["orig_sdfg"], dict)
    assert (
        docs["saxpy_tiled"]["attributes"]["transformation_hist"][0]["transformation"]
        == "MapTiling"
    )
    return docs


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run in an empty directory; the payloads try to create `MARKER` there."""
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    assert not (tmp_path / "MARKER").exists(), "a payload was executed"


# --------------------------------------------------------------------------------------------
# JSON helpers


def walk(obj) -> Iterator[dict]:
    if isinstance(obj, dict):
        yield obj
        for v in obj.values():
            yield from walk(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from walk(v)


def blocks(region: dict) -> Iterator[dict]:
    """Control-flow blocks of an SDFG/region, recursively (not into nested SDFGs)."""
    for b in region["nodes"]:
        yield b
        if b["type"] == "ConditionalBlock":
            for _, r in b["branches"]:
                yield from blocks(r)
        elif b["type"] != "SDFGState":
            yield from blocks(b)


def find_node(doc: dict, type_: str) -> tuple[dict, dict]:
    for b in blocks(doc):
        if b["type"] == "SDFGState":
            for n in b["nodes"]:
                if n["type"] == type_:
                    return b, n
    raise LookupError(type_)


def find_block(doc: dict, type_: str) -> dict:
    return next(b for b in blocks(doc) if b["type"] == type_)


def node_label(node: dict) -> str:
    a = node["attributes"]
    return a.get("label") or a.get("data") or a.get("name") or node["label"]


def memlet_edge(doc: dict, with_map: bool = True) -> tuple[dict, dict, str]:
    """A dataflow edge with a Range subset: (state, edge, "'src' -> 'dst'")."""
    for b in blocks(doc):
        if b["type"] != "SDFGState":
            continue
        for e in b["edges"]:
            m = e["attributes"]["data"]["attributes"]
            if isinstance(m.get("subset"), dict) and m["subset"]["type"] == "Range":
                src = node_label(b["nodes"][int(e["src"])])
                dst = node_label(b["nodes"][int(e["dst"])])
                return b, e, f"edge '{src}' -> '{dst}'"
    raise LookupError("memlet")


def sdfg_where(doc: dict) -> str:
    return f"SDFG '{doc['attributes']['name']}'"


def state_where(state: dict) -> str:
    return f"state '{state['label']}'"


# --------------------------------------------------------------------------------------------
# Valid documents load and round trip


@pytest.mark.parametrize("name", list(_BUILDERS))
def test_valid_sdfgs_load_and_round_trip(documents, name, in_tmp):
    doc = copy.deepcopy(documents[name])
    validate_sdfg_json(doc)
    sdfg = sdfg_from_json_safely(doc)
    assert isinstance(sdfg, dace.SDFG)
    assert _as_file_json(sdfg) == documents[name]
    sdfg.validate()
    infer_connector_types(sdfg)
    set_default_schedule_and_storage_types(sdfg, None)
    for state in sdfg.all_states():
        assert len(list(dfs_topological_sort(state))) == len(state.nodes())


def test_sdfg_round_trips_through_a_gzip_file(documents, in_tmp):
    data = gzip.compress(json.dumps(documents["loops"]).encode())
    for filename in ("prog.sdfgz", "prog.sdfg"):  # by name or by magic bytes
        doc = load_sdfg_json(data, filename)
        assert (
            sdfg_from_json_safely(doc).name == documents["loops"]["attributes"]["name"]
        )


def test_ipu_storage_and_schedule_names_load(documents, in_tmp):
    register()
    register()  # idempotent
    for name in ("IPU_Tile", "IPU_Streaming"):
        assert name in dace.dtypes.StorageType.__members__
    for name in ("IPU_Device", "IPU_Workers"):
        assert name in dace.dtypes.ScheduleType.__members__
    doc = copy.deepcopy(documents["saxpy"])
    doc["attributes"]["_arrays"]["x"]["attributes"]["storage"] = "IPU_Tile"
    _, entry = find_node(doc, "MapEntry")
    entry["attributes"]["schedule"] = "IPU_Device"
    sdfg = sdfg_from_json_safely(doc)
    assert sdfg.arrays["x"].storage is dace.dtypes.StorageType.IPU_Tile
    maps = [
        n for n, _ in sdfg.all_nodes_recursive() if isinstance(n, dace.nodes.MapEntry)
    ]
    assert maps[0].map.schedule is dace.dtypes.ScheduleType.IPU_Device
    assert (
        _as_file_json(sdfg)["attributes"]["_arrays"]["x"]["attributes"]["storage"]
        == "IPU_Tile"
    )


def test_dace_alone_would_run_a_payload(documents, in_tmp):
    """Positive control: the threat is real, so the rejections below mean something."""
    doc = copy.deepcopy(documents["saxpy"])
    doc["attributes"]["_arrays"]["x"]["attributes"]["shape"] = ["open('MARKER', 'w')"]
    try:
        dace.SDFG.from_json(copy.deepcopy(doc))
    except Exception:  # noqa: BLE001, S110 - only the side effect matters here
        pass
    assert (in_tmp / "MARKER").exists()
    (in_tmp / "MARKER").unlink()
    with pytest.raises(SdfgInputError, match="field 'shape'"):
        sdfg_from_json_safely(doc)


# --------------------------------------------------------------------------------------------
# Hostile strings in every field

PAYLOADS = {
    "import": "__import__('os').system('touch MARKER')",
    "subclasses": "().__class__.__bases__[0].__subclasses__()",
    "open": "open('MARKER', 'w')",
    "power": "9**9**9**9**9",
    "lambda": "lambda: 0",
    "huge": "N + " * 25_000 + "1",
    "syntax_error": "N +",
    "subscript_call": "open[1]",
}

Injector = Callable[[dict, str], list[str]]


def _array(field: str, as_list: bool) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        d["attributes"]["_arrays"]["x"]["attributes"][field] = [p] if as_list else p
        return [sdfg_where(d), "data 'x'", f"field '{field}'"]

    return inject


def _map_range(part: str) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        state, entry = find_node(d, "MapEntry")
        entry["attributes"]["range"]["ranges"][0][part] = p
        return [
            sdfg_where(d),
            state_where(state),
            f"node '{node_label(entry)}' (MapEntry)",
            "field 'range'",
        ]

    return inject


def _memlet(field: str, make: Callable[[str], object]) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        state, edge, where = memlet_edge(d)
        edge["attributes"]["data"]["attributes"][field] = make(p)
        return [sdfg_where(d), state_where(state), where, f"field '{field}'"]

    return inject


def _range_with(p: str) -> dict:
    return {
        "type": "Range",
        "ranges": [{"start": p, "end": "0", "step": "1", "tile": "1"}],
    }


def _symbol_type(d: dict, p: str) -> list[str]:
    d["attributes"]["symbols"]["N"] = p
    return [sdfg_where(d), "field 'symbols'"]


def _typeclass(make: Callable[[str], object]) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        d["attributes"]["_arrays"]["x"]["attributes"]["dtype"] = make(p)
        return [sdfg_where(d), "data 'x'", "field 'dtype'"]

    return inject


def _connector_type(d: dict, p: str) -> list[str]:
    state, tasklet = find_node(d, "Tasklet")
    conn = next(iter(tasklet["attributes"]["in_connectors"]))
    tasklet["attributes"]["in_connectors"][conn] = p
    return [
        sdfg_where(d),
        state_where(state),
        f"node '{node_label(tasklet)}' (Tasklet)",
        "field 'in_connectors'",
    ]


def _interstate(field: str) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        for e in d["edges"]:
            data = e["attributes"]["data"]["attributes"]
            if field == "condition" and "condition" in data:
                data["condition"]["string_data"] = p
                break
            if field == "assignments" and data.get("assignments"):
                key = next(iter(data["assignments"]))
                data["assignments"][key] = p
                break
        else:
            raise LookupError(field)
        src, dst = (
            d["nodes"][int(e["src"])]["label"],
            d["nodes"][int(e["dst"])]["label"],
        )
        return [
            sdfg_where(d),
            f"interstate edge '{src}' -> '{dst}'",
            f"field '{field}'",
        ]

    return inject


def _loop(field: str) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        loop = find_block(d, "LoopRegion")
        if field == "loop_variable":
            loop["attributes"][field] = p
        else:
            loop["attributes"][field]["string_data"] = p
        return [sdfg_where(d), f"loop '{loop['label']}'", f"field '{field}'"]

    return inject


def _branch_condition(d: dict, p: str) -> list[str]:
    cond = find_block(d, "ConditionalBlock")
    cond["branches"][0][0]["string_data"] = p
    return [
        sdfg_where(d),
        f"conditional block '{cond['label']}'",
        "branch 0",
        "condition",
    ]


def _nested_symbol_mapping(d: dict, p: str) -> list[str]:
    state, node = find_node(d, "NestedSDFG")
    node["attributes"]["symbol_mapping"] = {"N": p}
    return [
        sdfg_where(d),
        state_where(state),
        f"node '{node_label(node)}' (NestedSDFG)",
        "field 'symbol_mapping'",
    ]


def _nested_inner_shape(d: dict, p: str) -> list[str]:
    _, node = find_node(d, "NestedSDFG")
    inner = node["attributes"]["sdfg"]
    name = next(iter(inner["attributes"]["_arrays"]))
    inner["attributes"]["_arrays"][name]["attributes"]["shape"] = [p]
    return [
        sdfg_where(d),
        f"node '{node_label(node)}' (NestedSDFG)",
        "field 'sdfg'",
        sdfg_where(inner),
        f"data '{name}'",
        "field 'shape'",
    ]


def _constant(d: dict, p: str) -> list[str]:
    desc = {"type": "Scalar", "attributes": {"dtype": "float32", "shape": ["1"]}}
    d["attributes"]["constants_prop"] = {"C": [desc, p]}
    return [sdfg_where(d), "field 'constants_prop'", "constant 'C'"]


def _constant_desc(d: dict, p: str) -> list[str]:
    desc = {"type": "Array", "attributes": {"dtype": "float32", "shape": [p]}}
    d["attributes"]["constants_prop"] = {"C": [desc, [1.0]]}
    return [sdfg_where(d), "field 'constants_prop'", "constant 'C'", "field 'shape'"]


def _library(field: str) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        state, node = find_node(d, "LibraryNode")
        label = node_label(node)
        if field == "classpath":
            node["classpath"] = p
            return [
                sdfg_where(d),
                state_where(state),
                f"node '{label}' (LibraryNode)",
                "classpath",
            ]
        node["attributes"][field] = p
        return [
            sdfg_where(d),
            state_where(state),
            f"node '{label}' (LibraryNode)",
            f"field '{field}'",
        ]

    return inject


def _wcr(template: str) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        for b in blocks(d):
            if b["type"] != "SDFGState":
                continue
            for e in b["edges"]:
                m = e["attributes"]["data"]["attributes"]
                if m.get("wcr"):
                    m["wcr"] = template.format(p)
                    src = node_label(b["nodes"][int(e["src"])])
                    dst = node_label(b["nodes"][int(e["dst"])])
                    return [
                        sdfg_where(d),
                        state_where(b),
                        f"edge '{src}' -> '{dst}'",
                        "field 'wcr'",
                    ]
        raise LookupError("wcr")

    return inject


def _state_field(field: str, make: Callable[[str], object]) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        state = d["nodes"][0]
        state["attributes"][field] = make(p)
        return [sdfg_where(d), state_where(state), f"field '{field}'"]

    return inject


def _map_params(d: dict, p: str) -> list[str]:
    _, entry = find_node(d, "MapEntry")
    entry["attributes"]["params"] = [p]
    return [sdfg_where(d), f"node '{node_label(entry)}' (MapEntry)", "field 'params'"]


def _stream(field: str, as_list: bool) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        attrs = {
            "dtype": "float32",
            "shape": ["1"],
            "transient": True,
            field: [p] if as_list else p,
        }
        d["attributes"]["_arrays"]["q"] = {"type": "Stream", "attributes": attrs}
        return [sdfg_where(d), "data 'q'", f"field '{field}'"]

    return inject


def _bank(d: dict, p: str) -> list[str]:
    d["attributes"]["_arrays"]["x"]["attributes"]["location"] = {
        "memorytype": "DDR",
        "bank": p,
    }
    return [sdfg_where(d), "data 'x'", "field 'location'"]


def _type_field(where: str) -> Injector:
    def inject(d: dict, p: str) -> list[str]:
        if where == "data":
            d["attributes"]["_arrays"]["x"]["type"] = p
            return [sdfg_where(d), "data 'x'"]
        if where == "node":
            state, node = find_node(d, "Tasklet")
            node["type"] = p
            return [sdfg_where(d), state_where(state)]
        if where == "block":
            d["nodes"][0]["type"] = p
            return [sdfg_where(d), "block #0"]
        state, edge, _ = memlet_edge(d)
        edge["attributes"]["data"]["type"] = p
        return [sdfg_where(d), state_where(state)]

    return inject


def _transformation_classpath(d: dict, p: str) -> list[str]:
    d["attributes"]["transformation_hist"] = [
        {"type": "ExpandTransformation", "transformation": "Expand", "classpath": p}
    ]
    return [sdfg_where(d), "field 'transformation_hist'", "entry 0"]


def _history_property(d: dict, p: str) -> list[str]:
    entry = d["attributes"]["transformation_hist"][0]
    entry["tile_sizes"] = [p]
    return [
        sdfg_where(d),
        "field 'transformation_hist'",
        "entry 0",
        "transformation 'MapTiling'",
        "field 'tile_sizes'",
    ]


def _history_expansion(d: dict, p: str) -> list[str]:
    d["attributes"]["transformation_hist"][0]["classpath"] = p
    return [sdfg_where(d), "field 'transformation_hist'", "entry 0"]


def _orig_sdfg_dict(d: dict, p: str) -> list[str]:
    orig = d["attributes"]["orig_sdfg"]
    orig["attributes"]["_arrays"]["A"]["attributes"]["shape"][0] = p
    return [
        sdfg_where(d),
        "field 'orig_sdfg'",
        sdfg_where(orig),
        "data 'A'",
        "field 'shape'",
    ]


def _orig_sdfg_string(d: dict, p: str) -> list[str]:
    inner = copy.deepcopy(d)
    inner["attributes"]["_arrays"]["x"]["attributes"]["shape"] = [p]
    d["attributes"]["orig_sdfg"] = json.dumps(inner)
    return [sdfg_where(d), "field 'orig_sdfg'", "data 'x'", "field 'shape'"]


def _enum(d: dict, p: str) -> list[str]:
    d["attributes"]["_arrays"]["x"]["attributes"]["storage"] = p
    return [sdfg_where(d), "data 'x'", "field 'storage'"]


def _edge_index(d: dict, p: str) -> list[str]:
    state, edge, _ = memlet_edge(d)
    edge["src"] = p
    return [sdfg_where(d), state_where(state), "'src'"]


INJECTIONS: dict[str, tuple[str, Injector]] = {
    "array.shape": ("saxpy", _array("shape", True)),
    "array.strides": ("saxpy", _array("strides", True)),
    "array.offset": ("saxpy", _array("offset", True)),
    "array.total_size": ("saxpy", _array("total_size", False)),
    "array.start_offset": ("saxpy", _array("start_offset", False)),
    "array.dtype": ("saxpy", _typeclass(lambda p: p)),
    "array.dtype.vector_elements": (
        "saxpy",
        _typeclass(lambda p: {"type": "vector", "dtype": "float32", "elements": p}),
    ),
    "array.dtype.opaque_ctype": (
        "saxpy",
        _typeclass(lambda p: {"type": "opaque", "ctype": p}),
    ),
    "array.dtype.pointer": (
        "saxpy",
        _typeclass(lambda p: {"type": "pointer", "dtype": p}),
    ),
    "array.storage": ("saxpy", _enum),
    "array.location_bank": ("saxpy", _bank),
    "stream.offset": ("saxpy", _stream("offset", True)),
    "stream.buffer_size": ("saxpy", _stream("buffer_size", False)),
    "symbols.typeclass": ("saxpy", _symbol_type),
    "connector.typeclass": ("saxpy", _connector_type),
    "map.range.start": ("saxpy", _map_range("start")),
    "map.range.end": ("saxpy", _map_range("end")),
    "map.range.step": ("saxpy", _map_range("step")),
    "map.range.tile": ("saxpy", _map_range("tile")),
    "map.params": ("saxpy", _map_params),
    "memlet.subset": ("saxpy", _memlet("subset", _range_with)),
    "memlet.subset_symexpr": (
        "saxpy",
        _memlet(
            "subset",
            lambda p: {
                "type": "Range",
                "ranges": [
                    {
                        "start": {"main": "0", "approx": p},
                        "end": "0",
                        "step": "1",
                        "tile": "1",
                    }
                ],
            },
        ),
    ),
    "memlet.subset_string": ("saxpy", _memlet("subset", lambda p: f"0:{p}")),
    "memlet.subset_indices": (
        "saxpy",
        _memlet("subset", lambda p: {"type": "Indices", "indices": [p]}),
    ),
    "memlet.other_subset": ("saxpy", _memlet("other_subset", _range_with)),
    "memlet.volume": ("saxpy", _memlet("volume", lambda p: p)),
    "memlet.debuginfo_untyped": (
        "saxpy",
        _memlet("debuginfo", lambda p: {"x": {"type": "LibraryNode", "classpath": p}}),
    ),
    "memlet.wcr": ("wcr_sum", _wcr("{}")),
    "memlet.wcr_body": ("wcr_sum", _wcr("lambda a, b: {}")),
    "memlet.wcr_default": ("wcr_sum", _wcr("lambda a, b=({}): a + b")),
    "interstate.condition": ("loops", _interstate("condition")),
    "interstate.assignments": ("loops", _interstate("assignments")),
    "loop.condition": ("loops_cfg", _loop("loop_condition")),
    "loop.init": ("loops_cfg", _loop("init_statement")),
    "loop.update": ("loops_cfg", _loop("update_statement")),
    "loop.variable": ("loops_cfg", _loop("loop_variable")),
    "conditional.branch_condition": ("loops_cfg", _branch_condition),
    "nested.symbol_mapping": ("nested", _nested_symbol_mapping),
    "nested.inner_shape": ("nested", _nested_inner_shape),
    "constants.value": ("saxpy", _constant),
    "constants.descriptor": ("saxpy", _constant_desc),
    "library.classpath": ("reduction", _library("classpath")),
    "library.wcr": ("reduction", _library("wcr")),
    "library.identity": ("reduction", _library("identity")),
    "library.matmul_alpha": ("matmul", _library("alpha")),
    "state.executions": ("saxpy", _state_field("executions", lambda p: p)),
    "state.location": ("saxpy", _state_field("location", lambda p: {"k": p})),
    "state.ranges": ("saxpy", _state_field("ranges", lambda p: {"i": _range_with(p)})),
    "type.data": ("saxpy", _type_field("data")),
    "type.node": ("saxpy", _type_field("node")),
    "type.block": ("saxpy", _type_field("block")),
    "type.memlet": ("saxpy", _type_field("memlet")),
    "edge.src": ("saxpy", _edge_index),
    "transformation_hist.classpath": ("saxpy", _transformation_classpath),
    "transformation_hist.property": ("saxpy_tiled", _history_property),
    "transformation_hist.expansion": ("matmul_expanded", _history_expansion),
    "orig_sdfg.json_string": ("saxpy", _orig_sdfg_string),
    "orig_sdfg.object": ("matmul_expanded", _orig_sdfg_dict),
}


@pytest.mark.parametrize("payload", list(PAYLOADS))
@pytest.mark.parametrize("field", list(INJECTIONS))
def test_hostile_string_is_rejected(documents, field, payload, in_tmp):
    doc_name, inject = INJECTIONS[field]
    doc = copy.deepcopy(documents[doc_name])
    expected = inject(doc, PAYLOADS[payload])
    with pytest.raises(SdfgInputError) as info:
        sdfg_from_json_safely(doc)
    err = info.value
    text = str(err)
    assert "\n" not in text
    assert text == f"{err.where}: {err.message}"
    # the places appear in `where` outside in (or, for the innermost detail, in `message`)
    pos = 0
    for part in expected:
        found = err.where.find(part, pos)
        if found >= 0:
            pos = found + len(part)
        else:
            assert part in err.message, (part, text)


def test_error_message_names_place_and_reason(documents, in_tmp):
    doc = copy.deepcopy(documents["saxpy"])
    state, entry = find_node(doc, "MapEntry")
    entry["attributes"]["range"]["ranges"][0]["end"] = "foo.__class__"
    with pytest.raises(SdfgInputError) as info:
        validate_sdfg_json(doc)
    assert info.value.where == (
        f"{sdfg_where(doc)}, state '{state['label']}', node '{node_label(entry)}' (MapEntry), field 'range'"
    )
    assert info.value.message == (
        "dimension 0 end: expression 'foo.__class__' is not allowed: attribute access"
    )


@pytest.mark.parametrize(
    "classpath",
    [
        "os.system",
        "antigravity.Anything",
        "dace.libraries.blas.nodes.matmul.__builtins__",
        "dace.libraries.standard.nodes.reduce.Reduce.__init__",
        "dace.libraries.blas.environments.intel_mkl.IntelMKL",
        "dace.sdfg.nodes.Tasklet",
        "dace.libraries.os",
    ],
)
def test_library_classpath_must_be_a_dace_library_node(documents, classpath, in_tmp):
    doc = copy.deepcopy(documents["reduction"])
    _, node = find_node(doc, "LibraryNode")
    node["classpath"] = classpath
    with pytest.raises(SdfgInputError, match="classpath|library node class"):
        sdfg_from_json_safely(doc)


def test_known_type_at_the_wrong_place_is_rejected(documents, in_tmp):
    doc = copy.deepcopy(documents["saxpy"])
    hostile = {"type": "LibraryNode", "classpath": "os.system", "attributes": {}}
    doc["attributes"]["_arrays"]["x"] = hostile
    with pytest.raises(
        SdfgInputError, match="type 'LibraryNode' .known DaCe type.; expected Scalar"
    ):
        sdfg_from_json_safely(doc)
    doc = copy.deepcopy(documents["loops"])
    doc["edges"][0]["attributes"]["data"]["attributes"]["assignments"] = {"i": hostile}
    with pytest.raises(
        SdfgInputError, match="assignment to 'i' must be an expression string"
    ):
        sdfg_from_json_safely(doc)


def test_tasklet_code_is_only_parsed(documents, in_tmp):
    doc = copy.deepcopy(documents["saxpy"])
    _, tasklet = find_node(doc, "Tasklet")
    tasklet["attributes"]["code"]["string_data"] = "__out = 1\nopen('MARKER', 'w')"
    sdfg = sdfg_from_json_safely(doc)  # DaCe only calls ast.parse on tasklet code
    sdfg.validate()
    infer_connector_types(sdfg)
    tasklet["attributes"]["code"]["string_data"] = "__out = = 1"
    with pytest.raises(SdfgInputError, match="invalid Python syntax"):
        sdfg_from_json_safely(doc)
    tasklet["attributes"]["code"] = {
        "string_data": "func.func @f()",
        "language": "MLIR",
    }
    with pytest.raises(SdfgInputError, match="language 'MLIR' is not supported"):
        sdfg_from_json_safely(doc)


def test_condition_may_only_subscript_data_containers(documents, in_tmp):
    doc = copy.deepcopy(documents["loops"])
    data = next(
        e["attributes"]["data"]["attributes"]
        for e in doc["edges"]
        if "condition" in e["attributes"]["data"]["attributes"]
    )
    data["condition"]["string_data"] = "(a[0] > 0)"
    validate_sdfg_json(doc)
    data["condition"]["string_data"] = "(b[0] > 0)"
    with pytest.raises(
        SdfgInputError, match="subscripts 'b', which is not a data container"
    ):
        validate_sdfg_json(doc)
    data["condition"] = {"string_data": "t < T", "language": "CPP"}
    with pytest.raises(SdfgInputError, match="must be Python code"):
        validate_sdfg_json(doc)


def test_structural_errors_are_input_errors(documents, in_tmp):
    good = documents["saxpy"]
    cases: list[tuple[Callable[[dict], object], str]] = [
        (lambda d: d.update(type="Graph"), "expected SDFG"),
        (lambda d: d.update(attributes=[]), "'attributes' must be an object"),
        (lambda d: d.update(nodes={}), "'nodes' must be a list"),
        (lambda d: d["attributes"].update(name="bad name"), "is not a valid name"),
        (lambda d: d.update(start_block=99), "out of range"),
        (lambda d: d["nodes"][0].update(nodes=None), "'nodes' must be a list"),
        (lambda d: d["nodes"][0]["edges"][0].update(dst="999"), "out of range"),
        (
            lambda d: d["attributes"]["_arrays"]["x"]["attributes"].update(shape="N"),
            "'shape' must be a list",
        ),
        (
            lambda d: d["attributes"]["_arrays"]["x"]["attributes"].update(
                transient="yes"
            ),
            "must be a boolean",
        ),
        (
            lambda d: d["attributes"]["_arrays"].update(
                s={"type": "Structure", "attributes": {}}
            ),
            "'Structure' is not supported",
        ),
        (lambda d: d["attributes"].update(_pgrids={"g": {}}), "MPI process grids"),
        (
            lambda d: d["attributes"]["symbols"].update({"__class__": "int32"}),
            "not a valid name",
        ),
    ]
    for mutate, message in cases:
        doc = copy.deepcopy(good)
        mutate(doc)
        with pytest.raises(SdfgInputError, match=message):
            sdfg_from_json_safely(doc)


def test_dace_failures_become_input_errors(documents, in_tmp):
    doc = copy.deepcopy(documents["saxpy"])
    # Passes the safety checks, but names a container that does not exist.
    _, edge, _ = memlet_edge(doc)
    edge["attributes"]["data"]["attributes"]["data"] = "nonexistent"
    with pytest.raises(SdfgInputError) as info:
        sdfg_from_json_safely(doc)
    assert info.value.where == sdfg_where(doc)
    assert info.value.message.startswith("cannot be loaded by DaCe: ValueError: ")
    assert "\n" not in str(info.value)


# --------------------------------------------------------------------------------------------
# Reading files


def test_load_sdfg_json_plain_and_gzip():
    doc = {"type": "SDFG", "attributes": {"name": "x"}, "nodes": [], "edges": []}
    raw = json.dumps(doc).encode()
    assert load_sdfg_json(raw, "a.sdfg") == doc
    assert load_sdfg_json(gzip.compress(raw), "a.sdfgz") == doc
    assert load_sdfg_json(gzip.compress(raw), "a.sdfg") == doc  # gzip magic bytes


@pytest.mark.parametrize(
    ("data", "filename", "message"),
    [
        (b"{", "a.sdfg", "not valid JSON"),
        (b"[1, 2]", "a.sdfg", "top level is a list"),
        (b"\xff\xfe{}", "a.sdfg", "not UTF-8"),
        (b"not gzip", "a.sdfgz", "not a valid gzip file"),
        (gzip.compress(b"{}", mtime=0)[:-6], "a.sdfgz", "not a valid gzip file"),  # no timestamp: the same for every xdist worker
        (b"[" * 100_000 + b"]" * 100_000, "a.sdfg", "not valid JSON"),
        (b'{"x": ' + b"1" * 5000 + b"}", "a.sdfg", "not valid JSON"),
    ],
)
def test_load_sdfg_json_errors(data, filename, message):
    with pytest.raises(SdfgInputError, match=message) as info:
        load_sdfg_json(data, filename)
    assert info.value.where == filename


def test_load_sdfg_json_size_cap(monkeypatch):
    monkeypatch.setattr(sdfg_json, "MAX_SDFG_BYTES", 1000)
    with pytest.raises(SdfgInputError, match="larger than 1000 bytes"):
        load_sdfg_json(b" " * 2000, "a.sdfg")
    bomb = gzip.compress(b" " * 100_000)
    assert len(bomb) < 1000
    with pytest.raises(SdfgInputError, match="decompressed size exceeds 1000 bytes"):
        load_sdfg_json(bomb, "a.sdfgz")


def test_sdfg_input_error_format():
    err = SdfgInputError(message="bad\nthing", where="SDFG 'f', state 's'")
    assert str(err) == "SDFG 'f', state 's': bad thing"
    assert err.message == "bad thing" and err.where == "SDFG 'f', state 's'"


# --------------------------------------------------------------------------------------------
# safe_expr


@pytest.mark.parametrize(
    "text",
    [
        "N",
        "0",
        "N - 1",
        "__i0 + 1",
        "Min(N - 1, 64*tile_i + 63)",
        "int_floor(N, 2)",
        "int_ceil(N, 32)",
        "Mod(i, 2)",
        "N**2",
        "N**(-2)",
        "N**(3/2)",
        "ceiling(N/2)",
        "Max(0, Min(N, M))",
        "Abs(i - j)",
        "(t < T)",
        "(not (t < T))",
        "AND(N > 0, M < 1)",
        "Eq(N, 1)",
        "IfExpr(M > 0, N, 1)",
        "N if M > 0 else 1",
        "bitwise_and(N, 3)",
        "~N",
        "N << 2",
        "ROUND(N)",
        "sqrt(N)",
        "2.5*N",
        "1e-05",
        "True",
        "x is None",
        "x is not None",
        "  N + 1\n",
    ],
)
def test_check_expression_accepts(text):
    assert isinstance(check_expression(text), ast_expr())


def ast_expr():
    import ast

    return ast.expr


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("foo.__class__", "attribute access"),
        ("__import__('os').system('x')", "attribute access"),
        ("__import__('os')", "call of '__import__'"),
        ("().__class__.__bases__[0].__subclasses__()", "attribute access"),
        ("open('x')", "call of 'open'"),
        ("f(x)", "call of 'f'"),
        ("(lambda: 0)()", "call of a computed function"),
        ("Min(x, key=1)", "keyword arguments"),
        ("Max(*x)", "star expression"),
        ("9**9**9**9**9", "exponent of '**'"),
        ("2**N", "exponent of '**'"),
        ("N**65", "exponent of '**'"),
        ("(N**2)**2", "nested '**'"),
        ("N << 100", "shift amount"),
        ("lambda: 0", "lambda expression"),
        ("'abc'", "string literal"),
        ("f'{x}'", "string literal"),
        ("b'x'", "string literal"),
        ("1j", "complex literal"),
        ("1" * 41, "more than 40 digits"),
        ("1." + "0" * 40, "more than 40 digits"),
        ("__x__", "dunder name '__x__'"),
        ("[1, 2]", "list display"),
        ("(1, 2)", "tuple display"),
        ("{1: 2}", "dict display"),
        ("[x for x in y]", "comprehension"),
        ("A[0]", "subscript"),
        ("N @ M", "operator '@'"),
        ("N in M", "comparison 'in'"),
        ("x == None", "None outside"),
        ("N +", "invalid syntax"),
        ("N # comment", "comment"),
        ("N \\\n + 1", "backslash"),
        ("N\n+ 1", "character '\\n'"),
        ("ｅｖａｌ", "character"),
        ("", "empty expression"),
        ("N + " * 25_000 + "1", "longer than 4000 characters"),
        ("-" * 60 + "1", "nested more than 50 levels"),
        (
            "Min(" + ",".join(["Min(N,N,N,N)"] * 250) + ")",
            "more than 1000 syntax nodes",
        ),
        ("Min(" + ",".join(["N"] * 300) + ")", "more than 256 arguments"),
        ("...", "literal Ellipsis"),
    ],
)
def test_check_expression_rejects(text, reason):
    with pytest.raises(UnsafeExpressionError) as info:
        check_expression(text)
    assert reason in info.value.reason
    assert isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


def test_unsafe_expression_message():
    with pytest.raises(UnsafeExpressionError) as info:
        check_expression("foo.__class__")
    assert (
        str(info.value) == "expression 'foo.__class__' is not allowed: attribute access"
    )
    with pytest.raises(UnsafeExpressionError):
        check_expression(42)  # type: ignore[arg-type]


def test_subscripts():
    assert check_expression("A[i, j + 1] > 0", allow_subscripts=True)
    for text, reason in [
        ("A[1:2]", "slice"),
        ("open[1]", "reserved name 'open'"),
        ("preview[0]", "reserved name 'preview'"),
        ("Min[0]", "reserved name 'Min'"),
        ("A[0][1]", "subscript of something other than"),
        ("A.b[0]", "attribute access"),
    ]:
        with pytest.raises(UnsafeExpressionError, match=reason.replace("[", r"\[")):
            check_expression(text, allow_subscripts=True)


@pytest.mark.parametrize(
    "python_text",
    [
        "N // 2",
        "N % 2",
        "min(N, M)",
        "max(N, M)",
        "abs(M - N)",
        "ceil(N / 2)",
        "floor(N / 2)",
        "N**2",
        "N**-2",
        "N / 2",
        "int_ceil(N, 2)",
        "(N > 0) and (M < 1)",
        "N == 1",
        "N != 1",
        "N & 3",
        "N | 4",
        "N ^ 3",
        "N >> 2",
        "N << 2",
        "round(N / 2)",
        "N if M > 0 else 1",
        "N >= 1",
        "sqrt(N + 5)",
        "2.5 * N",
        "Mod(N, M)",
        "Min(N - 1, 64 * M + 63) + 1",
        "-N",
        "not (N > M)",
    ],
)
def test_dace_printed_expressions_are_accepted(python_text):
    """What DaCe writes into files (sympy's printing of its expressions) passes the checker."""
    printed = str(dace.symbolic.pystr_to_symbolic(python_text))
    assert isinstance(check_expression(printed), ast_expr())


def test_range_strings():
    assert split_range_string("0:N, i, min(a, b):N:2") == [
        ["0", "N"],
        [" i"],
        [" min(a, b)", "N", "2"],
    ]
    assert len(check_range_string("0:N, i, a|b:c")) == 3
    for text, reason in [
        ("0:open(1)", "call of 'open'"),
        ("0:N:1:1:1", "more than 4 parts"),
        ("a|b|c:d", "more than one '|'"),
        ("0:N, x.y", "attribute access"),
    ]:
        with pytest.raises(UnsafeExpressionError, match=reason):
            check_range_string(text)
