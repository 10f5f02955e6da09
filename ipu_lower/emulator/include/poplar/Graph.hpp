// CPU emulator of Poplar SDK 3.x <poplar/Graph.hpp>: graph construction with the checks Poplar makes.
//
// A Graph records variables (with their tile mapping), constants, compute
// sets, vertices (checked against the codelet registry: the class must be
// registered and every connected field must exist and match the tensor's
// element type) and host handles. The Engine takes a copy of all of it.
#ifndef IPU_LOWER_EMU_POPLAR_GRAPH_HPP
#define IPU_LOWER_EMU_POPLAR_GRAPH_HPP

#include <ipu_lower_emulator/GraphData.hpp>
#include <ipu_lower_emulator/Registry.hpp>
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
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplar {

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
    ConnectionDesc(StringRef field, Tensor t)
        : field(field.cloneAsString()), ts{std::move(t)} {}
    ConnectionDesc(StringRef field, ArrayRef<Tensor> tensors)
        : field(field.cloneAsString()), ts(tensors.vec()), isList(true) {}

  private:
    std::string field; // unverified: member layout
    std::vector<Tensor> ts;
    bool isList = false;
    friend class Graph;
  };

  Graph() = default;
  Graph(const Target &target, replication_factor r = replication_factor(1));
  Graph(const Device &device, replication_factor r = replication_factor(1))
      : Graph(device.getTarget(), r) {}
  Graph(Graph &&) noexcept = default;
  Graph &operator=(Graph &&) noexcept = default;
  ~Graph() = default;

  const Target &getTarget() const {
    g();
    return target;
  }

  // Codelets. The emulator runs the codelets compiled into the program (see
  // ipu_lower_emulator/Registry.hpp); the file names are only recorded.
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
  unsigned getNumVertices() const { // unverified: return type
    return static_cast<unsigned>(g().vertices.size());
  }

  // Variables and constants.
  Tensor addVariable(const Type &type, ArrayRef<std::size_t> shape,
                     const DebugContext &debugContext = {});
  /// LINEAR spreads the elements evenly over the tiles of this graph, in
  /// order (ceil(n / tiles) per tile; emulator's reading of the SDK method).
  Tensor addVariable(const Type &type, ArrayRef<std::size_t> shape,
                     VariableMappingMethod mappingMethod,
                     const DebugContext &debugContext = {});

  template <typename T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape,
                     ArrayRef<T> values, const DebugContext &debugContext = {}) {
    Tensor t = newVar(type, shape, debugContext.getPathName(), true, "addConstant");
    emulator::Var &var = lastVar();
    if (values.size() != var.size)
      emulator::fail("Graph::addConstant: " + std::to_string(values.size()) +
                     " values given for constant '" + var.name + "' of shape " +
                     emulator::shapeString(var.shape) + " (" +
                     std::to_string(var.size) + " elements)");
    const unsigned es = emulator::typeSize(var.type);
    for (std::size_t i = 0; i < var.size; ++i)
      emulator::storeAs(var.init.data() + i * es, var.type, values[i]);
    return t;
  }

  template <typename T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape, T val,
                     const DebugContext &debugContext = {},
                     typename std::enable_if<TypeTraits::isSimpleType<T>()>::type
                         * = nullptr) {
    Tensor t = newVar(type, shape, debugContext.getPathName(), true, "addConstant");
    emulator::Var &var = lastVar();
    const unsigned es = emulator::typeSize(var.type);
    for (std::size_t i = 0; i < var.size; ++i)
      emulator::storeAs(var.init.data() + i * es, var.type, val);
    return t;
  }

  Tensor addConstantHalf(const Type &type, ArrayRef<std::size_t> shape,
                         std::uint16_t val, const DebugContext &debugContext = {});

  // Edges, vertex state and perf estimates.
  void connect(FieldRef field, const Tensor &tensor);
  void connect(FieldRef field, ArrayRef<Tensor> tensors);
  template <typename T>
  void connect(FieldRef field, T v,
               typename std::enable_if<TypeTraits::isSimpleType<T>()>::type * =
                   nullptr) {
    Field f = resolve(field, "connect");
    Tensor c = newVar(emulator::makeType(f.spec->type), {}, f.vertexName() + "." + f.spec->name + " value",
                      true, "connect");
    emulator::Var &var = lastVar();
    emulator::storeAs(var.init.data(), var.type, v);
    var.followsVertex = static_cast<int>(field.vertex.getId());
    connect(field, c);
  }

  void setFieldSize(FieldRef field, std::size_t size);
  std::size_t getFieldSize(FieldRef field) const; // unverified: return type

  template <typename T>
  void setInitialValue(FieldRef field, T val,
                       typename std::enable_if<TypeTraits::isSimpleType<T>()>::type
                           * = nullptr) { // unverified: exact form of scalar overload
    Field f = resolve(field, "setInitialValue");
    unsigned char *dst = stateSlot(f, field);
    emulator::storeAs(dst, f.spec->type, val);
  }
  template <typename T> void setInitialValue(FieldRef field, ArrayRef<T> val) {
    Field f = resolve(field, "setInitialValue");
    if (f.spec->isEdge() || f.spec->shape != emulator::Shape::Vector || field.isIndexed())
      emulator::fail("Graph::setInitialValue: a list of values needs a vertex-state "
                     "Vector field; " + f.describe() + " is " + f.spec->cppType);
    const unsigned es = emulator::typeSize(f.spec->type);
    f.conn->stateCount = val.size();
    f.conn->stateBytes.assign(val.size() * es, 0);
    for (std::size_t i = 0; i < val.size(); ++i)
      emulator::storeAs(f.conn->stateBytes.data() + i * es, f.spec->type, val[i]);
    f.conn->stateSet = f.conn->sizeSet = true;
  }
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
  // unverified: the names and defaults of the two flags (public calls pass
  // four arguments, or six with (true, false) / (true, true)).
  RemoteBuffer addRemoteBuffer(StringRef handle, const Type &elementType,
                               std::size_t numElements, std::size_t repeats = 1,
                               bool rearrangeOnHost = false,
                               bool optimiseMemory = false);

  // Tile mapping.
  void setTileMapping(VertexRef v, unsigned tileNum);
  void setTileMapping(const Tensor &t, unsigned tileNum);
  void setTileMapping(const Tensor &t, const TileToTensorMapping &mapping);
  // unverified: exact SDK signature.
  TileToTensorMapping getTileMapping(Tensor t, bool requireComplete = true) const;

  // Virtual graphs and replication.
  Graph createVirtualGraph(unsigned numTilesPerIPU) {
    return createVirtualGraph(0, numTilesPerIPU);
  }
  Graph createVirtualGraph(unsigned lowerTile, unsigned upperTile);
  unsigned getReplicationFactor() const { return 1; } // unverified: return type

private:
  struct Field {
    emulator::VertexData *vertex;
    const emulator::FieldSpec *spec;
    emulator::FieldConn *conn;
    std::string vertexName() const { return vertex->cls->name; }
    std::string describe() const {
      return "field '" + spec->name + "' of vertex '" + vertex->cls->name + "'";
    }
  };

  emulator::GraphData &g() const;
  emulator::Var &lastVar() { return g().vars->vars.back(); }
  unsigned tile(unsigned t, const char *what) const;
  emulator::VertexData &vertex(const VertexRef &v, const char *what);
  Field resolve(const FieldRef &field, const char *what);
  const emulator::ViewData &own(const Tensor &t, const char *what);
  void checkEdgeTensor(const Field &f, const Tensor &tensor);
  unsigned char *stateSlot(const Field &f, const FieldRef &field);
  Tensor newVar(const Type &type, ArrayRef<std::size_t> shape, std::string name,
                bool constant, const char *what);
  void addHandle(std::map<std::string, Tensor> &handles, StringRef handle,
                 const Tensor &t, const char *what);
  DataStream addStream(StringRef handle, const Type &type, std::size_t n,
                       DataStreamType kind, ReplicatedStreamMode mode);

  std::shared_ptr<emulator::GraphData> data;
  Target target;
  unsigned tileBase = 0; ///< first tile of a virtual graph
  template <class> friend struct emulator::Access;
};

namespace emulator {
template <> struct Access<Graph> {
  static const GraphData &data(const Graph &g) { return g.g(); }
};
} // namespace emulator

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_GRAPH_HPP
