"""The dialects of ipu-lower (sdfg, ipu, poplar) and their custom-syntax helpers."""

# Every MLIR parser of the process lexes string literals in linear time (see the module).
from ipu_lower.dialects import string_literal as _string_literal  # noqa: F401
