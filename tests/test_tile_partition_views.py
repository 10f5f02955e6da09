"""Tests for the reads ipu-tile-partition gives a vertex through a view or at a reshaped
offset (passes/tile_partition_views.py), as plain data from analyze_map, and lowered."""

from __future__ import annotations

from math import prod

import pytest
from ir_helpers import make_ctx, parse, the

from ipu_lower.diagnostics import IpuLowerError
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.passes.tile_partition import IpuTilePartitionPass, analyze_map
from ipu_lower.passes.tile_partition_views import BROADCAST, ViewKey, split_offset


def program(containers: dict[str, str], params: str, lower: str, upper: str, reads: list[tuple[str, str]],
            write: tuple[str, str], tasklet: bool = True) -> str:
    """A map that writes the sum of `reads` ((container, subset) pairs) to `write` (a
    single read straight, without a tasklet, when not `tasklet`)."""
    types = {name: f"!sdfg.array<{shape} x f32>" for name, shape in containers.items()}
    lines = [f'    %{name} = sdfg.container "{name}" : {t}' for name, t in types.items()]
    body = [f"        %r{k} = sdfg.read %{name}[{subset}] : {types[name]}" for k, (name, subset) in enumerate(reads)]
    value = "%r0"
    if tasklet:
        ins = ", ".join(f"v{k} = %r{k}" for k in range(len(reads)))
        body.append(f'        %sum = sdfg.tasklet "sum" ins({ins}) outs(o) : ({", ".join("f32" for _ in reads)}) -> (f32) {{')
        body.append(f'        ^bb0({", ".join(f"%v{k}: f32" for k in range(len(reads)))}):')
        total = "%v0"
        for k in range(1, len(reads)):
            body.append(f"          %s{k} = arith.addf {total}, %v{k} : f32")
            total = f"%s{k}"
        body += [f"          sdfg.yield {total} : f32", "        }"]
        value = "%sum"
    name, subset = write
    body.append(f"        sdfg.write {value} to %{name}[{subset}] : {types[name]}")
    args = ", ".join(f'"{n}"' for n in containers)
    return "\n".join([
        "builtin.module {",
        f"  sdfg.sdfg @p args [{args}] symbols [] {{",
        *lines,
        '    sdfg.state "s" {',
        f'      sdfg.map "m" ({params}) = ({lower}) to ({upper}) step ({", ".join("1" for _ in params.split(","))}) {{',
        *body,
        "      }",
        "    }",
        "  }",
        "}",
    ])


def accesses(text: str):
    map_op = the(parse(text), sd.MapOp)
    reads = [op for op in map_op.body.block.ops if isinstance(op, sd.ReadOp)]
    return analyze_map(map_op), reads


def test_row_view_read_one_element_back():
    text = program({"A": "4 x 6", "y": "6"}, "%i", "1", "6", [("A", "3, %i - 1"), ("y", "%i")], ("y", "%i"))
    plan, (row, y) = accesses(text)
    assert plan.views == {row: (ViewKey("A", (3, 0), (4, 6), (1,), (6,)), (-1,))}
    assert plan.view_halos == {ViewKey("A", (3, 0), (4, 6), (1,), (6,)): (1, 0)}
    assert plan.span == (1, 6) and not plan.reshaped
    assert plan.laid_out_together() == ["y", "y"]  # A keeps its own layout


def test_column_and_transpose_views():
    text = program({"A": "4 x 6", "y": "4"}, "%i", "0", "4", [("A", "%i, 2")], ("y", "%i"))
    plan, (column,) = accesses(text)
    assert plan.views[column] == (ViewKey("A", (0, 2), (4, 3), (0,), (4,)), (0,))
    text = program({"A": "4 x 6", "B": "6 x 4"}, "%i, %j", "0, 0", "6, 4", [("A", "%j, %i")], ("B", "%i, %j"))
    plan, (transposed,) = accesses(text)
    assert plan.views[transposed] == (ViewKey("A", (0, 0), (4, 6), (1, 0), (6, 4)), (0, 0))
    assert plan.view_halos == {ViewKey("A", (0, 0), (4, 6), (1, 0), (6, 4)): (0, 0)}


def test_reads_of_a_smaller_array_are_cut_to_the_written_shape_or_offset():
    # B[1:7, :] = A[:6, :] of an 8x4 A into a 7x4 B: the view is A's first 7 rows, read one row back
    text = program({"A": "8 x 4", "B": "7 x 4"}, "%i, %j", "0, 0", "6, 4", [("A", "%i, %j")], ("B", "%i + 1, %j"))
    plan, (read,) = accesses(text)
    assert plan.views[read] == (ViewKey("A", (0, 0), (7, 4), (0, 1), (7, 4)), (-1, 0))
    assert plan.view_halos[ViewKey("A", (0, 0), (7, 4), (0, 1), (7, 4))] == (4, 0)


def test_reshaped_read_shares_the_layout():
    text = program({"A": "4 x 6", "B": "6 x 4"}, "%i, %j", "0, 0", "6, 4",
                   [("A", "(%i * 4 + %j) floordiv 6, (%i * 4 + %j) mod 6")], ("B", "%i, %j"))
    plan, (read,) = accesses(text)
    assert plan.reshaped == {read: 0} and not plan.views
    assert plan.laid_out_together() == ["A", "B"]
    # one element on: a neighbour in the shared layout
    text = program({"A": "24", "B": "6 x 4"}, "%i, %j", "0, 0", "6, 3", [("A", "%i * 4 + %j + 1")], ("B", "%i, %j"))
    plan, (read,) = accesses(text)
    assert plan.reshaped == {read: 1} and plan.neighbour_reads == {"A"}


@pytest.mark.parametrize("flat, shape, offsets", [(0, (4, 6), (0, 0)), (-7, (4, 6), (-1, -1)), (13, (4, 6), (2, 1)),
                                                  (-1, (6,), (-1,)), (5, (2, 3, 4), (0, 1, 1))])
def test_split_offset(flat, shape, offsets):
    assert split_offset(flat, shape) == offsets
    strides = [prod(shape[k + 1 :]) for k in range(len(shape))]
    assert sum(o * s for o, s in zip(offsets, strides)) == flat


def lowered(text: str):
    module = parse(text)
    IpuTilePartitionPass(arch="ipu1").apply(make_ctx(), module)
    module.verify()
    return module


def test_lowered_transpose_reads_a_view():
    # B = A.T + A.T: a tiled map reads the transposed view
    module = lowered(program({"A": "4 x 6", "B": "6 x 4"}, "%i, %j", "0, 0", "6, 4", [("A", "%j, %i"), ("A", "%j, %i")],
                             ("B", "%i, %j")))
    view, tiled = the(module, ipu.ViewOp), the(module, ipu.TiledMapOp)
    assert (view.box(), view.walked()) == ([(0, 4), (0, 6)], [1, 0])
    assert list(tiled.ins) == [view.result] and tiled.in_rules.data == (ipu.BLOCK,)


def test_a_map_that_only_copies_a_view_is_a_copy():
    # B = A.T: a Poplar Copy of the transposed view, no compute set
    module = lowered(program({"A": "4 x 6", "B": "6 x 4"}, "%i, %j", "0, 0", "6, 4", [("A", "%j, %i")], ("B", "%i, %j"),
                             tasklet=False))
    view, copy = the(module, ipu.ViewOp), the(module, ipu.CopyOp)
    assert copy.source is view.result and (copy.source_range(), copy.destination_range()) == ((0, 24), (0, 24))
    assert not [op for op in module.walk() if isinstance(op, ipu.TiledMapOp)]
    # a part of B: the span it writes
    module = lowered(program({"A": "4 x 6", "B": "6 x 4"}, "%i", "0", "4", [("A", "%i, 5")], ("B", "5, %i"), tasklet=False))
    assert the(module, ipu.CopyOp).destination_range() == (20, 24)


@pytest.mark.parametrize("reads, write, message", [
    ([("A", "%i, %i")], ("B", "%i, %j"), "accesses 'A[i, i]'"),  # one parameter twice, one unused
    ([("B", "%j, %i")], ("B", "%i, %j"), "reads 'B[j, i]' through a view and writes 'B'"),
])
def test_unsupported_view_reads(reads, write, message):
    text = program({"A": "4 x 4", "B": "4 x 4"}, "%i, %j", "0, 0", "4, 4", reads, write)
    with pytest.raises(IpuLowerError, match=message.replace("[", r"\[").replace("]", r"\]")):
        accesses(text)


def test_a_row_write_fixes_a_dimension_of_the_frame():
    # B[2, :] = A[1, :]: the points are row 2 of B; row 1 of A comes through a view that
    # repeats it over B's rows (a broadcast), not as a halo of a whole row
    text = program({"A": "4 x 6", "B": "4 x 6"}, "%i", "0", "6", [("A", "1, %i")], ("B", "2, %i"))
    plan, (read,) = accesses(text)
    assert plan.span == (12, 18) and not plan.neighbour_reads
    assert plan.views[read] == (ViewKey("A", (1, 0), (2, 6), (BROADCAST, 1), (4, 6)), (0, 0))
    # the same row of B itself: read at the point
    text = program({"B": "4 x 6"}, "%i", "0", "6", [("B", "2, %i")], ("B", "2, %i"))
    plan, (read,) = accesses(text)
    assert plan.offsets[read] == (0, 0) and not plan.views
    # another row of B than the one written: outside the written box, so no hazard
    text = program({"B": "4 x 6"}, "%i", "0", "6", [("B", "1, %i")], ("B", "2, %i"))
    plan, (read,) = accesses(text)
    assert plan.views[read][0] == ViewKey("B", (1, 0), (2, 6), (BROADCAST, 1), (4, 6))


def test_broadcast_reads_repeat_a_vector_over_rows_or_columns():
    # B[i, j] = A[i, j] * x[j] (numpy A * x) and A[i, j] + y[i] (A + y[:, None])
    text = program({"A": "4 x 6", "x": "6", "B": "4 x 6"}, "%i, %j", "0, 0", "4, 6", [("A", "%i, %j"), ("x", "%j")],
                   ("B", "%i, %j"))
    plan, (_, x) = accesses(text)
    assert plan.views[x] == (ViewKey("x", (0,), (6,), (BROADCAST, 0), (4, 6)), (0, 0))
    text = program({"A": "4 x 6", "y": "4", "B": "4 x 6"}, "%i, %j", "0, 0", "4, 6", [("A", "%i, %j"), ("y", "%i")],
                   ("B", "%i, %j"))
    plan, (_, y) = accesses(text)
    assert plan.views[y] == (ViewKey("y", (0,), (4,), (0, BROADCAST), (4, 6)), (0, 0))
    assert plan.laid_out_together() == ["A", "B"]


def test_lowered_broadcast_view():
    module = lowered(program({"A": "4 x 6", "x": "6", "B": "4 x 6"}, "%i, %j", "0, 0", "4, 6",
                             [("A", "%i, %j"), ("x", "%j")], ("B", "%i, %j")))
    view = the(module, ipu.ViewOp)
    assert view.walked() == [ipu.ViewOp.BROADCAST, 0] and view.result.type.get_shape() == (4, 6)
