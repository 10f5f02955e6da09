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

  explicit IPUModel(char const *IPUVersion = "ipu2");
  bool operator==(const IPUModel &o) const;
  bool operator!=(const IPUModel &o) const { return !(*this == o); }

  // Later SDK docs qualify this `const`; 3.0 docs do not, so it is left
  // non-const here (the stricter of the two).
  Device createDevice(OptionFlags opts = {}, bool accurateHalf = false,
                      unsigned deviceManagerId = std::numeric_limits<unsigned>::max());

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
