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
#include <memory>
#include <string>

// Code guarded by `#ifdef IPU_LOWER_EMULATOR` (the codelet registration
// blocks) is compiled only against the emulator.
#ifndef IPU_LOWER_EMULATOR
#define IPU_LOWER_EMULATOR 1
#endif

// Process-wide emulator state (codelet registry, seed, last report) is reached
// through functions of the emulator library (src/), which every program links
// statically, with hidden visibility: the translation units of ONE shared
// library (host.cpp, codelets.cpp and the emulator) share them, while two
// programs loaded into one process never bind to each other's state.
#define IPU_LOWER_EMU_HIDDEN __attribute__((visibility("hidden")))

namespace poplar {
namespace emulator {

/// Every emulator error is a poplar_error (a std::runtime_error).
[[noreturn]] void fail(const std::string &message);

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

struct Measurement; // ipu_lower_emulator/Measurement.hpp

/// Mutable per-library emulator state.
struct ProcessState {
  unsigned long long seed = 0;
  SplitMix64 rng;
  std::string report = "{}"; ///< JSON of the last completed Engine::run
  /// What the last completed Engine::run measured (none before any), and its
  /// JSON once asked for (ipu_lower_emulator_measured; empty until then): built
  /// on demand, since it lists every vertex.
  std::shared_ptr<const Measurement> measurement;
  std::string measured;
};

/// The seed a library starts with: IPU_LOWER_EMULATOR_SEED when it is set to
/// an unsigned integer (otherwise a warning on stderr), else 0.
unsigned long long initialSeed();

/// This library's state (see above on visibility).
IPU_LOWER_EMU_HIDDEN ProcessState &processState();

/// Restarts the vertex order shuffle from `seed` (ipu_lower_emulator_seed).
void reseed(unsigned long long seed);

/// JSON string literal (with quotes) for `s`.
std::string jsonString(const std::string &s);

/// Shortest round-tripping text of a double, valid JSON.
std::string jsonNumber(double v);

// JSON building blocks: append `, "key": ` and a value to `j` (appends, to keep
// the generated code small).
void jkey(std::string &j, const char *key);
void jnum(std::string &j, const char *key, std::uint64_t v);
void jstr(std::string &j, const char *key, const std::string &v);

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_SUPPORT_HPP
