// Mirrors Poplar SDK 3.x <poplar/OptionFlags.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_OPTIONFLAGS_HPP
#define IPU_LOWER_EMU_POPLAR_OPTIONFLAGS_HPP

#include <poplar/StringRef.hpp>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

namespace poplar {

namespace core {
class OptionFlags;
} // namespace core

/// A set of option/value string flags to be used in various APIs.
class OptionFlags {
public:
  using OptionFlag = std::pair<const std::string, std::string>; // unverified
  using initializer_list = std::initializer_list<OptionFlag>;   // unverified

  OptionFlags();
  OptionFlags(initializer_list &&list); // unverified: exact parameter form
  OptionFlags(const OptionFlags &other);
  OptionFlags(OptionFlags &&other) noexcept;
  OptionFlags &operator=(const OptionFlags &other);
  OptionFlags &operator=(OptionFlags &&other) noexcept;
  ~OptionFlags();

  bool operator==(const OptionFlags &other) const; // unverified

  void set(StringRef option, StringRef value);         // unverified: return type
  void set(initializer_list &&list);                   // unverified
  StringRef at(StringRef option) const;                // unverified: return type
  std::size_t size() const;                            // unverified: return type
  void clear();                                        // unverified: return type

private:
  std::unique_ptr<core::OptionFlags> impl;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_OPTIONFLAGS_HPP
