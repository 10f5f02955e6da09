// CPU emulator of Poplar SDK 3.x <poplar/ArrayRef.hpp>: non-owning array view (pointer + length).
//
// ArrayRef is a non-owning view (pointer + length), so its trivial inline
// members are defined here, as they are inline in the SDK.
// SDK note: the 3.3 headers appear to take ArrayRef from gccs (gccs::ArrayRef,
// seen in generated bindings of SDK 3.3); the documented spelling is
// poplar::ArrayRef, which is what generated code uses.
#ifndef IPU_LOWER_EMU_POPLAR_ARRAYREF_HPP
#define IPU_LOWER_EMU_POPLAR_ARRAYREF_HPP

#include <array>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <vector>

namespace poplar {

template <class T> class ArrayRef {
public:
  using value_type = T;
  using const_iterator = const T *;
  using iterator = const T *;
  using size_type = std::size_t;

  constexpr ArrayRef() = default;

  constexpr ArrayRef(const T *p, std::size_t size) // unverified
      : ptr(p), len(size) {}

  template <class U, class Alloc,
            typename std::enable_if<
                std::is_same<U, T>::value ||
                    (std::is_pointer<T>::value &&
                     std::is_convertible<U const *, T const *>::value),
                bool>::type = true>
  ArrayRef(const std::vector<U, Alloc> &v)
      : ptr(v.data()), len(v.size()) {}

  template <class U,
            typename std::enable_if<
                std::is_same<U, T>::value ||
                    (std::is_pointer<T>::value &&
                     std::is_convertible<U const *, T const *>::value),
                bool>::type = true>
  constexpr ArrayRef(const ArrayRef<U> &a) : ptr(a.data()), len(a.size()) {}

  // unverified: initializer_list / std::array / C array constructors are
  // implied by documented call sites such as addVariable(FLOAT, {2, 3}).
  // Like any view, it must not outlive the braced list it was built from
  // (fine for call arguments). firstOf() keeps GCC's -Winit-list-lifetime
  // quiet about that deliberate aliasing.
  constexpr ArrayRef(const std::initializer_list<T> &list)
      : ptr(firstOf(list)), len(list.size()) {}

  template <std::size_t N>
  constexpr ArrayRef(const std::array<T, N> &a) // unverified
      : ptr(a.data()), len(N) {}

  template <std::size_t N>
  constexpr ArrayRef(const T (&a)[N]) // unverified
      : ptr(a), len(N) {}

  constexpr bool empty() const { return len == 0; }
  const_iterator begin() const { return ptr; }
  const_iterator end() const { return ptr + len; }
  const_iterator cbegin() const { return ptr; }
  const_iterator cend() const { return ptr + len; }
  constexpr const T *data() const { return ptr; }  // unverified
  constexpr std::size_t size() const { return len; } // unverified
  const T &front() const { return ptr[0]; }          // unverified
  const T &back() const { return ptr[len - 1]; }     // unverified
  const T &operator[](std::size_t i) const { return ptr[i]; } // unverified
  std::vector<T> vec() const { return std::vector<T>(ptr, ptr + len); } // unverified

private:
  static constexpr const T *firstOf(const std::initializer_list<T> &list) {
    return list.size() == 0 ? nullptr : list.begin();
  }
  const T *ptr = nullptr;
  std::size_t len = 0;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_ARRAYREF_HPP
