// CPU emulator of Poplar SDK 3.x <poplar/GraphElements.hpp>: vertex, field and compute-set handles.
//
// These are small value handles (ids). A FieldRef names its field by string;
// Graph resolves (and checks) the name against the registered codelet.
#ifndef IPU_LOWER_EMU_POPLAR_GRAPHELEMENTS_HPP
#define IPU_LOWER_EMU_POPLAR_GRAPHELEMENTS_HPP

#include <poplar/StringRef.hpp>

#include <cstddef>
#include <string>

namespace poplar {

class Graph;
class FieldRef;

/// The integral type of unique identifiers of vertices within a graph.
typedef unsigned vertex_id;

/// A reference to a vertex within a graph.
// unverified: VertexRef's exact header and private layout.
class VertexRef {
public:
  VertexRef() = default;
  VertexRef(const VertexRef &) = default;
  VertexRef &operator=(const VertexRef &) = default;

  /// Access the field `fieldName` of this vertex.
  inline FieldRef operator[](StringRef fieldName) const;

  vertex_id getId() const { return id; }

private:
  VertexRef(const void *owner, vertex_id id) : owner(owner), id(id) {}
  const void *owner = nullptr; ///< the emulator's graph data
  vertex_id id = 0;
  friend class Graph;
  friend class FieldRef;
};

/// A reference to a field within a vertex instance.
class FieldRef {
public:
  FieldRef() = default;
  FieldRef operator[](std::size_t index) const {
    FieldRef f = *this;
    f.index = index;
    f.indexed = true;
    return f;
  }
  bool isIndexed() const { return indexed; }
  std::size_t getIndex() const { return index; }

private:
  FieldRef(VertexRef vertex, StringRef fieldName)
      : vertex(vertex), name(fieldName.cloneAsString()) {}
  VertexRef vertex;
  std::string name;
  std::size_t index = 0;
  bool indexed = false;
  friend class VertexRef;
  friend class Graph;
};

inline FieldRef VertexRef::operator[](StringRef fieldName) const {
  return FieldRef(*this, fieldName);
}

/// A reference to a compute set within a graph.
class ComputeSet {
public:
  ComputeSet() : computeset_id(0) {}
  ComputeSet(unsigned id) : computeset_id(id) {}
  unsigned getId() const { return computeset_id; }

private:
  unsigned computeset_id;
};

inline bool operator==(const ComputeSet &lhs, const ComputeSet &rhs) {
  return lhs.getId() == rhs.getId();
}

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_GRAPHELEMENTS_HPP
