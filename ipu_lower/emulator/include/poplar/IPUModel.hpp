// CPU emulator of Poplar SDK 3.x <poplar/IPUModel.hpp>: IPU Model devices built from the architecture table.
//
// The numbers come from ipu_lower_emulator/Arch.hpp (kArchTable), the C++ copy
// of ipu_lower/arch.py. Members the emulator does not use are filled with
// placeholders marked below.
#ifndef IPU_LOWER_EMU_POPLAR_IPUMODEL_HPP
#define IPU_LOWER_EMU_POPLAR_IPUMODEL_HPP

#include <ipu_lower_emulator/Arch.hpp>
#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>

#include <limits>
#include <string>
#include <vector>

namespace poplar {

/// A model of an IPU, used to create an IPU Model Device (runs on the CPU).
struct IPUModel {
  enum class RelativeSyncDelayType { AUTO, NO_DELAY };

  explicit IPUModel(char const *IPUVersion = "ipu2")
      : IPUVersion(IPUVersion ? IPUVersion : "") {
    const emulator::ArchParams &a = emulator::getArch(this->IPUVersion);
    numIPUs = 1;
    tilesPerSuperTile = 4; // placeholder, unused by the emulator
    tilesPerIPU = a.tiles;
    numWorkerContexts = a.workersPerTile;
    memoryBytesPerTile = a.bytesPerTile;
    tileClockFrequency = a.clockHz;
    exchangeBytesPerCycle = a.exchangeBytesPerCycle;
    memcpyBytesPerCycle = a.dataPathBytes; // assumption, unused by the emulator
    instructionBytes = 4;                  // placeholder, unused by the emulator
    supportsSuperTileSendReceive = true;   // placeholder, unused by the emulator
    interleavedMemoryElementIndex = 0;     // placeholder, unused by the emulator
    minIPUSyncDelay = 0;                   // unused: sync costs globalSyncCycles
    globalSyncCycles = a.syncCycles;       // the cost model's sync_cycles
    relativeSyncDelay = RelativeSyncDelayType::AUTO;
  }
  bool operator==(const IPUModel &o) const {
    return IPUVersion == o.IPUVersion && numIPUs == o.numIPUs &&
           tilesPerSuperTile == o.tilesPerSuperTile &&
           tilesPerIPU == o.tilesPerIPU &&
           numWorkerContexts == o.numWorkerContexts &&
           memoryBytesPerTile == o.memoryBytesPerTile &&
           tileClockFrequency == o.tileClockFrequency &&
           exchangeBytesPerCycle == o.exchangeBytesPerCycle &&
           memcpyBytesPerCycle == o.memcpyBytesPerCycle &&
           instructionBytes == o.instructionBytes &&
           supportsSuperTileSendReceive == o.supportsSuperTileSendReceive &&
           interleavedMemoryElementIndex == o.interleavedMemoryElementIndex &&
           minIPUSyncDelay == o.minIPUSyncDelay &&
           globalSyncCycles == o.globalSyncCycles &&
           relativeSyncDelay == o.relativeSyncDelay;
  }
  bool operator!=(const IPUModel &o) const { return !(*this == o); }

  // Later SDK docs qualify this `const`; 3.0 docs do not, so it is left
  // non-const here (the stricter of the two).
  Device createDevice(OptionFlags opts = {}, bool accurateHalf = false,
                      unsigned deviceManagerId = std::numeric_limits<unsigned>::max()) {
    (void)opts;
    (void)accurateHalf;
    const emulator::ArchParams &a = emulator::getArch(IPUVersion);
    if (numIPUs == 0 || tilesPerIPU == 0)
      emulator::fail("IPUModel::createDevice: numIPUs and tilesPerIPU must be at least 1");
    if (numWorkerContexts != a.workersPerTile)
      emulator::fail("IPUModel::createDevice: the emulator runs MultiVertex codelets on " +
                     std::to_string(a.workersPerTile) + " workers; numWorkerContexts " +
                     std::to_string(numWorkerContexts) + " is not supported");
    if (exchangeBytesPerCycle == 0)
      emulator::fail("IPUModel::createDevice: exchangeBytesPerCycle must be at least 1");
    emulator::TargetInfo t =
        emulator::TargetInfo::fromArch(a, TargetType::IPU_MODEL, numIPUs);
    t.tilesPerIPU = tilesPerIPU;
    t.bytesPerTile = memoryBytesPerTile;
    t.workers = numWorkerContexts;
    t.clockHz = tileClockFrequency;
    t.exchangeBytesPerCycle = exchangeBytesPerCycle;
    t.memcpyBytesPerCycle = memcpyBytesPerCycle;
    t.minIPUSyncDelay = minIPUSyncDelay;
    t.syncCycles = globalSyncCycles;
    const unsigned id =
        deviceManagerId == std::numeric_limits<unsigned>::max() ? 0 : deviceManagerId;
    return emulator::Access<Device>::make(emulator::Access<Target>::make(t), id);
  }

  // Public members (documented; the constructor fills them from IPUVersion).
  std::string IPUVersion;
  unsigned numIPUs;
  unsigned tilesPerSuperTile;
  unsigned tilesPerIPU;
  unsigned numWorkerContexts;
  unsigned memoryBytesPerTile;
  double tileClockFrequency;
  unsigned exchangeBytesPerCycle;
  unsigned memcpyBytesPerCycle;
  unsigned instructionBytes;
  bool supportsSuperTileSendReceive;
  unsigned interleavedMemoryElementIndex;
  unsigned minIPUSyncDelay;
  unsigned globalSyncCycles;
  RelativeSyncDelayType relativeSyncDelay; // unverified: declared type
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_IPUMODEL_HPP
