"""Named pipelines: passes that run a sequence of passes."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ipu_lower.passes.convert_ipu_to_poplar import ConvertIpuToPoplarPass
from ipu_lower.passes.demote_f64 import IpuDemoteF64Pass
from ipu_lower.passes.sdfg_specialize import SdfgSpecializePass
from ipu_lower.passes.tile_partition import IpuTilePartitionPass
from ipu_lower.passes.vertex_extraction import IpuVertexExtractionPass


@dataclass(frozen=True)
class SdfgToPoplarPass(ModulePass):
    """The whole lowering: (ipu-demote-f64,) sdfg-specialize, ipu-tile-partition,
    ipu-vertex-extraction, convert-ipu-to-poplar; the IR is verified after each step."""

    name = "sdfg-to-poplar"

    symbols: str = ""
    demote_f64: bool = False
    """Run ipu-demote-f64 first (float64/int64 -> float32/int32, with warnings)."""
    arch: str | None = None
    """Default: ipu2 (or ipu-opt's --arch)."""

    def steps(self) -> list[ModulePass]:
        return [
            *([IpuDemoteF64Pass()] if self.demote_f64 else []),
            SdfgSpecializePass(symbols=self.symbols),
            IpuTilePartitionPass(arch=self.arch),
            IpuVertexExtractionPass(),
            ConvertIpuToPoplarPass(),
        ]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for step in self.steps():
            step.apply(ctx, op)
            op.verify()
