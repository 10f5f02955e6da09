"""Writes SDFGs with views and nested SDFGs the importer rejects into the directory given
as the only argument (for tests/lit/cli/views-errors.test): DaCe's numpy frontend cannot
write them (it does not parse A[::-1]), or writes them only by mistake."""

import sys
from pathlib import Path

import dace

N = dace.symbol("N")


def view_copy(name: str, shape: list, strides: list, subset: str) -> dace.SDFG:
    """y[i] = v[i] for the view v of A[subset] with `strides`."""
    sdfg = dace.SDFG(name)
    sdfg.add_array("A", shape, dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    sdfg.add_view("v", [N], dace.float32, strides=strides)
    state = sdfg.add_state("main")
    view = state.add_access("v")
    state.add_edge(state.add_read("A"), None, view, "views", dace.Memlet(data="A", subset=subset))
    state.add_mapped_tasklet("copy", {"i": "0:N"}, {"p": dace.Memlet("v[i]")}, "q = p", {"q": dace.Memlet("y[i]")},
                             input_nodes={"v": view}, external_edges=True)
    return sdfg


def reversed_view() -> dace.SDFG:
    """y[:] = A[::-1] through a view with stride -1."""
    return view_copy("reverse", [N], [-1], "N - 1:-1:-1")


def column_with_row_strides() -> dace.SDFG:
    """A column of A viewed with the strides of a row: they do not address the column."""
    return view_copy("column", [N, N], [1], "0:N, 2")


def nested_column_argument() -> dace.SDFG:
    """A nested SDFG given a column of a matrix for an argument declared contiguous."""
    inner = dace.SDFG("scale")
    inner.add_array("v", [N], dace.float32)
    inner.add_state("s").add_mapped_tasklet(
        "twice", {"i": "0:N"}, {"p": dace.Memlet("v[i]")}, "q = 2 * p", {"q": dace.Memlet("v[i]")},
        external_edges=True)
    sdfg = dace.SDFG("caller")
    sdfg.add_array("A", [N, N], dace.float32)
    state = sdfg.add_state("main")
    node = state.add_nested_sdfg(inner, sdfg, {"v"}, {"v"}, {"N": "N"})
    state.add_edge(state.add_read("A"), None, node, "v", dace.Memlet("A[0:N, 1]"))
    state.add_edge(node, "v", state.add_write("A"), None, dace.Memlet("A[0:N, 1]"))
    return sdfg


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for build in (reversed_view, column_with_row_strides, nested_column_argument):
        build().save(str(out / f"{build.__name__}.sdfg"))
