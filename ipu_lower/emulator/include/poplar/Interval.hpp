// CPU emulator of Poplar SDK 3.x <poplar/Interval.hpp>: closed-open [begin, end) intervals.
//
// GenericInterval is a closed-open [begin, end) pair; its trivial inline members
// are defined here (they are inline in the SDK).
#ifndef IPU_LOWER_EMU_POPLAR_INTERVAL_HPP
#define IPU_LOWER_EMU_POPLAR_INTERVAL_HPP

#include <cstddef>
#include <ostream>

namespace poplar {

template <class T> struct GenericInterval {
  GenericInterval() = default;
  GenericInterval(T begin, T end) : begin_(begin), end_(end) {}
  const T &begin() const { return begin_; }
  const T &end() const { return end_; }
  const T &lower() const { return begin_; } // unverified
  const T &upper() const { return end_; }   // unverified
  T size() const { return end_ - begin_; }

private:
  T begin_ = T();
  T end_ = T();
};

typedef GenericInterval<std::size_t> Interval;

template <class T>
inline bool operator==(const GenericInterval<T> &a, const GenericInterval<T> &b) {
  return a.begin() == b.begin() && a.end() == b.end();
}
template <class T>
inline bool operator<(const GenericInterval<T> &a, const GenericInterval<T> &b) {
  return a.begin() != b.begin() ? a.begin() < b.begin() : a.end() < b.end();
}
template <class T>
inline bool operator!=(const GenericInterval<T> &a, const GenericInterval<T> &b) {
  return !(a == b);
}
template <class T>
inline bool operator>=(const GenericInterval<T> &a, const GenericInterval<T> &b) {
  return !(a < b);
}
template <class T>
inline bool operator>(const GenericInterval<T> &a, const GenericInterval<T> &b) {
  return b < a;
}
template <class T>
inline bool operator<=(const GenericInterval<T> &a, const GenericInterval<T> &b) {
  return !(b < a);
}
template <class T>
inline std::ostream &operator<<(std::ostream &os, const GenericInterval<T> &b) {
  return os << '[' << b.begin() << ", " << b.end() << ')';
}

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_INTERVAL_HPP
