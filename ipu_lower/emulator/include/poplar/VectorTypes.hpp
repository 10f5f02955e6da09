// CPU emulator of Poplar SDK 3.x <poplar/VectorTypes.hpp>: 1-D vertex fields (Vector state and vector edges).
//
// Vector<T, L, MinAlign, Interleaved> (vertex state) and the edge forms
// Input/InOut/Output<Vector<...>>. The emulator binds the storage (pointer +
// count); Output vectors give write-only element proxies.
#ifndef IPU_LOWER_EMU_POPLAR_VECTORTYPES_HPP
#define IPU_LOWER_EMU_POPLAR_VECTORTYPES_HPP

#include <ipu_lower_emulator/EdgeState.hpp>
#include <poplar/FieldTypes.hpp>
#include <poplar/InOutTypes.hpp>

#include <cstddef>
#include <type_traits>

namespace poplar {

namespace emulator { // not SDK API: shared implementation of the vector views

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

protected:
  T *p = nullptr;    // emulator storage: first element
  std::size_t n = 0; // emulator storage: element count
  friend struct emulator::FieldAccess;
};

/// Write-only pointer + count view (Output<Vector<T>>).
template <typename T, VectorLayout L> class OutputVectorView {
public:
  using value_type = T;

  emulator::OutputRef<T> operator[](std::size_t i) const {
    return emulator::OutputRef<T>(p + i, st, i);
  }
  template <VectorLayout LL = L,
            typename std::enable_if<layoutHasSize(LL), int>::type = 0>
  std::size_t size() const { // unverified: return type
    return n;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<layoutHasSize(LL), int>::type = 0>
  emulator::OutputIterator<T> begin() const {
    return emulator::OutputIterator<T>(p, st, 0);
  }
  template <VectorLayout LL = L,
            typename std::enable_if<layoutHasSize(LL), int>::type = 0>
  emulator::OutputIterator<T> end() const {
    return emulator::OutputIterator<T>(p, st, n);
  }

protected:
  T *p = nullptr;
  std::size_t n = 0;
  const emulator::EdgeState *st = nullptr;
  friend struct emulator::FieldAccess;
};

} // namespace emulator

/// Vertex-state vector (not an edge), set by Graph::setInitialValue.
// unverified: the MinAlign and Interleaved defaults (SPAN default is documented).
template <typename T, VectorLayout L = VectorLayout::SPAN,
          unsigned MinAlign = alignof(T), bool Interleaved = false>
class Vector {
public:
  using value_type = T;

  T &operator[](std::size_t i) { return p[i]; }
  const T &operator[](std::size_t i) const { return p[i]; }

  template <VectorLayout LL = L,
            typename std::enable_if<emulator::layoutHasSize(LL), int>::type = 0>
  std::size_t size() const { // unverified: return type
    return n;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<emulator::layoutHasSize(LL), int>::type = 0>
  T *begin() {
    return p;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<emulator::layoutHasSize(LL), int>::type = 0>
  T *end() {
    return p + n;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<emulator::layoutHasSize(LL), int>::type = 0>
  const T *begin() const {
    return p;
  }
  template <VectorLayout LL = L,
            typename std::enable_if<emulator::layoutHasSize(LL), int>::type = 0>
  const T *end() const {
    return p + n;
  }

private:
  T *p = nullptr;    // emulator storage
  std::size_t n = 0; // emulator storage
  friend struct emulator::FieldAccess;
};

/// Read-only 1-D edge.
template <typename T, VectorLayout L, unsigned MinAlign, bool Interleaved>
class Input<Vector<T, L, MinAlign, Interleaved>>
    : public emulator::VectorView<T, L, true> {};

/// Read-write 1-D edge.
template <typename T, VectorLayout L, unsigned MinAlign, bool Interleaved>
class InOut<Vector<T, L, MinAlign, Interleaved>>
    : public emulator::VectorView<T, L, false> {};

/// Write-only 1-D edge.
template <typename T, VectorLayout L, unsigned MinAlign, bool Interleaved>
class Output<Vector<T, L, MinAlign, Interleaved>>
    : public emulator::OutputVectorView<T, L> {};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_VECTORTYPES_HPP
