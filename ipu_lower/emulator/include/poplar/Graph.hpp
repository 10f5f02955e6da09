// Mirrors Poplar SDK 3.x <poplar/Graph.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_GRAPH_HPP
#define IPU_LOWER_EMU_POPLAR_GRAPH_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/DataStream.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplar/TypeTraits.hpp>
#include <poplar/VariableMappingMethod.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace poplar {

namespace core {
class GraphBuilder; // stand-in impl name
} // namespace core

/// Kind of codelet file passed to Graph::addCodelets().
// unverified: the SDK declares this in its own header (not created here).
enum class CodeletFileType {
  PreprocessedAsmSource,
  AsmSource,
  CSource,
  CppSource,
  IrSource,
  Object,
  Auto
};

/// Number of times a graph is replicated.
// unverified: header and exact layout.
struct replication_factor {
  explicit replication_factor(unsigned f) : value(f) {}
  unsigned value;
};

StringRef versionString();
StringRef packageHash();

/// A graph program to be executed on the IPU.
class Graph {
public:
  using TileToTensorMapping = std::vector<std::vector<Interval>>;

  /// A (field name, tensor) pair for the connecting form of addVertex().
  class ConnectionDesc {
  public:
    ConnectionDesc(StringRef field, Tensor t);
    ConnectionDesc(StringRef field, ArrayRef<Tensor> tensors);

  private:
    std::string field; // unverified: member layout
    std::vector<Tensor> ts;
    friend class Graph;
  };

  Graph();
  Graph(const Target &target, replication_factor r = replication_factor(1));
  Graph(const Device &device, replication_factor r = replication_factor(1));
  Graph(Graph &&) noexcept;
  Graph &operator=(Graph &&) noexcept;
  ~Graph();

  const Target &getTarget() const;

  // Codelets.
  bool addCodelets(StringRef src, CodeletFileType type = CodeletFileType::Auto,
                   StringRef compileFlags = "", StringRef targetName = "");
  void addCodelets(ArrayRef<std::string> xs, StringRef compileFlags = "",
                   StringRef targetName = ""); // unverified: return type
  bool hasCodelet(StringRef codeletName) const; // unverified: return type

  // Vertices and compute sets.
  VertexRef addVertex(ComputeSet cs, StringRef vertexType);
  VertexRef addVertex(ComputeSet cs, StringRef vertexType,
                      ArrayRef<ConnectionDesc> connections);
  ComputeSet addComputeSet(const DebugContext &debugContext = {});
  unsigned getNumVertices() const; // unverified: return type

  // Variables and constants.
  Tensor addVariable(const Type &type, ArrayRef<std::size_t> shape,
                     const DebugContext &debugContext = {});
  Tensor addVariable(const Type &type, ArrayRef<std::size_t> shape,
                     VariableMappingMethod mappingMethod,
                     const DebugContext &debugContext = {});

  template <typename T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape,
                     ArrayRef<T> values, const DebugContext &debugContext = {});

  template <typename T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape, T val,
                     const DebugContext &debugContext = {},
                     typename std::enable_if<TypeTraits::isSimpleType<T>()>::type
                         * = nullptr);

  Tensor addConstantHalf(const Type &type, ArrayRef<std::size_t> shape,
                         std::uint16_t val, const DebugContext &debugContext = {});

  // Edges, vertex state and perf estimates.
  void connect(FieldRef field, const Tensor &tensor);
  void connect(FieldRef field, ArrayRef<Tensor> tensors);
  template <typename T>
  void connect(FieldRef field, T v,
               typename std::enable_if<TypeTraits::isSimpleType<T>()>::type * =
                   nullptr);

  void setFieldSize(FieldRef field, std::size_t size);
  std::size_t getFieldSize(FieldRef field) const; // unverified: return type

  template <typename T>
  void setInitialValue(FieldRef field, T val,
                       typename std::enable_if<TypeTraits::isSimpleType<T>()>::type
                           * = nullptr); // unverified: exact form of scalar overload
  template <typename T> void setInitialValue(FieldRef field, ArrayRef<T> val);
  void setInitialValueHalf(FieldRef field, std::uint16_t val);

  void setPerfEstimate(const VertexRef &v, std::uint64_t cycles,
                       std::uint64_t flops = 0);

  // Host access.
  void createHostWrite(StringRef handle, const Tensor &t,
                       bool rearrangeOnHost = false);
  void createHostRead(StringRef handle, const Tensor &t,
                      bool rearrangeOnHost = false);
  DataStream addHostToDeviceFIFO(
      StringRef handle, const Type &elementType, std::size_t numElements,
      ReplicatedStreamMode replicatedMode = ReplicatedStreamMode::REPLICATE,
      const OptionFlags &options = {});
  DataStream addDeviceToHostFIFO(StringRef handle, const Type &elementType,
                                 std::size_t numElements,
                                 const OptionFlags &options = {});

  // Tile mapping.
  void setTileMapping(VertexRef v, unsigned tileNum);
  void setTileMapping(const Tensor &t, unsigned tileNum);
  void setTileMapping(const Tensor &t, const TileToTensorMapping &mapping);

  // Virtual graphs and replication.
  Graph createVirtualGraph(unsigned numTilesPerIPU);
  Graph createVirtualGraph(unsigned lowerTile, unsigned upperTile);
  unsigned getReplicationFactor() const; // unverified: return type

private:
  std::unique_ptr<core::GraphBuilder> impl;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_GRAPH_HPP
