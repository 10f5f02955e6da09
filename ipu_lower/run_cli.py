"""ipu-run: run a directory written by `ipu-opt -t poplar-cpp -o DIR` on the CPU emulator.

    ipu-run DIR --arg x=x.npy --arg a=2.5 --arg y=y.npy --report report.json

Arrays come from .npy files, scalars from numbers (or .npy files holding one value).
Outputs are written back into their .npy files (or into --output-dir). Errors are one
line on stderr with exit code 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ipu_lower.runtime import BuildError, CompiledProgram, ProgramError


class RunError(Exception):
    """Bad arguments or inputs of ipu-run."""


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ipu-run", description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", help="a directory written by ipu-opt -t poplar-cpp -o DIR")
    parser.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                        help="an argument: NAME=file.npy, or NAME=number for scalars")
    parser.add_argument("--report", help="write the emulator's cycle report (JSON) here")
    parser.add_argument("--output-dir", help="write outputs here as NAME.npy instead of in place")
    return parser.parse_args(argv)


def _load_value(program: CompiledProgram, name: str, text: str):
    argument = next((a for a in program.arguments if a.name == name), None)
    if argument is None:
        known = ", ".join(a.name for a in program.arguments)
        raise RunError(f"unknown argument '{name}' (the program takes {known})")
    if text.endswith(".npy"):
        try:
            value = np.load(text, allow_pickle=False)
        except (OSError, ValueError) as err:
            raise RunError(f"cannot read '{text}' for argument '{name}': {err}") from err
        return value.reshape(()) if argument.scalar and value.size == 1 else value
    if not argument.scalar:
        raise RunError(f"argument '{name}' is an array: give a .npy file")
    try:
        number = float(text) if argument.dtype.kind == "f" else int(text)
    except ValueError as err:
        raise RunError(f"argument '{name}' must be a {argument.dtype} number, got '{text}'") from err
    if argument.dtype.kind in "iu" and not np.iinfo(argument.dtype).min <= number <= np.iinfo(argument.dtype).max:
        info = np.iinfo(argument.dtype)
        raise RunError(f"argument '{name}' must be a {argument.dtype} number ({info.min} to {info.max}), got '{text}'")
    return argument.dtype.type(number)


def run(argv: Sequence[str] | None = None) -> None:
    args = _parse_args(argv)
    directory = Path(args.directory)
    if not (directory / "program.json").is_file():
        raise RunError(f"'{directory}' has no program.json: write it with ipu-opt -t poplar-cpp -o DIR")
    program = CompiledProgram(directory)
    sources: dict[str, str] = {}
    values = {}
    for item in args.arg:
        name, sep, text = item.partition("=")
        if not sep:
            raise RunError(f"malformed --arg '{item}' (expected NAME=VALUE)")
        sources[name] = text
        values[name] = _load_value(program, name, text)
    try:
        program(**values)
    except TypeError as err:
        raise RunError(str(err)) from err
    for argument in program.arguments:
        if argument.output:
            target = Path(args.output_dir) / f"{argument.name}.npy" if args.output_dir else Path(sources[argument.name])
            target.parent.mkdir(parents=True, exist_ok=True)
            np.save(target, values[argument.name])
    if args.report:
        Path(args.report).write_text(json.dumps(program.report, indent=2) + "\n")
    print(f"{program.manifest['sdfg']}: {program.cycles} estimated IPU cycles")
    program.close()


def ipu_run_main(argv: Sequence[str] | None = None) -> None:
    try:
        run(argv)
    except (RunError, BuildError, ProgramError, OSError) as err:
        message = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        print(f"ipu-run: error: {message}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    ipu_run_main()
