// ipu-lower CPU emulator internals (no Poplar SDK counterpart): errors, process state (seed, report), JSON helpers.
//
// Everything here lives in namespace poplar::emulator; generated code never
// names it except through the two documented hooks (VertexRegistration /
// field in <poplar/Vertex.hpp>, ipu_lower_emulator_report / _seed in
// <poplar/Engine.hpp>).
#ifndef IPU_LOWER_EMU_SUPPORT_HPP
#define IPU_LOWER_EMU_SUPPORT_HPP

#include <poplar/exceptions.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

// Code guarded by `#ifdef IPU_LOWER_EMULATOR` (the codelet registration
// blocks) is compiled only against the emulator.
#ifndef IPU_LOWER_EMULATOR
#define IPU_LOWER_EMULATOR 1
#endif

// Process-wide emulator state (codelet registry, seed, last report) is reached
// through function-local statics of inline functions with hidden visibility:
// the translation units of ONE shared library (host.cpp + codelets.cpp) share
// them, while two emulator libraries loaded into one process (RTLD_LOCAL, as
// ctypes does) keep theirs apart. Default visibility would make GCC emit the
// statics as STB_GNU_UNIQUE, which the dynamic loader merges process-wide.
#define IPU_LOWER_EMU_HIDDEN __attribute__((visibility("hidden")))

namespace poplar {
namespace emulator {

/// Every emulator error is a poplar_error (a std::runtime_error).
[[noreturn]] inline void fail(const std::string &message) {
  throw poplar_error(message);
}

inline std::string quote(const std::string &s) { return "'" + s + "'"; }

/// Splitmix64: a tiny, fully specified generator, so a seed gives the same
/// vertex order on every platform and standard library.
struct SplitMix64 {
  std::uint64_t state = 0;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

/// Mutable per-library emulator state.
struct ProcessState {
  unsigned long long seed = 0;
  SplitMix64 rng;
  std::string report = "{}"; ///< JSON of the last completed Engine::run
};

inline unsigned long long initialSeed() {
  const char *env = std::getenv("IPU_LOWER_EMULATOR_SEED");
  if (env == nullptr || *env == '\0')
    return 0; // default seed: fixed, so runs are reproducible
  char *end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 0);
  if (end == env || *end != '\0') {
    std::fprintf(stderr,
                 "ipu-lower emulator: ignoring IPU_LOWER_EMULATOR_SEED='%s' "
                 "(not an unsigned integer); using seed 0\n",
                 env);
    return 0;
  }
  return v;
}

IPU_LOWER_EMU_HIDDEN inline ProcessState &processState() {
  static ProcessState state = [] {
    ProcessState s;
    s.seed = initialSeed();
    s.rng.state = s.seed;
    return s;
  }();
  return state;
}

inline void reseed(unsigned long long seed) {
  ProcessState &s = processState();
  s.seed = seed;
  s.rng.state = seed;
}

/// JSON string literal (with quotes) for `s`.
inline std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

/// Shortest round-tripping text of a double, valid JSON.
inline std::string jsonNumber(double v) {
  char buf[40];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  return buf;
}

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_SUPPORT_HPP
