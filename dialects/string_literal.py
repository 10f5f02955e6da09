"""A string-literal pattern for xDSL's MLIR lexer that fails in time linear in the input.

xDSL 0.75 lexes `"..."` with `"(?:[^"\\...]+|\\...)*"`: a `+` inside a `*`, so on a quote
that is never closed the regex engine tries every way of splitting the rest of the input
between the two quantifiers before it gives up, and a 50-byte line takes minutes. The
same language is matched here one character at a time (the two alternatives start with
different characters, so each position has one way to match) by a possessive `*+` that
never backtracks. xDSL's parser builds its `MLIRLexer` itself, so the pattern replaces
the class attribute; every parser of the process, ours and xDSL's, then lexes linearly.
"""

from __future__ import annotations

import re

from xdsl.utils.mlir_lexer import MLIRLexer

LINEAR_STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')

MLIRLexer._unescaped_characters_regex = LINEAR_STRING_LITERAL  # pyright: ignore[reportPrivateUsage]
