"""What the emitted C++ includes and exports: shared by the printers, which write them,
and the runtime, which precompiles the headers and checks the exports. No xDSL here, so
that running a built program does not import the printers.
"""

ABI_FUNCTIONS = ("init", "run", "exit", "last_error", "signature")
"""The functions host.cpp exports, each named `<prefix>_<function>`."""

POPLAR_INCLUDES = ("<poplar/HalfFloat.hpp>", "<poplar/Vertex.hpp>")
STD_INCLUDES = ("<cmath>", "<cstdint>", "<limits>")
CODELET_INCLUDES = POPLAR_INCLUDES + STD_INCLUDES
"""What every codelets.cpp includes on the host (not <ipu_vector_math>, popc's alone)."""

HOST_INCLUDES = (
    "<cstddef>", "<cstdint>", "<cstdlib>", "<exception>", "<memory>", "<stdexcept>",
    "<string>", "<utility>", "<vector>", "<poplar/DeviceManager.hpp>", "<poplar/Engine.hpp>",
    "<poplar/Graph.hpp>", "<poplar/IPUModel.hpp>", "<poplar/Program.hpp>",
)
DYNAMIC_SLICE_INCLUDES = ("<popops/DynamicSlice.hpp>",)
"""For programs that slice at run time (poplibs' popops)."""
REDUCE_INCLUDES = ("<popops/Reduce.hpp>",)
"""For programs that reduce with popops."""
ELEMENTWISE_INCLUDES = ("<popops/ElementWise.hpp>",)
"""For programs that scale a product's result (popops::mulInPlace) or map an expression op."""
SCALED_ADD_INCLUDES = ("<popops/ScaledAdd.hpp>",)
"""For programs that call popops::scaledAddTo or scaledSubtractFrom."""
CAST_INCLUDES = ("<popops/Cast.hpp>",)
"""For programs that call popops::cast."""
POPOPS_INCLUDES = ("<popops/codelets.hpp>",)
"""For programs that call popops at all."""
POPLIN_INCLUDES = ("<poplin/MatMul.hpp>", "<poplin/codelets.hpp>")
"""For programs that multiply matrices (poplibs' poplin)."""
CONSTANT_INCLUDES = ("<limits>",)
"""For programs with constants (their infinities and NaNs)."""
