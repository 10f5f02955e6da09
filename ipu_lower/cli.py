"""ipu-opt: xdsl-opt with ipu-lower's dialects, passes, frontends and the poplar-cpp target.

On top of every xdsl-opt flag: `--pass-pipeline 'builtin.module(a,b{k=v})'`,
`--symbols N=1024,M=64` and `--arch ipu1|ipu2|ipu21` (defaults for the passes that
take them), and `--entry NAME` for `.py` inputs. Errors in the input are reported as
one line on stderr with exit code 1, and no output file is written.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import re
import sys
import warnings
from collections.abc import Sequence
from io import StringIO
from pathlib import Path
from typing import IO, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from ipu_lower import atomic_output
from ipu_lower.arch import ARCHS, DEFAULT_ARCH
from ipu_lower.diagnostics import (
    CompileError,
    IpuLowerWarning,
    as_compile_error,
    compile_stage,
    entering_pass,
    is_internal,
    located_verify_error,
)
from ipu_lower.frontend.frontends import (
    DacePythonFrontend,
    LocatedMlirFrontend,
    SdfgFrontend,
    SdfgzFrontend,
)
from ipu_lower.registry import get_all_dialects, get_all_passes

# Imported when used, so that `--help` starts fast: the target with its printers.
_POPLAR_CPP = "poplar-cpp"

_PIPELINE = re.compile(r"\s*builtin\.module\((.*)\)\s*", re.S)

# Allocations between collections of the youngest generation (Python's default: 700).
# Loading an SDFG and lowering it allocate millions of objects that mostly live until
# exit; at the default the collector took 0.75 s of a 9 s run at 200 states (measured
# with gc.callbacks on the loaded machine), at this 0.27 s.
_GC_THRESHOLD = 50_000

# What xdsl-opt's own loop reports itself (--verify-diagnostics, --parsing-diagnostics).
_XDSL_DIAGNOSTICS = (ParseError, DiagnosticException)


def _compact_pipeline(text: str) -> str:
    """Drop the spaces MLIR allows around top-level commas (xDSL's parser does not)."""
    out, depth, quoted = [], 0, False
    for c in text.strip():
        quoted ^= c == '"'
        if not quoted:
            depth += (c == "{") - (c == "}")
            if depth == 0 and c.isspace():
                continue
        out.append(c)
    return "".join(out)


def _constant(value):
    """A zero-argument factory, as xDSL's registries expect."""
    return lambda: value


class IpuOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="ipu-opt: lower DaCe SDFGs to Poplar C++", args=args)

    def register_all_dialects(self):
        super().register_all_dialects()
        for name, load in get_all_dialects().items():
            self.ctx.register_dialect(name, load)

    def register_all_passes(self):
        """Ours first, so that `--help` lists them before xDSL's."""
        for name, load in get_all_passes().items():
            self.register_pass(name, load)
        super().register_all_passes()

    def register_all_targets(self):
        super().register_all_targets()
        self.available_targets[_POPLAR_CPP] = _poplar_cpp_target

    def register_all_frontends(self):
        super().register_all_frontends()
        for frontend in (LocatedMlirFrontend, SdfgFrontend, SdfgzFrontend, DacePythonFrontend):
            self.available_frontends[frontend.name] = _constant(frontend)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        arg_parser.error = _usage_error  # one line and exit code 1, not argparse's usage and 2
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--pass-pipeline",
            help="pipeline in MLIR syntax, e.g. 'builtin.module(sdfg-to-poplar{arch=ipu1})'",
        )
        arg_parser.add_argument(
            "--symbols", default="", help="symbol values for sdfg-specialize, e.g. N=1024,M=64"
        )
        arg_parser.add_argument(
            "--arch", choices=sorted(ARCHS), default=None,
            help=f"IPU architecture for ipu-tile-partition (default {DEFAULT_ARCH})",
        )
        arg_parser.add_argument("--entry", default="", help="the @dace.program of a .py input")
        arg_parser.add_argument(
            "--verify-each", action="store_true",
            help="verify the IR after every pass, not only the input and the result",
        )

    def setup_pipeline(self):
        if self.args.pass_pipeline is not None:
            if self.args.passes:
                raise CompileError("give either -p or --pass-pipeline, not both")
            match = _PIPELINE.fullmatch(self.args.pass_pipeline)
            if match is None:
                raise CompileError(
                    f"--pass-pipeline must look like 'builtin.module(pass1,pass2{{opt=value}})', "
                    f"got '{self.args.pass_pipeline}'"
                )
            self.args.passes = _compact_pipeline(match.group(1))
        try:
            super().setup_pipeline()
        except (Exception, ArgSpecParseError) as err:  # the latter is a BaseException
            raise CompileError(f"invalid pass pipeline: {err}") from err
        from ipu_lower.pipelines import PipelinePass

        steps = []
        for p in self.pipeline.passes:
            p = self.with_cli_defaults(p)
            steps += [self.with_cli_defaults(s) for s in p.steps()] if isinstance(p, PipelinePass) else [p]
        self.pipeline = PassPipeline(tuple(steps), _located(self.between_passes(self.pipeline.callback)))

    def between_passes(self, callback):
        """xdsl-opt's callback (it verifies the IR, times passes and prints the IR between
        them), verifying only the IR the pipeline starts from and the IR it ends with,
        unless --verify-each: verifying the whole IR after each of a dozen passes was a
        third of the lowering. IR a pass leaves invalid is still reported, at the end;
        --verify-each reports it after the pass that made it."""

        def between(previous, module: ModuleOp, following) -> None:
            disabled = self.args.disable_verify
            ends = previous is None or following is None
            self.args.disable_verify = disabled or not (ends or self.args.verify_each)
            try:
                callback(previous, module, following)
            finally:
                self.args.disable_verify = disabled

        return between

    def with_cli_defaults(self, p):
        """Fill `symbols` and `arch` options the pipeline left at their defaults."""
        changes = {}
        if self.args.symbols and getattr(p, "symbols", None) == "":
            changes["symbols"] = self.args.symbols
        if self.args.arch and hasattr(p, "arch") and p.arch is None:
            changes["arch"] = self.args.arch
        return dataclasses.replace(p, **changes) if changes else p

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0):
        with compile_stage("import", passing=_XDSL_DIAGNOSTICS, quiet=True):  # DaCe prints its parse errors
            return self.import_chunk(chunk, file_extension, start_offset)

    def import_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int):
        key = parse_spec(self.args.frontend or file_extension).name
        if key == DacePythonFrontend.name:
            module = DacePythonFrontend(entry=self.args.entry).parse(self.ctx, chunk, self.get_input_name())
        elif key == LocatedMlirFrontend.name:
            module = LocatedMlirFrontend().parse(self.ctx, chunk, self.get_input_name(), start_offset)
        else:
            module = super().parse_chunk(chunk, file_extension, start_offset)
        # DaCe, sympy and the parsed input stay alive until exit: keep the garbage
        # collector from scanning them again every few thousand new ops (a third of
        # the lowering time of large programs).
        gc.freeze()
        return module

    def apply_passes(self, prog: ModuleOp) -> None:
        with compile_stage("lower", passing=_XDSL_DIAGNOSTICS):
            super().apply_passes(prog)

    def output_resulting_program(self, prog: ModuleOp) -> str:
        with compile_stage("emit", passing=_XDSL_DIAGNOSTICS):
            return super().output_resulting_program(prog)

    def prepare_output(self) -> IO[str]:
        """Everything goes to a buffer, written out only when the whole run succeeded."""
        self.output = _DeferredOutput()
        return self.output

    def write_output(self) -> None:
        text = self.output.text
        target = self.args.output_file
        if target is None:
            sys.stdout.write(text)
            return
        if parse_spec(self.args.target).name == _POPLAR_CPP:
            from ipu_lower.targets.poplar_cpp import split_files

            atomic_output.write_files(Path(target), split_files(text))
        else:
            atomic_output.write_file(Path(target), text)


class _DeferredOutput(StringIO):
    """A buffer that keeps its text when xdsl-opt's run closes it."""

    text = ""

    def close(self) -> None:
        self.text = self.getvalue()
        super().close()


def _located(callback):
    """The pipeline callback (which verifies the IR), its verifier errors located, and the
    next pass named for internal errors."""

    def located(previous, module: ModuleOp, following) -> None:
        try:
            callback(previous, module, following)
        except Exception as err:  # some upstream verifiers raise plain exceptions
            raise located_verify_error(module) or err
        entering_pass(following and following.name)

    return located


def _poplar_cpp_target():
    from ipu_lower.targets.poplar_cpp import PoplarCppTarget

    return PoplarCppTarget


def _exit_with_error(message: str) -> None:
    print(f"ipu-opt: {message}", file=sys.stderr)
    sys.exit(1)


def _print_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Our warnings as one line each, without Python's file and line."""
    print(f"warning: {message}", file=sys.stderr)


def _usage_error(message: str) -> NoReturn:
    raise CompileError(f"{message} (see ipu-opt --help)")


def ipu_opt_main(args: Sequence[str] | None = None) -> None:
    """Console entry point; errors are one line on stderr and exit code 1, with no output written."""
    threshold = gc.get_threshold()
    gc.set_threshold(_GC_THRESHOLD, *threshold[1:])
    try:
        with warnings.catch_warnings():  # the stages hide dependencies' warnings; this, those of the setup
            warnings.simplefilter("ignore")
            warnings.simplefilter("always", IpuLowerWarning)
            warnings.showwarning = _print_warning
            main = IpuOptMain(args)
            main.run()
            main.write_output()
    except Exception as err:
        if os.environ.get("IPU_LOWER_DEBUG") and is_internal(err):
            raise
        _exit_with_error(str(as_compile_error(err)))
    finally:
        gc.set_threshold(*threshold)


if __name__ == "__main__":
    ipu_opt_main()
