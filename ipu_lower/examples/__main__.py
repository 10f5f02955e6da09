"""Run a bundled example on the emulator and on the CPU with DaCe, and compare:
python -m ipu_lower.examples saxpy [--size 4096] [--arch ipu2]"""

import argparse
import importlib
import tempfile

import dace
import numpy as np

import ipu_lower
from ipu_lower.examples import EXAMPLES


def random_arguments(sdfg: dace.SDFG, size: int, rng: np.random.Generator) -> dict:
    """Random values for every argument, with every symbol equal to `size`."""
    symbols = {s: size for s in sdfg.free_symbols}
    arguments = {}
    for name in sdfg.arg_names:
        desc = sdfg.arrays[name]
        dtype = desc.dtype.as_numpy_dtype()
        shape = () if isinstance(desc, dace.data.Scalar) else tuple(int(dace.symbolic.evaluate(d, symbols)) for d in desc.shape)
        if np.issubdtype(dtype, np.floating):
            values = rng.uniform(-10, 10, shape).astype(dtype)
        else:
            values = rng.integers(-50, 50, shape).astype(dtype)
        arguments[name] = dtype.type(values) if shape == () else values
    return arguments


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m ipu_lower.examples", description=__doc__.split("\n")[0])
    parser.add_argument("name", choices=EXAMPLES)
    parser.add_argument("--size", type=int, default=4096, help="the value of every symbol")
    parser.add_argument("--arch", default="ipu2")
    args = parser.parse_args()

    program = getattr(importlib.import_module(f"ipu_lower.examples.{args.name}"), args.name)
    sdfg = program.to_sdfg(simplify=True)
    arguments = random_arguments(sdfg, args.size, np.random.default_rng(0))
    on_ipu = {k: v.copy() for k, v in arguments.items()}
    on_cpu = {k: v.copy() for k, v in arguments.items()}

    compiled = ipu_lower.compile(program, arch=args.arch)
    compiled(**on_ipu)
    with tempfile.TemporaryDirectory() as build, dace.config.set_temporary("default_build_folder", value=build):
        sdfg.compile()(**on_cpu, **{s: args.size for s in sdfg.free_symbols})

    worst = max(float(np.max(np.abs(on_ipu[k].astype(np.float64) - on_cpu[k]), initial=0)) for k in on_ipu)
    print(f"{args.name}: {compiled.cycles} estimated cycles on {args.arch}; largest difference from DaCe on the CPU: {worst:g}")
    return 0 if worst <= 1e-4 * max(1.0, float(max(np.max(np.abs(v), initial=0) for v in on_cpu.values()))) else 1


if __name__ == "__main__":
    raise SystemExit(main())
