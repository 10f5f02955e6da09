// Option/value flags, stored; the poplibs calls read theirs (poplar/OptionFlags.hpp).
#include <poplar/OptionFlags.hpp>

namespace poplar {

void OptionFlags::set(StringRef option, StringRef value) {
  flags[option.cloneAsString()] = value.cloneAsString();
}

void OptionFlags::set(initializer_list &&list) {
  for (const OptionFlag &f : list)
    flags[f.first] = f.second;
}

StringRef OptionFlags::at(StringRef option) const {
  const auto it = flags.find(option.cloneAsString());
  if (it == flags.end())
    emulator::fail("OptionFlags::at: no option '" + option.cloneAsString() + "'");
  return it->second;
}

} // namespace poplar
