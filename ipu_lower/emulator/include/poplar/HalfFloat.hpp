// CPU emulator of Poplar SDK 3.x <poplar/HalfFloat.hpp>: host-side `half` as poplar::IeeeHalf.
//
// On the IPU (__IPU__ defined) `half` is a compiler built-in type. For host
// builds of codelets this header supplies `half` as the storage-only
// poplar::IeeeHalf (convert to float for arithmetic).
// unverified: how the SDK spells the host-side `half` (alias vs class).
#ifndef IPU_LOWER_EMU_POPLAR_HALFFLOAT_HPP
#define IPU_LOWER_EMU_POPLAR_HALFFLOAT_HPP

#include <poplar/IeeeHalf.hpp>

#ifndef __IPU__
using half = poplar::IeeeHalf;
#endif

#endif // IPU_LOWER_EMU_POPLAR_HALFFLOAT_HPP
