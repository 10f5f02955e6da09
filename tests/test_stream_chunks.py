"""Containers in streaming memory (`StorageType.IPU_Streaming`): maps over them run in
chunks of rows (sdfg-stream-chunks) through remote buffers, against DaCe's CPU result;
and a program larger than tile memory lowers into chunks that fit."""

import shutil

import dace
import numpy as np
import pytest

import ipu_lower
from ipu_lower.arch import get_arch
from ipu_lower.dialects import poplar
from ipu_lower.dialects import sdfg as sd
from ipu_lower.emit import lower_program
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg

from test_e2e import assert_as_planned, assert_same, run_dace

N = dace.symbol("N")
M = dace.symbol("M")

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


@dace.program
def axpy(a: dace.float32, x: dace.float32[N], y: dace.float32[N], z: dace.float32[N]):
    for i in dace.map[0:N]:
        z[i] = a * x[i] + y[i]


@dace.program
def rows(A: dace.float32[M, N], w: dace.float32[N], B: dace.float32[M, N], colsum: dace.float32[N]):
    for i, j in dace.map[0:M, 0:N]:
        B[i, j] = A[i, j] * w[j] + A[i, 0]
    for i, j in dace.map[0:M, 0:N]:
        colsum[j] += A[i, j]


def streaming(program, names) -> dace.SDFG:
    """The program's SDFG with `names` in streaming memory."""
    sdfg = program.to_sdfg(simplify=True)
    for name in names:
        sdfg.arrays[name].storage = dace.StorageType.IPU_Streaming
    return sdfg


def remote_copies(report: dict) -> dict[str, int]:
    return {s["name"]: s["executions"] for s in report["steps"] if s["kind"] == "remote_copy"}


@needs_gxx
def test_elementwise_program_runs_in_chunks_like_dace():
    sdfg = streaming(axpy, ["x", "y", "z"])
    rng = np.random.default_rng(7)
    arrays = {"a": np.float32(1.5), "x": rng.random(24, np.float32), "y": rng.random(24, np.float32),
              "z": np.zeros(24, np.float32)}
    theirs = run_dace(axpy, arrays, {"N": 24})
    ours = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in arrays.items()}
    program = ipu_lower.compile(sdfg, symbols={"N": 24}, chunk=6)
    program(**ours)
    assert_same(ours, theirs, ["z"])
    # four chunks of 6: each input loaded, the output stored, once a chunk
    assert remote_copies(program.report) == {
        "remote buffer 'x' -> 'x_chunk'": 4, "remote buffer 'y' -> 'y_chunk'": 4, "'z_chunk' -> remote buffer 'z'": 4,
    }
    assert_as_planned(program)  # the bytes each remote copy's busiest tile receives, syncs


@needs_gxx
def test_row_wise_program_runs_in_chunks_like_dace():
    # B reads each row's first element (a view of A's chunk) and the row w broadcast
    # over the rows, in tile memory; colsum, in tile memory, sums the rows of every chunk.
    sdfg = streaming(rows, ["A", "B"])
    rng = np.random.default_rng(8)
    arrays = {"A": rng.random((12, 5), np.float32), "w": rng.random(5, np.float32),
              "B": np.zeros((12, 5), np.float32), "colsum": rng.random(5, np.float32)}
    theirs = run_dace(rows, arrays, {"M": 12, "N": 5})
    ours = {k: v.copy() for k, v in arrays.items()}
    program = ipu_lower.compile(sdfg, symbols={"M": 12, "N": 5}, chunk=4)
    program(**ours)
    assert_same(ours, theirs, ["B", "colsum"])
    assert set(remote_copies(program.report).values()) == {3}  # three chunks of 4 rows
    assert_as_planned(program)


def _lowered(sdfg: dace.SDFG, rows_: int) -> tuple[str, poplar.HostProgramOp]:
    module = lower_program(sdfg, {"N": rows_, "M": 1024}, "ipu2")
    program = next(op for op in module.ops if isinstance(op, poplar.HostProgramOp))
    return str(module), program


def test_program_larger_than_tile_memory_lowers_in_chunks_that_fit():
    # x and y of 2^21 rows of 1024 floats: 8 GiB each, about 9 times the 0.9 GB of an
    # ipu2's tile memory. Lowered (not run): the chunks are remote-buffer repeats whose
    # landing variables, with everything else, fit into the tiles (ipu-tile-partition
    # checks every tile), and the IR is the same size for half the rows.
    @dace.program
    def scale(x: dace.float32[N, M], y: dace.float32[N, M]):
        for i, j in dace.map[0:N, 0:M]:
            y[i, j] = x[i, j] * dace.float32(3)

    sdfg = streaming(scale, ["x", "y"])
    arch = get_arch("ipu2")
    big_text, big = _lowered(sdfg, 2**21)
    half_text, _ = _lowered(sdfg, 2**20)
    buffers = [op for op in big.build_body.block.ops if isinstance(op, poplar.AddRemoteBufferOp)]
    assert [b.handle.data for b in buffers] == ["x", "y"]
    repeats, elements = buffers[0].result.type.repeats, buffers[0].result.type.elements
    assert repeats * elements * 4 == 2**21 * 1024 * 4 > arch.tiles * arch.bytes_per_tile
    landing = sum(
        poplar.tensor_type(op.result).num_elements() * 4
        for op in big.build_body.block.ops
        if isinstance(op, poplar.AddVariableOp)
    )
    assert landing <= 0.5 * arch.tiles * arch.bytes_per_tile  # CHUNK_MARGIN
    # half of 1472 x 624 KiB holds 57,407 rows of x and y (8 KiB); the largest divisor
    # of 2^21 below that is 2^15: 64 chunks, and 2 x 128 MiB of landing variables
    assert repeats == 64
    assert len(big_text.splitlines()) == len(half_text.splitlines())


def test_importer_carries_the_storage():
    module = import_sdfg(streaming(axpy, ["x", "z"]))
    storage = {c.container_name.data: c.storage.data if c.storage else None
               for c in module.walk() if isinstance(c, sd.ContainerOp) and not c.transient}
    assert storage == {"a": None, "x": "IPU_Streaming", "y": None, "z": "IPU_Streaming"}


def test_a_streaming_scalar_is_an_error():
    sdfg = axpy.to_sdfg(simplify=True)
    sdfg.arrays["a"].storage = dace.StorageType.IPU_Streaming
    with pytest.raises(SdfgImportError, match="container 'a' is a scalar in IPU_Streaming; scalars live in tile memory"):
        import_sdfg(sdfg)
