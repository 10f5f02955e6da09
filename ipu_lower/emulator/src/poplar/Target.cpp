// Target properties from the architecture table (poplar/Target.hpp).
#include <poplar/Target.hpp>

#include <algorithm>
#include <functional>

namespace poplar {

namespace emulator {

bool TargetInfo::operator==(const TargetInfo &o) const {
  return valid == o.valid && arch == o.arch && type == o.type &&
         numIPUs == o.numIPUs && tilesPerIPU == o.tilesPerIPU &&
         bytesPerTile == o.bytesPerTile && workers == o.workers &&
         dataPathBytes == o.dataPathBytes &&
         exchangeBytesPerCycle == o.exchangeBytesPerCycle &&
         syncCycles == o.syncCycles && clockHz == o.clockHz &&
         streamingBytesPerSecond == o.streamingBytesPerSecond;
}

TargetInfo TargetInfo::fromArch(const ArchParams &a, TargetType type,
                                unsigned numIPUs) {
  TargetInfo t;
  t.valid = true;
  t.arch = a.name;
  t.type = type;
  t.numIPUs = numIPUs;
  t.tilesPerIPU = a.tiles;
  t.bytesPerTile = a.bytesPerTile;
  t.workers = a.workersPerTile;
  t.dataPathBytes = a.dataPathBytes;
  t.exchangeBytesPerCycle = a.exchangeBytesPerCycle;
  t.syncCycles = a.syncCycles;
  t.memcpyBytesPerCycle = a.dataPathBytes; // assumption; unused
  t.clockHz = a.clockHz;
  t.streamingBytesPerSecond = a.streamingBytesPerSecond;
  return t;
}

} // namespace emulator

std::size_t Target::hash() const {
  return std::hash<std::string>()(info.arch) ^
         (std::size_t(info.numIPUs) << 20) ^ info.tilesPerIPU;
}

unsigned Target::getVectorWidth(const Type &type) const {
  return std::max(1u, get().dataPathBytes / getTypeSize(type));
}

unsigned Target::getTypeSize(const Type &type) const {
  const unsigned size = emulator::typeSize(emulator::idOf(type));
  if (size == 0)
    emulator::fail("Target::getTypeSize: invalid type");
  return size;
}

Target Target::createCPUTarget(bool accurateHalf, unsigned numIPUs) {
  (void)accurateHalf;
  emulator::TargetInfo info = emulator::TargetInfo::fromArch(
      emulator::getArch("ipu2"), TargetType::CPU, numIPUs);
  info.arch = "cpu";
  info.tilesPerIPU = 1;
  return Target(info);
}

Target Target::createIPUTarget(unsigned numIPUs, StringRef system,
                               const OptionFlags &opts) {
  (void)opts;
  if (numIPUs == 0)
    emulator::fail("Target::createIPUTarget: numIPUs must be at least 1");
  return Target(emulator::TargetInfo::fromArch(
      emulator::getArch(system.cloneAsString()), TargetType::IPU, numIPUs));
}

const emulator::TargetInfo &Target::get() const {
  if (!info.valid)
    emulator::fail("Target: this target is default-constructed and has no "
                   "properties (take it from a Device or Target::createIPUTarget)");
  return info;
}

} // namespace poplar
