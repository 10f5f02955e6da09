"""IPU architecture numbers: the one place they live.

Sources (docs/cost-model.md lists them with the other constants):
- GC2 (Mk1): Jia et al., "Dissecting the Graphcore IPU Architecture" (2019): 1216 tiles,
  256 KiB per tile, 6 worker threads per tile, ~1.6 GHz.
- GC200 (Mk2): Graphcore IPU-M2000 material: 1472 tiles, ~900 MB In-Processor memory
  (624 KiB per tile), 6 workers, ~1.33 GHz.
- Bow: GC200 silicon with wafer-on-wafer power delivery: same tiles and memory, 1.85 GHz.
- Vector widths (elements per 64-bit load/store): Poplar's Target::getVectorWidth gives
  2 for FLOAT/INT and 4 for HALF; a 64-bit data path, so bytes-per-element divides 8.
- Exchange: ~4 bytes per cycle into each tile (derived from ~8 TB/s over 1472 tiles at
  1.33 GHz; unverified, Target::getExchangeBytesPerCycle gives the real number).
- Sync: no public number; Poplar exposes it only as IPUModel::minIPUSyncDelay. The value
  here is an assumption of the order the Poplar docs suggest (tens to hundreds of cycles).
- Peak FLOPs per tile and cycle of the AMP unit, as poplin uses it: input channels per
  output position x conv units / core cycles of the AMP vertex (graphcore/poplibs 7eac0f26:
  lib/poplin/PerformanceEstimation.hpp:401-402 and 482; the conv units of the 1x1 AMP
  vertices, lib/poplin/codelets/asm/conv_partial_1x1_*.S). GC2: 8 MACs float32, 32 float16
  with float32 partials: 16 and 64 FLOPs, Jia et al.'s 31.1 and 124.5 TFLOPS over 1216 x
  1.6 GHz. GC200 and Bow: 16 MACs float32 (`f32sisov2amp`, 32 FLOPs: 62.4 TFLOPS at
  1.325 GHz; Graphcore's gc-flops gives 87.1 at 1.85 GHz) and, for float16 with float32
  partials (what ipu-lower asks poplin for), 8 conv units, 32 MACs, 64 FLOPs: the
  16-unit vertex is built only for half partials (ConvPartial1x1Out.cpp:26-39); the
  250 TFLOPS headline is float16 with float16 partials (128 FLOPs).
- Efficiency of poplin's matrix product (an assumption, an input of every matmul estimate,
  never a result): 0.65 of that peak, the plateau of dense products
  (m = k from 1024 to 8192) in graphcore-research/sparsity-benchmarks (analysis/
  Analysis.ipynb, figure `dense_ipu_gpu`: ~57 of 87.1 TFLOPS float32 on Bow, read off the
  plot to about 5%); were that run on a GC200, it would be ~0.9, so 0.65 is the cautious
  reading.
- Streaming memory: on an IPU-M2000 each IPU reaches the IPU-Gateway, which holds the
  streaming memory, over PCIe Gen4 x8 (the machine's block diagram in Graphcore's
  IPU-M2000 BMC user guide, as reproduced at vengineer.hatenablog.com/entry/2023/01/23);
  8 lanes x 16 GT/s x 128/130 encoding = 15.75 GB/s per direction (derived; no published
  measurement of remote-buffer copies was found). The same figure stands for ipu1 (its
  C2 card's PCIe Gen4 host link, where remote buffers live in host memory) and ipu21.
The C++ emulator carries the same table (ipu_lower_emulator/Arch.hpp); a test keeps them equal.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Arch:
    name: str
    """Poplar IPUModel / Target name ("ipu1", "ipu2", "ipu21")."""
    tiles: int
    bytes_per_tile: int
    workers_per_tile: int
    clock_hz: float
    data_path_bytes: int = 8
    """Width of a tile's load/store path; sets the vector width per element type."""
    exchange_bytes_per_cycle: int = 4
    """Bytes a tile receives per cycle during exchange."""
    sync_cycles: int = 150
    """Cycles of one global synchronisation (assumption)."""
    flops_per_cycle_f32: int = 32
    """Peak float32 FLOPs per tile per cycle."""
    flops_per_cycle_f16: int = 64
    """Peak float16 FLOPs per tile per cycle (the AMP unit, float32 partials)."""
    streaming_bytes_per_second: int = 15_750_000_000
    """Bytes per second one IPU moves to or from streaming memory (remote buffers)."""

    def vector_width(self, element_bytes: int) -> int:
        """Elements of that size moved by one load/store (Target::getVectorWidth)."""
        return max(1, self.data_path_bytes // element_bytes)


ARCHS: dict[str, Arch] = {
    "ipu1": Arch(
        "ipu1", tiles=1216, bytes_per_tile=256 * 1024, workers_per_tile=6, clock_hz=1.6e9,
        flops_per_cycle_f32=16, flops_per_cycle_f16=64,
    ),
    "ipu2": Arch("ipu2", tiles=1472, bytes_per_tile=624 * 1024, workers_per_tile=6, clock_hz=1.33e9),
    "ipu21": Arch("ipu21", tiles=1472, bytes_per_tile=624 * 1024, workers_per_tile=6, clock_hz=1.85e9),
}

DEFAULT_ARCH = "ipu2"

MATMUL_EFFICIENCY = (65, 100)
"""Assumption: the fraction of the AMP peak poplin's dense products reach, read off a
published plot (see the sources above); every table that prints a matmul estimate says
so (`MATMUL_EFFICIENCY_NOTE`). A ratio of integers so that Python and the emulator's
C++ round alike."""

MATMUL_EFFICIENCY_NOTE = (
    f"assumption: poplin reaches {MATMUL_EFFICIENCY[0]}% of the AMP peak on the busiest tile "
    "(read off graphcore-research/sparsity-benchmarks' dense_ipu_gpu plot, float32 on Bow)"
)
"""How tables label the matmul efficiency they rest on."""

ATOMIC_STORE_BYTES = 4
"""The IPU stores 32-bit words atomically, narrower stores are read-modify-writes of
their word, so two workers must not write into one word in one compute set
(Target::getAtomicStoreGranularity; poplibs sizes its grains by it,
lib/popops/DynamicSlice.cpp:764)."""


def get_arch(name: str) -> Arch:
    """The architecture called `name`; ValueError lists the known ones."""
    try:
        return ARCHS[name]
    except KeyError:
        raise ValueError(
            f"unknown IPU architecture '{name}' (known: {', '.join(ARCHS)})"
        ) from None


def pass_arch(name: str | None) -> Arch:
    """The architecture a pass's `arch` option names (None: the default); an unknown
    one is a diagnostic."""
    from ipu_lower.diagnostics import IpuLowerError

    try:
        return get_arch(name or DEFAULT_ARCH)
    except ValueError as err:
        raise IpuLowerError(f"error: {err}") from err
