// ipu-lower CPU emulator internals (no Poplar SDK counterpart): per-edge state and the write-only Output proxies.
//
// Output elements are reached through OutputRef, a proxy whose assignment
// stores the value and marks the element written by the running worker (so
// the compute set commits exactly the written elements, can tell when two
// vertices write the same one, and when two workers write neighbouring 8/16-bit
// elements of one 32-bit word) and whose conversion to T (a read) throws,
// naming vertex, tile, field and tensor.
#ifndef IPU_LOWER_EMU_EDGESTATE_HPP
#define IPU_LOWER_EMU_EDGESTATE_HPP

#include <ipu_lower_emulator/Support.hpp>

#include <cstddef>
#include <iterator>
#include <string>

namespace poplar {
namespace emulator {

struct FieldAccess;

/// What the emulator knows about one connected edge while a compute set runs.
struct EdgeState {
  unsigned char *written = nullptr; ///< Output edges: per element, 0 or the writer's worker + 1
  const unsigned char *worker = nullptr; ///< the engine's running worker + 1
  std::string vertex;               ///< codelet class name
  unsigned tile = 0;
  std::string field;
  std::string tensor;     ///< debug name of the connected variable(s)
  std::string computeSet; ///< name of the compute set the vertex is in

  void markWritten(std::size_t i) const { written[i] = *worker; }
  /// An Output element was read: an error naming vertex, tile, field and tensor.
  [[noreturn]] void readOutput(std::size_t i) const;
};

/// One element of an Output edge: assignable, never readable.
template <class T> class OutputRef {
public:
  OutputRef(T *p, const EdgeState *st, std::size_t i) : p(p), st(st), i(i) {}
  OutputRef(const OutputRef &) = default;

  const OutputRef &operator=(const T &v) const {
    *p = v;
    st->markWritten(i);
    return *this;
  }
  // Assigning one Output element to another reads the right-hand side.
  const OutputRef &operator=(const OutputRef &o) const {
    return *this = static_cast<T>(o);
  }
  /// Reading an Output element is an error.
  operator T() const { st->readOutput(i); }
  // Compound assignments read the element first.
  template <class U> const OutputRef &operator+=(const U &) const { st->readOutput(i); }
  template <class U> const OutputRef &operator-=(const U &) const { st->readOutput(i); }
  template <class U> const OutputRef &operator*=(const U &) const { st->readOutput(i); }
  template <class U> const OutputRef &operator/=(const U &) const { st->readOutput(i); }

private:
  T *p;
  const EdgeState *st;
  std::size_t i;
};

/// Iterator over an Output vector (range-for assigns through OutputRef).
template <class T> class OutputIterator {
public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = OutputRef<T>;

  OutputIterator(T *base, const EdgeState *st, std::size_t i)
      : base(base), st(st), i(i) {}
  OutputRef<T> operator*() const { return OutputRef<T>(base + i, st, i); }
  OutputRef<T> operator[](difference_type k) const {
    return OutputRef<T>(base + i + k, st, i + k);
  }
  OutputIterator &operator++() { ++i; return *this; }
  OutputIterator operator++(int) { OutputIterator t = *this; ++i; return t; }
  OutputIterator &operator--() { --i; return *this; }
  OutputIterator &operator+=(difference_type k) { i += k; return *this; }
  OutputIterator operator+(difference_type k) const { return OutputIterator(base, st, i + k); }
  difference_type operator-(const OutputIterator &o) const {
    return static_cast<difference_type>(i) - static_cast<difference_type>(o.i);
  }
  bool operator==(const OutputIterator &o) const { return i == o.i; }
  bool operator!=(const OutputIterator &o) const { return i != o.i; }
  bool operator<(const OutputIterator &o) const { return i < o.i; }

private:
  T *base;
  const EdgeState *st;
  std::size_t i;
};

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_EDGESTATE_HPP
