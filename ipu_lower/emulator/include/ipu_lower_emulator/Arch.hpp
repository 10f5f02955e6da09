// ipu-lower CPU emulator internals (no Poplar SDK counterpart): the IPU architecture table.
//
// THE ONE C++ COPY of ipu_lower/arch.py (ARCHS). Every number here must equal
// the Python table; tests/test_emulator.py prints this table as JSON
// (archTableJson) and compares it with ipu_lower.arch.ARCHS. Sources of the
// numbers are cited in ipu_lower/arch.py:
//   tiles, bytes_per_tile, workers_per_tile: GC2 (Jia et al. 2019), GC200 /
//     Bow (Graphcore IPU-M2000 / Bow material);
//   clock_hz: ~1.6 GHz (GC2, derived), ~1.33 GHz (GC200), 1.85 GHz (Bow);
//   data_path_bytes = 8: 64-bit load/store path (Target::getVectorWidth gives
//     2 floats / 4 halves);
//   exchange_bytes_per_cycle = 4: derived, unverified (~8 TB/s / 1472 tiles /
//     1.33 GHz);
//   sync_cycles = 150: assumption (no public number);
//   flops_per_cycle_f32 / _f16: AMP FLOPs per tile and cycle as poplin uses
//     them (float16 with float32 partials): GC2 16 / 64, GC200 and Bow 32 / 64
//     (poplibs' AMP vertices and conv units, cited in arch.py);
//   kMatmulEfficiency: poplin's measured fraction of that peak, 65 / 100
//     (MATMUL_EFFICIENCY in arch.py, with its source);
//   streaming_bytes_per_second = 15.75e9: one IPU's link to streaming memory,
//     PCIe Gen4 x8 (derived; see arch.py).
#ifndef IPU_LOWER_EMU_ARCH_HPP
#define IPU_LOWER_EMU_ARCH_HPP

#include <string>

namespace poplar {
namespace emulator {

struct ArchParams {
  const char *name;
  unsigned tiles;           ///< tiles per IPU
  unsigned bytesPerTile;    ///< In-Processor memory per tile
  unsigned workersPerTile;  ///< hardware worker contexts per tile
  double clockHz;           ///< tile clock
  unsigned dataPathBytes;   ///< load/store width (sets getVectorWidth)
  unsigned exchangeBytesPerCycle; ///< bytes a tile receives per cycle in exchange
  unsigned syncCycles;      ///< cycles of one global synchronisation
  unsigned flopsPerCycleF32; ///< peak float32 FLOPs per tile per cycle
  unsigned flopsPerCycleF16; ///< peak float16 FLOPs per tile per cycle (AMP, float partials)
  unsigned long long streamingBytesPerSecond; ///< one IPU's link to streaming memory
};

// Keep equal to ipu_lower/arch.py (checked by tests/test_emulator.py).
inline constexpr ArchParams kArchTable[] = {
    {"ipu1", 1216, 256 * 1024, 6, 1.6e9, 8, 4, 150, 16, 64, 15750000000ULL},
    {"ipu2", 1472, 624 * 1024, 6, 1.33e9, 8, 4, 150, 32, 64, 15750000000ULL},
    {"ipu21", 1472, 624 * 1024, 6, 1.85e9, 8, 4, 150, 32, 64, 15750000000ULL},
};

/// poplin's fraction of the AMP peak, share / whole (MATMUL_EFFICIENCY in arch.py).
inline constexpr unsigned kMatmulEfficiencyShare = 65, kMatmulEfficiencyWhole = 100;

/// The row of kArchTable named `name`, or nullptr.
const ArchParams *findArch(const std::string &name);

/// The row of kArchTable named `name`; an error naming the known ones if none is.
const ArchParams &getArch(const std::string &name);

/// The table as JSON, keyed like ipu_lower.arch.Arch's fields.
std::string archTableJson();

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_ARCH_HPP
