// Mirrors Poplar SDK 3.x <poplar/Target.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_TARGET_HPP
#define IPU_LOWER_EMU_POPLAR_TARGET_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/TargetType.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace poplar {

namespace core {
class Target;
} // namespace core

/// Characteristics of a compilation target.
class Target {
public:
  Target();
  Target(const Target &);
  Target(Target &&) noexcept;
  Target &operator=(const Target &);
  Target &operator=(Target &&) noexcept;
  ~Target();

  bool operator==(const Target &) const;
  bool operator!=(const Target &) const;

  std::size_t hash() const;
  TargetType getTargetType() const;
  std::string getTargetSystemString() const;
  StringRef getTargetArchString() const;
  unsigned getNumIPUs() const;
  unsigned getTilesPerIPU() const;
  unsigned getNumWorkerContexts() const;
  unsigned getBytesPerTile() const;
  unsigned getExchangeBytesPerCycle() const;
  unsigned getMemcpyBytesPerCycle() const;
  unsigned getMinIPUSyncDelay() const;
  unsigned getGlobalSyncCycles() const;
  unsigned getDataPathWidth() const;
  unsigned getNumTiles() const;
  unsigned getFloatVectorWidth() const;            // unverified: return type
  unsigned getHalfVectorWidth() const;             // unverified: return type
  unsigned getVectorWidth(const Type &type) const; // unverified: return type
  unsigned getTypeSize(const Type &type) const;    // unverified: return type
  double getTileClockFrequency() const;            // unverified: return type

  static Target createCPUTarget(bool accurateHalf = false, unsigned numIPUs = 1);
  static Target createIPUTarget(StringRef system, const OptionFlags &opts = {});
  static Target createIPUTarget(unsigned numIPUs, StringRef system,
                                const OptionFlags &opts = {});

private:
  std::unique_ptr<core::Target> impl;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TARGET_HPP
