// CPU emulator of poplibs' <popops/OperationDef.hpp>: the operations of a reduction
// (include/popops/OperationDef.hpp:15-24 of graphcore/poplibs at 7eac0f26).
#ifndef IPU_LOWER_EMU_POPOPS_OPERATIONDEF_HPP
#define IPU_LOWER_EMU_POPOPS_OPERATIONDEF_HPP

namespace popops {

/// Type of operation to use in a reduction.
enum class Operation {
  ADD,
  MUL,
  MIN,
  MAX,
  LOGICAL_AND, ///< Only supports boolean operands.
  LOGICAL_OR,  ///< Only supports boolean operands.
  SQUARE_ADD,  ///< Squares each element before applying ADD reduction.
  LOG_ADD,     ///< Reduce using acc = a+log(1+exp(b-a))
};

} // namespace popops

#endif // IPU_LOWER_EMU_POPOPS_OPERATIONDEF_HPP
