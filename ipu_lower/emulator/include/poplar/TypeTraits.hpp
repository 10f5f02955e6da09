// CPU emulator of Poplar SDK 3.x <poplar/TypeTraits.hpp>: size/alignment of host types passed to Graph.
//
// isSimpleType<T>() must be constexpr-evaluable because Graph templates use it
// in enable_if (emulator: arithmetic types).
#ifndef IPU_LOWER_EMU_POPLAR_TYPETRAITS_HPP
#define IPU_LOWER_EMU_POPLAR_TYPETRAITS_HPP

#include <cstddef>
#include <type_traits>

namespace poplar {

/// Size/alignment/kind of a host type, used to pass typed host data to Graph.
struct TypeTraits {
  std::size_t size = 0;  // unverified: member layout
  std::size_t align = 0; // unverified: member layout

  template <typename T> static TypeTraits make() {
    TypeTraits t;
    t.size = sizeof(T);
    t.align = alignof(T);
    t.simple = isSimpleType<T>();
    return t;
  }

  template <typename T> static constexpr bool isSimpleType() {
    return std::is_arithmetic<T>::value;
  }

  template <typename T> static constexpr bool requiresMetadata() { // unverified: body
    return false;
  }

  bool isSimpleType() const { return simple; }

private:
  bool simple = false; // emulator storage
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TYPETRAITS_HPP
