// CPU emulator of Poplar SDK 3.x <poplar/IeeeHalf.hpp>: IEEE-754 binary16 storage with exact float conversions.
//
// Storage is the raw 16 bits (so HALF tensors are 2 bytes per element on the
// host, as on the IPU). Arithmetic converts to float (operator float) and back
// (IeeeHalf(float), round to nearest even, overflow to infinity, subnormals
// kept, NaN stays NaN). The compound assignments mirror what the IPU's native
// `half` supports; they compute in float and round once.
#ifndef IPU_LOWER_EMU_POPLAR_IEEEHALF_HPP
#define IPU_LOWER_EMU_POPLAR_IEEEHALF_HPP

#include <cmath>
#include <cstdint>
#include <cstring>

namespace poplar {

class IeeeHalf {
public:
  IeeeHalf() = default;
  IeeeHalf(float value) : ihalf(toBits(value)) {} // float -> half (rounding)
  operator float() const { return toFloat(ihalf); } // half -> float (exact)

  static IeeeHalf fromBits(std::uint16_t bits) { // unverified: parameter type
    IeeeHalf h;
    h.ihalf = bits;
    return h;
  }
  std::uint16_t bit16() const { return ihalf; } // unverified: return type

  IeeeHalf &operator+=(float v) { return *this = IeeeHalf(float(*this) + v); }
  IeeeHalf &operator-=(float v) { return *this = IeeeHalf(float(*this) - v); }
  IeeeHalf &operator*=(float v) { return *this = IeeeHalf(float(*this) * v); }
  IeeeHalf &operator/=(float v) { return *this = IeeeHalf(float(*this) / v); }

private:
  static std::uint16_t toBits(float f) {
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t a = x & 0x7fffffffu;
    if (a >= 0x7f800000u) { // infinity or NaN (NaN keeps a non-zero, quiet mantissa)
      if (a == 0x7f800000u)
        return static_cast<std::uint16_t>(sign | 0x7c00u);
      return static_cast<std::uint16_t>(sign | 0x7e00u | ((a >> 13) & 0x1ffu));
    }
    if (a >= 0x477ff000u) // >= 65520 rounds to infinity (65504 is the largest half)
      return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (a < 0x38800000u) { // below 2^-14: subnormal half (or zero)
      float mag;
      std::memcpy(&mag, &a, sizeof mag);
      // mag * 2^24 is exact; nearbyint rounds to nearest even (default mode).
      const float m = std::nearbyint(mag * 16777216.0f);
      return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(m));
    }
    std::uint32_t h = ((a >> 23) - 127u + 15u) << 10 | ((a >> 13) & 0x3ffu);
    const std::uint32_t rest = a & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
      ++h; // carries into the exponent correctly
    return static_cast<std::uint16_t>(sign | h);
  }

  static float toFloat(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t e = (h >> 10) & 0x1fu;
    const std::uint32_t m = h & 0x3ffu;
    std::uint32_t bits;
    if (e == 0) {
      const float v = std::ldexp(static_cast<float>(m), -24); // exact
      return sign ? -v : v;
    }
    if (e == 31)
      bits = sign | 0x7f800000u | (m << 13);
    else
      bits = sign | ((e - 15u + 127u) << 23) | (m << 13);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }

  std::uint16_t ihalf = 0; // the raw 16 bits
};

static_assert(sizeof(IeeeHalf) == 2, "IeeeHalf must be 16 bits of storage");

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_IEEEHALF_HPP
