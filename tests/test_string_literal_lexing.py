"""An unterminated string literal is a parse error in time linear in the input, wherever
it stands (dialects/string_literal.py; xDSL 0.75's pattern backtracks exponentially)."""

import threading
import time

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from ipu_lower.cli import IpuOptMain
from ipu_lower.dialects.string_literal import LINEAR_STRING_LITERAL

REST = " [0, 0] : memref<6x5x4x3xi16> {a = #ipu.tile_map<0 to 2 x 5>, b = 1}"
LINES = {
    "operand": '%0 = ipu.access "%A_1' + REST,
    "op-name": '"ipu.vertices(%x)' + REST,
    "attribute": '"ipu.vertices"(%x) <{codelet = @c, r = "rules' + REST + "}> : () -> ()",
    "symbol": '"ipu.vertices"(%x) <{codelet = @"c' + REST + "}> : () -> ()",
}


def _parse_within(text: str, seconds: float) -> BaseException | None:
    """The exception parsing `text` raised; fails the test if it runs longer than `seconds`
    (in a daemon thread, so that a regression cannot stall the suite)."""
    ctx = IpuOptMain(["/dev/null"]).ctx
    outcome: list[BaseException | None] = []

    def parse():
        try:
            Parser(ctx, text, "line").parse_module()
            outcome.append(None)
        except BaseException as err:  # noqa: BLE001 - handed to the test
            outcome.append(err)

    worker = threading.Thread(target=parse, daemon=True)
    worker.start()
    worker.join(seconds)
    assert outcome, f"parsing took more than {seconds} s"
    return outcome[0]


@pytest.mark.parametrize("name", LINES)
def test_unterminated_string_fails_at_once(name):
    start = time.perf_counter()
    err = _parse_within(LINES[name], 10)
    assert isinstance(err, ParseError) and "closing string literal" in str(err)
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize(
    "text, matched",
    [('"abc" rest', '"abc"'), (r'"a\"b\n\t\\\41" x', r'"a\"b\n\t\\\41"'), ('""', '""')],
)
def test_the_pattern_matches_what_xdsl_accepts(text, matched):
    match = LINEAR_STRING_LITERAL.match(text)
    assert match is not None and match.group() == matched


@pytest.mark.parametrize("text", ['"abc', '"a\nb"', r'"a\qb"', '"a\\'])
def test_the_pattern_rejects_what_xdsl_rejects(text):
    assert LINEAR_STRING_LITERAL.match(text) is None
