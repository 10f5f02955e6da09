"""Regenerate the bundled .sdfg files from the example programs: python examples/make_sdfgs.py"""

import importlib
import sys
from pathlib import Path

EXAMPLES = ("saxpy", "chain", "scale2d", "clamp")


def main() -> None:
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    for name in EXAMPLES:
        program = getattr(importlib.import_module(name), name)
        sdfg = program.to_sdfg(simplify=True)
        sdfg.name = name  # DaCe prefixes the module name
        sdfg.save(str(here / f"{name}.sdfg"))


if __name__ == "__main__":
    main()
