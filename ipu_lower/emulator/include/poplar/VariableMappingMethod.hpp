// CPU emulator of Poplar SDK 3.x <poplar/VariableMappingMethod.hpp>: mapping chosen by Graph::addVariable.
#ifndef IPU_LOWER_EMU_POPLAR_VARIABLEMAPPINGMETHOD_HPP
#define IPU_LOWER_EMU_POPLAR_VARIABLEMAPPINGMETHOD_HPP

namespace poplar {

/// Mapping applied to a new variable by Graph::addVariable().
enum class VariableMappingMethod { NONE, LINEAR };

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_VARIABLEMAPPINGMETHOD_HPP
