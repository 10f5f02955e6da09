// CPU emulator of Poplar SDK 3.x <poplar/FieldTypes.hpp>: vertex field layout enums.
#ifndef IPU_LOWER_EMU_POPLAR_FIELDTYPES_HPP
#define IPU_LOWER_EMU_POPLAR_FIELDTYPES_HPP

namespace poplar {

/// The memory layout used for a Vector. Only SPAN and SHORT_SPAN store a
/// count, so only they provide .size() and iterators.
// unverified: enumerator order / values.
enum class VectorLayout : unsigned {
  NOT_A_VECTOR,
  SPAN,
  SHORT_SPAN,
  ONE_PTR,
  SCALED_PTR32,
  SCALED_PTR64,
  SCALED_PTR128,
  COMPACT_PTR
};

/// The memory layout used for a VectorList (jagged 2-D vector).
// unverified: underlying type, enumerator order / values.
enum class VectorListLayout : unsigned {
  NOT_A_VECTOR,
  ONE_PTR,
  SCALED_PTR32,
  SCALED_PTR64,
  SCALED_PTR128,
  DELTAN,
  DELTANELEMENTS,
  COMPACT_DELTAN
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_FIELDTYPES_HPP
