// Mirrors Poplar SDK 3.x <poplar/IeeeHalf.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
//
// Storage-only IEEE-754 binary16 value. Arithmetic is done by converting to
// float (operator float) and back (IeeeHalf(float)); the conversions are
// declared here and will be defined by the emulator.
#ifndef IPU_LOWER_EMU_POPLAR_IEEEHALF_HPP
#define IPU_LOWER_EMU_POPLAR_IEEEHALF_HPP

#include <cstdint>

namespace poplar {

class IeeeHalf {
public:
  IeeeHalf() = default;
  IeeeHalf(float value);     // float -> half (rounding)
  operator float() const;    // half -> float (exact)

  static IeeeHalf fromBits(std::uint16_t bits); // unverified: parameter type
  std::uint16_t bit16() const;                  // unverified: return type

private:
  std::uint16_t ihalf = 0; // stand-in storage: the raw 16 bits
};

static_assert(sizeof(IeeeHalf) == 2, "IeeeHalf must be 16 bits of storage");

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_IEEEHALF_HPP
