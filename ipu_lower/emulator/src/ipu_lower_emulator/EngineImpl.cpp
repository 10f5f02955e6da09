// The Engine's checks, BSP execution and report (ipu_lower_emulator/EngineImpl.hpp).
#include <ipu_lower_emulator/EngineImpl.hpp>

#include <popops/ExprOp.hpp>
#include <popops/OperationDef.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <type_traits>

namespace poplar {
namespace emulator {

namespace {
std::size_t align16(std::size_t n) { return (n + 15) & ~std::size_t(15); }
} // namespace

EngineCore::EngineCore(const GraphData &g, std::vector<Node> progs)
    : target(g.target), origVars(g.vars.get()), vars(*g.vars),
      vertices(g.vertices), computeSets(g.computeSets), hostWrites(g.hostWrites),
      hostReads(g.hostReads), streams(g.streams), remoteBuffers(g.remoteBuffers),
      graphId(&g), programs(std::move(progs)) {
  if (!target.valid)
    fail("Engine: the graph has no target");
  mapFollowingConstants();
  checkMapping();
  checkVertices();
  checkMemory();
  for (const Node &p : programs)
    prepare(p.get());
  allocate();
  for (const auto &[handle, b] : remoteBuffers)
    remoteMemory[handle].assign(b->repeats * b->numElements * typeSize(idOf(b->type)), 0);
}

unsigned char *EngineCore::remoteRepeat(const RemoteBufferInfo &b, long long repeat,
                                        const char *what) {
  if (repeat < 0 || static_cast<unsigned long long>(repeat) >= b.repeats)
    fail(std::string(what) + ": repeat " + std::to_string(repeat) +
         " of remote buffer '" + b.handle + "', which has " +
         std::to_string(b.repeats) + " repeats");
  const std::size_t bytes = b.numElements * typeSize(idOf(b.type));
  return remoteMemory.at(b.handle).data() + std::size_t(repeat) * bytes;
}

void EngineCore::copyRemote(const std::string &handle, void *data, std::uint64_t repeat,
                            unsigned replica, bool toBuffer) {
  const char *what = toBuffer ? "Engine::copyToRemoteBuffer" : "Engine::copyFromRemoteBuffer";
  auto it = remoteBuffers.find(handle);
  if (it == remoteBuffers.end())
    fail(std::string(what) + ": no remote buffer with handle '" + handle + "'");
  if (replica != 0)
    fail(std::string(what) + ": replica " + std::to_string(replica) +
         " of a graph that is not replicated");
  const RemoteBufferInfo &b = *it->second;
  unsigned char *slot = remoteRepeat(b, static_cast<long long>(repeat), what);
  const std::size_t bytes = b.numElements * typeSize(idOf(b.type));
  if (toBuffer)
    std::memcpy(slot, data, bytes);
  else
    std::memcpy(data, slot, bytes);
}

void EngineCore::load(const Target &t) {
  const TargetInfo &d = Access<Target>::info(t);
  if (d.arch != target.arch || d.numTiles() != target.numTiles())
    fail("Engine::load: the device (" + d.arch + ", " +
         std::to_string(d.numTiles()) + " tiles) differs from the graph's target (" +
         target.arch + ", " + std::to_string(target.numTiles()) + " tiles)");
  loaded = true;
}

void EngineCore::run(unsigned prog) {
  if (!loaded)
    fail("Engine::run: load the engine onto a device first (Engine::load)");
  if (prog >= programs.size())
    fail("Engine::run: program " + std::to_string(prog) + " out of range (" +
         std::to_string(programs.size()) + " programs)");
  steps.clear();
  stepIndex.clear();
  for (CsPlan *cp : csRan) {
    cp->runs = 0;
    for (VertexPlan &vp : cp->vertices)
      vp.written = 0;
  }
  csRan.clear();
  tileCompute.assign(target.numTiles(), 0);
  tileExchange.assign(target.numTiles(), 0);
  const unsigned long long seed = processState().seed;
  exec(programs[prog].get());
  ++completedRuns;
  lastReport = report(prog, seed);
  ProcessState &state = processState();
  state.report = lastReport;
  state.measurement = measurement(prog);
  state.measured.clear();
}

std::shared_ptr<const Measurement> EngineCore::measurement(unsigned prog) const {
  auto m = std::make_shared<Measurement>();
  m->program = prog;
  m->engineRuns = completedRuns;
  m->steps = steps;
  for (const CsPlan *cp : csRan) {
    ComputeSetMeasure c;
    c.name = cp->name;
    c.runs = cp->runs;
    c.busiestTile = cp->busiestTile;
    c.busiestBytes = cp->cost.busiest;
    c.exchangeBytes = cp->cost.exchangeBytes;
    for (const VertexPlan &vp : cp->vertices)
      c.vertices.push_back(VertexElements{vp.tile, vp.reads * cp->runs, vp.written});
    m->computeSets.push_back(std::move(c));
  }
  return m;
}

void EngineCore::writeTensor(const std::string &handle, const void *b, const void *e) {
  const Tensor &t = handleTensor(hostWrites, handle, "writeTensor");
  const ViewData &v = *Access<Tensor>::view(t);
  checkHostBuffer("writeTensor", handle, t, b, e);
  scatter(v, typeSize(Access<Tensor>::type(t)), static_cast<const unsigned char *>(b));
}

void EngineCore::readTensor(const std::string &handle, void *b, void *e) {
  const Tensor &t = handleTensor(hostReads, handle, "readTensor");
  const ViewData &v = *Access<Tensor>::view(t);
  checkHostBuffer("readTensor", handle, t, b, e);
  gather(v, typeSize(Access<Tensor>::type(t)), static_cast<unsigned char *>(b));
}

void EngineCore::connectStream(const std::string &handle, void *b, void *e) {
  auto it = streams.find(handle);
  if (it == streams.end())
    fail("Engine::connectStream: no stream with handle '" + handle + "'");
  const std::size_t bytes = it->second->numElements * typeSize(idOf(it->second->type));
  const std::size_t have = static_cast<std::size_t>(static_cast<unsigned char *>(e) -
                                                    static_cast<unsigned char *>(b));
  if (b == nullptr || (bytes == 0 ? have != 0 : (have == 0 || have % bytes != 0)))
    fail("Engine::connectStream('" + handle + "'): the buffer has " +
         std::to_string(have) + " bytes; it must hold a whole number (>= 1) of " +
         std::to_string(bytes) + "-byte transfers (" +
         std::to_string(it->second->numElements) + " elements of " +
         it->second->type.toString().cloneAsString() + ")");
  StreamConn &c = conns[handle];
  c.begin = c.pos = static_cast<unsigned char *>(b);
  c.end = static_cast<unsigned char *>(e);
}

void EngineCore::connectStream(const std::string &handle, void *p) {
  auto it = streams.find(handle);
  if (it == streams.end())
    fail("Engine::connectStream: no stream with handle '" + handle + "'");
  const std::size_t bytes = it->second->numElements * typeSize(idOf(it->second->type));
  connectStream(handle, p, static_cast<unsigned char *>(p) + bytes);
}

void EngineCore::printSummary(std::ostream &os) const {
  os << "ipu-lower CPU emulator profile (" << target.arch << ", "
     << target.numTiles() << " tiles, estimates from the BSP cost model)\n";
  if (lastReport.empty()) {
    os << "  no program has run yet\n";
    return;
  }
  std::uint64_t total = 0;
  for (const StepStats &s : lastSteps)
    total += s.compute + s.exchange + s.sync;
  os << "  total cycles: " << total << " (" << double(total) / target.clockHz
     << " s at " << target.clockHz << " Hz)\n";
  for (const StepStats &s : lastSteps)
    os << "  " << s.kind << " '" << s.name << "' x" << s.executions
       << ": compute " << s.compute << ", exchange " << s.exchange
       << ", sync " << s.sync << "\n";
}

// ------------------------------------------------------------ construction

std::string EngineCore::vertexName(unsigned id) const {
  const VertexData &v = vertices[id];
  return "vertex '" + v.cls->name + "' (" +
         (v.tile == kUnmapped ? "#" + std::to_string(id) + ", no tile"
                              : "tile " + std::to_string(v.tile)) +
         ") in compute set '" + computeSets[v.cs].name + "'";
}

void EngineCore::mapFollowingConstants() {
  for (Var &var : vars.vars) {
    if (var.followsVertex < 0)
      continue;
    const VertexData &v = vertices[static_cast<std::size_t>(var.followsVertex)];
    if (v.tile == kUnmapped)
      fail("Engine: " + vertexName(static_cast<unsigned>(var.followsVertex)) +
           " has no tile mapping; use Graph::setTileMapping(vertex, tile)");
    if (var.mapping.intervals().empty())
      var.mapping.assign(0, var.size, v.tile);
  }
}

void EngineCore::checkMapping() const {
  for (const Var &var : vars.vars) {
    std::size_t unmapped = 0, first = 0;
    var.mapping.forEach(0, var.size, [&](std::size_t b, std::size_t e, unsigned t) {
      if (t == kUnmapped) {
        if (unmapped == 0)
          first = b;
        unmapped += e - b;
      }
    });
    if (unmapped != 0)
      fail("Engine: tensor '" + var.name + "' has " + std::to_string(unmapped) +
           " unmapped element" + (unmapped == 1 ? "" : "s") + " (first: element " +
           std::to_string(first) + " of " + std::to_string(var.size) +
           "); map every element with Graph::setTileMapping");
  }
}

void EngineCore::checkVertices() const {
  for (unsigned id = 0; id < vertices.size(); ++id) {
    const VertexData &v = vertices[id];
    if (v.tile == kUnmapped)
      fail("Engine: " + vertexName(id) +
           " has no tile mapping; use Graph::setTileMapping(vertex, tile)");
    for (std::size_t f = 0; f < v.fields.size(); ++f) {
      const FieldSpec &spec = v.cls->fields[f];
      const FieldConn &c = v.fields[f];
      const std::string what = "Engine: field '" + spec.name + "' (" + spec.cppType +
                               ") of " + vertexName(id);
      if (spec.shape == Shape::Unsupported)
        fail(what + ": the emulator cannot initialise this field type");
      if (!spec.isEdge()) {
        if (!c.stateSet && !c.sizeSet)
          fail(what + " has no value; set it with Graph::setInitialValue");
        continue;
      }
      if (c.edges.empty() && !c.sizeSet)
        fail(what + " is not connected");
      for (std::size_t e = 0; e < c.edges.size(); ++e)
        if (!c.edges[e].set)
          fail(c.edges.size() == 1 && (spec.shape == Shape::Scalar || spec.shape == Shape::Vector)
                   ? what + " is not connected"
                   : what + ": entry " + std::to_string(e) + " is not connected");
    }
  }
}

void EngineCore::checkMemory() {
  tileBytes.assign(target.numTiles(), 0);
  for (const Var &var : vars.vars) {
    const unsigned es = typeSize(var.type);
    for (const auto &kv : var.mapping.intervals())
      tileBytes[kv.second.second] += (kv.second.first - kv.first) * es;
  }
  for (unsigned t = 0; t < tileBytes.size(); ++t)
    if (tileBytes[t] > target.bytesPerTile)
      fail("Engine: tile " + std::to_string(t) + " holds " +
           std::to_string(tileBytes[t]) +
           " bytes of variables and constants, more than its " +
           std::to_string(target.bytesPerTile) + " bytes of memory");
}

const ViewData &EngineCore::ownView(const Tensor &t, const char *what) const {
  const ViewData &v = Access<Tensor>::data(t, what);
  if (v.vars.get() != origVars)
    fail(std::string("Engine: ") + what + " uses tensor " + v.describe() +
         ", which belongs to another graph");
  return v;
}

void EngineCore::prepare(const core::ProgramImpl *p) {
  if (p == nullptr || !prepared.insert(p).second)
    return;
  switch (p->kind) {
  case Kind::Sequence:
    for (const Node &c : p->children)
      prepare(c.get());
    break;
  case Kind::Execute:
    if (p->cs >= computeSets.size())
      fail("Engine: Execute of compute set " + std::to_string(p->cs) +
           ", which does not exist in this graph");
    if (p->executeResult)
      ownView(p->a, "Execute");
    plan(p->cs);
    break;
  case Kind::Copy: {
    const ViewData &s = ownView(p->a, "Copy");
    const ViewData &d = ownView(p->b, "Copy");
    if (p->b.containsConstant())
      fail("Engine: Copy into tensor " + d.describe() + ", which is a constant");
    costs[p] = copyCost(s, d, typeSize(Access<Tensor>::type(p->a)));
    break;
  }
  case Kind::StreamToDevice:
  case Kind::StreamFromDevice: {
    const Tensor &t = p->kind == Kind::StreamToDevice ? p->b : p->a;
    const ViewData &v = ownView(t, "Copy");
    if (p->stream->graph != graphId)
      fail("Engine: stream '" + p->stream->handle + "' belongs to another graph");
    if (p->kind == Kind::StreamToDevice && t.containsConstant())
      fail("Engine: Copy from stream '" + p->stream->handle +
           "' into tensor " + v.describe() + ", which is a constant");
    costs[p] = streamCost(v, typeSize(Access<Tensor>::type(t)));
    break;
  }
  case Kind::RemoteToDevice:
  case Kind::RemoteFromDevice: {
    const bool in = p->kind == Kind::RemoteToDevice;
    const Tensor &t = in ? p->b : p->a;
    const ViewData &v = ownView(t, "Copy");
    if (p->remote->graph != graphId)
      fail("Engine: remote buffer '" + p->remote->handle + "' belongs to another graph");
    if (in && t.containsConstant())
      fail("Engine: Copy from remote buffer '" + p->remote->handle +
           "' into tensor " + v.describe() + ", which is a constant");
    if (p->offset.valid())
      ownView(p->offset, "Copy");
    const unsigned es = typeSize(Access<Tensor>::type(t));
    costs[p] = remoteCopyCost(std::uint64_t(v.size()) * es, target.clockHz,
                              target.streamingBytesPerSecond, target.syncCycles);
    costs[p].busiest = busiestTileElements(t) * es;
    break;
  }
  case Kind::Repeat:
  case Kind::Loop:
    prepare(p->body.get());
    break;
  case Kind::RepeatWhileTrue:
  case Kind::RepeatWhileFalse:
    ownView(p->a, "RepeatWhile");
    prepare(p->cond.get());
    prepare(p->body.get());
    break;
  case Kind::If:
    ownView(p->a, "If");
    prepare(p->body.get());
    prepare(p->elseBody.get());
    break;
  case Kind::Switch:
    ownView(p->a, "Switch");
    for (const auto &c : p->cases)
      prepare(c.second.get());
    prepare(p->elseBody.get());
    break;
  case Kind::AbortOnCondition:
    ownView(p->a, "AbortOnCondition");
    break;
  case Kind::PrintTensor:
    ownView(p->a, "PrintTensor");
    break;
  case Kind::WriteUndef:
    ownView(p->a, "WriteUndef");
    break;
  case Kind::Sync:
  case Kind::Abort:
    break;
  case Kind::DynamicSlice:
  case Kind::DynamicUpdate: {
    const char *what = p->kind == Kind::DynamicSlice ? "popops::dynamicSliceWithOutput"
                                                      : "popops::dynamicUpdate";
    ownView(p->a, what);
    ownView(p->b, what);
    ownView(p->offset, what);
    break;
  }
  case Kind::MatMul:
    ownView(p->a, "poplin::matMulWithOutput");
    ownView(p->b, "poplin::matMulWithOutput");
    ownView(p->out, "poplin::matMulWithOutput");
    break;
  case Kind::Reduce:
    ownView(p->a, "popops::reduceWithOutput");
    ownView(p->out, "popops::reduceWithOutput");
    if (p->b.valid())
      ownView(p->b, "popops::reduceWithOutput");
    costs[p] = reduceCost(reduceShape(p), target.numTiles(), target.workers,
                          target.exchangeBytesPerCycle, target.syncCycles);
    break;
  case Kind::MulInPlace:
    ownView(p->out, "popops::mulInPlace");
    break;
  case Kind::ScaledAdd:
  case Kind::Map:
  case Kind::Cast:
    ownView(p->a, "popops elementwise call");
    if (p->b.valid())
      ownView(p->b, "popops elementwise call");
    ownView(p->out, "popops elementwise call");
    break;
  }
}

Tensor EngineCore::dynamicBox(const core::ProgramImpl *p) const {
  const ViewData &ov = *Access<Tensor>::view(p->offset);
  std::vector<unsigned char> raw(ov.size() * 4);
  gather(ov, 4, raw.data());
  Tensor box = p->a;
  const ViewData &tv = *Access<Tensor>::view(p->a);
  for (std::size_t k = 0; k < p->dims.size(); ++k) {
    const std::size_t begin = loadAs<unsigned>(raw.data() + 4 * k, TypeId::UNSIGNED_INT);
    const std::size_t d = p->dims[k];
    if (begin + p->sizes[k] > tv.shape[d])
      fail(std::string(p->kind == Kind::DynamicSlice ? "popops::dynamicSliceWithOutput"
                                                     : "popops::dynamicUpdate") +
           ": offset " + std::to_string(begin) + " and size " + std::to_string(p->sizes[k]) +
           " leave dimension " + std::to_string(d) + " of tensor " + tv.describe() +
           " of shape " + shapeString(tv.shape));
    box = box.slice(begin, begin + p->sizes[k], static_cast<unsigned>(d));
  }
  return box;
}

std::vector<std::pair<std::size_t, unsigned>> EngineCore::segments(const ViewData &v) const {
  std::vector<std::pair<std::size_t, unsigned>> out; // (flatEnd, tile)
  forEachTileSegment(v, vars, [&](std::size_t, std::size_t e, unsigned t) {
    if (!out.empty() && out.back().second == t)
      out.back().first = e;
    else
      out.emplace_back(e, t);
  });
  return out;
}

StepCost EngineCore::copyCost(const ViewData &s, const ViewData &d, unsigned es) const {
  const auto a = segments(s), b = segments(d);
  std::vector<std::uint64_t> local(target.numTiles(), 0), cross(target.numTiles(), 0);
  std::size_t pos = 0, i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const std::size_t end = std::min(a[i].first, b[j].first);
    const std::uint64_t bytes = std::uint64_t(end - pos) * es;
    if (a[i].second == b[j].second)
      local[b[j].second] += bytes;
    else
      cross[b[j].second] += bytes;
    pos = end;
    if (a[i].first == end)
      ++i;
    if (b[j].first == end)
      ++j;
  }
  for (std::uint64_t &l : local)
    l = ceilDiv(l, target.dataPathBytes);
  return makeStepCost(local, cross, target.exchangeBytesPerCycle,
                      target.syncCycles, false);
}

StepCost EngineCore::streamCost(const ViewData &v, unsigned es) const {
  std::vector<std::uint64_t> none(target.numTiles(), 0), bytes(target.numTiles(), 0);
  forEachTileSegment(v, vars, [&](std::size_t b, std::size_t e, unsigned t) {
    bytes[t] += std::uint64_t(e - b) * es;
  });
  return makeStepCost(none, bytes, target.exchangeBytesPerCycle,
                      target.syncCycles, true);
}

void EngineCore::plan(unsigned cs) {
  if (csPlans.count(cs))
    return;
  auto cp = std::make_unique<CsPlan>();
  cp->name = computeSets[cs].name;
  std::vector<std::uint64_t> compute(target.numTiles(), 0), xbytes(target.numTiles(), 0);
  std::size_t cursor = 0;
  for (const unsigned id : computeSets[cs].vertices) {
    const VertexData &vd = vertices[id];
    VertexPlan vp;
    vp.id = id;
    vp.cls = vd.cls;
    vp.tile = vd.tile;
    cp->cost.vertices++;
    if (vd.hasEstimate)
      compute[vd.tile] += vd.cycles;
    else
      cp->cost.unestimated++;
    const unsigned vi = static_cast<unsigned>(cp->vertices.size());
    for (unsigned f = 0; f < vd.fields.size(); ++f) {
      const FieldSpec &spec = vd.cls->fields[f];
      if (!spec.isEdge())
        continue;
      const unsigned first = static_cast<unsigned>(cp->edges.size());
      for (unsigned e = 0; e < vd.fields[f].edges.size(); ++e) {
        const Tensor &t = vd.fields[f].edges[e].tensor;
        EdgePlan ep;
        ep.vertex = vi;
        ep.field = f;
        ep.edge = e;
        ep.dir = spec.dir;
        ep.type = spec.type;
        ep.esz = typeSize(spec.type);
        ep.view = Access<Tensor>::view(t);
        ep.n = ep.view->size();
        if (ep.dir != Dir::Out)
          vp.reads += ep.n;
        ep.zeroCopy = ep.dir == Dir::In && ep.view->contiguous() && ep.n != 0;
        if (!ep.zeroCopy) {
          ep.bufOff = cursor;
          cursor += align16(std::max<std::size_t>(1, ep.n * ep.esz));
        }
        if (ep.dir == Dir::Out) {
          ep.wOff = cursor;
          cursor += align16(std::max<std::size_t>(1, ep.n));
        }
        ep.st = std::make_unique<EdgeState>();
        ep.st->vertex = vd.cls->name;
        ep.st->tile = vd.tile;
        ep.st->field = spec.name;
        ep.st->tensor = ep.view->varName();
        ep.st->computeSet = cp->name;
        ep.st->worker = &runningWorker;
        // Exchange: edge elements held by another tile than the vertex.
        const std::uint64_t times = ep.dir == Dir::InOut ? 2 : 1;
        forEachTileSegment(*ep.view, vars, [&](std::size_t b, std::size_t en, unsigned tl) {
          if (tl != vd.tile)
            xbytes[vd.tile] += times * std::uint64_t(en - b) * ep.esz;
        });
        cp->edges.push_back(std::move(ep));
      }
      vp.fieldEdges.push_back(
          {f, {first, static_cast<unsigned>(cp->edges.size()) - first}});
    }
    cp->vertices.push_back(std::move(vp));
  }
  const unsigned vertexCount = cp->cost.vertices, unestimated = cp->cost.unestimated;
  cp->cost = makeStepCost(compute, xbytes, target.exchangeBytesPerCycle,
                          target.syncCycles, true);
  cp->cost.vertices = vertexCount;
  cp->cost.unestimated = unestimated;
  cp->busiestTile = static_cast<unsigned>(
      std::max_element(xbytes.begin(), xbytes.end()) - xbytes.begin());
  planWriteChecks(*cp);
  planWordChecks(*cp, cursor);
  planReadChecks(*cp);
  cp->arenaBytes = cursor;
  csPlans[cs] = std::move(cp);
}

template <class F>
void EngineCore::markOverlaps(std::vector<Span> &spans, F mark) {
  std::sort(spans.begin(), spans.end(),
            [](const Span &x, const Span &y) { return x.b < y.b; });
  std::size_t start = 0;
  while (start < spans.size()) {
    std::size_t end = start + 1;
    std::uint64_t reach = spans[start].e;
    while (end < spans.size() && spans[end].b < reach) {
      reach = std::max(reach, spans[end].e);
      ++end;
    }
    bool several = false;
    for (std::size_t k = start + 1; k < end && !several; ++k)
      several = spans[k].owner != spans[start].owner;
    if (several)
      for (std::size_t k = start; k < end; ++k)
        mark(spans[k].edge);
    start = end;
  }
}

bool EngineCore::subWordWrite(const EdgePlan &ep) { return ep.dir != Dir::In && ep.esz < 4; }

void EngineCore::planWriteChecks(CsPlan &cp) const {
  std::vector<Span> spans;
  for (unsigned i = 0; i < cp.edges.size(); ++i) {
    if (cp.edges[i].dir == Dir::In)
      continue;
    for (const auto &iv : addressIntervals(*cp.edges[i].view))
      spans.push_back(Span{iv.first, iv.second, i, i});
  }
  markOverlaps(spans, [&](unsigned e) {
    cp.edges[e].checkWrites = true;
    cp.checkWrites = true;
  });
}

void EngineCore::planWordChecks(CsPlan &cp, std::size_t &cursor) const {
  std::vector<Span> spans; // one per run, its own owner: runs of one edge can share a word too
  for (unsigned i = 0; i < cp.edges.size(); ++i) {
    const EdgePlan &ep = cp.edges[i];
    if (!subWordWrite(ep))
      continue;
    for (const Run &r : ep.view->runs) {
      const std::uint64_t base = std::uint64_t(r.var) << 40;
      const std::size_t lo = std::min(r.start, r.last()), hi = std::max(r.start, r.last());
      spans.push_back(Span{base + lo * ep.esz / 4, base + hi * ep.esz / 4 + 1, i,
                           static_cast<unsigned>(spans.size())});
    }
  }
  markOverlaps(spans, [&](unsigned e) { cp.edges[e].wordsShared = true; });
  for (unsigned i = 0; i < cp.edges.size(); ++i) {
    EdgePlan &ep = cp.edges[i];
    VertexPlan &vp = cp.vertices[ep.vertex];
    ep.checkWords = subWordWrite(ep) && (ep.wordsShared || vp.cls->multiVertex);
    cp.checkWords = cp.checkWords || ep.checkWords;
    if (!ep.checkWords || ep.dir != Dir::InOut)
      continue;
    ep.diffed = true;
    ep.snapOff = cursor;
    cursor += align16(std::max<std::size_t>(1, ep.n * ep.esz));
    ep.wOff = cursor;
    cursor += align16(std::max<std::size_t>(1, ep.n));
    vp.diffedEdges.push_back(i);
  }
}

void EngineCore::planReadChecks(CsPlan &cp) const {
  std::vector<Span> writes; // owner: the vertex
  for (unsigned i = 0; i < cp.edges.size(); ++i)
    if (cp.edges[i].dir != Dir::In)
      for (const auto &iv : addressIntervals(*cp.edges[i].view))
        writes.push_back(Span{iv.first, iv.second, i, cp.edges[i].vertex});
  if (writes.empty())
    return;
  std::sort(writes.begin(), writes.end(),
            [](const Span &x, const Span &y) { return x.b < y.b; });
  std::vector<std::uint64_t> reach(writes.size());
  for (std::size_t k = 0; k < writes.size(); ++k)
    reach[k] = std::max(writes[k].e, k ? reach[k - 1] : 0);
  std::map<std::pair<unsigned, unsigned>, std::size_t> pairs; // (read, write) -> index
  for (unsigned i = 0; i < cp.edges.size(); ++i) {
    const EdgePlan &ep = cp.edges[i];
    if (ep.dir == Dir::Out)
      continue;
    for (const auto &iv : addressIntervals(*ep.view)) {
      // spans before `lo` end at or before iv.first; from `hi` on they begin at or after iv.second
      const std::size_t lo = static_cast<std::size_t>(
          std::upper_bound(reach.begin(), reach.end(), iv.first) - reach.begin());
      const std::size_t hi = static_cast<std::size_t>(
          std::lower_bound(writes.begin(), writes.end(), iv.second,
                           [](const Span &w, std::uint64_t v) { return w.b < v; }) -
          writes.begin());
      for (std::size_t k = lo; k < hi; ++k) {
        const Span &w = writes[k];
        if (w.e <= iv.first || w.owner == ep.vertex)
          continue;
        const auto ins = pairs.emplace(std::make_pair(i, w.edge), cp.readHazards.size());
        if (ins.second)
          cp.readHazards.push_back(ReadHazard{i, w.edge, {}});
        cp.readHazards[ins.first->second].shared.emplace_back(std::max(w.b, iv.first),
                                                              std::min(w.e, iv.second));
      }
    }
  }
  for (ReadHazard &h : cp.readHazards) {
    auto &v = h.shared;
    std::sort(v.begin(), v.end());
    std::size_t out = 0;
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (out && v[k].first <= v[out - 1].second)
        v[out - 1].second = std::max(v[out - 1].second, v[k].second);
      else
        v[out++] = v[k];
    }
    v.resize(out);
  }
}

void EngineCore::allocate() {
  mem.resize(vars.vars.size());
  for (std::size_t i = 0; i < vars.vars.size(); ++i) {
    const Var &var = vars.vars[i];
    if (var.constant)
      mem[i] = var.init;
    else
      mem[i].assign(var.size * typeSize(var.type), 0);
  }
  std::size_t arenaBytes = 16;
  for (const auto &kv : csPlans)
    arenaBytes = std::max(arenaBytes, kv.second->arenaBytes);
  arenaStore.reset(static_cast<unsigned char *>(
      ::operator new(arenaBytes, std::align_val_t(64))));
  arena = arenaStore.get();
  std::memset(arena, 0, arenaBytes);
  for (auto &kv : csPlans)
    bind(*kv.second);
}

void EngineCore::bind(CsPlan &cp) {
  for (EdgePlan &ep : cp.edges) {
    if (ep.zeroCopy) {
      const Run &r = ep.view->runs[0];
      ep.data = mem[r.var].data() + r.start * ep.esz;
    } else {
      ep.data = arena + ep.bufOff;
    }
    if (ep.dir == Dir::Out || ep.diffed)
      ep.written = arena + ep.wOff;
    if (ep.dir == Dir::Out)
      ep.st->written = ep.written;
    if (ep.diffed)
      ep.snap = arena + ep.snapOff;
  }
  for (VertexPlan &vp : cp.vertices) {
    vp.obj = std::unique_ptr<void, void (*)(void *)>(vp.cls->create(), vp.cls->destroy);
    const VertexData &vd = vertices[vp.id];
    for (unsigned f = 0; f < vd.fields.size(); ++f) {
      const FieldSpec &spec = vp.cls->fields[f];
      if (!spec.isEdge())
        spec.setState(spec.address(vp.obj.get()), vd.fields[f].stateBytes.data(),
                      vd.fields[f].stateCount, spec.type, vp.keep);
    }
    for (const auto &fe : vp.fieldEdges) {
      const FieldSpec &spec = vp.cls->fields[fe.first];
      std::vector<EdgeBinding> b;
      for (unsigned k = 0; k < fe.second.second; ++k) {
        const EdgePlan &ep = cp.edges[fe.second.first + k];
        b.push_back(EdgeBinding{ep.data, ep.n, ep.st.get()});
      }
      spec.bind(spec.address(vp.obj.get()), b.data(), b.size(), vp.keep);
    }
  }
}

// --------------------------------------------------------------- data moves

void EngineCore::gather(const ViewData &v, unsigned es, unsigned char *dst) const {
  for (const Run &r : v.runs) {
    const unsigned char *base = mem[r.var].data();
    if (r.stride == 1 || r.count == 1) {
      std::memcpy(dst, base + r.start * es, r.count * es);
      dst += r.count * es;
    } else {
      for (std::size_t k = 0; k < r.count; ++k, dst += es)
        std::memcpy(dst, base + r.addr(k) * es, es);
    }
  }
}

void EngineCore::scatter(const ViewData &v, unsigned es, const unsigned char *src) {
  for (const Run &r : v.runs) {
    unsigned char *base = mem[r.var].data();
    if (r.stride == 1 || r.count == 1) {
      std::memcpy(base + r.start * es, src, r.count * es);
      src += r.count * es;
    } else {
      for (std::size_t k = 0; k < r.count; ++k, src += es)
        std::memcpy(base + r.addr(k) * es, src, es);
    }
  }
}

std::size_t EngineCore::scatterWritten(const ViewData &v, unsigned es, const unsigned char *src,
                                       const unsigned char *written) {
  std::size_t pos = 0, count = 0;
  for (const Run &r : v.runs) {
    unsigned char *base = mem[r.var].data();
    if (r.stride == 1 || r.count == 1) {
      std::size_t k = 0;
      while (k < r.count) {
        if (!written[pos + k]) {
          ++k;
          continue;
        }
        std::size_t k1 = k + 1;
        while (k1 < r.count && written[pos + k1])
          ++k1;
        std::memcpy(base + (r.start + k) * es, src + (pos + k) * es, (k1 - k) * es);
        count += k1 - k;
        k = k1;
      }
    } else {
      for (std::size_t k = 0; k < r.count; ++k)
        if (written[pos + k]) {
          std::memcpy(base + r.addr(k) * es, src + (pos + k) * es, es);
          ++count;
        }
    }
    pos += r.count;
  }
  return count;
}

// ---------------------------------------------------------------- execution

StepStats &EngineCore::step(const core::ProgramImpl *p, const std::string &name,
                            const char *kind) {
  auto it = stepIndex.find(p);
  if (it != stepIndex.end())
    return steps[it->second];
  stepIndex.emplace(p, steps.size());
  steps.push_back(StepStats{});
  steps.back().name = name;
  steps.back().kind = kind;
  const std::string k = kind;
  steps.back().modelled = k == "matmul" || k == "reduce" || k == "elementwise";
  return steps.back();
}

void EngineCore::account(const core::ProgramImpl *p, const std::string &name,
                         const char *kind, const StepCost &c) {
  StepStats &s = step(p, name, kind);
  s.executions++;
  s.compute += c.compute;
  s.exchange += c.exchange;
  s.sync += c.sync;
  s.syncs += c.syncs;
  s.exchangeBytes += c.exchangeBytes;
  s.busiestBytes += c.busiest;
  s.vertices = c.vertices;
  s.unestimated = c.unestimated;
  for (const auto &tc : c.tileCompute)
    tileCompute[tc.first] += tc.second;
  for (const auto &tx : c.tileExchange)
    tileExchange[tx.first] += tx.second;
}

void EngineCore::accountControl(const core::ProgramImpl *p, const char *what) {
  StepCost c;
  c.sync = target.syncCycles;
  c.syncs = 1;
  account(p, p->name.empty() ? std::string(what) + " '" +
                                   Access<Tensor>::view(p->a)->varName() + "'"
                             : p->name,
          "control", c);
}

long long EngineCore::readScalar(const Tensor &t) const {
  const ViewData &v = *Access<Tensor>::view(t);
  const TypeId ty = Access<Tensor>::type(t);
  unsigned char buf[8] = {};
  gather(v, typeSize(ty), buf);
  return loadAs<long long>(buf, ty);
}

void EngineCore::exec(const core::ProgramImpl *p) {
  if (p == nullptr)
    return;
  switch (p->kind) {
  case Kind::Sequence:
    for (const Node &c : p->children)
      exec(c.get());
    return;
  case Kind::Execute: {
    const bool ok = runComputeSet(*csPlans.at(p->cs), !p->executeResult);
    if (p->executeResult) {
      unsigned char buf[8] = {};
      storeAs(buf, Access<Tensor>::type(p->a), ok ? 1 : 0);
      scatter(*Access<Tensor>::view(p->a), typeSize(Access<Tensor>::type(p->a)), buf);
    }
    account(p, computeSets[p->cs].name, "execute", csPlans.at(p->cs)->cost);
    return;
  }
  case Kind::Copy: {
    const ViewData &s = *Access<Tensor>::view(p->a);
    const unsigned es = typeSize(Access<Tensor>::type(p->a));
    std::vector<unsigned char> tmp(s.size() * es);
    gather(s, es, tmp.data());
    scatter(*Access<Tensor>::view(p->b), es, tmp.data());
    account(p, p->name.empty() ? "copy '" + s.varName() + "' -> '" +
                                     Access<Tensor>::view(p->b)->varName() + "'"
                               : p->name,
            "copy", costs.at(p));
    return;
  }
  case Kind::StreamToDevice:
  case Kind::StreamFromDevice: {
    const bool in = p->kind == Kind::StreamToDevice;
    const Tensor &t = in ? p->b : p->a;
    const ViewData &v = *Access<Tensor>::view(t);
    const unsigned es = typeSize(Access<Tensor>::type(t));
    auto it = conns.find(p->stream->handle);
    if (it == conns.end())
      fail("Engine::run: stream '" + p->stream->handle +
           "' is not connected (Engine::connectStream)");
    StreamConn &c = it->second;
    const std::size_t bytes = v.size() * es;
    if (c.pos + bytes > c.end)
      c.pos = c.begin;
    if (in)
      scatter(v, es, c.pos);
    else
      gather(v, es, c.pos);
    c.pos += bytes;
    if (c.pos >= c.end)
      c.pos = c.begin;
    account(p, p->name.empty() ? (in ? "stream '" + p->stream->handle + "' -> '" + v.varName() + "'"
                                     : "'" + v.varName() + "' -> stream '" + p->stream->handle + "'")
                               : p->name,
            "stream_copy", costs.at(p));
    return;
  }
  case Kind::RemoteToDevice:
  case Kind::RemoteFromDevice: {
    const bool in = p->kind == Kind::RemoteToDevice;
    const Tensor &t = in ? p->b : p->a;
    const ViewData &v = *Access<Tensor>::view(t);
    const long long repeat = p->offset.valid() ? readScalar(p->offset) : 0;
    unsigned char *slot = remoteRepeat(*p->remote, repeat, "Copy");
    if (in)
      scatter(v, typeSize(Access<Tensor>::type(t)), slot);
    else
      gather(v, typeSize(Access<Tensor>::type(t)), slot);
    account(p, p->name.empty() ? (in ? "remote buffer '" + p->remote->handle + "' -> '" + v.varName() + "'"
                                     : "'" + v.varName() + "' -> remote buffer '" + p->remote->handle + "'")
                               : p->name,
            "remote_copy", costs.at(p));
    return;
  }
  case Kind::Repeat:
    for (unsigned i = 0; i < p->count; ++i)
      exec(p->body.get());
    return;
  case Kind::Loop:
    for (;;)
      exec(p->body.get());
  case Kind::RepeatWhileTrue:
  case Kind::RepeatWhileFalse: {
    const bool whileTrue = p->kind == Kind::RepeatWhileTrue;
    for (;;) {
      exec(p->cond.get());
      const bool pred = readScalar(p->a) != 0;
      accountControl(p, whileTrue ? "repeatWhileTrue" : "repeatWhileFalse");
      if (pred != whileTrue)
        return;
      exec(p->body.get());
    }
  }
  case Kind::If: {
    const bool pred = readScalar(p->a) != 0;
    accountControl(p, "if");
    exec(pred ? p->body.get() : p->elseBody.get());
    return;
  }
  case Kind::Switch: {
    const long long v = readScalar(p->a);
    accountControl(p, "switch");
    for (const auto &c : p->cases)
      if (c.first == v) {
        exec(c.second.get());
        return;
      }
    exec(p->elseBody.get());
    return;
  }
  case Kind::AbortOnCondition: {
    const bool pred = readScalar(p->a) != 0;
    accountControl(p, "abortOnCondition");
    if (pred)
      fail("Engine::run: AbortOnCondition: predicate " +
           Access<Tensor>::view(p->a)->describe() + " is true" +
           (p->message.empty() ? std::string() : ": " + p->message));
    return;
  }
  case Kind::Abort:
    fail("Engine::run: Abort" +
         (p->message.empty() ? std::string() : ": " + p->message));
  case Kind::Sync: {
    StepCost c;
    c.sync = target.syncCycles;
    c.syncs = 1;
    account(p, p->name.empty() ? "sync" : p->name, "sync", c);
    return;
  }
  case Kind::PrintTensor:
    printTensor(p->message, p->a);
    return;
  case Kind::WriteUndef:
    return;
  case Kind::DynamicSlice:
  case Kind::DynamicUpdate: {
    const bool slice = p->kind == Kind::DynamicSlice;
    const Tensor box = dynamicBox(p);
    const ViewData &from = *Access<Tensor>::view(slice ? box : p->b);
    const ViewData &to = *Access<Tensor>::view(slice ? p->b : box);
    const unsigned es = typeSize(Access<Tensor>::type(p->a));
    std::vector<unsigned char> tmp(from.size() * es);
    gather(from, es, tmp.data());
    scatter(to, es, tmp.data());
    StepCost c = copyCost(from, to, es);
    c.sync = target.syncCycles;
    c.syncs = 1;
    account(p, p->name.empty() ? (slice ? "dynamicSlice '" : "dynamicUpdate '") +
                                     Access<Tensor>::view(p->a)->varName() + "'"
                               : p->name,
            slice ? "dynamic_slice" : "dynamic_update", c);
    return;
  }
  case Kind::MatMul:
    matMul(p);
    return;
  case Kind::Reduce:
    reduce(p);
    return;
  case Kind::MulInPlace:
    mulInPlace(p);
    return;
  case Kind::ScaledAdd:
  case Kind::Map:
  case Kind::Cast:
    elementwise(p);
    return;
  }
}

std::vector<float> EngineCore::loadFloats(const Tensor &t) const {
  const ViewData &v = *Access<Tensor>::view(t);
  const TypeId ty = Access<Tensor>::type(t);
  std::vector<unsigned char> raw(v.size() * typeSize(ty));
  gather(v, typeSize(ty), raw.data());
  std::vector<float> values(v.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = loadAs<float>(raw.data() + i * typeSize(ty), ty);
  return values;
}

void EngineCore::storeFloats(const Tensor &t, const std::vector<float> &values) {
  const ViewData &v = *Access<Tensor>::view(t);
  const TypeId ty = Access<Tensor>::type(t);
  std::vector<unsigned char> raw(v.size() * typeSize(ty));
  for (std::size_t i = 0; i < values.size(); ++i)
    storeAs(raw.data() + i * typeSize(ty), ty, values[i]);
  scatter(v, typeSize(ty), raw.data());
}

std::uint64_t EngineCore::busiestTileElements(const Tensor &t) const {
  std::vector<std::uint64_t> count(target.numTiles(), 0);
  forEachTileSegment(*Access<Tensor>::view(t), vars, [&](std::size_t b, std::size_t e, unsigned tile) {
    if (tile < count.size())
      count[tile] += e - b;
  });
  return count.empty() ? 0 : *std::max_element(count.begin(), count.end());
}

void EngineCore::matMul(const core::ProgramImpl *p) {
  // Products accumulate in float, as poplin's default float partials do for half
  // operands, and round once into the output's type; matMulAcc rounds the product
  // to C's type, then adds k times it to C in float and rounds again, as poplin's
  // matMul then popops::scaledAddTo do.
  const ViewData &av = *Access<Tensor>::view(p->a);
  const ViewData &bv = *Access<Tensor>::view(p->b);
  const ViewData &ov = *Access<Tensor>::view(p->out);
  const bool grouped = av.shape.size() == 3;
  const std::size_t g = grouped ? av.shape[0] : 1;
  const std::size_t m = av.shape[grouped ? 1 : 0], k = av.shape[grouped ? 2 : 1],
                    n = bv.shape[grouped ? 2 : 1];
  const TypeId at = Access<Tensor>::type(p->a), ot = Access<Tensor>::type(p->out);
  const std::vector<float> a = loadFloats(p->a), b = loadFloats(p->b);
  std::vector<float> out = p->accumulate ? loadFloats(p->out) : std::vector<float>(ov.size());
  for (std::size_t group = 0; group < g; ++group)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        float sum = 0;
        for (std::size_t q = 0; q < k; ++q)
          sum += a[(group * m + i) * k + q] * b[(group * k + q) * n + j];
        float &o = out[(group * m + i) * n + j];
        if (p->accumulate) {
          unsigned char rounded[4];
          storeAs(rounded, ot, sum);
          o += static_cast<float>(p->scale) * loadAs<float>(rounded, ot);
        } else {
          o = sum;
        }
      }
  storeFloats(p->out, out);
  const ArchParams &arch = getArch(target.arch);
  const unsigned peak = at == TypeId::HALF ? arch.flopsPerCycleF16 : arch.flopsPerCycleF32;
  StepCost c = matMulCost(g, m, k, n, typeSize(at), target.numTiles(), peak,
                          target.exchangeBytesPerCycle, target.syncCycles);
  if (p->accumulate) {
    c.compute += scaledAddSupervisorCycles(ot == TypeId::HALF, busiestTileElements(p->out),
                                           target.workers);
    c.sync += target.syncCycles;
    c.syncs++;
  }
  account(p, p->name.empty() ? "matMul '" + ov.varName() + "'" : p->name, "matmul", c);
}

void EngineCore::mulInPlace(const core::ProgramImpl *p) {
  std::vector<float> values = loadFloats(p->out);
  for (float &v : values)
    v *= static_cast<float>(p->scale);
  storeFloats(p->out, values);
  StepCost c;
  c.compute = binaryOp1DInPlaceMultiplyCycles(Access<Tensor>::type(p->out) == TypeId::HALF,
                                              busiestTileElements(p->out), target.workers);
  c.sync = target.syncCycles;
  c.syncs = 1;
  account(p, p->name.empty() ? "mulInPlace '" + Access<Tensor>::view(p->out)->varName() + "'"
                             : p->name,
          "elementwise", c);
}

namespace {

/// One element of a popops::expr op, in float as the emulator computes them.
float mapElement(int op, bool binary, float a, float b) {
  using B = popops::expr::BinaryOpType;
  using U = popops::expr::UnaryOpType;
  if (binary) {
    switch (static_cast<B>(op)) {
    case B::ADD:
      return a + b;
    case B::SUBTRACT:
      return a - b;
    case B::MULTIPLY:
      return a * b;
    case B::DIVIDE:
      return a / b;
    case B::MAXIMUM:
      return std::max(a, b);
    case B::MINIMUM:
      return std::min(a, b);
    default:
      break;
    }
  } else {
    switch (static_cast<U>(op)) {
    case U::ABSOLUTE:
      return std::fabs(a);
    case U::CEIL:
      return std::ceil(a);
    case U::EXPONENT:
      return std::exp(a);
    case U::EXPONENT2:
      return std::exp2(a);
    case U::FLOOR:
      return std::floor(a);
    case U::LOGARITHM:
      return std::log(a);
    case U::NEGATE:
      return -a;
    case U::RSQRT:
      return 1.0f / std::sqrt(a);
    case U::SQRT:
      return std::sqrt(a);
    case U::TANH:
      return std::tanh(a);
    case U::TRUNC:
      return std::trunc(a);
    default:
      break;
    }
  }
  fail("popops map step of an op the emulator does not run (" + std::to_string(op) + ")");
}

} // namespace

void EngineCore::elementwise(const core::ProgramImpl *p) {
  // Computed in float, rounded into the output's type once, as mulInPlace does.
  const std::vector<float> a = loadFloats(p->a);
  std::vector<float> out(a.size());
  const bool binary = p->b.valid();
  std::string call = "cast";
  if (p->kind == Kind::ScaledAdd) {
    out = loadFloats(p->out);
    const float k = loadFloats(p->b)[0];
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = p->subtract ? out[i] - k * a[i] : out[i] + k * a[i];
    call = p->subtract ? "scaledSubtractFrom" : "scaledAddTo";
  } else if (p->kind == Kind::Map) {
    const std::vector<float> b = binary ? loadFloats(p->b) : std::vector<float>(a.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = mapElement(p->mapOp, binary, a[i], b[i]);
    call = "map";
  } else {
    out = a;
  }
  storeFloats(p->out, out);
  // One superstep where the output lies (see CostModel.hpp).
  const TypeId outType = Access<Tensor>::type(p->out), inType = Access<Tensor>::type(p->a);
  const bool half = inType == TypeId::HALF;
  const std::uint64_t n = busiestTileElements(p->out);
  StepCost c;
  if (p->kind == Kind::ScaledAdd)
    c.compute = p->subtract ? scaledSubtractSupervisorCycles(half, n, target.workers)
                            : scaledAddSupervisorCycles(half, n, target.workers);
  else if (p->kind == Kind::Map && binary)
    c.compute = binaryOp1DCycles(p->mapOp, half, Access<Tensor>::view(p->out) == Access<Tensor>::view(p->a),
                                 n, target.workers);
  else if (p->kind == Kind::Map)
    c.compute = unaryOp1DCycles(p->mapOp, half, n, target.workers);
  else
    c.compute = cast1DCycles(half, outType == TypeId::HALF, n, target.workers);
  const std::vector<unsigned> outTiles = elementTiles(p->out);
  std::vector<std::uint64_t> received(target.numTiles(), 0);
  const std::vector<Tensor> inputs = p->kind == Kind::Map && binary ? std::vector<Tensor>{p->a, p->b}
                                                                    : std::vector<Tensor>{p->a};
  for (const Tensor &t : inputs) {
    const std::vector<unsigned> tiles = elementTiles(t);
    const unsigned es = typeSize(Access<Tensor>::type(t));
    for (std::size_t i = 0; i < tiles.size(); ++i)
      if (tiles[i] != outTiles[i] && outTiles[i] < received.size())
        received[outTiles[i]] += es;
  }
  if (p->kind == Kind::ScaledAdd) { // the scale reaches every tile of A but its own
    const unsigned scaleTile = elementTiles(p->b)[0];
    std::vector<bool> holds(target.numTiles(), false);
    for (const unsigned t : outTiles)
      if (t < holds.size())
        holds[t] = true;
    for (unsigned t = 0; t < holds.size(); ++t)
      if (holds[t] && t != scaleTile)
        received[t] += typeSize(Access<Tensor>::type(p->b));
  }
  const std::uint64_t most = received.empty() ? 0 : *std::max_element(received.begin(), received.end());
  c.exchange = ceilDiv(most, target.exchangeBytesPerCycle);
  c.exchangeBytes = std::accumulate(received.begin(), received.end(), std::uint64_t{0});
  c.sync = target.syncCycles;
  account(p, p->name.empty() ? call + " '" + Access<Tensor>::view(p->out)->varName() + "'" : p->name,
          "elementwise", c);
}

namespace {

/// Values a worker folds per cycle: the 64-bit data path of floats and halves, one int
/// (the accumulator widths of CycleEstimationFunctions.cpp:362-366 in graphcore/poplibs).
unsigned foldWidth(TypeId t) { return t == TypeId::HALF ? 4 : t == TypeId::FLOAT ? 2 : 1; }

/// Row-major position in `shape` of the output each element of `shape` goes to when
/// `dims` are reduced.
std::vector<std::size_t> outputsOf(const std::vector<std::size_t> &shape,
                                   const std::vector<std::size_t> &dims) {
  std::size_t n = 1;
  for (const std::size_t e : shape)
    n *= e;
  std::vector<std::size_t> stride(shape.size(), 0); // the output stride of each dim
  std::size_t s = 1;
  for (std::size_t d = shape.size(); d-- > 0;)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
      stride[d] = s;
      s *= shape[d];
    }
  std::vector<std::size_t> out(n), index(shape.size(), 0);
  std::size_t o = 0;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = o;
    for (std::size_t d = shape.size(); d-- > 0;) {
      o += stride[d];
      if (++index[d] < shape[d])
        break;
      o -= stride[d] * shape[d];
      index[d] = 0;
    }
  }
  return out;
}

/// The value `x` has once stored in an element of type `t` (floats round; ints wrap
/// to 32 bits, as the IPU's integer arithmetic does).
template <class V> V roundTo(TypeId t, V x) {
  if constexpr (std::is_same_v<V, long long>) {
    return static_cast<long long>(static_cast<std::int32_t>(static_cast<std::uint32_t>(x)));
  } else {
    if (t == TypeId::HALF)
      return float(IeeeHalf(float(x)));
    return t == TypeId::FLOAT ? V(float(x)) : x;
  }
}

template <class V> V combine(popops::Operation op, V a, V b) {
  switch (op) {
  case popops::Operation::ADD:
    return a + b;
  case popops::Operation::MUL:
    if constexpr (std::is_same_v<V, long long>)
      return static_cast<long long>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
    else
      return a * b;
  case popops::Operation::MIN:
    return std::min(a, b);
  default:
    return std::max(a, b);
  }
}

/// The result of reducing no values (poplibs' reductionInitialValue, Reduction.cpp:
/// 426-443; the largest and smallest int for an int MIN and MAX).
template <class V> V initial(popops::Operation op) {
  if (op == popops::Operation::ADD)
    return V(0);
  if (op == popops::Operation::MUL)
    return V(1);
  if constexpr (std::is_same_v<V, long long>)
    return op == popops::Operation::MIN ? V(INT32_MAX) : V(INT32_MIN);
  else
    return op == popops::Operation::MIN ? V(INFINITY) : V(-INFINITY);
}

/// Each output of a reduction (see popops/Reduce.hpp): the values of each tile folded
/// into a partial in type `inVertex`, the partials of each output (in tile order)
/// in `interTile`, the old output added under update, then the scale.
template <class V>
std::vector<V> reduced(const std::vector<V> &values, const ReduceShape &shape,
                       const std::vector<V> &old, popops::Operation op, TypeId inVertex,
                       TypeId interTile, double scale) {
  std::map<std::pair<std::size_t, unsigned>, V> partials;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto key = std::make_pair(shape.outputOf[i], shape.inTiles[i]);
    auto it = partials.emplace(key, initial<V>(op)).first;
    it->second = roundTo(inVertex, combine(op, it->second, values[i]));
  }
  std::vector<V> out(shape.outTiles.size(), initial<V>(op));
  for (const auto &entry : partials) {
    V &o = out[entry.first.first];
    o = roundTo(interTile, combine(op, o, roundTo(interTile, entry.second)));
  }
  for (std::size_t o = 0; o < out.size(); ++o) {
    if (scale != 1)
      out[o] = roundTo(interTile, V(out[o] * scale));
    if (!old.empty())
      out[o] = roundTo(interTile, combine(popops::Operation::ADD, old[o], out[o]));
  }
  return out;
}

} // namespace

std::vector<unsigned> EngineCore::elementTiles(const Tensor &t) const {
  const ViewData &v = *Access<Tensor>::view(t);
  std::vector<unsigned> tiles(v.size());
  std::size_t begin = 0;
  for (const auto &seg : segments(v)) {
    std::fill(tiles.begin() + begin, tiles.begin() + seg.first, seg.second);
    begin = seg.first;
  }
  return tiles;
}

ReduceShape EngineCore::reduceShape(const core::ProgramImpl *p) const {
  const ViewData &iv = *Access<Tensor>::view(p->a);
  ReduceShape r;
  r.inTiles = elementTiles(p->a);
  r.outTiles = elementTiles(p->out);
  r.outputOf = outputsOf(iv.shape, p->dims);
  const TypeId it = Access<Tensor>::type(p->a), ot = Access<Tensor>::type(p->out);
  r.valueWidth = foldWidth(it);
  r.accumWidth = foldWidth(p->interTile);
  r.outBytes = typeSize(ot);
  r.accumBytes = typeSize(p->interTile);
  r.accumFloat = p->interTile == TypeId::FLOAT;
  r.outFloat = ot == TypeId::FLOAT;
  r.update = p->update;
  return r;
}

void EngineCore::reduce(const core::ProgramImpl *p) {
  const ViewData &iv = *Access<Tensor>::view(p->a);
  const ViewData &ov = *Access<Tensor>::view(p->out);
  const TypeId it = Access<Tensor>::type(p->a), ot = Access<Tensor>::type(p->out);
  const auto op = static_cast<popops::Operation>(p->reduceOp);
  const ReduceShape shape = reduceShape(p);
  std::vector<unsigned char> in(iv.size() * typeSize(it)), out(ov.size() * typeSize(ot));
  gather(iv, typeSize(it), in.data());
  if (p->update)
    gather(ov, typeSize(ot), out.data());
  double scale = 1;
  if (p->b.valid()) {
    float s;
    gather(*Access<Tensor>::view(p->b), 4, reinterpret_cast<unsigned char *>(&s));
    scale = s;
  }
  auto load = [](const std::vector<unsigned char> &raw, TypeId t, auto zero) {
    std::vector<decltype(zero)> values(raw.size() / typeSize(t));
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = loadAs<decltype(zero)>(raw.data() + i * typeSize(t), t);
    return values;
  };
  auto run = [&](auto zero) {
    const auto values = load(in, it, zero);
    const auto old = p->update ? load(out, ot, zero) : decltype(values)();
    const auto result = reduced(values, shape, old, op, p->inVertex, p->interTile, scale);
    for (std::size_t o = 0; o < result.size(); ++o)
      storeAs(out.data() + o * typeSize(ot), ot, result[o]);
  };
  if (it == TypeId::INT)
    run(0LL);
  else
    run(0.0);
  scatter(ov, typeSize(ot), out.data());
  account(p, p->name.empty() ? "reduce '" + ov.varName() + "'" : p->name, "reduce", costs.at(p));
}

void EngineCore::printTensor(const std::string &title, const Tensor &t) const {
  const ViewData &v = *Access<Tensor>::view(t);
  const TypeId ty = Access<Tensor>::type(t);
  const unsigned es = typeSize(ty);
  std::vector<unsigned char> buf(v.size() * es);
  gather(v, es, buf.data());
  std::string out = title + ": ";
  std::size_t i = 0;
  std::function<void(std::size_t)> rec = [&](std::size_t d) {
    if (d == v.shape.size()) {
      out += formatElement(buf.data() + i * es, ty);
      ++i;
      return;
    }
    out += "[";
    for (std::size_t k = 0; k < v.shape[d]; ++k) {
      if (k)
        out += ", ";
      rec(d + 1);
    }
    out += "]";
  };
  rec(0);
  std::cout << out << std::endl;
}

bool EngineCore::runComputeSet(CsPlan &cp, bool failOnFalse) {
  // 1. snapshot
  for (EdgePlan &ep : cp.edges) {
    if (!ep.zeroCopy && ep.dir != Dir::Out)
      gather(*ep.view, ep.esz, ep.data);
    if (ep.written)
      std::memset(ep.written, 0, ep.n);
    if (ep.diffed)
      std::memcpy(ep.snap, ep.data, ep.n * ep.esz);
  }
  // 2. run in shuffled order
  std::vector<unsigned> order(cp.vertices.size());
  for (unsigned i = 0; i < order.size(); ++i)
    order[i] = i;
  SplitMix64 &rng = processState().rng;
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[rng.next() % i]);
  bool allOk = true;
  for (const unsigned i : order) {
    VertexPlan &vp = cp.vertices[i];
    const unsigned workers = vp.cls->multiVertex ? target.workers : 1;
    for (unsigned w = 0; w < workers; ++w) {
      runningWorker = static_cast<unsigned char>(w + 1);
      bool ok = true;
      try {
        ok = vp.cls->compute(vp.obj.get(), w);
      } catch (const poplar_error &) {
        throw;
      } catch (const std::exception &e) {
        fail("vertex '" + vp.cls->name + "' (tile " + std::to_string(vp.tile) +
             ") in compute set '" + cp.name + "' threw: " + e.what());
      }
      if (!ok) {
        if (failOnFalse)
          fail("vertex '" + vp.cls->name + "' (tile " + std::to_string(vp.tile) +
               ") in compute set '" + cp.name + "' returned false from compute()");
        allOk = false;
      }
      for (const unsigned e : vp.diffedEdges)
        recordChanges(cp.edges[e]);
    }
  }
  // 3. write check
  if (cp.checkWrites)
    checkWrites(cp);
  if (cp.checkWords)
    checkWords(cp);
  if (!cp.readHazards.empty())
    checkReads(cp);
  // 4. commit, counting what each vertex wrote (Measurement.hpp)
  for (EdgePlan &ep : cp.edges) {
    if (ep.dir == Dir::Out) {
      cp.vertices[ep.vertex].written += scatterWritten(*ep.view, ep.esz, ep.data, ep.written);
    } else if (ep.dir == Dir::InOut) {
      scatter(*ep.view, ep.esz, ep.data);
      cp.vertices[ep.vertex].written += ep.n;
    }
  }
  if (cp.runs++ == 0)
    csRan.push_back(&cp);
  return allOk;
}

void EngineCore::checkWrites(const CsPlan &cp) const {
  std::unordered_map<std::uint64_t, unsigned> owner;
  for (unsigned i = 0; i < cp.edges.size(); ++i) {
    const EdgePlan &ep = cp.edges[i];
    if (!ep.checkWrites)
      continue;
    std::size_t pos = 0;
    for (const Run &r : ep.view->runs) {
      for (std::size_t k = 0; k < r.count; ++k, ++pos) {
        if (ep.dir == Dir::Out && !ep.written[pos])
          continue;
        const std::size_t addr = r.addr(k);
        const std::uint64_t key = (std::uint64_t(r.var) << 40) | addr;
        const auto ins = owner.emplace(key, i);
        if (ins.second || ins.first->second == i)
          continue;
        const EdgePlan &other = cp.edges[ins.first->second];
        const VertexPlan &va = cp.vertices[other.vertex];
        const VertexPlan &vb = cp.vertices[ep.vertex];
        fail("vertices '" + va.cls->name + "' (tile " + std::to_string(va.tile) +
             ") and '" + vb.cls->name + "' (tile " + std::to_string(vb.tile) +
             ") both write element " + std::to_string(addr) + " of '" +
             vars.vars[r.var].name + "' in compute set '" + cp.name +
             "' (fields '" + other.st->field + "' and '" + ep.st->field + "')");
      }
    }
  }
}

template <class Bits>
void EngineCore::recordChanges(EdgePlan &ep) const {
  constexpr std::size_t perChunk = 8 / sizeof(Bits);
  for (std::size_t i = 0; i < ep.n; i += perChunk) {
    if (i + perChunk <= ep.n) {
      std::uint64_t now, before;
      std::memcpy(&now, ep.data + i * sizeof(Bits), 8);
      std::memcpy(&before, ep.snap + i * sizeof(Bits), 8);
      if (now == before)
        continue;
    }
    for (std::size_t j = i; j < i + perChunk && j < ep.n; ++j) {
      Bits now, before;
      std::memcpy(&now, ep.data + j * sizeof(Bits), sizeof(Bits));
      std::memcpy(&before, ep.snap + j * sizeof(Bits), sizeof(Bits));
      if (now != before) {
        std::memcpy(ep.snap + j * sizeof(Bits), &now, sizeof(Bits));
        ep.written[j] = runningWorker;
      }
    }
  }
}

void EngineCore::recordChanges(EdgePlan &ep) const {
  if (ep.esz == 1)
    recordChanges<std::uint8_t>(ep);
  else
    recordChanges<std::uint16_t>(ep);
}

void EngineCore::checkWords(const CsPlan &cp) const {
  std::unordered_map<std::uint64_t, Store> firstInWord;
  for (unsigned i = 0; i < cp.edges.size(); ++i) {
    const EdgePlan &ep = cp.edges[i];
    if (!ep.checkWords)
      continue;
    std::size_t pos = 0;
    for (const Run &r : ep.view->runs) {
      bool inWord = false; // the run has a store into word `word`: `first`
      std::size_t word = 0;
      Store first{};
      for (std::size_t k = 0; k < r.count; ++k, ++pos) {
        if (!ep.written[pos])
          continue;
        const Store s{i, ep.written[pos], r.addr(k)};
        const std::size_t w = s.addr * ep.esz / 4;
        if (ep.wordsShared) {
          const auto ins = firstInWord.emplace((std::uint64_t(r.var) << 40) | w, s);
          const Store &a = ins.first->second;
          if (!ins.second && a.addr != s.addr &&
              (cp.edges[a.edge].vertex != ep.vertex || a.worker != s.worker))
            wordRace(cp, a, s, r.var);
        } else if (inWord && w == word) {
          if (first.worker != s.worker && first.addr != s.addr)
            wordRace(cp, first, s, r.var);
        } else {
          inWord = true;
          word = w;
          first = s;
        }
      }
    }
  }
}

void EngineCore::wordRace(const CsPlan &cp, const Store &a, const Store &b,
                          std::uint32_t var) const {
  const EdgePlan &ea = cp.edges[a.edge], &eb = cp.edges[b.edge];
  const VertexPlan &va = cp.vertices[ea.vertex], &vb = cp.vertices[eb.vertex];
  fail("vertices '" + va.cls->name + "' (tile " + std::to_string(va.tile) + ", worker " +
       std::to_string(a.worker - 1) + ") and '" + vb.cls->name + "' (tile " +
       std::to_string(vb.tile) + ", worker " + std::to_string(b.worker - 1) +
       ") write elements " + std::to_string(a.addr) + " and " + std::to_string(b.addr) +
       " of '" + vars.vars[var].name + "', which share a 32-bit word, in compute set '" +
       cp.name + "' (fields '" + ea.st->field + "' and '" + eb.st->field +
       "'); stores narrower than 32 bits are not atomic");
}

void EngineCore::checkReads(const CsPlan &cp) const {
  for (const ReadHazard &h : cp.readHazards) {
    const EdgePlan &w = cp.edges[h.write];
    if (w.dir == Dir::InOut) {
      readRace(cp, h, h.shared.front().first);
      continue;
    }
    std::uint64_t first = ~std::uint64_t(0);
    std::size_t pos = 0;
    for (const Run &r : w.view->runs) {
      const std::uint64_t base = std::uint64_t(r.var) << 40;
      const std::uint64_t lo = base + std::min(r.start, r.last()),
                          hi = base + std::max(r.start, r.last()) + 1;
      for (const auto &iv : h.shared) {
        if (iv.second <= lo || iv.first >= hi)
          continue;
        if (r.stride == 1 || r.count == 1) { // positions of [iv.first, iv.second) in the run
          const std::uint64_t b = std::max(iv.first, lo), e = std::min(iv.second, hi);
          for (std::uint64_t a = b; a < e; ++a)
            if (w.written[pos + (a - lo)] && a < first) {
              first = a;
              break;
            }
        } else {
          for (std::size_t k = 0; k < r.count; ++k) {
            const std::uint64_t a = base + r.addr(k);
            if (w.written[pos + k] && a >= iv.first && a < iv.second && a < first)
              first = a;
          }
        }
      }
      pos += r.count;
    }
    if (first != ~std::uint64_t(0))
      readRace(cp, h, first);
  }
}

void EngineCore::readRace(const CsPlan &cp, const ReadHazard &h, std::uint64_t key) const {
  const EdgePlan &er = cp.edges[h.read], &ew = cp.edges[h.write];
  const VertexPlan &vr = cp.vertices[er.vertex], &vw = cp.vertices[ew.vertex];
  fail("vertex '" + vr.cls->name + "' (tile " + std::to_string(vr.tile) + ") reads element " +
       std::to_string(key & ((std::uint64_t(1) << 40) - 1)) + " of '" +
       vars.vars[key >> 40].name + "' that vertex '" + vw.cls->name + "' (tile " +
       std::to_string(vw.tile) + ") writes in compute set '" + cp.name + "' (fields '" +
       er.st->field + "' and '" + ew.st->field + "'); Poplar leaves such a read undefined");
}

// ------------------------------------------------------------------- report

std::string EngineCore::report(unsigned prog, unsigned long long seed) {
  std::uint64_t compute = 0, exchange = 0, sync = 0;
  unsigned unestimated = 0;
  for (const StepStats &s : steps) {
    compute += s.compute;
    exchange += s.exchange;
    sync += s.sync;
    unestimated += s.unestimated;
  }
  const std::uint64_t total = compute + exchange + sync;
  std::string j = "{\"emulator\": \"ipu-lower CPU emulator\"";
  jstr(j, "arch", target.arch);
  jnum(j, "num_tiles", target.numTiles());
  jkey(j, "clock_hz");
  j += jsonNumber(target.clockHz);
  jkey(j, "cost_model");
  j += "{\"data_path_bytes\": " + std::to_string(target.dataPathBytes);
  jnum(j, "exchange_bytes_per_cycle", target.exchangeBytesPerCycle);
  jnum(j, "sync_cycles", target.syncCycles);
  jnum(j, "streaming_bytes_per_second", target.streamingBytesPerSecond);
  j += "}";
  jnum(j, "program", prog);
  jnum(j, "seed", seed);
  jnum(j, "engine_runs", completedRuns);
  jnum(j, "total_cycles", total);
  jkey(j, "estimated_seconds");
  j += jsonNumber(double(total) / target.clockHz);
  jkey(j, "totals");
  j += "{\"compute_cycles\": " + std::to_string(compute);
  jnum(j, "exchange_cycles", exchange);
  jnum(j, "sync_cycles", sync);
  j += "}";
  jnum(j, "vertices_without_estimate", unestimated);
  jkey(j, "steps");
  j += "[";
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const StepStats &s = steps[i];
    if (i)
      j += ", ";
    stepHead(j, s);
    jnum(j, "compute_cycles", s.compute);
    jnum(j, "exchange_cycles", s.exchange);
    jnum(j, "sync_cycles", s.sync);
    jnum(j, "cycles", s.compute + s.exchange + s.sync);
    jnum(j, "exchange_bytes", s.exchangeBytes);
    if (s.kind == "execute") {
      jnum(j, "vertices", s.vertices);
      jnum(j, "vertices_without_estimate", s.unestimated);
    }
    j += "}";
  }
  j += "]";
  jkey(j, "tile_columns");
  j += "[\"tile\", \"bytes\", \"compute_cycles\", \"exchange_bytes\"]";
  jkey(j, "tiles");
  j += "[";
  bool first = true;
  for (unsigned t = 0; t < target.numTiles(); ++t) {
    if (tileBytes[t] == 0 && tileCompute[t] == 0 && tileExchange[t] == 0 &&
        !hasVertices(t))
      continue;
    j += first ? "[" : ", [";
    j += std::to_string(t);
    j += ", ";
    j += std::to_string(tileBytes[t]);
    j += ", ";
    j += std::to_string(tileCompute[t]);
    j += ", ";
    j += std::to_string(tileExchange[t]);
    j += "]";
    first = false;
  }
  j += "]}";
  lastSteps = steps;
  return j;
}

bool EngineCore::hasVertices(unsigned t) {
  if (tilesWithVertices.empty()) {
    tilesWithVertices.assign(target.numTiles(), 0);
    for (const VertexData &v : vertices)
      if (v.tile < tilesWithVertices.size())
        tilesWithVertices[v.tile] = 1;
  }
  return tilesWithVertices[t] != 0;
}

const Tensor &EngineCore::handleTensor(const std::map<std::string, Tensor> &handles,
                                       const std::string &handle, const char *what) const {
  if (!loaded)
    fail(std::string("Engine::") + what + "('" + handle +
         "'): load the engine onto a device first (Engine::load)");
  auto it = handles.find(handle);
  if (it == handles.end()) {
    std::string known;
    for (const auto &kv : handles)
      known += (known.empty() ? "'" : ", '") + kv.first + "'";
    fail(std::string("Engine::") + what + ": no handle '" + handle + "' (known: " +
         (known.empty() ? "none" : known) + ")");
  }
  return it->second;
}

void EngineCore::checkHostBuffer(const char *what, const std::string &handle,
                                 const Tensor &t, const void *b, const void *e) const {
  const ViewData &v = *Access<Tensor>::view(t);
  const TypeId ty = Access<Tensor>::type(t);
  const std::size_t want = v.size() * typeSize(ty);
  const std::ptrdiff_t have = static_cast<const unsigned char *>(e) -
                              static_cast<const unsigned char *>(b);
  if (b == nullptr || have < 0 || static_cast<std::size_t>(have) != want)
    fail(std::string("Engine::") + what + "('" + handle + "'): the buffer has " +
         std::to_string(have) + " bytes but tensor " + v.describe() + " has " +
         std::to_string(v.size()) + " elements of " + typeName(ty) + " (" +
         std::to_string(want) + " bytes)");
}

} // namespace emulator
} // namespace poplar
