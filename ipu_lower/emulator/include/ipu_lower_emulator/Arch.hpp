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
//   sync_cycles = 150: assumption (no public number).
#ifndef IPU_LOWER_EMU_ARCH_HPP
#define IPU_LOWER_EMU_ARCH_HPP

#include <ipu_lower_emulator/Support.hpp>

#include <cstddef>
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
};

// Keep equal to ipu_lower/arch.py (checked by tests/test_emulator.py).
inline constexpr ArchParams kArchTable[] = {
    {"ipu1", 1216, 256 * 1024, 6, 1.6e9, 8, 4, 150},
    {"ipu2", 1472, 624 * 1024, 6, 1.33e9, 8, 4, 150},
    {"ipu21", 1472, 624 * 1024, 6, 1.85e9, 8, 4, 150},
};

inline const ArchParams *findArch(const std::string &name) {
  for (const ArchParams &a : kArchTable)
    if (name == a.name)
      return &a;
  return nullptr;
}

inline const ArchParams &getArch(const std::string &name) {
  if (const ArchParams *a = findArch(name))
    return *a;
  std::string known;
  for (const ArchParams &a : kArchTable)
    known += std::string(known.empty() ? "" : ", ") + a.name;
  fail("unknown IPU architecture '" + name + "' (known: " + known + ")");
}

/// The table as JSON, keyed like ipu_lower.arch.Arch's fields.
inline std::string archTableJson() {
  std::string out = "{";
  bool first = true;
  for (const ArchParams &a : kArchTable) {
    out += std::string(first ? "" : ", ") + jsonString(a.name) + ": {";
    out += "\"name\": " + jsonString(a.name);
    out += ", \"tiles\": " + std::to_string(a.tiles);
    out += ", \"bytes_per_tile\": " + std::to_string(a.bytesPerTile);
    out += ", \"workers_per_tile\": " + std::to_string(a.workersPerTile);
    out += ", \"clock_hz\": " + jsonNumber(a.clockHz);
    out += ", \"data_path_bytes\": " + std::to_string(a.dataPathBytes);
    out += ", \"exchange_bytes_per_cycle\": " + std::to_string(a.exchangeBytesPerCycle);
    out += ", \"sync_cycles\": " + std::to_string(a.syncCycles);
    out += "}";
    first = false;
  }
  return out + "}";
}

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_ARCH_HPP
