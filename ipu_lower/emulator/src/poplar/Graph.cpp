// Graph construction with the checks Poplar makes (poplar/Graph.hpp).
#include <poplar/Graph.hpp>

#include <algorithm>
#include <cstring>

namespace poplar {

StringRef versionString() {
  return "ipu-lower CPU emulator of the Poplar SDK 3.x API subset";
}

StringRef packageHash() { return "ipu-lower-emulator"; }

Graph::Graph(const Target &target, replication_factor r)
    : data(std::make_shared<emulator::GraphData>()), target(target) {
  data->target = emulator::Access<Target>::info(target);
  if (r.value != 1)
    emulator::fail("Graph: replication_factor " + std::to_string(r.value) +
                   " is not supported by the emulator (only 1)");
}

bool Graph::addCodelets(StringRef src, CodeletFileType type,
                        StringRef compileFlags, StringRef targetName) {
  (void)type;
  (void)compileFlags;
  (void)targetName;
  g().codelets.push_back(src.cloneAsString());
  return true;
}

void Graph::addCodelets(ArrayRef<std::string> xs, StringRef compileFlags,
                        StringRef targetName) {
  for (const std::string &x : xs)
    addCodelets(x, CodeletFileType::Auto, compileFlags, targetName);
}

bool Graph::hasCodelet(StringRef codeletName) const {
  const emulator::VertexClass *vc =
      emulator::findVertexClass(codeletName.cloneAsString());
  return vc != nullptr && vc->problem.empty();
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType) {
  emulator::GraphData &d = g();
  const std::string name = vertexType.cloneAsString();
  if (cs.getId() >= d.computeSets.size())
    emulator::fail("Graph::addVertex: compute set " + std::to_string(cs.getId()) +
                   " does not exist in this graph");
  const emulator::VertexClass *vc = emulator::findVertexClass(name);
  if (vc == nullptr)
    emulator::fail("Graph::addVertex: codelet '" + name +
                   "' is not registered with the emulator (registered: " +
                   emulator::registeredClassNames() +
                   "); compile its codelets.cpp into this program so that "
                   "its IPU_LOWER_EMULATOR registration block runs");
  if (!vc->problem.empty())
    emulator::fail("Graph::addVertex: " + vc->problem);
  emulator::VertexData v;
  v.cls = vc;
  v.cs = cs.getId();
  v.fields.resize(vc->fields.size());
  for (std::size_t i = 0; i < vc->fields.size(); ++i) {
    const emulator::Shape s = vc->fields[i].shape;
    if (vc->fields[i].isEdge() &&
        (s == emulator::Shape::Scalar || s == emulator::Shape::Vector))
      v.fields[i].edges.resize(1);
  }
  const auto id = static_cast<vertex_id>(d.vertices.size());
  d.vertices.push_back(std::move(v));
  d.computeSets[cs.getId()].vertices.push_back(id);
  return VertexRef(data.get(), id);
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType,
                           ArrayRef<ConnectionDesc> connections) {
  VertexRef v = addVertex(cs, vertexType);
  for (const ConnectionDesc &c : connections) {
    if (c.isList)
      connect(v[c.field], ArrayRef<Tensor>(c.ts));
    else
      connect(v[c.field], c.ts[0]);
  }
  return v;
}

ComputeSet Graph::addComputeSet(const DebugContext &debugContext) {
  emulator::GraphData &d = g();
  emulator::ComputeSetData cs;
  cs.name = debugContext.getPathName();
  if (cs.name.empty())
    cs.name = "cs" + std::to_string(d.computeSets.size());
  d.computeSets.push_back(std::move(cs));
  return ComputeSet(static_cast<unsigned>(d.computeSets.size() - 1));
}

Tensor Graph::addVariable(const Type &type, ArrayRef<std::size_t> shape,
                          const DebugContext &debugContext) {
  return newVar(type, shape, debugContext.getPathName(), false, "addVariable");
}

Tensor Graph::addVariable(const Type &type, ArrayRef<std::size_t> shape,
                          VariableMappingMethod mappingMethod,
                          const DebugContext &debugContext) {
  Tensor t = addVariable(type, shape, debugContext);
  if (mappingMethod == VariableMappingMethod::LINEAR) {
    const std::size_t n = t.numElements();
    const unsigned tiles = target.getNumTiles();
    const std::size_t per = std::max<std::size_t>(1, (n + tiles - 1) / tiles);
    Tensor flat = t.flatten();
    for (std::size_t b = 0, tile = 0; b < n; b += per, ++tile)
      setTileMapping(flat.slice(b, std::min(n, b + per)),
                     static_cast<unsigned>(tile));
  }
  return t;
}

Tensor Graph::addConstantHalf(const Type &type, ArrayRef<std::size_t> shape,
                              std::uint16_t val, const DebugContext &debugContext) {
  if (type != HALF)
    emulator::fail("Graph::addConstantHalf: type must be HALF, not " +
                   type.toString().cloneAsString());
  Tensor t = newVar(type, shape, debugContext.getPathName(), true, "addConstantHalf");
  emulator::Var &var = lastVar();
  for (std::size_t i = 0; i < var.size; ++i)
    std::memcpy(var.init.data() + 2 * i, &val, 2);
  return t;
}

void Graph::connect(FieldRef field, const Tensor &tensor) {
  Field f = resolve(field, "connect");
  const emulator::Shape s = f.spec->shape;
  std::size_t slot = 0;
  if (s == emulator::Shape::Scalar || s == emulator::Shape::Vector) {
    if (field.isIndexed())
      emulator::fail("Graph::connect: " + f.describe() + " is a single " +
                     f.spec->cppType + " edge; it cannot be indexed");
  } else {
    if (!field.isIndexed())
      emulator::fail("Graph::connect: " + f.describe() + " (" + f.spec->cppType +
                     ") holds one edge per entry; connect a list of tensors "
                     "or field[i]");
    slot = field.getIndex();
    if (f.conn->sizeSet && slot >= f.conn->edges.size())
      emulator::fail("Graph::connect: index " + std::to_string(slot) +
                     " out of range for " + f.describe() + " of size " +
                     std::to_string(f.conn->edges.size()));
    if (slot >= f.conn->edges.size())
      f.conn->edges.resize(slot + 1);
  }
  checkEdgeTensor(f, tensor);
  if (f.conn->edges[slot].set)
    emulator::fail("Graph::connect: " + f.describe() + " is already connected");
  f.conn->edges[slot].set = true;
  f.conn->edges[slot].tensor = tensor;
}

void Graph::connect(FieldRef field, ArrayRef<Tensor> tensors) {
  Field f = resolve(field, "connect");
  const emulator::Shape s = f.spec->shape;
  if (s != emulator::Shape::VectorOfVectors && s != emulator::Shape::VectorList)
    emulator::fail("Graph::connect: " + f.describe() + " (" + f.spec->cppType +
                   ") takes one tensor, not a list");
  if (field.isIndexed())
    emulator::fail("Graph::connect: a list of tensors goes to the whole field, "
                   "not to " + f.describe() + "[i]");
  for (const Tensor &t : tensors)
    checkEdgeTensor(f, t);
  for (const emulator::EdgeConn &e : f.conn->edges)
    if (e.set)
      emulator::fail("Graph::connect: " + f.describe() + " is already connected");
  f.conn->edges.clear();
  for (const Tensor &t : tensors)
    f.conn->edges.push_back(emulator::EdgeConn{true, t});
  f.conn->sizeSet = true;
}

void Graph::setFieldSize(FieldRef field, std::size_t size) {
  Field f = resolve(field, "setFieldSize");
  const emulator::Shape s = f.spec->shape;
  if (f.spec->isEdge() &&
      (s == emulator::Shape::VectorOfVectors || s == emulator::Shape::VectorList)) {
    f.conn->edges.resize(size);
    f.conn->sizeSet = true;
  } else if (!f.spec->isEdge() && s == emulator::Shape::Vector) {
    f.conn->stateCount = size;
    f.conn->stateBytes.assign(size * emulator::typeSize(f.spec->type), 0);
    f.conn->sizeSet = true;
  } else {
    emulator::fail("Graph::setFieldSize: " + f.describe() + " (" +
                   f.spec->cppType + ") has no size to set");
  }
}

std::size_t Graph::getFieldSize(FieldRef field) const {
  Field f = const_cast<Graph *>(this)->resolve(field, "getFieldSize");
  if (!f.spec->isEdge())
    return f.conn->stateCount;
  if (f.spec->shape == emulator::Shape::Vector)
    return f.conn->edges[0].set ? f.conn->edges[0].tensor.numElements() : 0;
  return f.conn->edges.size();
}

void Graph::setInitialValueHalf(FieldRef field, std::uint16_t val) {
  Field f = resolve(field, "setInitialValueHalf");
  unsigned char *dst = stateSlot(f, field);
  if (f.spec->type == emulator::TypeId::HALF)
    std::memcpy(dst, &val, 2);
  else
    emulator::storeAs(dst, f.spec->type,
                      static_cast<float>(IeeeHalf::fromBits(val)));
}

void Graph::setPerfEstimate(const VertexRef &v, std::uint64_t cycles,
                            std::uint64_t flops) {
  (void)flops;
  emulator::VertexData &vd = vertex(v, "setPerfEstimate");
  vd.hasEstimate = true;
  vd.cycles = cycles;
}

void Graph::createHostWrite(StringRef handle, const Tensor &t,
                            bool rearrangeOnHost) {
  (void)rearrangeOnHost;
  const emulator::ViewData &v = own(t, "createHostWrite");
  if (t.containsConstant())
    emulator::fail("Graph::createHostWrite: tensor " + v.describe() +
                   " is (or contains) a constant");
  addHandle(g().hostWrites, handle, t, "createHostWrite");
}

void Graph::createHostRead(StringRef handle, const Tensor &t,
                           bool rearrangeOnHost) {
  (void)rearrangeOnHost;
  own(t, "createHostRead");
  addHandle(g().hostReads, handle, t, "createHostRead");
}

DataStream Graph::addHostToDeviceFIFO(StringRef handle, const Type &elementType,
                                      std::size_t numElements,
                                      ReplicatedStreamMode replicatedMode,
                                      const OptionFlags &options) {
  (void)options;
  return addStream(handle, elementType, numElements,
                   DataStreamType::HostToDeviceFIFO, replicatedMode);
}

DataStream Graph::addDeviceToHostFIFO(StringRef handle, const Type &elementType,
                                      std::size_t numElements,
                                      const OptionFlags &options) {
  (void)options;
  return addStream(handle, elementType, numElements,
                   DataStreamType::DeviceToHostFIFO,
                   ReplicatedStreamMode::REPLICATE);
}

void Graph::setTileMapping(VertexRef v, unsigned tileNum) {
  vertex(v, "setTileMapping").tile = tile(tileNum, "setTileMapping");
}

void Graph::setTileMapping(const Tensor &t, unsigned tileNum) {
  const emulator::ViewData &v = own(t, "setTileMapping");
  const unsigned tl = tile(tileNum, "setTileMapping");
  for (const emulator::Run &r : v.runs) {
    emulator::TileMap &m = g().vars->vars[r.var].mapping;
    if (r.stride == 1 || r.count == 1)
      m.assign(r.start, r.start + r.count, tl);
    else
      for (std::size_t k = 0; k < r.count; ++k)
        m.assign(r.addr(k), r.addr(k) + 1, tl);
  }
}

void Graph::setTileMapping(const Tensor &t, const TileToTensorMapping &mapping) {
  const emulator::ViewData &v = own(t, "setTileMapping");
  if (mapping.size() > target.getNumTiles())
    emulator::fail("Graph::setTileMapping: mapping lists " +
                   std::to_string(mapping.size()) + " tiles; the target has " +
                   std::to_string(target.getNumTiles()));
  Tensor flat = t.flatten();
  for (std::size_t tl = 0; tl < mapping.size(); ++tl)
    for (const Interval &i : mapping[tl]) {
      if (i.begin() > i.end() || i.end() > v.size())
        emulator::fail("Graph::setTileMapping: interval [" +
                       std::to_string(i.begin()) + ", " + std::to_string(i.end()) +
                       ") out of range for tensor " + v.describe() + " of " +
                       std::to_string(v.size()) + " elements");
      if (i.size() != 0)
        setTileMapping(flat.slice(i.begin(), i.end()), static_cast<unsigned>(tl));
    }
}

Graph::TileToTensorMapping Graph::getTileMapping(Tensor t, bool requireComplete) const {
  const emulator::ViewData &v = const_cast<Graph *>(this)->own(t, "getTileMapping");
  TileToTensorMapping out(target.getNumTiles());
  std::size_t unmapped = 0;
  emulator::forEachTileSegment(
      v, *g().vars, [&](std::size_t b, std::size_t e, unsigned tl) {
        if (tl == emulator::kUnmapped || tl < tileBase ||
            tl - tileBase >= out.size()) {
          unmapped += e - b;
          return;
        }
        auto &iv = out[tl - tileBase];
        if (!iv.empty() && iv.back().end() == b)
          iv.back() = Interval(iv.back().begin(), e);
        else
          iv.emplace_back(b, e);
      });
  if (requireComplete && unmapped != 0)
    emulator::fail("Graph::getTileMapping: tensor " + v.describe() + " has " +
                   std::to_string(unmapped) + " unmapped elements");
  return out;
}

Graph Graph::createVirtualGraph(unsigned lowerTile, unsigned upperTile) {
  g();
  if (lowerTile >= upperTile || upperTile > target.getNumTiles())
    emulator::fail("Graph::createVirtualGraph: bad tile range [" +
                   std::to_string(lowerTile) + ", " + std::to_string(upperTile) +
                   ") for a graph of " + std::to_string(target.getNumTiles()) +
                   " tiles");
  emulator::TargetInfo info = emulator::Access<Target>::info(target);
  info.numIPUs = 1;
  info.tilesPerIPU = upperTile - lowerTile;
  Graph v;
  v.data = data;
  v.target = emulator::Access<Target>::make(info);
  v.tileBase = tileBase + lowerTile;
  return v;
}

emulator::GraphData &Graph::g() const {
  if (!data)
    emulator::fail("Graph: default-constructed graph (construct it from a Target or Device)");
  return *data;
}

unsigned Graph::tile(unsigned t, const char *what) const {
  if (t >= getTarget().getNumTiles())
    emulator::fail(std::string("Graph::") + what + ": tile " + std::to_string(t) +
                   " out of range (the target has " +
                   std::to_string(target.getNumTiles()) + " tiles)");
  return tileBase + t;
}

emulator::VertexData &Graph::vertex(const VertexRef &v, const char *what) {
  emulator::GraphData &d = g();
  if (v.owner != data.get() || v.id >= d.vertices.size())
    emulator::fail(std::string("Graph::") + what +
                   ": the VertexRef does not belong to this graph");
  return d.vertices[v.id];
}

Graph::Field Graph::resolve(const FieldRef &field, const char *what) {
  emulator::VertexData &vd = vertex(field.vertex, what);
  const int i = vd.cls->fieldIndex(field.name);
  if (i < 0)
    emulator::fail(std::string("Graph::") + what + ": vertex class '" +
                   vd.cls->name + "' has no field '" + field.name +
                   "' (its fields: " + vd.cls->fieldList() + ")");
  return Field{&vd, &vd.cls->fields[i], &vd.fields[i]};
}

const emulator::ViewData &Graph::own(const Tensor &t, const char *what) {
  const emulator::ViewData &v = emulator::Access<Tensor>::data(t, what);
  if (v.vars != g().vars)
    emulator::fail(std::string("Graph::") + what + ": tensor " + v.describe() +
                   " belongs to another graph");
  return v;
}

void Graph::checkEdgeTensor(const Field &f, const Tensor &tensor) {
  if (!f.spec->isEdge())
    emulator::fail("Graph::connect: " + f.describe() + " is vertex state (" +
                   f.spec->cppType + "), not an edge; use Graph::setInitialValue");
  const emulator::ViewData &v = own(tensor, "connect");
  const emulator::TypeId tt = emulator::Access<Tensor>::type(tensor);
  if (tt != f.spec->type)
    emulator::fail("Graph::connect: " + f.describe() + " is " + f.spec->cppType +
                   " but tensor " + v.describe() + " has element type " +
                   emulator::typeName(tt));
  if (f.spec->shape == emulator::Shape::Scalar && v.size() != 1)
    emulator::fail("Graph::connect: " + f.describe() + " is the scalar edge " +
                   f.spec->cppType + "; it needs a tensor of exactly 1 element, "
                   "but tensor " + v.describe() + " has " +
                   std::to_string(v.size()));
  if (f.spec->dir != emulator::Dir::In && tensor.containsConstant())
    emulator::fail("Graph::connect: " + f.describe() + " (" + f.spec->cppType +
                   ") would write tensor " + v.describe() + ", which is a constant");
}

unsigned char *Graph::stateSlot(const Field &f, const FieldRef &field) {
  if (f.spec->isEdge())
    emulator::fail("Graph::setInitialValue: " + f.describe() + " is an edge (" +
                   f.spec->cppType + "); connect a tensor to it");
  const unsigned es = emulator::typeSize(f.spec->type);
  if (f.spec->shape == emulator::Shape::Scalar && !field.isIndexed()) {
    f.conn->stateCount = 1;
    f.conn->stateBytes.resize(es);
    f.conn->stateSet = true;
    return f.conn->stateBytes.data();
  }
  if (f.spec->shape == emulator::Shape::Vector && field.isIndexed()) {
    if (!f.conn->sizeSet || field.getIndex() >= f.conn->stateCount)
      emulator::fail("Graph::setInitialValue: index " +
                     std::to_string(field.getIndex()) + " out of range for " +
                     f.describe() + " (call setFieldSize first)");
    f.conn->stateSet = true;
    return f.conn->stateBytes.data() + field.getIndex() * es;
  }
  emulator::fail("Graph::setInitialValue: cannot set " + f.describe() + " (" +
                 f.spec->cppType + ") from one value");
}

Tensor Graph::newVar(const Type &type, ArrayRef<std::size_t> shape, std::string name,
                     bool constant, const char *what) {
  emulator::GraphData &d = g();
  const emulator::TypeId id = emulator::idOf(type);
  if (id == emulator::TypeId::INVALID)
    emulator::fail(std::string("Graph::") + what + ": invalid element type");
  emulator::Var var;
  var.type = id;
  var.shape = shape.vec();
  var.size = emulator::product(var.shape, 0, var.shape.size());
  var.constant = constant;
  if (name.empty())
    name = std::string(constant ? "constant" : "variable") + "#" +
           std::to_string(d.vars->vars.size());
  var.name = std::move(name);
  if (constant)
    var.init.assign(var.size * emulator::typeSize(id), 0);
  const auto index = static_cast<std::uint32_t>(d.vars->vars.size());
  const std::size_t n = var.size;
  std::vector<std::size_t> s = var.shape;
  d.vars->vars.push_back(std::move(var));
  emulator::RunBuilder b;
  b.add(index, 0, n, 1);
  return emulator::Access<Tensor>::make(id, b.finish(d.vars, std::move(s)));
}

void Graph::addHandle(std::map<std::string, Tensor> &handles, StringRef handle,
                      const Tensor &t, const char *what) {
  const std::string h = handle.cloneAsString();
  if (!handles.emplace(h, t).second)
    emulator::fail(std::string("Graph::") + what + ": handle '" + h +
                   "' already exists");
}

RemoteBuffer Graph::addRemoteBuffer(StringRef handle, const Type &elementType,
                                   std::size_t numElements, std::size_t repeats,
                                   bool rearrangeOnHost, bool optimiseMemory) {
  auto info = std::make_shared<emulator::RemoteBufferInfo>();
  info->handle = handle.cloneAsString();
  info->type = elementType;
  info->numElements = numElements;
  info->repeats = repeats;
  info->rearrangeOnHost = rearrangeOnHost;
  info->optimiseMemory = optimiseMemory;
  info->graph = data.get();
  if (emulator::idOf(elementType) == emulator::TypeId::INVALID)
    emulator::fail("Graph::addRemoteBuffer: '" + info->handle + "' has an invalid type");
  if (numElements == 0 || repeats == 0)
    emulator::fail("Graph::addRemoteBuffer: '" + info->handle +
                   "' needs at least one element and one repeat");
  if (!g().remoteBuffers.emplace(info->handle, info).second)
    emulator::fail("Graph::addRemoteBuffer: a remote buffer with handle '" +
                   info->handle + "' already exists");
  return emulator::Access<RemoteBuffer>::make(info);
}

DataStream Graph::addStream(StringRef handle, const Type &type, std::size_t n,
                            DataStreamType kind, ReplicatedStreamMode mode) {
  emulator::GraphData &d = g();
  auto info = std::make_shared<emulator::StreamInfo>();
  info->handle = handle.cloneAsString();
  info->type = type;
  info->numElements = n;
  info->kind = kind;
  info->mode = mode;
  info->graph = data.get();
  if (emulator::idOf(type) == emulator::TypeId::INVALID)
    emulator::fail("Graph: stream '" + info->handle + "' has an invalid type");
  if (!d.streams.emplace(info->handle, info).second)
    emulator::fail("Graph: a stream with handle '" + info->handle +
                   "' already exists");
  return emulator::Access<DataStream>::make(info);
}

} // namespace poplar
