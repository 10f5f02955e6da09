// CPU emulator of Poplar SDK 3.x <poplar/Target.hpp>: target properties from the architecture table.
#ifndef IPU_LOWER_EMU_POPLAR_TARGET_HPP
#define IPU_LOWER_EMU_POPLAR_TARGET_HPP

#include <ipu_lower_emulator/Arch.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/TargetType.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <string>
#include <utility>

namespace poplar {

namespace emulator {
/// What a Target knows (filled from kArchTable or from an IPUModel).
struct TargetInfo {
  bool valid = false;
  std::string arch; ///< "ipu1", "ipu2", "ipu21" (kArchTable names)
  TargetType type = TargetType::IPU_MODEL;
  unsigned numIPUs = 1;
  unsigned tilesPerIPU = 0;
  unsigned bytesPerTile = 0;
  unsigned workers = 0;
  unsigned dataPathBytes = 0;
  unsigned exchangeBytesPerCycle = 0;
  unsigned syncCycles = 0;
  unsigned memcpyBytesPerCycle = 0; ///< not used by the cost model
  unsigned minIPUSyncDelay = 0;     ///< not used by the cost model
  double clockHz = 0;
  unsigned long long streamingBytesPerSecond = 0; ///< remote buffer copies

  unsigned numTiles() const { return numIPUs * tilesPerIPU; }
  bool operator==(const TargetInfo &o) const;

  /// The target of `numIPUs` IPUs of architecture `a`.
  static TargetInfo fromArch(const ArchParams &a, TargetType type,
                             unsigned numIPUs);
};
} // namespace emulator

/// Characteristics of a compilation target.
class Target {
public:
  Target() = default;
  Target(const Target &) = default;
  Target(Target &&) noexcept = default;
  Target &operator=(const Target &) = default;
  Target &operator=(Target &&) noexcept = default;
  ~Target() = default;

  bool operator==(const Target &o) const { return info == o.info; }
  bool operator!=(const Target &o) const { return !(info == o.info); }

  std::size_t hash() const;
  TargetType getTargetType() const { return get().type; }
  std::string getTargetSystemString() const { return get().arch; }
  StringRef getTargetArchString() const { return get().arch; }
  unsigned getNumIPUs() const { return get().numIPUs; }
  unsigned getTilesPerIPU() const { return get().tilesPerIPU; }
  unsigned getNumWorkerContexts() const { return get().workers; }
  unsigned getBytesPerTile() const { return get().bytesPerTile; }
  unsigned getExchangeBytesPerCycle() const { return get().exchangeBytesPerCycle; }
  unsigned getMemcpyBytesPerCycle() const { return get().memcpyBytesPerCycle; }
  unsigned getMinIPUSyncDelay() const { return get().minIPUSyncDelay; }
  unsigned getGlobalSyncCycles() const { return get().syncCycles; }
  // unverified: whether the SDK reports the data path in bits or bytes (bits here).
  unsigned getDataPathWidth() const { return get().dataPathBytes * 8; }
  unsigned getNumTiles() const { return get().numTiles(); }
  unsigned getFloatVectorWidth() const { return getVectorWidth(FLOAT); } // unverified: return type
  unsigned getHalfVectorWidth() const { return getVectorWidth(HALF); }   // unverified: return type
  unsigned getVectorWidth(const Type &type) const; // unverified: return type
  unsigned getTypeSize(const Type &type) const;    // unverified: return type
  double getTileClockFrequency() const { return get().clockHz; } // unverified: return type

  /// The emulator's CPU target: one tile, other numbers as ipu2 (assumption).
  static Target createCPUTarget(bool accurateHalf = false, unsigned numIPUs = 1);
  static Target createIPUTarget(StringRef system, const OptionFlags &opts = {}) {
    return createIPUTarget(1, system, opts);
  }
  static Target createIPUTarget(unsigned numIPUs, StringRef system,
                                const OptionFlags &opts = {});

private:
  explicit Target(emulator::TargetInfo i) : info(std::move(i)) {}
  const emulator::TargetInfo &get() const;
  emulator::TargetInfo info;
  template <class> friend struct emulator::Access;
};

namespace emulator {
template <> struct Access<Target> {
  static Target make(TargetInfo info) { return Target(std::move(info)); }
  static const TargetInfo &info(const Target &t) { return t.get(); }
};
} // namespace emulator

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TARGET_HPP
