// ipu-lower CPU emulator internals (no Poplar SDK counterpart): the codelet registry and field binders.
//
// codelets.cpp registers each vertex class, when compiled against the
// emulator, with a block the code generator emits (inert on the real SDK):
//
//   #ifdef IPU_LOWER_EMULATOR
//   static const poplar::emulator::VertexRegistration<V> V_registration{
//       "V", {poplar::emulator::field("a", &V::a), ...}};
//   #endif
//
// (VertexRegistration and field are defined in <poplar/Vertex.hpp>.) The
// registry maps the class name to a factory, a compute thunk and one
// FieldSpec per field; Graph checks addVertex/connect against it and the
// Engine binds fields through it.
#ifndef IPU_LOWER_EMU_REGISTRY_HPP
#define IPU_LOWER_EMU_REGISTRY_HPP

#include <ipu_lower_emulator/EdgeState.hpp>
#include <ipu_lower_emulator/Support.hpp>
#include <ipu_lower_emulator/Types.hpp>
#include <poplar/InOutTypes.hpp>
#include <poplar/VectorListTypes.hpp>
#include <poplar/VectorTypes.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace poplar {
namespace emulator {

enum class Dir : unsigned char { State, In, Out, InOut };
enum class Shape : unsigned char {
  Scalar,          ///< Input/Output/InOut<T>, or state T
  Vector,          ///< Input/Output/InOut<Vector<T>>, or state Vector<T>
  VectorOfVectors, ///< Vector<Input/Output/InOut<Vector<T>>>: one edge per entry
  VectorList,      ///< Input/Output/InOut<VectorList<T>>: one edge per row
  Unsupported      ///< compiles, but the emulator cannot initialise it
};

/// "Input", "Output", "InOut" or "state".
const char *dirName(Dir d);

/// One connected edge as the Engine binds it.
struct EdgeBinding {
  void *data = nullptr; ///< first element (buffer or, for Inputs, the variable)
  std::size_t n = 0;
  const EdgeState *st = nullptr;
};

using Keep = std::vector<std::shared_ptr<void>>; ///< storage a bound field points into

template <class T> std::shared_ptr<T> keepArray(Keep &keep, std::size_t n) {
  std::shared_ptr<T> p(new T[n == 0 ? 1 : n](), std::default_delete<T[]>());
  keep.push_back(p);
  return p;
}

/// The only code that writes the emulator storage of field objects.
struct FieldAccess {
  template <class T> static void io(IOBase<T> &f, void *data, const EdgeState *st) {
    f.p = static_cast<T *>(data);
    f.st = st;
  }
  template <class T, VectorLayout L, bool C>
  static void vec(emulator::VectorView<T, L, C> &f, void *data, std::size_t n) {
    f.p = static_cast<T *>(data);
    f.n = n;
  }
  template <class T, VectorLayout L>
  static void outVec(emulator::OutputVectorView<T, L> &f, void *data,
                     std::size_t n, const EdgeState *st) {
    f.p = static_cast<T *>(data);
    f.n = n;
    f.st = st;
  }
  template <class T, VectorLayout L, unsigned A, bool I>
  static void state(Vector<T, L, A, I> &f, T *p, std::size_t n) {
    f.p = p;
    f.n = n;
  }
  template <class T, bool C>
  static void list(emulator::VectorListView<T, C> &f, T *const *rows,
                   const std::size_t *sizes, std::size_t n) {
    f.rows = rows;
    f.sizes = sizes;
    f.n = n;
  }
  template <class T>
  static void outList(emulator::OutputVectorListView<T> &f, T *const *rows,
                      const std::size_t *sizes, const EdgeState *const *states,
                      std::size_t n) {
    f.rows = rows;
    f.sizes = sizes;
    f.states = states;
    f.n = n;
  }
};

/// How the emulator handles one C++ field type.
template <class F, class Enable = void> struct FieldTraits {
  static constexpr bool supported = false;
};

template <class T> constexpr bool isDeviceScalar() {
  return DeviceTypeOf<T>::supported;
}

template <class T, Dir D> struct TraitsBase {
  static constexpr bool supported = true;
  static constexpr Dir dir = D;
  static constexpr TypeId type = DeviceTypeOf<T>::value;
};


// Scalar edges.
#define IPU_LOWER_EMU_SCALAR_EDGE(EDGE, DIR)                                   \
  template <class T>                                                           \
  struct FieldTraits<EDGE<T>, std::enable_if_t<isDeviceScalar<T>()>>           \
      : TraitsBase<T, DIR> {                                                   \
    static constexpr Shape shape = Shape::Scalar;                              \
    static void bind(void *f, const EdgeBinding *e, std::size_t, Keep &) {     \
      FieldAccess::io(static_cast<IOBase<T> &>(*static_cast<EDGE<T> *>(f)),   \
                      e[0].data, e[0].st);                                     \
    }                                                                          \
  };
IPU_LOWER_EMU_SCALAR_EDGE(Input, Dir::In)
IPU_LOWER_EMU_SCALAR_EDGE(InOut, Dir::InOut)
IPU_LOWER_EMU_SCALAR_EDGE(Output, Dir::Out)
#undef IPU_LOWER_EMU_SCALAR_EDGE

// Vector edges.
template <class T, VectorLayout L, unsigned A, bool I>
struct FieldTraits<Input<Vector<T, L, A, I>>, std::enable_if_t<isDeviceScalar<T>()>>
    : TraitsBase<T, Dir::In> {
  static constexpr Shape shape = Shape::Vector;
  static void bind(void *f, const EdgeBinding *e, std::size_t, Keep &) {
    FieldAccess::vec(static_cast<emulator::VectorView<T, L, true> &>(
                         *static_cast<Input<Vector<T, L, A, I>> *>(f)),
                     e[0].data, e[0].n);
  }
};
template <class T, VectorLayout L, unsigned A, bool I>
struct FieldTraits<InOut<Vector<T, L, A, I>>, std::enable_if_t<isDeviceScalar<T>()>>
    : TraitsBase<T, Dir::InOut> {
  static constexpr Shape shape = Shape::Vector;
  static void bind(void *f, const EdgeBinding *e, std::size_t, Keep &) {
    FieldAccess::vec(static_cast<emulator::VectorView<T, L, false> &>(
                         *static_cast<InOut<Vector<T, L, A, I>> *>(f)),
                     e[0].data, e[0].n);
  }
};
template <class T, VectorLayout L, unsigned A, bool I>
struct FieldTraits<Output<Vector<T, L, A, I>>, std::enable_if_t<isDeviceScalar<T>()>>
    : TraitsBase<T, Dir::Out> {
  static constexpr Shape shape = Shape::Vector;
  static void bind(void *f, const EdgeBinding *e, std::size_t, Keep &) {
    FieldAccess::outVec(static_cast<emulator::OutputVectorView<T, L> &>(
                            *static_cast<Output<Vector<T, L, A, I>> *>(f)),
                        e[0].data, e[0].n, e[0].st);
  }
};

// VectorList edges: one edge per row.
// Points the rows of a readable VectorList field at the edges' data.
template <class T, bool ReadOnly, class Field>
void bindRows(Field &field, const EdgeBinding *e, std::size_t k, Keep &keep) {
  auto rows = keepArray<T *>(keep, k);
  auto sizes = keepArray<std::size_t>(keep, k);
  for (std::size_t i = 0; i < k; ++i) {
    rows.get()[i] = static_cast<T *>(e[i].data);
    sizes.get()[i] = e[i].n;
  }
  FieldAccess::list(static_cast<emulator::VectorListView<T, ReadOnly> &>(field), rows.get(),
                    sizes.get(), k);
}

template <class T, VectorListLayout L, unsigned A, bool I>
struct FieldTraits<Input<VectorList<T, L, A, I>>, std::enable_if_t<isDeviceScalar<T>()>>
    : TraitsBase<T, Dir::In> {
  static constexpr Shape shape = Shape::VectorList;
  static void bind(void *f, const EdgeBinding *e, std::size_t k, Keep &keep) {
    bindRows<T, true>(*static_cast<Input<VectorList<T, L, A, I>> *>(f), e, k, keep);
  }
};
template <class T, VectorListLayout L, unsigned A, bool I>
struct FieldTraits<InOut<VectorList<T, L, A, I>>, std::enable_if_t<isDeviceScalar<T>()>>
    : TraitsBase<T, Dir::InOut> {
  static constexpr Shape shape = Shape::VectorList;
  static void bind(void *f, const EdgeBinding *e, std::size_t k, Keep &keep) {
    bindRows<T, false>(*static_cast<InOut<VectorList<T, L, A, I>> *>(f), e, k, keep);
  }
};
template <class T, VectorListLayout L, unsigned A, bool I>
struct FieldTraits<Output<VectorList<T, L, A, I>>, std::enable_if_t<isDeviceScalar<T>()>>
    : TraitsBase<T, Dir::Out> {
  static constexpr Shape shape = Shape::VectorList;
  static void bind(void *f, const EdgeBinding *e, std::size_t k, Keep &keep) {
    auto rows = keepArray<T *>(keep, k);
    auto sizes = keepArray<std::size_t>(keep, k);
    auto states = keepArray<const EdgeState *>(keep, k);
    for (std::size_t i = 0; i < k; ++i) {
      rows.get()[i] = static_cast<T *>(e[i].data);
      sizes.get()[i] = e[i].n;
      states.get()[i] = e[i].st;
    }
    FieldAccess::outList(static_cast<emulator::OutputVectorListView<T> &>(
                             *static_cast<Output<VectorList<T, L, A, I>> *>(f)),
                         rows.get(), sizes.get(), states.get(), k);
  }
};

// Vector of vector edges: Vector<Input<Vector<T>>> etc.
template <class E, VectorLayout L, unsigned A, bool I>
struct FieldTraits<Vector<E, L, A, I>,
                   std::enable_if_t<FieldTraits<E>::supported &&
                                    FieldTraits<E>::dir != Dir::State &&
                                    FieldTraits<E>::shape == Shape::Vector>> {
  static constexpr bool supported = true;
  static constexpr Dir dir = FieldTraits<E>::dir;
  static constexpr TypeId type = FieldTraits<E>::type;
  static constexpr Shape shape = Shape::VectorOfVectors;
  static void bind(void *f, const EdgeBinding *e, std::size_t k, Keep &keep) {
    auto edges = keepArray<E>(keep, k);
    for (std::size_t i = 0; i < k; ++i)
      FieldTraits<E>::bind(&edges.get()[i], &e[i], 1, keep);
    FieldAccess::state(*static_cast<Vector<E, L, A, I> *>(f), edges.get(), k);
  }
};

// Vertex state: scalars and vectors of device types.
template <class T> struct FieldTraits<T, std::enable_if_t<isDeviceScalar<T>()>> {
  static constexpr bool supported = true;
  static constexpr Dir dir = Dir::State;
  static constexpr TypeId type = DeviceTypeOf<T>::value;
  static constexpr Shape shape = Shape::Scalar;
  static void setState(void *f, const unsigned char *bytes, std::size_t,
                       TypeId src, Keep &) {
    *static_cast<T *>(f) = loadAs<T>(bytes, src);
  }
};
template <class T, VectorLayout L, unsigned A, bool I>
struct FieldTraits<Vector<T, L, A, I>, std::enable_if_t<isDeviceScalar<T>()>> {
  static constexpr bool supported = true;
  static constexpr Dir dir = Dir::State;
  static constexpr TypeId type = DeviceTypeOf<T>::value;
  static constexpr Shape shape = Shape::Vector;
  static void setState(void *f, const unsigned char *bytes, std::size_t n,
                       TypeId src, Keep &keep) {
    auto data = keepArray<T>(keep, n);
    for (std::size_t i = 0; i < n; ++i)
      data.get()[i] = loadAs<T>(bytes + i * typeSize(src), src);
    FieldAccess::state(*static_cast<Vector<T, L, A, I> *>(f), data.get(), n);
  }
};
template <class T, VectorListLayout L, unsigned A, bool I>
struct FieldTraits<VectorList<T, L, A, I>, void> {
  static constexpr bool supported = true;
  static constexpr Dir dir = Dir::State;
  static constexpr TypeId type = DeviceTypeOf<T>::value;
  static constexpr Shape shape = Shape::Unsupported;
};

using BindField = void (*)(void *, const EdgeBinding *, std::size_t, Keep &);
using SetFieldState = void (*)(void *, const unsigned char *, std::size_t, TypeId, Keep &);

/// A field as codelets.cpp declares it (poplar::emulator::field): plain data,
/// so that each program's registrations compile to constant tables and calls
/// into the library (strings and std::function made every field cost tens of
/// milliseconds of g++ -O2).
struct FieldDecl {
  const char *name;
  Dir dir;
  Shape shape;
  TypeId type;
  std::size_t offset; ///< of the field in a vertex object
  BindField bind;        ///< edges
  SetFieldState setState; ///< vertex state, unless Shape::Unsupported
};

/// The C++ type of a field for messages, e.g. "Input<Vector<float>>".
std::string fieldTypeName(Dir d, Shape s, TypeId t);

/// A field of a registered vertex class.
struct FieldSpec {
  std::string name;
  Dir dir = Dir::State;
  Shape shape = Shape::Scalar;
  TypeId type = TypeId::INVALID;
  std::string cppType; ///< for messages, e.g. "Input<Vector<float>>"
  std::size_t offset = 0;
  BindField bind = nullptr;
  SetFieldState setState = nullptr;
  bool isEdge() const { return dir != Dir::State; }
  /// The field inside a vertex object.
  void *address(void *obj) const { return static_cast<unsigned char *>(obj) + offset; }
};

/// A registered vertex class.
struct VertexClass {
  std::string name;
  bool multiVertex = false;
  void *(*create)() = nullptr;
  void (*destroy)(void *) = nullptr;
  bool (*compute)(void *, unsigned) = nullptr; ///< false: compute() returned false
  std::vector<FieldSpec> fields;
  unsigned registrations = 0;
  std::string problem; ///< registration error, reported by Graph::addVertex

  /// The index of field `n` in `fields`, or -1.
  int fieldIndex(const std::string &n) const;
  /// The names of the fields, for messages ("none" if there are none).
  std::string fieldList() const;
};

struct Registry {
  std::map<std::string, std::unique_ptr<VertexClass>> classes;
};

/// The codelet registry of this library (see Support.hpp on visibility).
IPU_LOWER_EMU_HIDDEN Registry &registry();

/// Adds a class to the registry (from a static initialiser, so it cannot
/// throw: a class registered twice, or registering a field twice, records the
/// problem, which Graph::addVertex reports).
void registerVertexClass(const char *name, bool multiVertex, void *(*create)(),
                         void (*destroy)(void *), bool (*compute)(void *, unsigned),
                         const FieldDecl *fields, std::size_t count);

/// The registered class `name`, or nullptr.
const VertexClass *findVertexClass(const std::string &name);

/// The names of the registered classes, for messages ("none" if there are none).
std::string registeredClassNames();

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_REGISTRY_HPP
