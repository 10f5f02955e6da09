"""lit configuration: `lit tests/lit` runs every .mlir/.sdfg/.py test under tests/lit."""

import glob
import os
import shutil
import sys

import lit.formats

config.name = "ipu-lower"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", ".venv", "examples", "build"]

root = os.path.dirname(os.path.abspath(__file__))
bindir = os.path.dirname(sys.executable)
python = sys.executable
config.substitutions.append(("%examples", os.path.join(root, "ipu_lower", "examples")))
config.substitutions.append(("%inputs", os.path.join(root, "tests", "lit", "Inputs")))
config.substitutions.append(("%python", python))
config.substitutions.append(("%emulator_include", os.path.join(root, "ipu_lower", "emulator", "include")))
config.environment["PATH"] = os.pathsep.join([bindir, os.environ.get("PATH", "")])
# Built programs go to the repository's build/, not the user's ~/.cache (shared with pytest).
config.environment["IPU_LOWER_CACHE"] = os.environ.get("IPU_LOWER_CACHE", os.path.join(root, "build", "test-cache"))

# Tests that build emitted C++ (g++ and the emulator) say `REQUIRES: build`; the fast
# subset (README) sets IPU_LOWER_FAST=1 and leaves them out.
if os.environ.get("IPU_LOWER_FAST") != "1":
    config.available_features.add("build")

# Upstream MLIR, to check that our generic form parses there (Debian's mlir-19-tools).
mlir_opt = shutil.which("mlir-opt") or next(
    (p for p in sorted(glob.glob("/usr/lib/llvm-*/bin/mlir-opt"), reverse=True)), None
)
if mlir_opt:
    config.available_features.add("mlir-opt")
    config.substitutions.append(("%mlir_opt", mlir_opt))
