"""Everything ipu-lower adds to xDSL: dialects, passes, targets."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.passes import ModulePass

from ipu_lower.dialects.ipu import IPU
from ipu_lower.dialects.poplar import POPLAR
from ipu_lower.dialects.sdfg import SDFG
from ipu_lower.passes.convert_ipu_to_poplar import ConvertIpuToPoplarPass
from ipu_lower.passes.demote_f64 import IpuDemoteF64Pass
from ipu_lower.passes.sdfg_chunk_reductions import SdfgChunkReductionsPass
from ipu_lower.passes.plan_exchange import IpuPlanExchangePass
from ipu_lower.passes.sdfg_dynamic_copies import SdfgDynamicCopiesPass
from ipu_lower.passes.sdfg_fuse_maps import SdfgFuseMapsPass
from ipu_lower.passes.sdfg_specialize import SdfgSpecializePass
from ipu_lower.passes.sdfg_stream_chunks import SdfgStreamChunksPass
from ipu_lower.passes.sdfg_write_in_place import SdfgWriteInPlacePass
from ipu_lower.passes.select_vertices import IpuSelectVerticesPass
from ipu_lower.passes.tile_partition import IpuTilePartitionPass
from ipu_lower.passes.vertex_extraction import IpuVertexExtractionPass
from ipu_lower.pipelines import SdfgToPoplarPass

DIALECTS: tuple[Dialect, ...] = (SDFG, IPU, POPLAR)

PASSES: tuple[type[ModulePass], ...] = (
    IpuDemoteF64Pass,
    SdfgSpecializePass,
    SdfgFuseMapsPass,
    SdfgWriteInPlacePass,
    SdfgChunkReductionsPass,
    SdfgDynamicCopiesPass,
    SdfgStreamChunksPass,
    IpuTilePartitionPass,
    IpuPlanExchangePass,
    IpuVertexExtractionPass,
    IpuSelectVerticesPass,
    ConvertIpuToPoplarPass,
    SdfgToPoplarPass,
)

