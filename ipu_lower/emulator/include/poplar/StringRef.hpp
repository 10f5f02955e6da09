// CPU emulator of Poplar SDK 3.x <poplar/StringRef.hpp>: non-owning string view.
//
// StringRef is a non-owning string view; the SDK documents it as a subclass of
// ArrayRef<char>. Its trivial inline members are defined here.
#ifndef IPU_LOWER_EMU_POPLAR_STRINGREF_HPP
#define IPU_LOWER_EMU_POPLAR_STRINGREF_HPP

#include <poplar/ArrayRef.hpp>

#include <cstring>
#include <ostream>
#include <string>

namespace poplar {

struct StringRef : public ArrayRef<char> {
  constexpr StringRef() = default;
  StringRef(const StringRef &) = default;
  StringRef &operator=(const StringRef &) = default;
  StringRef(const std::string &s) : ArrayRef<char>(s.data(), s.size()) {}
  constexpr StringRef(const char *p, std::size_t len) : ArrayRef<char>(p, len) {}
  StringRef(const char *p) : ArrayRef<char>(p, p ? std::strlen(p) : 0) {}

  std::string cloneAsString() const { return std::string(begin(), end()); }
  operator std::string() const { return cloneAsString(); } // unverified
};

inline std::ostream &operator<<(std::ostream &os, const StringRef &s) { // unverified
  return os.write(s.data(), static_cast<std::streamsize>(s.size()));
}

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_STRINGREF_HPP
