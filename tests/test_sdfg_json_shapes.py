"""Every JSON shape is checked before DaCe or the importer uses it: each malformed field of
the bundled example SDFGs is one located SdfgInputError, never a KeyError, TypeError or
AttributeError from inside DaCe or the importer."""

import copy
import json
from pathlib import Path

import pytest

from ipu_lower.frontend.importer import import_sdfg
from ipu_lower.frontend.sdfg_json import SdfgInputError, sdfg_from_json_safely

EXAMPLES = Path(__file__).parent.parent / "ipu_lower" / "examples"


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.sdfg").read_text())


def state_nodes(doc: dict) -> list[dict]:
    return doc["nodes"][0]["nodes"]


def first(doc: dict, node_type: str) -> dict:
    return next(n for n in state_nodes(doc) if n["type"] == node_type)


def first_memlet_range(doc: dict) -> dict:
    return doc["nodes"][0]["edges"][0]["attributes"]["data"]["attributes"]["subset"]["ranges"][0]


def tmp0(doc: dict) -> dict:
    return doc["attributes"]["_arrays"]["__tmp0"]["attributes"]


MUTATIONS = {
    # numbers where strings are expected (DaCe: "'int' object is not subscriptable")
    "range-step-number": (lambda d: first_memlet_range(d).update(step=-1), "dimension 0 step must be a string"),
    "range-start-boolean": (lambda d: first_memlet_range(d).update(start=True), "must be a string"),
    "map-range-float": (
        lambda d: first(d, "MapEntry")["attributes"]["range"]["ranges"][0].update(step=1.5), "must be a string"
    ),
    # booleans are not numbers (importer: "'bool' object has no attribute 'free_symbols'")
    "volume-boolean": (
        lambda d: d["nodes"][0]["edges"][0]["attributes"]["data"]["attributes"].update(volume=True),
        "got a boolean",
    ),
    # access node without data (importer: KeyError: None)
    "access-node-without-data": (lambda d: first(d, "AccessNode")["attributes"].pop("data"), "'data' of an access node"),
    "access-node-of-unknown-data": (
        lambda d: first(d, "AccessNode")["attributes"].update(data="nowhere"), "not a data container"
    ),
    # missing keys DaCe reads unconditionally (KeyError: 'start_line', 'scope_exits', ...)
    "debuginfo-without-line": (
        lambda d: first(d, "Tasklet")["attributes"]["debuginfo"].pop("start_line"), "'start_line' must be an integer"
    ),
    "debuginfo-null-line": (
        lambda d: first(d, "Tasklet")["attributes"]["debuginfo"].update(end_line=None), "'end_line' must be an integer"
    ),
    "debuginfo-without-filename": (
        lambda d: first(d, "Tasklet")["attributes"]["debuginfo"].pop("filename"), "no 'filename'"
    ),
    "map-entry-without-exit": (lambda d: first(d, "MapEntry").pop("scope_exit"), "no 'scope_exit'"),
    "map-exit-without-entry": (lambda d: first(d, "MapExit").pop("scope_entry"), "no 'scope_entry'"),
    # integer properties: a boolean is not one, and one that no int64 holds is refused
    "alignment-boolean": (lambda d: tmp0(d).update(alignment=True), "'alignment' must be an integer"),
    "alignment-huge": (lambda d: tmp0(d).update(alignment=2**64), "outside the 64-bit range"),
    "collapse-huge": (lambda d: first(d, "MapEntry")["attributes"].update(collapse=-(2**63) - 1), "64-bit"),
    # a `type` that is not a string (TypeError: unhashable type)
    "data-type-object": (lambda d: d["attributes"]["_arrays"]["x"].update(type={}), "no valid 'type'"),
    "data-type-list": (lambda d: d["attributes"]["_arrays"]["x"].update(type=[]), "no valid 'type'"),
    # shapes (DaCe: "Strides must be the same size as shape"; verifier: negative dimension)
    "shape-shorter-than-strides": (lambda d: tmp0(d)["shape"].pop(), "'strides' has 1 entries"),
    "negative-dimension": (lambda d: tmp0(d).update(shape=[-1]), "negative"),
    "negative-dimension-text": (lambda d: tmp0(d).update(shape=["2 - 3"]), "negative"),
}


@pytest.mark.parametrize("name", MUTATIONS)
def test_malformed_field_is_one_located_error(name):
    mutate, fragment = MUTATIONS[name]
    doc = copy.deepcopy(example("saxpy"))
    mutate(doc)
    with pytest.raises(SdfgInputError) as err:
        import_sdfg(sdfg_from_json_safely(doc))
    message = str(err.value)
    assert fragment in message
    assert message.startswith("SDFG 'saxpy'") and "\n" not in message
    assert "cannot be loaded by DaCe" not in message  # caught before DaCe, not by its failure


def test_a_container_of_opaque_type_is_an_unsupported_type_not_a_crash():
    from ipu_lower.frontend.importer import SdfgImportError

    doc = example("saxpy")
    doc["attributes"]["_arrays"]["x"]["attributes"]["dtype"] = {"type": "opaque", "ctype": "int"}
    with pytest.raises(SdfgImportError, match="unsupported data type 'int'"):
        import_sdfg(sdfg_from_json_safely(doc))


def test_an_array_without_shape_but_with_strides_is_located():
    doc = example("saxpy")
    del tmp0(doc)["shape"]
    with pytest.raises(SdfgInputError, match="'strides' has 1 entries but 'shape' has 0"):
        sdfg_from_json_safely(doc)


def test_a_tasklet_memlet_without_data_is_located():
    from ipu_lower.frontend.importer import SdfgImportError

    doc = example("chain")
    tasklets = {str(i) for i, n in enumerate(state_nodes(doc)) if n["type"] == "Tasklet"}
    edge = next(e for e in doc["nodes"][0]["edges"] if e["src"] in tasklets)  # a tasklet's output
    del edge["attributes"]["data"]["attributes"]["data"]
    with pytest.raises(SdfgImportError, match="empty memlet"):
        import_sdfg(sdfg_from_json_safely(doc))


def test_a_state_whose_map_scopes_do_not_nest_is_located():
    from ipu_lower.frontend.importer import SdfgImportError

    doc = example("chain")
    del doc["nodes"][0]["edges"][8]  # the map's exit loses its way back to the entry
    with pytest.raises(SdfgImportError, match="map scopes of the state do not nest") as err:
        import_sdfg(sdfg_from_json_safely(doc))
    assert "state" in str(err.value).split(":")[0]
