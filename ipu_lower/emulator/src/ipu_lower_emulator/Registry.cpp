// The codelet registry (ipu_lower_emulator/Registry.hpp).
#include <ipu_lower_emulator/Registry.hpp>

namespace poplar {
namespace emulator {

const char *dirName(Dir d) {
  switch (d) {
  case Dir::In: return "Input";
  case Dir::Out: return "Output";
  case Dir::InOut: return "InOut";
  case Dir::State: return "state";
  }
  return "?";
}

std::string fieldTypeName(Dir d, Shape s, TypeId t) {
  std::string inner = typeName(t);
  if (s == Shape::Vector || s == Shape::VectorOfVectors)
    inner = "Vector<" + inner + ">";
  else if (s == Shape::VectorList || s == Shape::Unsupported)
    inner = "VectorList<" + inner + ">";
  if (d == Dir::State)
    return inner;
  const std::string edge = std::string(dirName(d)) + "<" + inner + ">";
  return s == Shape::VectorOfVectors ? "Vector<" + edge + ">" : edge;
}

int VertexClass::fieldIndex(const std::string &n) const {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == n)
      return static_cast<int>(i);
  return -1;
}

std::string VertexClass::fieldList() const {
  std::string s;
  for (const FieldSpec &f : fields)
    s += (s.empty() ? "" : ", ") + f.name;
  return s.empty() ? "none" : s;
}

Registry &registry() {
  static Registry r;
  return r;
}

void registerVertexClass(const char *name, bool multiVertex, void *(*create)(),
                         void (*destroy)(void *), bool (*compute)(void *, unsigned),
                         const FieldDecl *fields, std::size_t count) {
  auto vc = std::make_unique<VertexClass>();
  vc->name = name;
  vc->multiVertex = multiVertex;
  vc->create = create;
  vc->destroy = destroy;
  vc->compute = compute;
  for (const FieldDecl *f = fields; f != fields + count; ++f)
    vc->fields.push_back(FieldSpec{f->name, f->dir, f->shape, f->type,
                                   fieldTypeName(f->dir, f->shape, f->type), f->offset,
                                   f->bind, f->setState});
  Registry &r = registry();
  auto it = r.classes.find(vc->name);
  if (it != r.classes.end()) { // cannot throw during static initialisation
    it->second->registrations++;
    it->second->problem = "codelet '" + vc->name +
                          "' is registered more than once in this program";
    return;
  }
  for (std::size_t i = 0; i < vc->fields.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (vc->fields[i].name == vc->fields[j].name)
        vc->problem = "codelet '" + vc->name + "' registers field '" +
                      vc->fields[i].name + "' twice";
  vc->registrations = 1;
  r.classes.emplace(vc->name, std::move(vc));
}

const VertexClass *findVertexClass(const std::string &name) {
  const Registry &r = registry();
  auto it = r.classes.find(name);
  return it == r.classes.end() ? nullptr : it->second.get();
}

std::string registeredClassNames() {
  std::string s;
  for (const auto &kv : registry().classes)
    s += (s.empty() ? "" : ", ") + kv.first;
  return s.empty() ? "none" : s;
}

} // namespace emulator
} // namespace poplar
