"""Everything ipu-lower adds to xDSL: dialects and passes, by name.

As xDSL's `get_all_dialects`/`get_all_passes` do, each name maps to a function that
imports its module only when called: `ipu-opt --help` lists the passes without importing
them (nor numpy, sympy and DaCe behind them), and a run imports the passes it uses.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from xdsl.ir import Dialect
from xdsl.passes import ModulePass

# name -> (module, attribute); tests check each name against what it loads.
_DIALECTS = {
    "sdfg": ("ipu_lower.dialects.sdfg", "SDFG"),
    "ipu": ("ipu_lower.dialects.ipu", "IPU"),
    "poplar": ("ipu_lower.dialects.poplar", "POPLAR"),
}

# In the order of the lowering, the whole pipeline first (`ipu-opt --help` lists them so).
_PASSES = {
    "sdfg-to-poplar": ("ipu_lower.pipelines", "SdfgToPoplarPass"),
    "sdfg-inline-nested-in-maps": ("ipu_lower.passes.sdfg_inline_nested_in_maps", "SdfgInlineNestedInMapsPass"),
    "sdfg-inline-nested": ("ipu_lower.passes.sdfg_inline_nested", "SdfgInlineNestedPass"),
    "sdfg-lower-breaks": ("ipu_lower.passes.sdfg_lower_breaks", "SdfgLowerBreaksPass"),
    "sdfg-collapse-maps": ("ipu_lower.passes.sdfg_collapse_maps", "SdfgCollapseMapsPass"),
    "sdfg-weaken-literals": ("ipu_lower.passes.sdfg_weaken_literals", "SdfgWeakenLiteralsPass"),
    "sdfg-hoist-reductions": ("ipu_lower.passes.sdfg_hoist_reductions", "SdfgHoistReductionsPass"),
    "sdfg-choose-reductions": ("ipu_lower.passes.sdfg_choose_reductions", "SdfgChooseReductionsPass"),
    "sdfg-copy-reduction-boxes": ("ipu_lower.passes.sdfg_copy_reduction_boxes", "SdfgCopyReductionBoxesPass"),
    "sdfg-expand-reductions": ("ipu_lower.passes.sdfg_expand_reductions", "SdfgExpandReductionsPass"),
    "ipu-demote-f64": ("ipu_lower.passes.demote_f64", "IpuDemoteF64Pass"),
    "sdfg-specialize": ("ipu_lower.passes.sdfg_specialize", "SdfgSpecializePass"),
    "sdfg-fuse-maps": ("ipu_lower.passes.sdfg_fuse_maps", "SdfgFuseMapsPass"),
    "sdfg-write-in-place": ("ipu_lower.passes.sdfg_write_in_place", "SdfgWriteInPlacePass"),
    "sdfg-chunk-reductions": ("ipu_lower.passes.sdfg_chunk_reductions", "SdfgChunkReductionsPass"),
    "sdfg-dynamic-copies": ("ipu_lower.passes.sdfg_dynamic_copies", "SdfgDynamicCopiesPass"),
    "sdfg-stream-chunks": ("ipu_lower.passes.sdfg_stream_chunks", "SdfgStreamChunksPass"),
    "ipu-tile-partition": ("ipu_lower.passes.tile_partition", "IpuTilePartitionPass"),
    "ipu-plan-exchange": ("ipu_lower.passes.plan_exchange", "IpuPlanExchangePass"),
    "ipu-vertex-extraction": ("ipu_lower.passes.vertex_extraction", "IpuVertexExtractionPass"),
    "ipu-select-vertices": ("ipu_lower.passes.select_vertices", "IpuSelectVerticesPass"),
    "convert-ipu-to-poplar": ("ipu_lower.passes.convert_ipu_to_poplar", "ConvertIpuToPoplarPass"),
}


def _loader(module: str, attribute: str) -> Callable[[], Any]:
    return lambda: getattr(importlib.import_module(module), attribute)


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """The dialects by name, each imported when its function is called."""
    return {name: _loader(*where) for name, where in _DIALECTS.items()}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The passes by name, each imported when its function is called."""
    return {name: _loader(*where) for name, where in _PASSES.items()}


def dialects() -> tuple[Dialect, ...]:
    """All the dialects, imported (for a context built by hand)."""
    return tuple(load() for load in get_all_dialects().values())
