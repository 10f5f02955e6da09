// ipu-lower CPU emulator internals (no Poplar SDK counterpart): what a Graph records for the Engine.
#ifndef IPU_LOWER_EMU_GRAPHDATA_HPP
#define IPU_LOWER_EMU_GRAPHDATA_HPP

#include <ipu_lower_emulator/Registry.hpp>
#include <ipu_lower_emulator/View.hpp>
#include <poplar/DataStream.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace poplar {
namespace emulator {

struct EdgeConn {
  bool set = false;
  Tensor tensor;
};

/// The connections (edges) or initial value (state) of one vertex field.
struct FieldConn {
  std::vector<EdgeConn> edges; ///< one per edge: 1 for Scalar/Vector fields
  bool sizeSet = false;
  bool stateSet = false;
  std::vector<unsigned char> stateBytes; ///< state: values in the field's own type
  std::size_t stateCount = 0;
};

struct VertexData {
  const VertexClass *cls = nullptr;
  unsigned cs = 0;
  unsigned tile = kUnmapped;
  bool hasEstimate = false;
  std::uint64_t cycles = 0;
  std::vector<FieldConn> fields; ///< parallel to cls->fields
};

struct ComputeSetData {
  std::string name;
  std::vector<unsigned> vertices;
};

struct GraphData {
  TargetInfo target; ///< of the top-level graph (virtual graphs share the data)
  std::shared_ptr<VarTable> vars = std::make_shared<VarTable>();
  std::vector<VertexData> vertices;
  std::vector<ComputeSetData> computeSets;
  std::map<std::string, Tensor> hostWrites, hostReads;
  std::map<std::string, std::shared_ptr<const StreamInfo>> streams;
  std::map<std::string, std::shared_ptr<const RemoteBufferInfo>> remoteBuffers;
  std::vector<std::string> codelets;
};

/// Calls f(flatBegin, flatEnd, tile) over the elements of view v, in order
/// (tile == kUnmapped for unmapped elements). Adjacent pieces may share a tile.
template <class F>
void forEachTileSegment(const ViewData &v, const VarTable &vars, F &&f) {
  std::size_t flat = 0;
  for (const Run &r : v.runs) {
    const TileMap &m = vars.vars[r.var].mapping;
    if (r.stride == 1 || r.count == 1) {
      m.forEach(r.start, r.start + r.count,
                [&](std::size_t b, std::size_t e, unsigned tile) {
                  f(flat + (b - r.start), flat + (e - r.start), tile);
                });
    } else {
      for (std::size_t k = 0; k < r.count; ++k)
        f(flat + k, flat + k + 1, m.tileOf(r.addr(k)));
    }
    flat += r.count;
  }
}

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_GRAPHDATA_HPP
