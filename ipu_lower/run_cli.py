"""ipu-run: run a directory written by `ipu-opt -t poplar-cpp -o DIR` on the CPU emulator.

    ipu-run DIR --arg x=x.npy --arg a=2.5 --arg y=y.npy --report report.json

Arrays come from .npy files, scalars from numbers (or .npy files holding one value).
Outputs are written back into their .npy files (or into --output-dir), arrays the program
returns into __return*.npy there (or in the current directory); all of them, and the
report, only once the run succeeded. Errors are one line on stderr with exit code 1.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ipu_lower.atomic_output import partial_path
from ipu_lower.diagnostics import warnings_as_lines
from ipu_lower.runtime import Argument, BuildError, CompiledProgram, ProgramError


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
    argument = next((a for a in program.arguments if a.name == name and not a.returned), None)
    if argument is None:
        known = ", ".join(a.name for a in program.arguments if not a.returned)
        raise RunError(f"unknown argument '{name}' (the program takes {known})")
    if text.endswith(".npy"):
        return _load_npy(argument, text, program.declared.get(name))
    if not argument.scalar:
        raise RunError(f"argument '{name}' is an array: give a .npy file")
    try:
        number = float(text) if argument.dtype.kind == "f" else int(text)
    except ValueError as err:
        raise RunError(f"argument '{name}' must be a {argument.dtype} number, got '{text}'") from err
    if argument.dtype.kind == "f" and math.isinf(number) and "inf" not in text.lower():  # 1e999
        raise RunError(f"argument '{name}' is beyond the range of {argument.dtype}, got '{text}'")
    if argument.dtype.kind in "iu" and not np.iinfo(argument.dtype).min <= number <= np.iinfo(argument.dtype).max:
        info = np.iinfo(argument.dtype)
        raise RunError(f"argument '{name}' must be a {argument.dtype} number ({info.min} to {info.max}), got '{text}'")
    return np.bool_(number) if argument.dtype.kind == "b" else number  # range checked by the call


def _load_npy(argument: Argument, path: str, declared: np.dtype | None) -> np.ndarray:
    """The array in `path`, its header checked against the argument before any data is
    read: a file claiming another shape or a huge one, or that is no .npy at all (an .npz,
    an empty file), is an error naming the argument. An argument the build demoted also
    takes its `declared` 64-bit type."""
    where = f"'{path}' for argument '{argument.name}'"
    expected = (1,) if argument.scalar else argument.shape
    try:
        with open(path, "rb") as file:
            version = np.lib.format.read_magic(file)
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, _, dtype = read_header(file)  # the header only: no data is read yet
            if dtype.hasobject:
                raise ValueError("it holds Python objects")
            if dtype not in (argument.dtype, declared) or (shape != expected and not (argument.scalar and shape == ())):
                also = f" (or {declared}, which the program declares)" if declared is not None else ""
                raise RunError(f"{where} holds {dtype}{list(shape)}, the program takes {argument.dtype}{list(argument.shape)}{also}")
            file.seek(0)
            value = np.load(file, allow_pickle=False)
    except RunError:
        raise
    except (OSError, ValueError, EOFError) as err:
        raise RunError(f"cannot read {where}: {err}") from None
    return value.reshape(())[()] if argument.scalar else value


def run(argv: Sequence[str] | None = None) -> None:
    args = _parse_args(argv)
    directory = Path(args.directory)
    if not (directory / "program.json").is_file():
        raise RunError(f"'{directory}' has no program.json: write it with ipu-opt -t poplar-cpp -o DIR")
    if args.report and not Path(args.report).resolve().parent.is_dir():
        raise RunError(f"cannot write the report to '{args.report}': its directory does not exist")
    program = CompiledProgram(directory)
    sources: dict[str, str] = {}
    values = {}
    for item in args.arg:
        name, sep, text = item.partition("=")
        if not sep:
            raise RunError(f"malformed --arg '{item}' (expected NAME=VALUE)")
        if name in values:
            raise RunError(f"argument '{name}' given twice")
        sources[name] = text
        values[name] = _load_value(program, name, text)
    try:
        returned = program(**values)
    except (TypeError, ValueError, OverflowError) as err:  # an argument the call refused
        raise RunError(str(err)) from err
    outputs = {}
    output_dir = Path(args.output_dir) if args.output_dir else None
    returned_values = iter([] if returned is None else returned if isinstance(returned, tuple) else [returned])
    for argument in program.arguments:
        if argument.returned:
            outputs[(output_dir or Path.cwd()) / f"{argument.name}.npy"] = next(returned_values)
        elif argument.output:
            target = output_dir / f"{argument.name}.npy" if output_dir else Path(sources[argument.name])
            outputs[target] = values[argument.name]
    report = json.dumps(program.report, indent=2) + "\n" if args.report else None
    cycles = program.cycles
    program.close()
    _write_all(outputs, Path(args.report) if args.report else None, report)
    written = [str(p) for p, _ in outputs.items() if p.name.startswith("__return")]
    print(f"{program.manifest['sdfg']}: {cycles} estimated IPU cycles" + (f"; returned {', '.join(written)}" if written else ""))


def _write_all(outputs: dict[Path, np.ndarray], report_path: Path | None, report: str | None) -> None:
    """Every file, or none changed: each is written beside its target first, and all are
    moved into place only when every write succeeded (a target that is a directory, which
    no rename can replace, is found first). Directories made for them go again on error."""
    targets = [*outputs, *([report_path] if report_path is not None else [])]
    for target in targets:
        if target.is_dir():
            raise OSError(f"cannot write '{target}': it is a directory")
    staged: list[tuple[Path, Path]] = []
    made: list[Path] = []
    try:
        for target, value in outputs.items():
            made += _make_directories(target.parent)
            partial = partial_path(target)
            with open(partial, "wb") as file:
                np.save(file, value)
            staged.append((partial, target))
        if report_path is not None:
            partial = partial_path(report_path)
            partial.write_text(report or "")
            staged.append((partial, report_path))
    except OSError:
        for partial, _ in staged:
            partial.unlink(missing_ok=True)
        for directory in reversed(made):
            directory.rmdir()
        raise
    for partial, target in staged:
        partial.replace(target)


def _make_directories(directory: Path) -> list[Path]:
    """Make `directory` and its missing parents; those it made, outermost first."""
    missing = [d for d in (directory, *directory.parents) if not d.exists()][::-1]
    directory.mkdir(parents=True, exist_ok=True)
    return missing


def ipu_run_main(argv: Sequence[str] | None = None) -> None:
    try:
        with warnings_as_lines("ipu-run"):
            run(argv)
    except (RunError, BuildError, ProgramError, OSError) as err:
        message = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        print(f"ipu-run: error: {message}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    ipu_run_main()
