"""Custom-syntax helpers shared by the dialects."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
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


def print_regions(printer: Printer, op: Operation, regions: Sequence[tuple[str, Region]]) -> None:
    """`attributes {...}` of `op`, then its regions, each after its keyword (none for the
    first); a region after `else` is left out when empty (sdfg.if, sdfg.while, ipu.if,
    ipu.repeat_while)."""
    printer.print_op_attributes(op.attributes, print_keyword=True)
    for keyword, region in regions:
        if keyword == "else" and not region.block.ops:
            continue
        printer.print_string(f" {keyword} " if keyword else " ")
        print_body(printer, region)


def parse_regions(parser: Parser, keywords: Sequence[str]) -> tuple[dict[str, Attribute], list[Region | None]]:
    """What `print_regions` printed: the attributes, and the first region then one per
    keyword (None for an `else` that is not there)."""
    attrs = parser.parse_optional_attr_dict_with_keyword()
    regions: list[Region | None] = [parse_body(parser)]
    for keyword in keywords:
        if keyword == "else":
            regions.append(parse_body(parser) if parser.parse_optional_keyword("else") else None)
        else:
            parser.parse_keyword(keyword)
            regions.append(parse_body(parser))
    return (dict(attrs.data) if attrs else {}), regions


class LabelledBodyMixin:
    """An op written `"label" attributes {...} { body }`: a `label` property and a
    single-block `body` without terminator (sdfg.state, ipu.compute_set)."""

    def __init__(self, label: str, body: Region | None = None):
        super().__init__(properties={"label": StringAttr(label)}, regions=[body or Region(Block())])  # type: ignore[call-arg]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)  # type: ignore[attr-defined]
        printer.print_op_attributes(self.attributes, print_keyword=True)  # type: ignore[attr-defined]
        printer.print_string(" ")
        print_body(printer, self.body)  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, parser: Parser):
        label = parser.parse_str_literal()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(label, parse_body(parser))
        if attrs:
            op.attributes.update(attrs.data)
        return op


def print_view_tail(printer: Printer, op: Operation, source: SSAValue, result: SSAValue) -> None:
    """The end of a view op (ipu.view, poplar.slice_box, ...): `{attrs} : source -> result`."""
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(source.type)
    printer.print_string(" -> ")
    printer.print_attribute(result.type)


def parse_view_tail(parser: Parser) -> tuple[dict[str, Attribute], Attribute, Attribute]:
    """What `print_view_tail` printed: the attributes, the source and the result type."""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    source = parser.parse_type()
    parser.parse_punctuation("->")
    return attrs, source, parser.parse_type()
