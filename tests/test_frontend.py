"""Tests for the SDFG importer (ipu_lower.frontend.importer) and the input frontends
(ipu_lower.frontend.frontends): the bundled examples imported from `.py`, `.sdfg` and
`.sdfgz`, the `.py` entry selection, and the one-line errors for unsupported SDFG constructs."""

import gzip
import sys
from collections import Counter
from pathlib import Path

import dace
import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.math import Math

from ipu_lower.cli import ipu_opt_main
from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.frontends import DacePythonFrontend, SdfgFrontend, SdfgzFrontend
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg
from ipu_lower.frontend.sdfg_json import SdfgInputError
from ipu_lower.registry import dialects

EXAMPLES = Path(__file__).resolve().parents[1] / "ipu_lower" / "examples"
EXAMPLE_NAMES = ("saxpy", "chain", "scale2d", "clamp")


def make_ctx() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, Math, *dialects()):
        ctx.load_dialect(dialect)
    return ctx


def parse_sdfg_file(path: Path, frontend=None) -> ModuleOp:
    frontend = frontend or SdfgFrontend()
    with open(path, "rb") as f:
        return frontend.parse(make_ctx(), f, str(path))


def parse_py_file(path: Path, entry: str = "") -> ModuleOp:
    with open(path, "rb") as f:
        return DacePythonFrontend(entry=entry).parse(make_ctx(), f, str(path))


# --------------------------------------------------------------------------------------
# structure of an imported module, as plain data


def the_sdfg(module: ModuleOp) -> sd.SdfgOp:
    ops = list(module.ops)
    assert len(ops) == 1 and isinstance(ops[0], sd.SdfgOp)
    return ops[0]


def texts(exprs, names=()) -> tuple[str, ...]:
    """The expressions of an attribute list as text, dimension k named `names[k]`."""
    return tuple(e.format(lambda d: names[d]) for e in sd.exprs(exprs))


def subset_texts(op: sd.ReadOp | sd.WriteOp) -> tuple[str, ...]:
    """`x[i + 1, j]` as ("i + 1", "j"): the subset with the map parameters by name."""
    return texts(op.subset, [v.name_hint for v in op.indices])


def range_texts(ranges) -> list[tuple[str, str]]:
    return [(str(b), str(e)) for b, e in ranges]


def container_name(value) -> str:
    owner = value.owner
    assert isinstance(owner, sd.ContainerOp)
    return owner.container_name.data


def summary(module: ModuleOp) -> dict:
    sdfg_op = the_sdfg(module)
    containers = {
        op.container_name.data: (str(op.result.type), op.transient is not None)
        for op in sdfg_op.containers()
    }
    states = [op for op in sdfg_op.body.block.ops if isinstance(op, sd.StateOp)]
    maps = [op for op in sdfg_op.walk() if isinstance(op, sd.MapOp)]
    tasklets = [op for op in sdfg_op.walk() if isinstance(op, sd.TaskletOp)]
    return {
        "name": sdfg_op.sym_name.data,
        "args": [a.data for a in sdfg_op.arg_names.data],
        "symbols": [s.data for s in sdfg_op.symbols.data],
        "containers": containers,
        "states": len(states),
        "maps": sorted(
            (tuple(p.name_hint for p in m.params), texts(m.lower), texts(m.upper), texts(m.step))
            for m in maps
        ),
        # every map sits directly in a state (no nesting)
        "map_parents": {type(m.parent_op()).__name__ for m in maps},
        "tasklets": len(tasklets),
        "tasklet_ops": Counter(
            inner.name
            for t in tasklets
            for inner in t.body.block.ops
            if not isinstance(inner, sd.YieldOp)
        ),
        "reads": Counter(
            (container_name(op.container), subset_texts(op))
            for op in sdfg_op.walk()
            if isinstance(op, sd.ReadOp)
        ),
        "writes": Counter(
            (container_name(op.container), subset_texts(op))
            for op in sdfg_op.walk()
            if isinstance(op, sd.WriteOp)
        ),
        "copies": [
            (
                container_name(op.source),
                range_texts(op.source_ranges()),
                container_name(op.destination),
                range_texts(op.destination_ranges()),
            )
            for op in sdfg_op.walk()
            if isinstance(op, sd.CopyOp)
        ],
    }


VEC_N = "!sdfg.array<N x f32>"

EXPECTED: dict[str, dict] = {
    "saxpy": {
        "name": "saxpy",
        "args": ["a", "x", "y"],
        "symbols": ["N"],
        "containers": {
            "a": ("!sdfg.array<f32>", False),
            "x": (VEC_N, False),
            "y": (VEC_N, False),
            "__tmp0": (VEC_N, True),
            "__tmp1": (VEC_N, True),
        },
        "states": 1,
        "maps": [(("__i0",), ("0",), ("N",), ("1",))] * 2,
        "map_parents": {"StateOp"},
        "tasklets": 2,
        "tasklet_ops": Counter({"arith.mulf": 1, "arith.addf": 1}),
        "reads": Counter(
            {("a", ()): 1, ("x", ("__i0",)): 1, ("__tmp0", ("__i0",)): 1, ("y", ("__i0",)): 1}
        ),
        "writes": Counter({("__tmp0", ("__i0",)): 1, ("__tmp1", ("__i0",)): 1}),
        "copies": [("__tmp1", [("0", "N")], "y", [("0", "N")])],
    },
    "chain": {
        "name": "chain",
        "args": ["x", "y", "z"],
        "symbols": ["N"],
        "containers": {
            "x": (VEC_N, False),
            "y": (VEC_N, False),
            "z": (VEC_N, False),
            "t": (VEC_N, True),
            "u": (VEC_N, True),
        },
        "states": 1,
        "maps": [(("__i0",), ("0",), ("N",), ("1",))] * 3,
        "map_parents": {"StateOp"},
        "tasklets": 3,
        "tasklet_ops": Counter({"arith.mulf": 1, "arith.addf": 1, "math.sqrt": 1}),
        "reads": Counter(
            {
                ("x", ("__i0",)): 2,
                ("y", ("__i0",)): 1,
                ("t", ("__i0",)): 1,
                ("u", ("__i0",)): 1,
            }
        ),
        "writes": Counter({("t", ("__i0",)): 1, ("u", ("__i0",)): 1, ("z", ("__i0",)): 1}),
        "copies": [],
    },
    "scale2d": {
        "name": "scale2d",
        "args": ["A", "B"],
        "symbols": ["M", "N"],
        "containers": {
            "A": ("!sdfg.array<M x N x f32>", False),
            "B": ("!sdfg.array<M x N x f32>", False),
            # DaCe's transient scalars between the tasklets (__tmp1, ...) are SSA values of
            # the map, not containers
        },
        "states": 1,
        "maps": [(("i", "j"), ("0", "0"), ("M", "N"), ("1", "1"))],
        "map_parents": {"StateOp"},
        # A*A, the float32(1.0) constant, the addition and the final assignment
        "tasklets": 4,
        "tasklet_ops": Counter({"arith.constant": 1, "arith.mulf": 1, "arith.addf": 1}),
        "reads": Counter({("A", ("i", "j")): 2}),
        "writes": Counter({("B", ("i", "j")): 1}),
        "copies": [],
    },
    "clamp": {
        "name": "clamp",
        "args": ["x", "lo", "hi", "y"],
        "symbols": ["N"],
        "containers": {
            "x": ("!sdfg.array<N x i32>", False),
            "lo": ("!sdfg.array<i32>", False),
            "hi": ("!sdfg.array<i32>", False),
            "y": ("!sdfg.array<N x i32>", False),
        },
        "states": 1,
        "maps": [(("i",), ("0",), ("N",), ("1",))],
        "map_parents": {"StateOp"},
        "tasklets": 1,
        "tasklet_ops": Counter({"arith.maxsi": 1, "arith.minsi": 1}),
        "reads": Counter({("x", ("i",)): 1, ("lo", ()): 1, ("hi", ()): 1}),
        "writes": Counter({("y", ("i",)): 1}),
        "copies": [],
    },
}


def check_example(module: ModuleOp, name: str) -> None:
    module.verify()
    got = summary(module)
    expected = EXPECTED[name]
    for key, value in expected.items():
        assert got[key] == value, f"{name}: {key}"


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_sdfg_imports(name):
    check_example(parse_sdfg_file(EXAMPLES / f"{name}.sdfg"), name)


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_py_imports_with_entry(name):
    check_example(parse_py_file(EXAMPLES / f"{name}.py", entry=name), name)


@pytest.mark.parametrize("name", ("saxpy", "clamp"))
def test_example_py_single_program_needs_no_entry(name):
    check_example(parse_py_file(EXAMPLES / f"{name}.py"), name)


def test_tasklet_bodies_of_saxpy_use_the_right_operands():
    """The multiplication takes `a` and `x`, the addition the temporary and `y`."""
    sdfg_op = the_sdfg(parse_sdfg_file(EXAMPLES / "saxpy.sdfg"))
    (mult, add) = [op for op in sdfg_op.walk() if isinstance(op, sd.TaskletOp)]
    assert [v.owner.container.owner.container_name.data for v in mult.inputs] == ["a", "x"]
    assert [v.owner.container.owner.container_name.data for v in add.inputs] == ["__tmp0", "y"]
    (mulf,) = [op for op in mult.body.block.ops if op.name == "arith.mulf"]
    assert list(mulf.operands) == list(mult.body.block.args)
    (yield_op,) = [op for op in mult.body.block.ops if isinstance(op, sd.YieldOp)]
    assert list(yield_op.values) == [mulf.results[0]]


def test_scale2d_transient_scalars_become_ssa_values():
    """No read or write touches the transient scalars between the tasklets of scale2d."""
    sdfg_op = the_sdfg(parse_sdfg_file(EXAMPLES / "scale2d.sdfg"))
    touched = {
        container_name(op.container)
        for op in sdfg_op.walk()
        if isinstance(op, sd.ReadOp | sd.WriteOp)
    }
    assert touched == {"A", "B"}
    tasklets = {op.label.data: op for op in sdfg_op.walk() if isinstance(op, sd.TaskletOp)}
    add = tasklets["_Add_"]
    assert {type(v.owner).__name__ for v in add.inputs} == {"TaskletOp"}


def test_clamp_min_max_order():
    """min(max(v, l), h): maxsi of x and lo first, then minsi with hi."""
    sdfg_op = the_sdfg(parse_sdfg_file(EXAMPLES / "clamp.sdfg"))
    (tasklet,) = [op for op in sdfg_op.walk() if isinstance(op, sd.TaskletOp)]
    conns = [c.data for c in tasklet.in_connectors.data]
    args = dict(zip(conns, tasklet.body.block.args))
    maxsi, minsi = [op for op in tasklet.body.block.ops if not isinstance(op, sd.YieldOp)]
    assert maxsi.name == "arith.maxsi" and minsi.name == "arith.minsi"
    assert set(maxsi.operands) == {args["v"], args["l"]}
    assert set(minsi.operands) == {maxsi.results[0], args["h"]}


# --------------------------------------------------------------------------------------
# .sdfgz


@pytest.mark.parametrize("frontend", [SdfgzFrontend(), SdfgFrontend()], ids=["sdfgz", "sdfg"])
def test_sdfgz_loads(tmp_path, frontend):
    path = tmp_path / "saxpy.sdfgz"
    path.write_bytes(gzip.compress((EXAMPLES / "saxpy.sdfg").read_bytes()))
    check_example(parse_sdfg_file(path, frontend), "saxpy")


def test_sdfgz_and_sdfg_give_the_same_module(tmp_path):
    path = tmp_path / "clamp.sdfgz"
    path.write_bytes(gzip.compress((EXAMPLES / "clamp.sdfg").read_bytes()))
    assert str(parse_sdfg_file(path, SdfgzFrontend())) == str(
        parse_sdfg_file(EXAMPLES / "clamp.sdfg")
    )


def test_truncated_sdfgz_is_an_input_error(tmp_path):
    path = tmp_path / "saxpy.sdfgz"
    data = gzip.compress((EXAMPLES / "saxpy.sdfg").read_bytes())
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(SdfgInputError, match="not a valid gzip file"):
        parse_sdfg_file(path, SdfgzFrontend())


# --------------------------------------------------------------------------------------
# .py files: entry selection

TWO_PROGRAMS = '''
import dace

N = dace.symbol("N")


@dace.program
def first(x: dace.float32[N], y: dace.float32[N]):
    y[:] = x + 1


@dace.program
def second(x: dace.float32[N], y: dace.float32[N]):
    y[:] = x * 2
'''


@pytest.fixture
def two_programs(tmp_path) -> Path:
    path = tmp_path / "two_programs.py"
    path.write_text(TWO_PROGRAMS)
    return path


def test_py_with_two_programs_needs_entry(two_programs):
    with pytest.raises(SdfgInputError) as info:
        parse_py_file(two_programs)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(two_programs))
    assert "several @dace.programs (first, second)" in message
    assert "--entry" in message


@pytest.mark.parametrize("entry, op", [("first", "arith.addf"), ("second", "arith.mulf")])
def test_py_entry_picks_a_program(two_programs, entry, op):
    module = parse_py_file(two_programs, entry)
    module.verify()
    got = summary(module)
    assert got["name"] == entry  # not prefixed with the module name
    assert got["args"] == ["x", "y"]
    assert got["tasklet_ops"] == Counter({op: 1, "arith.constant": 1})
    assert got["writes"] == Counter({("y", ("__i0",)): 1})


def test_py_wrong_entry_lists_the_programs(two_programs):
    with pytest.raises(SdfgInputError) as info:
        parse_py_file(two_programs, "third")
    assert "no @dace.program named 'third' (found: first, second)" in str(info.value)


def test_py_without_programs(tmp_path):
    path = tmp_path / "plain.py"
    path.write_text("import dace\nx = 1\n")
    with pytest.raises(SdfgInputError, match="the file defines no @dace.program"):
        parse_py_file(path)


def test_py_that_raises_is_an_input_error(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(SdfgInputError, match="running the file failed: RuntimeError: boom"):
        parse_py_file(path)


def test_py_frontend_restores_sys_path(two_programs):
    before = list(sys.path)
    parse_py_file(two_programs, "first")
    with pytest.raises(SdfgInputError):
        parse_py_file(two_programs, "third")
    assert sys.path == before


# --------------------------------------------------------------------------------------
# unsupported constructs: one line naming the SDFG, state and node

N = dace.symbol("N")


def wcr_difference_sdfg() -> dace.SDFG:
    """s[0] combined with every x[i] by a lambda that is no known reduction."""
    sdfg = dace.SDFG("wcr_difference")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("s", [1], dace.float32)
    sdfg.add_state("MapState").add_mapped_tasklet(
        "diff", {"i": "0:N"}, {"a": dace.Memlet("x[i]")}, "b = a",
        {"b": dace.Memlet("s[0]", wcr="lambda a, b: a - b")}, external_edges=True)
    return sdfg


def reduce_difference_sdfg() -> dace.SDFG:
    """A Reduce node whose lambda is no known reduction."""
    sdfg = dace.SDFG("reduce_difference")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("s", [1], dace.float32)
    state = sdfg.add_state("main")
    reduce = state.add_reduce("lambda a, b: 2 * a + b", None, 0)
    state.add_edge(state.add_read("x"), None, reduce, None, dace.Memlet("x[0:N]"))
    state.add_edge(reduce, None, state.add_write("s"), None, dace.Memlet("s[0]"))
    return sdfg


@dace.program
def strided_nested_map(A: dace.float32[N, N]):
    for i in dace.map[1:N]:
        for j in dace.map[0:N:i]:
            A[i, j] = A[i, j] + 1


@dace.program
def complex_scale(x: dace.complex64[N], y: dace.complex64[N]):
    y[:] = x * 2


@dace.program
def converting_copy(x: dace.uint32[N], y: dace.float32[N]):
    y[:] = x


def stream_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("streamy")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_stream("S", dace.float32, transient=True)
    sdfg.add_state("s0")
    return sdfg


def mapped_tasklet_sdfg(name: str, code: str, language=dace.Language.Python, dtype=dace.float32):
    sdfg = dace.SDFG(name)
    sdfg.add_array("x", [N], dtype)
    sdfg.add_array("y", [N], dtype)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet(
        "work",
        {"i": "0:N"},
        {"a": dace.Memlet("x[i]")},
        code,
        {"b": dace.Memlet("y[i]")},
        external_edges=True,
        language=language,
    )
    return sdfg


def program_sdfg(program) -> dace.SDFG:
    sdfg = program.to_sdfg(simplify=True)
    sdfg.name = program.f.__name__  # DaCe prefixes the module name
    return sdfg


# name -> (builder, key phrases of the message: where, then what)
UNSUPPORTED = {
    "wcr": (
        wcr_difference_sdfg,
        ["SDFG 'wcr_difference', state 'MapState', node 'diff' (Tasklet)",
         "write-conflict resolution '", "a - b", "' is not a known reduction"],
    ),
    "np_sum": (
        reduce_difference_sdfg,
        ["SDFG 'reduce_difference', state 'main', node 'Reduce' (Reduce)",
         "write-conflict resolution '", "2 * a", "' is not a known reduction"],
    ),
    "stream": (
        stream_sdfg,
        ["SDFG 'streamy'", "container 'S' is a stream", "streams are not supported yet"],
    ),
    "strided_nested_map": (
        lambda: program_sdfg(strided_nested_map),
        ["SDFG 'strided_nested_map', state 'MapState', node '", "(MapEntry)",
         "the step of the map depends on a parameter of an enclosing map; not supported yet"],
    ),
    "tasklet_for": (
        lambda: mapped_tasklet_sdfg("loopy", "b = a\nfor k in range(3):\n    b = b + a"),
        ["SDFG 'loopy', state 'main', node 'work' (Tasklet)", "unsupported Python construct 'For'",
         "line 2"],
    ),
    "cpp_tasklet": (
        lambda: mapped_tasklet_sdfg("cppy", "b = a * 2;", language=dace.Language.CPP),
        ["SDFG 'cppy', state 'main', node 'work' (Tasklet)",
         "tasklet language CPP is not supported (only Python)"],
    ),
    "complex_program": (
        lambda: program_sdfg(complex_scale),
        ["SDFG 'complex_scale'", "container 'x' has unsupported data type 'complex64'"],
    ),
    "complex_api": (
        lambda: mapped_tasklet_sdfg("c128", "b = a", dtype=dace.complex128),
        ["SDFG 'c128'", "container 'x' has unsupported data type 'complex128'"],
    ),
    "converting_copy": (
        lambda: program_sdfg(converting_copy),
        ["SDFG 'converting_copy', state '", "(AccessNode)",
         "copy from 'x' (uint32) to 'y' (float32) converts element types, which is not supported yet"],
    ),
    "uint64_api": (
        lambda: mapped_tasklet_sdfg("u64", "b = a", dtype=dace.uint64),
        ["SDFG 'u64'", "container 'x' has unsupported data type 'uint64'"],
    ),
}


@pytest.mark.parametrize("case", sorted(UNSUPPORTED))
def test_unsupported_construct_is_one_line_import_error(case):
    build, phrases = UNSUPPORTED[case]
    sdfg = build()
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(sdfg)
    err = info.value
    message = str(err)
    assert type(err) is SdfgImportError
    assert "\n" not in message
    assert message == f"{err.where}: {err.message}"
    assert err.where.startswith("SDFG '")
    for phrase in phrases:
        assert phrase in message, f"{phrase!r} not in {message!r}"


@pytest.mark.parametrize(
    "case", ["wcr", "np_sum", "strided_nested_map", "cpp_tasklet", "stream", "complex_program"]
)
def test_unsupported_construct_through_cli_is_one_line(case, tmp_path, capsys):
    """Saved as .sdfg and given to ipu-opt: the same message, exit code 1, no output."""
    build, phrases = UNSUPPORTED[case]
    path = tmp_path / f"{case}.sdfg"
    build().save(str(path))
    out_dir = tmp_path / "out"
    with pytest.raises(SystemExit) as info:
        ipu_opt_main([str(path), "-p", "sdfg-to-poplar", "--symbols", "N=8",
                      "-t", "poplar-cpp", "-o", str(out_dir)])
    assert info.value.code == 1
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("ipu-opt: SDFG '")
    assert "Traceback" not in captured.err + captured.out
    for phrase in phrases[1:]:
        assert phrase in lines[0]
    assert not out_dir.exists()


def test_supported_mapped_tasklet_imports():
    """The builder used above gives a supported SDFG with a plain Python body."""
    module = import_sdfg(mapped_tasklet_sdfg("ok", "b = a * a"))
    module.verify()
    got = summary(module)
    assert got["args"] == ["x", "y"]
    assert got["tasklet_ops"] == Counter({"arith.mulf": 1})
    assert got["reads"] == Counter({("x", ("i",)): 1})
    assert got["writes"] == Counter({("y", ("i",)): 1})


def test_import_error_does_not_print(capsys):
    with pytest.raises(SdfgImportError):
        import_sdfg(stream_sdfg())
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def tasklet_chain_in_map_sdfg() -> dace.SDFG:
    """A valid SDFG where one tasklet feeds another directly (an empty memlet between
    them, as DaCe allows): y[i] = x[i] * 2 + 1."""
    sdfg = dace.SDFG("t2t")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    state = sdfg.add_state("main")
    entry, exit_ = state.add_map("m", {"i": "0:N"})
    first = state.add_tasklet("first", {"p"}, {"o"}, "o = p * 2")
    second = state.add_tasklet("second", {"a"}, {"o"}, "o = a + 1")
    state.add_memlet_path(
        state.add_read("x"), entry, first, dst_conn="p", memlet=dace.Memlet("x[i]")
    )
    state.add_edge(first, "o", second, "a", dace.Memlet())
    state.add_memlet_path(
        second, exit_, state.add_write("y"), src_conn="o", memlet=dace.Memlet("y[i]")
    )
    sdfg.validate()
    return sdfg


def test_tasklet_to_tasklet_edge_passes_an_ssa_value():
    module = import_sdfg(tasklet_chain_in_map_sdfg())
    module.verify()
    tasklets = [op for op in module.walk() if isinstance(op, sd.TaskletOp)]
    assert [t.label.data for t in tasklets] == ["first", "second"]
    assert tasklets[1].inputs[0] is tasklets[0].outputs[0]
    writes = [op for op in module.walk() if isinstance(op, sd.WriteOp)]
    assert len(writes) == 1 and writes[0].value is tasklets[1].outputs[0]


def fortran_order_sdfg() -> dace.SDFG:
    M = dace.symbol("M")
    sdfg = dace.SDFG("fortran")
    sdfg.add_array("A", [M, N], dace.float32, strides=[1, M])
    sdfg.add_array("B", [M, N], dace.float32)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet("m", {"i": "0:M", "j": "0:N"}, {"p": dace.Memlet("A[i, j]")}, "q = p",
                             {"q": dace.Memlet("B[i, j]")}, external_edges=True)
    return sdfg


def multi_element_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("multi")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet("m", {"i": "0:N"}, {"p": dace.Memlet("x[0:2]")}, "q = p[0]",
                             {"q": dace.Memlet("y[i]")}, external_edges=True)
    return sdfg


def dynamic_memlet_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("dyn")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet("m", {"i": "0:N"}, {"p": dace.Memlet("x[i]", dynamic=True)},
                             "q = p", {"q": dace.Memlet("y[i]")}, external_edges=True)
    return sdfg


def nested_sdfg_in_map_sdfg() -> dace.SDFG:
    # a loop whose guard state computes: its control flow cannot move out of the map
    inner = dace.SDFG("inner")
    inner.add_scalar("a", dace.float32)
    inner.add_scalar("b", dace.float32)
    inner.add_symbol("k", dace.int32)
    start = inner.add_state("start", is_start_block=True)
    s = inner.add_state("s")
    done = inner.add_state("done")
    inner.add_edge(start, s, dace.InterstateEdge(assignments={"k": "0"}))
    inner.add_edge(s, s, dace.InterstateEdge("k < 3", assignments={"k": "k + 1"}))
    inner.add_edge(s, done, dace.InterstateEdge("not (k < 3)"))
    t = s.add_tasklet("t", {"p"}, {"q"}, "q = p")
    s.add_edge(s.add_read("a"), None, t, "p", dace.Memlet("a[0]"))
    s.add_edge(t, "q", s.add_write("b"), None, dace.Memlet("b[0]"))
    sdfg = dace.SDFG("outer")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    state = sdfg.add_state("main")
    entry, exit_ = state.add_map("m", {"i": "0:N"})
    node = state.add_nested_sdfg(inner, sdfg, {"a"}, {"b"}, {"N": "N"})
    state.add_memlet_path(state.add_read("x"), entry, node, dst_conn="a", memlet=dace.Memlet("x[i]"))
    state.add_memlet_path(node, exit_, state.add_write("y"), src_conn="b", memlet=dace.Memlet("y[i]"))
    return sdfg


def transient_array_in_map_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("tarray")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    sdfg.add_array("tmp", [2], dace.float32, transient=True)
    state = sdfg.add_state("main")
    entry, exit_ = state.add_map("m", {"i": "0:N"})
    first = state.add_tasklet("first", {"p"}, {"o"}, "o = p")
    second = state.add_tasklet("second", {"a"}, {"o"}, "o = a")
    tmp = state.add_access("tmp")
    state.add_memlet_path(
        state.add_read("x"), entry, first, dst_conn="p", memlet=dace.Memlet("x[i]")
    )
    state.add_edge(first, "o", tmp, None, dace.Memlet("tmp[0]"))
    state.add_edge(tmp, None, second, "a", dace.Memlet("tmp[0]"))
    state.add_memlet_path(
        second, exit_, state.add_write("y"), src_conn="o", memlet=dace.Memlet("y[i]")
    )
    return sdfg


def unreachable_state_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("unreach")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_state("a", is_start_block=True)
    sdfg.add_state("b")
    return sdfg


MORE_UNSUPPORTED = {
    "fortran order": (fortran_order_sdfg,
                      "SDFG 'fortran': container 'A' is not a contiguous row-major array"),
    "several elements into a tasklet": (
        multi_element_sdfg,
        ("SDFG 'multi', state 'main', node 'm' (Tasklet): memlet 'x[0:2]' moves more than one "
        "element into a tasklet")),
    "dynamic memlet": (dynamic_memlet_sdfg,
                       "SDFG 'dyn', state 'main', node 'm' (Tasklet): dynamic memlet"),
    "nested SDFG in a map": (nested_sdfg_in_map_sdfg,
                             ("SDFG 'outer', state 'main', node 'inner' (NestedSDFG): nested SDFG 'inner' in "
                              "map 'm': the guard 's' of a loop is not an empty state; not supported yet")),
    "transient array inside a map": (
        transient_array_in_map_sdfg,
        ("SDFG 'tarray', state 'main', node 'tmp' (AccessNode): access nodes inside a map must be "
        "transient scalars")),
    "unreachable state": (unreachable_state_sdfg,
                          "SDFG 'unreach': state 'b' is unreachable from the start state"),
    "print in a tasklet": (
        lambda: mapped_tasklet_sdfg("printing", "b = a\nprint(b)"),
        "SDFG 'printing', state 'main', node 'work' (Tasklet): unsupported Python construct"),
}


@pytest.mark.parametrize("case", sorted(MORE_UNSUPPORTED))
def test_more_unsupported_constructs(case):
    build, prefix = MORE_UNSUPPORTED[case]
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(build())
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(prefix), message


def test_sdfg_without_states_imports():
    sdfg = dace.SDFG("empty")
    sdfg.add_array("x", [N], dace.float32)
    module = import_sdfg(sdfg)
    module.verify()
    got = summary(module)
    assert got["states"] == 0 and got["containers"] == {"x": (VEC_N, False)}
    assert got["args"] == ["x"] and got["symbols"] == ["N"]


def test_states_in_execution_order():
    sdfg = dace.SDFG("two")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    first = sdfg.add_state("first")
    second = sdfg.add_state_after(first, "second")
    third = sdfg.add_state_after(second, "third")
    first.add_mapped_tasklet("m1", {"i": "0:N"}, {"p": dace.Memlet("x[i]")}, "q = p + 1",
                             {"q": dace.Memlet("y[i]")}, external_edges=True)
    third.add_mapped_tasklet("m3", {"i": "0:N"}, {"p": dace.Memlet("y[i]")}, "q = p * 2",
                             {"q": dace.Memlet("x[i]")}, external_edges=True)
    module = import_sdfg(sdfg)
    module.verify()
    sdfg_op = the_sdfg(module)
    states = [op for op in sdfg_op.body.block.ops if isinstance(op, sd.StateOp)]
    assert [s.label.data for s in states] == ["first", "third"]  # empty states are dropped
    assert [len(list(s.body.block.ops)) for s in states] == [1, 1]


def test_string_annotations_are_rejected(tmp_path):
    path = tmp_path / "postponed.py"
    path.write_text(
        "from __future__ import annotations\nimport dace\nN = dace.symbol('N')\n\n"
        "@dace.program\ndef f(x: dace.float32[N]):\n    x[:] = x + 1\n"
    )
    with pytest.raises(SdfgInputError, match="string annotations"):
        DacePythonFrontend().parse(Context(), path.open("rb"), str(path))


# --------------------------------------------------------------------------------------
# index expressions: shapes, map ranges and subsets become #sdfg.expr, map parameters
# the index operands of the memlets


def one_map_sdfg(name: str, shapes, ranges: dict, read: str, write: str = "y[i]") -> dace.SDFG:
    sdfg = dace.SDFG(name)
    sdfg.add_array("x", shapes[0], dace.float32)
    sdfg.add_array("y", shapes[1], dace.float32)
    sdfg.add_state("main").add_mapped_tasklet(
        "m", ranges, {"p": dace.Memlet(read)}, "q = p", {"q": dace.Memlet(write)}, external_edges=True
    )
    return sdfg


def the_op(module: ModuleOp, kind):
    (op,) = [op for op in module.walk() if isinstance(op, kind)]
    return op


def test_neighbour_read_is_an_offset_of_the_parameter():
    module = import_sdfg(one_map_sdfg("shift", ([N + 1], [N]), {"i": "0:N"}, "x[i + 1]"))
    module.verify()
    map_op, read = the_op(module, sd.MapOp), the_op(module, sd.ReadOp)
    assert str(the_sdfg(module).containers()[0].result.type) == "!sdfg.array<(N + 1) x f32>"
    assert list(read.indices) == list(map_op.params)
    assert [str(e) for e in read.subset_exprs()] == ["d0 + 1"]
    assert read.subset_exprs()[0].dim_offset(0) == 1
    assert subset_texts(read) == ("i + 1",)


def test_index_operands_follow_the_order_of_first_use():
    """`x[j, i]`: the operands are (j, i) and the subset (d0, d1)."""
    M = dace.symbol("M")
    module = import_sdfg(one_map_sdfg("tr", ([N, M], [M, N]), {"i": "0:M", "j": "0:N"}, "x[j, i]",
                                      "y[i, j]"))
    module.verify()
    map_op, read, write = the_op(module, sd.MapOp), the_op(module, sd.ReadOp), the_op(module, sd.WriteOp)
    i, j = map_op.params
    assert list(read.indices) == [j, i] and [str(e) for e in read.subset_exprs()] == ["d0", "d1"]
    assert list(write.indices) == [i, j] and [str(e) for e in write.subset_exprs()] == ["d0", "d1"]
    assert subset_texts(read) == ("j", "i")


def test_constant_subset_has_no_index_operands():
    module = import_sdfg(one_map_sdfg("const", ([N], [N]), {"i": "0:N"}, "x[0]"))
    module.verify()
    read = the_op(module, sd.ReadOp)
    assert list(read.indices) == [] and subset_texts(read) == ("0",)


def test_expressions_of_shapes_ranges_and_subsets():
    M = dace.symbol("M")
    module = import_sdfg(one_map_sdfg("exprs", ([N + 1, 2 * M], [N // 2]), {"i": "0:N//2:2"},
                                      "x[N - i, M % 3]"))
    module.verify()
    got = summary(module)
    assert got["containers"]["x"] == ("!sdfg.array<(N + 1) x (2 * M) x f32>", False)
    assert got["containers"]["y"] == ("!sdfg.array<(N floordiv 2) x f32>", False)
    assert got["maps"] == [(("i",), ("0",), ("(N floordiv 2)",), ("2",))]
    assert got["reads"] == Counter({("x", ("-i + N", "(M mod 3)")): 1})
    assert got["symbols"] == ["M", "N"]


def test_copy_ranges_are_expressions():
    sdfg = dace.SDFG("shifted_copy")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    state = sdfg.add_state("main")
    state.add_nedge(state.add_read("x"), state.add_write("y"), dace.Memlet(data="x", subset="1:N", other_subset="0:N - 1"))
    module = import_sdfg(sdfg)
    module.verify()
    assert summary(module)["copies"] == [("x", [("1", "N")], "y", [("0", "N - 1")])]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: one_map_sdfg("half", ([N / 2], [N]), {"i": "0:N"}, "x[i]"),
         ("SDFG 'half': container 'x' has an unsupported shape: 'N/2' is not an integer index expression "
         "('1/2' is not an integer)")),
        (lambda: one_map_sdfg("hs", ([N], [N]), {"i": "0:N"}, "x[i / 2]"),
         ("SDFG 'hs', state 'main', node 'm' (Tasklet): unsupported memlet subset: 'i/2' is not an integer "
         "index expression ('1/2' is not an integer)")),
        (lambda: one_map_sdfg("pw", ([N], [N]), {"i": "0:2**N"}, "x[i]"),
         ("SDFG 'pw', state 'main', node 'm_map' (MapEntry): unsupported map range: '2**N - 1' is not an integer "
         "index expression ('2**N' is not a small non-negative integer power)")),
        (lambda: one_map_sdfg("d0s", ([dace.symbol("d0")], [N]), {"i": "0:N"}, "x[i]"),
         "SDFG 'd0s': container 'x' has an unsupported shape: 'd0': 'd0' cannot name a symbol"),
        (lambda: one_map_sdfg("mods", ([dace.symbol("mod")], [N]), {"i": "0:N"}, "x[i]"),
         "SDFG 'mods': container 'x' has an unsupported shape: 'mod': 'mod' cannot name a symbol"),
    ],
    ids=["rational shape", "rational subset", "power range", "d0 symbol", "mod symbol"],
)
def test_unsupported_expressions_are_one_line_import_errors(build, message):
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(build())
    assert str(info.value) == message
