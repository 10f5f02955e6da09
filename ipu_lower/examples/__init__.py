"""Small DaCe programs bundled with ipu-lower, with their saved `.sdfg` files.

Import one from anywhere (`from ipu_lower.examples.saxpy import saxpy`), run one on the
emulator against DaCe's CPU result (`python -m ipu_lower.examples saxpy`), or give its
`.sdfg` file to ipu-opt (`ipu-opt ipu_lower/examples/saxpy.sdfg` from a clone, or
`sdfg_path("saxpy")` from Python)."""

from pathlib import Path

EXAMPLES = ("saxpy", "chain", "scale2d", "clamp")


def sdfg_path(name: str) -> Path:
    """The bundled `.sdfg` file of example `name`."""
    if name not in EXAMPLES:
        raise ValueError(f"no example '{name}' (have: {', '.join(EXAMPLES)})")
    return Path(__file__).with_name(f"{name}.sdfg")
