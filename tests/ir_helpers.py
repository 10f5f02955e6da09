"""Parsing helpers shared by the Python tests of the ipu and poplar levels."""

from __future__ import annotations

import io

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.math import Math
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf
from xdsl.dialects.vector import Vector

from ipu_lower.frontend.frontends import LocatedMlirFrontend
from ipu_lower.registry import dialects


def make_ctx() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, Math, MemRef, Scf, Vector, *dialects()):
        ctx.load_dialect(dialect)
    return ctx


def parse(text: str, verify: bool = True) -> ModuleOp:
    module = LocatedMlirFrontend().parse(make_ctx(), io.BytesIO(text.encode()), "in.mlir")
    if verify:
        module.verify()
    return module


def the(module: ModuleOp, kind: type):
    """The one op of `kind` in `module`."""
    ops = [op for op in module.walk() if isinstance(op, kind)]
    assert len(ops) == 1, ops
    return ops[0]


def graph(body: str, args: str = "") -> str:
    return f'ipu.graph "g" arch "ipu2" args [{args}] {{\n{body}\n}}'


def extracted_fold(element: str, tile_map: str, fold: str, split: str, out: str, total: int, out_size: int,
                   accumulate: bool = False):
    """The fold codelet ipu-vertex-extraction builds for a tiled sum of `total` values of
    `element` on one tile (`tile_map` the reduction's), with `fold` sizes and `split`,
    writing `out_size` results by the rule `out` (32-bit partial results for `partials`)."""
    from ipu_lower.dialects import ipu
    from ipu_lower.passes.vertex_extraction import IpuVertexExtractionPass

    out_element = {"f16": "f32", "i8": "i32"}.get(element, element) if out.startswith("partials") else element
    module = parse(graph(f"""  %x = ipu.variable "x" mapping <0 to 1 x {total}> : memref<{total}x{element}>
  %p = ipu.variable "p" mapping <0 to 1 x {out_size}> : memref<{out_size}x{out_element}>
  ipu.tiled_reduce "r" add over {tile_map} fold {fold} split {split} {"accumulate" if accumulate else ""} ins(%x block : memref<{total}x{element}>) outs(%p {out} : memref<{out_size}x{out_element}>) {{
  ^bb0(%x_1: memref<{total}x{element}>):
    %0 = ipu.access %x_1[0] : memref<{total}x{element}>
    ipu.yield %0 : {element}
  }}"""))
    IpuVertexExtractionPass().apply(make_ctx(), module)
    module.verify()
    return the(module, ipu.CodeletOp)
