"""Custom-syntax helpers shared by the dialects."""

from __future__ import annotations

from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.printer import Printer


def print_body(printer: Printer, body: Region) -> None:
    """A single-block body without terminator: an empty block prints as `{}`."""
    printer.print_region(body, print_entry_block_args=False, print_empty_block=False)


def parse_body(parser: Parser) -> Region:
    """The body `print_body` printed: `{}` is one empty block, as in MLIR."""
    body = parser.parse_region()
    if not body.blocks:
        body.add_block(Block())
    return body
