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
from ipu_lower.registry import DIALECTS


def make_ctx() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, Math, MemRef, Scf, Vector, *DIALECTS):
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
