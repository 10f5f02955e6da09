// ipu-lower CPU emulator internals (no Poplar SDK counterpart): the Engine's checks, BSP execution and report.
//
// Construction (what Poplar's graph compilation would reject):
//   * every element of every variable and constant is tile-mapped,
//   * every vertex is tile-mapped and every field connected (or, for vertex
//     state, given an initial value),
//   * no tile holds more variable bytes than it has memory,
//   * programs only use tensors, compute sets and streams of this graph.
// Then the Engine allocates one array per variable (zero-filled; constants
// hold their values), creates one object per vertex and binds its fields.
//
// One Execute(cs) is one BSP superstep:
//   1. snapshot: edges get buffers in a per-engine arena. Input edges whose
//      tensor is contiguous in one variable point straight at that variable
//      (no copy: nothing writes variables until step 4); other Input and all
//      InOut edges are gathered into their buffer; Output edges get a buffer
//      plus one "written" byte per element, cleared.
//   2. the vertices run in an order shuffled with the process seed
//      (ipu_lower_emulator_seed / IPU_LOWER_EMULATOR_SEED); a MultiVertex runs
//      compute(w) for w = 0..5. Every vertex therefore reads the state from
//      before the compute set and never sees a write of the same compute set
//      (rule 3c makes sure no program depends on that).
//      Output stores record the running worker (w + 1) in the written byte.
//   3. write and read checks, three rules:
//      a. edges that could overlap (found once, at construction, by
//         intersecting the element intervals of all Output/InOut edges of the
//         compute set) are checked element by element: two different edges
//         writing one element is an error naming both vertices, their tiles,
//         the element and the variable. Output edges count the elements they
//         assigned; InOut edges count all their elements.
//      b. on the IPU a store narrower than 32 bits is a read-modify-write of
//         its word, so two writers (a writer is one worker of one vertex)
//         storing different 8/16-bit elements of one 32-bit word can undo
//         each other: an error naming both vertices, tiles and workers and
//         the two elements. Words are counted from the start of the variable
//         (the IPU allocates variables word-aligned): element i of a k-byte
//         type is in word i * k / 4. Checked only for Output/InOut edges of
//         8/16-bit types, and only where a conflict is possible: edges of a
//         MultiVertex, and edges whose words meet another run's (found at
//         construction). Output edges know their writers from step 2; such
//         InOut edges keep a copy of their buffer and, after each compute(w),
//         give the elements that changed to worker w (so an InOut store of
//         the value an element already holds goes unseen). For 32-bit and
//         wider types the rule costs nothing but recording the worker.
//      c. no vertex reads an element another vertex writes: Poplar leaves
//         such a read undefined (the reader may see the old or the new
//         value), where the snapshot of step 1 would always give the old one.
//         A read is an Input or InOut edge covering the element, a write an
//         InOut edge covering it or an Output edge that assigned it in this
//         run; reads and writes by one vertex are in-place updates and fine.
//         At construction the element intervals of every reading edge are
//         looked up among the sorted intervals of the writing edges of other
//         vertices (two binary searches each); the pairs that meet are kept
//         with their shared elements. At run time an InOut writer of such a
//         pair is an error at once, an Output writer only if it assigned a
//         shared element: an error naming both vertices, their tiles and
//         fields, the element, the variable and the compute set. Edges that
//         meet no write of another vertex cost nothing.
//   4. commit: written Output elements and all InOut elements are scattered
//      back into the variables.
// Non-contiguous tensors on Vector edges are therefore handled by copy-in /
// copy-out (as Poplar rearranges such edges), never rejected.
#ifndef IPU_LOWER_EMU_ENGINEIMPL_HPP
#define IPU_LOWER_EMU_ENGINEIMPL_HPP

#include <ipu_lower_emulator/CostModel.hpp>
#include <ipu_lower_emulator/EdgeState.hpp>
#include <ipu_lower_emulator/GraphData.hpp>
#include <ipu_lower_emulator/Measurement.hpp>
#include <ipu_lower_emulator/Registry.hpp>
#include <ipu_lower_emulator/Support.hpp>
#include <ipu_lower_emulator/View.hpp>
#include <poplar/Device.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <ostream>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace poplar {
namespace emulator {

using Node = core::ProgramImpl::Node;
using Kind = core::ProgramImpl::Kind;

struct EdgePlan {
  unsigned vertex = 0; ///< index into CsPlan::vertices
  unsigned field = 0;
  unsigned edge = 0;
  Dir dir = Dir::In;
  TypeId type = TypeId::INVALID;
  unsigned esz = 0;
  std::size_t n = 0;
  std::shared_ptr<const ViewData> view;
  bool zeroCopy = false;
  std::size_t bufOff = 0, wOff = 0;
  unsigned char *data = nullptr;
  unsigned char *written = nullptr; ///< per element: 0 or the writer's worker + 1
  std::size_t snapOff = 0;
  unsigned char *snap = nullptr; ///< diffed InOut edges: the buffer before the running worker
  std::unique_ptr<EdgeState> st;
  bool checkWrites = false; ///< rule 3a: its elements meet another edge's
  bool checkWords = false;  ///< rule 3b applies (8/16-bit Output/InOut edge that can race)
  bool wordsShared = false; ///< rule 3b: its words meet another run's (checked through a map)
  bool diffed = false;      ///< InOut edge whose changes are given to workers (checkWords)
};

struct VertexPlan {
  unsigned id = 0;
  const VertexClass *cls = nullptr;
  std::unique_ptr<void, void (*)(void *)> obj{nullptr, nullptr};
  unsigned tile = 0;
  std::uint64_t reads = 0;   ///< elements of its Input and InOut edges, per execution
  std::uint64_t written = 0; ///< elements it wrote in this Engine::run (Measurement.hpp)
  Keep keep;
  std::vector<std::pair<unsigned, std::pair<unsigned, unsigned>>> fieldEdges; ///< field -> [first, count) in edges
  std::vector<unsigned> diffedEdges; ///< its InOut edges diffed after each compute(w)
};

/// Rule 3c: an edge that reads (Input/InOut) elements an edge of another vertex
/// writes (Output/InOut), with the elements both cover: sorted, disjoint
/// [begin, end) intervals of (variable << 40 | element).
struct ReadHazard {
  unsigned read = 0, write = 0; ///< indices into CsPlan::edges
  std::vector<std::pair<std::uint64_t, std::uint64_t>> shared;
};

struct CsPlan {
  std::string name;
  std::vector<VertexPlan> vertices;
  std::vector<EdgePlan> edges;
  std::size_t arenaBytes = 0;
  bool checkWrites = false;
  bool checkWords = false;
  std::vector<ReadHazard> readHazards; ///< rule 3c, planned at construction
  StepCost cost;
  unsigned busiestTile = 0; ///< the tile that moves cost.busiest bytes
  std::uint64_t runs = 0;   ///< in this Engine::run
};

struct StreamConn {
  unsigned char *begin = nullptr, *end = nullptr, *pos = nullptr;
};

class EngineCore {
public:
  EngineCore(const GraphData &g, std::vector<Node> progs);
  EngineCore(const EngineCore &) = delete;
  EngineCore &operator=(const EngineCore &) = delete;
  ~EngineCore() = default;

  void load(const Target &t);
  void run(unsigned prog);
  void writeTensor(const std::string &handle, const void *b, const void *e);
  void readTensor(const std::string &handle, void *b, void *e);
  void connectStream(const std::string &handle, void *b, void *e);
  void connectStream(const std::string &handle, void *p);
  /// Engine::copyToRemoteBuffer (`toBuffer`) and copyFromRemoteBuffer.
  void copyRemote(const std::string &handle, void *data, std::uint64_t repeat,
                  unsigned replica, bool toBuffer);
  void printSummary(std::ostream &os) const;

private:
  // ------------------------------------------------------------ construction
  std::string vertexName(unsigned id) const;
  void mapFollowingConstants();
  void checkMapping() const;
  void checkVertices() const;
  void checkMemory();
  const ViewData &ownView(const Tensor &t, const char *what) const;

  /// Validates a program tree and computes the static cost of its steps.
  void prepare(const core::ProgramImpl *p);

  /// The box of `p->a` that the offsets of a Dynamic* step select now.
  Tensor dynamicBox(const core::ProgramImpl *p) const;
  /// Runs a poplin product step (matMulWithOutput, matMulAcc, grouped) and accounts its cost.
  void matMul(const core::ProgramImpl *p);
  /// The tile of each input element and of each output element of a
  /// popops::reduceWithOutput step, and the output of each input element.
  ReduceShape reduceShape(const core::ProgramImpl *p) const;
  /// Runs a popops::reduceWithOutput step and accounts its cost.
  void reduce(const core::ProgramImpl *p);
  /// Runs a popops::mulInPlace step and accounts its cost.
  void mulInPlace(const core::ProgramImpl *p);
  /// Runs a popops scaledAddTo / scaledSubtractFrom, map or cast step and accounts its cost.
  void elementwise(const core::ProgramImpl *p);
  /// The elements of a tensor, as floats; and stored back, rounded to its type.
  std::vector<float> loadFloats(const Tensor &t) const;
  void storeFloats(const Tensor &t, const std::vector<float> &values);
  /// The tile of each element of `t`, in its order.
  std::vector<unsigned> elementTiles(const Tensor &t) const;
  /// The most elements of `t` any one tile holds.
  std::uint64_t busiestTileElements(const Tensor &t) const;

  /// Per element of a view (in order): (flatBegin, flatEnd, tile) pieces.
  std::vector<std::pair<std::size_t, unsigned>> segments(const ViewData &v) const;
  StepCost copyCost(const ViewData &s, const ViewData &d, unsigned es) const;
  StepCost streamCost(const ViewData &v, unsigned es) const;

  /// Builds (once) the execution plan and static cost of a compute set.
  void plan(unsigned cs);

  /// A half-open interval [b, e) of (variable << 40 | element or word) of
  /// one edge; spans of one owner may overlap each other without counting.
  struct Span {
    std::uint64_t b, e;
    unsigned edge, owner;
  };
  /// Calls mark(edge) for the spans of every cluster of transitively
  /// overlapping spans that has more than one owner.
  template <class F> static void markOverlaps(std::vector<Span> &spans, F mark);
  static bool subWordWrite(const EdgePlan &ep);

  /// Rule 3a: flags the Output/InOut edges whose element intervals overlap
  /// another edge's: only those are checked element by element at run time.
  void planWriteChecks(CsPlan &cp) const;

  /// Rule 3b: which 8/16-bit Output/InOut edges are checked for stores into
  /// one word by two writers. Within one run the elements of a word are
  /// consecutive (addresses are monotonic), so a run whose span of words meets
  /// no other run (of any edge) can only race between the workers of its
  /// vertex, and a pass comparing neighbouring stores finds that. Edges with
  /// a run whose words meet another run are `wordsShared`: their stores go
  /// through a map of words. Diffed InOut edges get a copy of their buffer
  /// and a written byte per element in the arena, after `cursor`.
  void planWordChecks(CsPlan &cp, std::size_t &cursor) const;

  /// Rule 3c: pairs (reading edge, writing edge of another vertex) whose
  /// elements meet, with the shared elements. The write spans are sorted by
  /// begin with a running maximum of their ends, so each read span finds the
  /// write spans it meets by two binary searches and a scan of those between:
  /// an Input edge that touches no written element costs nothing per run.
  void planReadChecks(CsPlan &cp) const;
  void allocate();

  /// Creates the vertex objects of a compute set and points their fields at
  /// the arena (or, for contiguous Inputs, at the variables).
  void bind(CsPlan &cp);

  // --------------------------------------------------------------- data moves
  void gather(const ViewData &v, unsigned es, unsigned char *dst) const;
  void scatter(const ViewData &v, unsigned es, const unsigned char *src);
  /// Scatters only the elements whose written flag is set.
  /// Returns how many there were.
  std::size_t scatterWritten(const ViewData &v, unsigned es, const unsigned char *src,
                             const unsigned char *written);

  // ---------------------------------------------------------------- execution
  StepStats &step(const core::ProgramImpl *p, const std::string &name,
                  const char *kind);
  void account(const core::ProgramImpl *p, const std::string &name,
               const char *kind, const StepCost &c);
  void accountControl(const core::ProgramImpl *p, const char *what);
  long long readScalar(const Tensor &t) const;
  void exec(const core::ProgramImpl *p);
  void printTensor(const std::string &title, const Tensor &t) const;

  /// One BSP superstep; returns false if a vertex's compute() returned false
  /// (an error unless `failOnFalse` is false: deprecated Execute(cs, t)).
  bool runComputeSet(CsPlan &cp, bool failOnFalse);
  void checkWrites(const CsPlan &cp) const;

  /// Gives the elements of a diffed InOut edge that changed since the last
  /// diff (the running worker's compute()) to the running worker. Compares
  /// bits, 8 bytes at a time first (a worker changes few of them; fixed-size
  /// memcpy is inlined, memcmp is not): a store of
  /// the value an element already holds goes unseen, though on hardware it
  /// too rewrites its word.
  void recordChanges(EdgePlan &ep) const;
  template <class Bits> void recordChanges(EdgePlan &ep) const;

  /// One store seen by the sub-word check: edge, worker + 1, element.
  struct Store {
    unsigned edge;
    unsigned char worker;
    std::size_t addr;
  };

  /// Rule 3b: no two writers store different elements of one 32-bit word.
  /// Each store is compared with the first store into its word: within its
  /// run for edges whose words no other run touches, through a map of words
  /// for the others. (Two stores into one element by different edges fail
  /// rule 3a first.)
  void checkWords(const CsPlan &cp) const;
  [[noreturn]] void wordRace(const CsPlan &cp, const Store &a, const Store &b,
                             std::uint32_t var) const;

  /// Rule 3c: no vertex reads an element another vertex writes. An InOut
  /// writer writes all its elements, so any shared element is read undefined;
  /// an Output writer only those it assigned in this run. Reports the lowest
  /// such element of the first pair (pairs are in edge order).
  void checkReads(const CsPlan &cp) const;
  [[noreturn]] void readRace(const CsPlan &cp, const ReadHazard &h, std::uint64_t key) const;

  // ------------------------------------------------------------------- report
  std::string report(unsigned prog, unsigned long long seed);
  /// What this run measured (Measurement.hpp), from `steps` and the compute sets that ran.
  std::shared_ptr<const Measurement> measurement(unsigned prog) const;
  bool hasVertices(unsigned t);
  const Tensor &handleTensor(const std::map<std::string, Tensor> &handles,
                             const std::string &handle, const char *what) const;
  void checkHostBuffer(const char *what, const std::string &handle,
                       const Tensor &t, const void *b, const void *e) const;
  TargetInfo target;
  const VarTable *origVars;
  VarTable vars;
  std::vector<VertexData> vertices;
  std::vector<ComputeSetData> computeSets;
  std::map<std::string, Tensor> hostWrites, hostReads;
  std::map<std::string, std::shared_ptr<const StreamInfo>> streams;
  std::map<std::string, std::shared_ptr<const RemoteBufferInfo>> remoteBuffers;
  std::map<std::string, std::vector<unsigned char>> remoteMemory; ///< zero-filled at construction
  /// The bytes of the repeat of a remote buffer that `repeat` names.
  unsigned char *remoteRepeat(const RemoteBufferInfo &b, long long repeat, const char *what);
  const void *graphId;
  std::vector<Node> programs;

  std::set<const core::ProgramImpl *> prepared;
  std::map<const core::ProgramImpl *, StepCost> costs;
  std::map<unsigned, std::unique_ptr<CsPlan>> csPlans;
  std::vector<std::vector<unsigned char>> mem;
  struct ArenaDelete {
    void operator()(unsigned char *p) const { ::operator delete(p, std::align_val_t(64)); }
  };
  std::unique_ptr<unsigned char, ArenaDelete> arenaStore; ///< per-compute-set edge buffers
  unsigned char *arena = nullptr;
  std::map<std::string, StreamConn> conns;
  std::vector<std::uint64_t> tileBytes, tileCompute, tileExchange;
  std::vector<char> tilesWithVertices;
  std::vector<StepStats> steps, lastSteps;
  std::vector<CsPlan *> csRan; ///< the compute sets that ran in this Engine::run, in order
  std::unordered_map<const core::ProgramImpl *, std::size_t> stepIndex;
  std::string lastReport;
  std::uint64_t completedRuns = 0; // runs of this Engine: shows the graph is built once
  unsigned char runningWorker = 0; // worker + 1 of the running compute(): what stores record
  bool loaded = false;
};

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_ENGINEIMPL_HPP
