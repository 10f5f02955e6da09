"""Named pipelines: a pass that stands for a sequence of passes.

ipu-opt expands a pipeline into its steps before running (`PipelinePass.steps`), so
`--print-between-passes`, `--disable-verify`, `--verify-each` and `--time-passes` see every
step; run programmatically, a pipeline applies its steps and verifies the IR it starts
from and the IR it ends with, as ipu-opt does without --verify-each.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from ipu_lower.diagnostics import entering_pass, verify_located


class PipelinePass(ModulePass):
    """A pass made of other passes."""

    def steps(self) -> tuple[ModulePass, ...]:
        raise NotImplementedError

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PassPipeline(self.steps(), _verify_between).apply(ctx, op)


def _verify_between(previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
    if previous is None or following is None:
        verify_located(module)
    entering_pass(following and following.name)


@dataclass(frozen=True)
class SdfgToPoplarPass(PipelinePass):
    """The whole lowering: sdfg-inline-nested-in-maps, sdfg-inline-nested, sdfg-lower-breaks, sdfg-collapse-maps, sdfg-weaken-literals,
    sdfg-hoist-reductions, sdfg-choose-reductions, sdfg-copy-reduction-boxes,
    sdfg-expand-reductions (before ipu-demote-f64: the imported Reduce nodes take the paths
    their element types as DaCe declares them allow, before float64 turns into float32,
    and before the passes that read `sdfg.reduce` and maps of `sdfg.accumulate`),
    (ipu-demote-f64,) sdfg-specialize,
    sdfg-fuse-maps, sdfg-write-in-place, sdfg-chunk-reductions, sdfg-dynamic-copies, sdfg-stream-chunks, ipu-tile-partition,
    ipu-plan-exchange, ipu-vertex-extraction, ipu-select-vertices, convert-ipu-to-poplar."""

    name = "sdfg-to-poplar"

    symbols: str = ""
    demote_f64: bool = False
    """Run ipu-demote-f64 first (float64/int64 -> float32/int32, with warnings)."""
    arch: str | None = None
    """Default: ipu2 (or ipu-opt's --arch)."""
    chunk: int = 0
    """sdfg-stream-chunks' rows of a chunk (0: the largest that fits)."""
    prefer: str = "auto"
    """ipu-select-vertices' choice between our codelets and poplibs' vertices
    (auto, codelet, poplibs)."""

    def steps(self) -> tuple[ModulePass, ...]:
        # Imported here: importing this module (as ipu-opt does for any pipeline) stays cheap.
        from ipu_lower.passes.convert_ipu_to_poplar import ConvertIpuToPoplarPass
        from ipu_lower.passes.demote_f64 import IpuDemoteF64Pass
        from ipu_lower.passes.plan_exchange import IpuPlanExchangePass
        from ipu_lower.passes.sdfg_choose_reductions import SdfgChooseReductionsPass
        from ipu_lower.passes.sdfg_chunk_reductions import SdfgChunkReductionsPass
        from ipu_lower.passes.sdfg_collapse_maps import SdfgCollapseMapsPass
        from ipu_lower.passes.sdfg_copy_reduction_boxes import SdfgCopyReductionBoxesPass
        from ipu_lower.passes.sdfg_dynamic_copies import SdfgDynamicCopiesPass
        from ipu_lower.passes.sdfg_expand_reductions import SdfgExpandReductionsPass
        from ipu_lower.passes.sdfg_fuse_maps import SdfgFuseMapsPass
        from ipu_lower.passes.sdfg_hoist_reductions import SdfgHoistReductionsPass
        from ipu_lower.passes.sdfg_inline_nested import SdfgInlineNestedPass
        from ipu_lower.passes.sdfg_inline_nested_in_maps import SdfgInlineNestedInMapsPass
        from ipu_lower.passes.sdfg_lower_breaks import SdfgLowerBreaksPass
        from ipu_lower.passes.sdfg_specialize import SdfgSpecializePass
        from ipu_lower.passes.sdfg_weaken_literals import SdfgWeakenLiteralsPass
        from ipu_lower.passes.sdfg_stream_chunks import SdfgStreamChunksPass
        from ipu_lower.passes.sdfg_write_in_place import SdfgWriteInPlacePass
        from ipu_lower.passes.select_vertices import IpuSelectVerticesPass
        from ipu_lower.passes.tile_partition import IpuTilePartitionPass
        from ipu_lower.passes.vertex_extraction import IpuVertexExtractionPass

        return (
            SdfgInlineNestedInMapsPass(),
            SdfgInlineNestedPass(),
            SdfgLowerBreaksPass(),
            SdfgCollapseMapsPass(),
            SdfgWeakenLiteralsPass(),
            SdfgHoistReductionsPass(),
            SdfgChooseReductionsPass(),
            SdfgCopyReductionBoxesPass(),
            SdfgExpandReductionsPass(),
            *([IpuDemoteF64Pass()] if self.demote_f64 else []),
            SdfgSpecializePass(symbols=self.symbols),
            SdfgFuseMapsPass(),
            SdfgWriteInPlacePass(),
            SdfgChunkReductionsPass(arch=self.arch),
            SdfgDynamicCopiesPass(),
            SdfgStreamChunksPass(chunk=self.chunk, arch=self.arch),
            IpuTilePartitionPass(arch=self.arch),
            IpuPlanExchangePass(),
            IpuVertexExtractionPass(),
            IpuSelectVerticesPass(prefer=self.prefer),
            ConvertIpuToPoplarPass(),
        )
