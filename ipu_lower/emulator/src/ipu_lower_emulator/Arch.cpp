// Look-ups in the IPU architecture table (ipu_lower_emulator/Arch.hpp).
#include <ipu_lower_emulator/Arch.hpp>
#include <ipu_lower_emulator/Support.hpp>

namespace poplar {
namespace emulator {

const ArchParams *findArch(const std::string &name) {
  for (const ArchParams &a : kArchTable)
    if (name == a.name)
      return &a;
  return nullptr;
}

const ArchParams &getArch(const std::string &name) {
  if (const ArchParams *a = findArch(name))
    return *a;
  std::string known;
  for (const ArchParams &a : kArchTable)
    known += std::string(known.empty() ? "" : ", ") + a.name;
  fail("unknown IPU architecture '" + name + "' (known: " + known + ")");
}

std::string archTableJson() {
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
    out += ", \"flops_per_cycle_f32\": " + std::to_string(a.flopsPerCycleF32);
    out += ", \"flops_per_cycle_f16\": " + std::to_string(a.flopsPerCycleF16);
    out += ", \"streaming_bytes_per_second\": " + std::to_string(a.streamingBytesPerSecond);
    out += "}";
    first = false;
  }
  return out + "}";
}

} // namespace emulator
} // namespace poplar
