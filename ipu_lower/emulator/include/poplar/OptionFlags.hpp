// CPU emulator of Poplar SDK 3.x <poplar/OptionFlags.hpp>: string option/value flags (stored; the poplibs calls read theirs).
#ifndef IPU_LOWER_EMU_POPLAR_OPTIONFLAGS_HPP
#define IPU_LOWER_EMU_POPLAR_OPTIONFLAGS_HPP

#include <ipu_lower_emulator/Support.hpp>
#include <poplar/StringRef.hpp>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

namespace poplar {

/// A set of option/value string flags to be used in various APIs.
class OptionFlags {
public:
  using OptionFlag = std::pair<const std::string, std::string>; // unverified
  using initializer_list = std::initializer_list<OptionFlag>;   // unverified

  OptionFlags() = default;
  OptionFlags(initializer_list &&list) { set(std::move(list)); } // unverified: exact parameter form
  OptionFlags(const OptionFlags &other) = default;
  OptionFlags(OptionFlags &&other) noexcept = default;
  OptionFlags &operator=(const OptionFlags &other) = default;
  OptionFlags &operator=(OptionFlags &&other) noexcept = default;
  ~OptionFlags() = default;

  bool operator==(const OptionFlags &other) const { return flags == other.flags; } // unverified

  void set(StringRef option, StringRef value); // unverified: return type
  void set(initializer_list &&list);            // unverified
  StringRef at(StringRef option) const;         // unverified: return type
  std::size_t size() const { return flags.size(); } // unverified: return type
  using const_iterator = std::map<std::string, std::string>::const_iterator; // unverified
  const_iterator begin() const { return flags.begin(); } // unverified: return type
  const_iterator end() const { return flags.end(); }     // unverified: return type
  void clear() { flags.clear(); }                    // unverified: return type

private:
  std::map<std::string, std::string> flags;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_OPTIONFLAGS_HPP
