"""The state shared while printing one C++ file."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from xdsl.ir import SSAValue

from ipu_lower.names import UniqueNames


def cpp_string(text: str) -> str:
    """`text` as a C++ string literal."""
    escaped = "".join(
        c if c.isprintable() and c not in '"\\' else f"\\{c}" if c in '"\\' else f"\\x{ord(c):02x}"
        for c in text
    )
    return f'"{escaped}"'


class PrintContext:
    """Owns the output stream, the C names of SSA values and the indentation."""

    def __init__(self, output: IO[str], reserved: tuple[str, ...] = ()):
        self.output = output
        self.names = UniqueNames(reserved)
        self.values: dict[SSAValue, str] = {}
        self._indent = 0

    def line(self, text: str = "") -> None:
        self.output.write(("  " * self._indent + text).rstrip() + "\n")

    def label(self, text: str) -> None:
        """A line one level out, like `public:` in a class."""
        self.output.write("  " * (self._indent - 1) + text + "\n")

    @contextmanager
    def descend(self, opening: str, closing: str = "}") -> Iterator[None]:
        """Print `opening {`, the indented body, then `closing`."""
        self.line(f"{opening} {{")
        with self.indented():
            yield
        self.line(closing)

    @contextmanager
    def indented(self) -> Iterator[None]:
        self._indent += 1
        yield
        self._indent -= 1

    def bind(self, value: SSAValue, hint: str, fallback: str = "v") -> str:
        """Give `value` a fresh C name derived from `hint`."""
        name = self.names.fresh(hint, fallback)
        self.values[value] = name
        return name

    def __getitem__(self, value: SSAValue) -> str:
        return self.values[value]
