"""lit configuration: `lit tests/lit` runs every .mlir/.sdfg/.py test under tests/lit."""

import os
import sys

import lit.formats

config.name = "ipu-lower"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", ".venv", "examples", "build"]

root = os.path.dirname(os.path.abspath(__file__))
bindir = os.path.dirname(sys.executable)
python = sys.executable
config.substitutions.append(("%examples", os.path.join(root, "examples")))
config.substitutions.append(("%inputs", os.path.join(root, "tests", "lit", "Inputs")))
config.substitutions.append(("%python", python))
config.substitutions.append(("%emulator_include", os.path.join(root, "ipu_lower", "emulator", "include")))
config.environment["PATH"] = os.pathsep.join([bindir, os.environ.get("PATH", "")])
