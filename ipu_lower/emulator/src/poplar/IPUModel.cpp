// IPU Model devices built from the architecture table (poplar/IPUModel.hpp).
#include <poplar/IPUModel.hpp>

namespace poplar {

IPUModel::IPUModel(char const *IPUVersion)
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

bool IPUModel::operator==(const IPUModel &o) const {
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

Device IPUModel::createDevice(OptionFlags opts, bool accurateHalf,
                              unsigned deviceManagerId) {
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

} // namespace poplar
