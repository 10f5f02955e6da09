// Mirrors Poplar SDK 3.x <poplar/IPUModel.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_IPUMODEL_HPP
#define IPU_LOWER_EMU_POPLAR_IPUMODEL_HPP

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>

#include <limits>
#include <string>
#include <vector>

namespace poplar {

/// A model of an IPU, used to create an IPU Model Device (runs on the CPU).
struct IPUModel {
  enum class RelativeSyncDelayType { AUTO, NO_DELAY };

  explicit IPUModel(char const *IPUVersion = "ipu2");
  bool operator==(const IPUModel &) const;
  bool operator!=(const IPUModel &) const;

  // Later SDK docs qualify this `const`; 3.0 docs do not, so it is left
  // non-const here (the stricter of the two).
  Device createDevice(OptionFlags opts = {}, bool accurateHalf = false,
                      unsigned deviceManagerId = std::numeric_limits<unsigned>::max());

  // Public members (documented; the SDK constructor fills them from IPUVersion).
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
