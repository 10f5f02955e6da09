// Mirrors Poplar SDK 3.x <poplar/VectorTypes.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
//
// 1-D vertex vector fields: Vector<T, L, MinAlign, Interleaved> (vertex state)
// and the edge forms Input/InOut/Output<Vector<...>>. Element access is inline
// in the SDK and must compile under -Wall -Werror, so it has inline bodies here.
// Storage (pointer + count) is a stand-in layout that the emulator fills in.
#ifndef IPU_LOWER_EMU_POPLAR_VECTORTYPES_HPP
#define IPU_LOWER_EMU_POPLAR_VECTORTYPES_HPP

#include <poplar/FieldTypes.hpp>
#include <poplar/InOutTypes.hpp>

#include <cstddef>
#include <type_traits>

namespace poplar {

namespace stand_in { // not SDK API: shared implementation of the vector views

constexpr bool layoutHasSize(VectorLayout L) {
  return L == VectorLayout::SPAN || L == VectorLayout::SHORT_SPAN;
}

/// Pointer + count view. `ConstElems` makes element access read-only.
template <typename T, VectorLayout L, bool ConstElems> class VectorView {
public:
  using value_type = T;
  using reference = typename std::conditional<ConstElems, const T &, T &>::type;
  using pointer = typename std::conditional<ConstElems, const T *, T *>::type;

  reference operator[](std::size_t i) const { return p[i]; }

  // Only SPAN and SHORT_SPAN layouts store a count (size() and iterators).
  template <VectorLayout LL = L,
            typename std::enable_if<layoutHasSize(LL), int>::type = 0>
  std::size_t size() const { // unverified: return type
    return n;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<layoutHasSize(LL), int>::type = 0>
  pointer begin() const {
    return p;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<layoutHasSize(LL), int>::type = 0>
  pointer end() const {
    return p + n;
  }

  T *p = nullptr;    // stand-in storage: first element
  std::size_t n = 0; // stand-in storage: element count (SPAN layouts)
};

} // namespace stand_in

/// Vertex-state vector (not an edge).
// unverified: the MinAlign and Interleaved defaults (SPAN default is documented).
template <typename T, VectorLayout L = VectorLayout::SPAN,
          unsigned MinAlign = alignof(T), bool Interleaved = false>
class Vector {
public:
  using value_type = T;

  T &operator[](std::size_t i) { return p[i]; }
  const T &operator[](std::size_t i) const { return p[i]; }

  template <VectorLayout LL = L,
            typename std::enable_if<stand_in::layoutHasSize(LL), int>::type = 0>
  std::size_t size() const { // unverified: return type
    return n;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<stand_in::layoutHasSize(LL), int>::type = 0>
  T *begin() {
    return p;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<stand_in::layoutHasSize(LL), int>::type = 0>
  T *end() {
    return p + n;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<stand_in::layoutHasSize(LL), int>::type = 0>
  const T *begin() const {
    return p;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<stand_in::layoutHasSize(LL), int>::type = 0>
  const T *end() const {
    return p + n;
  }

  T *p = nullptr;    // stand-in storage
  std::size_t n = 0; // stand-in storage
};

/// Read-only 1-D edge.
template <typename T, VectorLayout L, unsigned MinAlign, bool Interleaved>
class Input<Vector<T, L, MinAlign, Interleaved>>
    : public stand_in::VectorView<T, L, true> {};

/// Read-write 1-D edge.
template <typename T, VectorLayout L, unsigned MinAlign, bool Interleaved>
class InOut<Vector<T, L, MinAlign, Interleaved>>
    : public stand_in::VectorView<T, L, false> {};

/// Write-only 1-D edge.
template <typename T, VectorLayout L, unsigned MinAlign, bool Interleaved>
class Output<Vector<T, L, MinAlign, Interleaved>>
    : public stand_in::VectorView<T, L, false> {};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_VECTORTYPES_HPP
