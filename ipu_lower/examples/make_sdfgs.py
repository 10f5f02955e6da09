"""Regenerate the bundled .sdfg files from the example programs:
python -m ipu_lower.examples.make_sdfgs"""

import importlib

from ipu_lower.examples import EXAMPLES, sdfg_path


def main() -> None:
    for name in EXAMPLES:
        program = getattr(importlib.import_module(f"ipu_lower.examples.{name}"), name)
        sdfg = program.to_sdfg(simplify=True)
        sdfg.name = name  # DaCe prefixes the module's name
        sdfg.save(str(sdfg_path(name)))


if __name__ == "__main__":
    main()
