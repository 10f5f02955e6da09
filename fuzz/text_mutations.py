"""Byte-level mutations of a text input (.mlir, or an .sdfg as text): truncation,
unterminated strings, deep brackets, random bytes, repeated slices."""

from __future__ import annotations

import random
from collections.abc import Callable


def _truncate(rng: random.Random, text: bytes) -> bytes:
    return text[: rng.randrange(len(text) + 1)]


def _unterminated_string(rng: random.Random, text: bytes) -> bytes:
    at = rng.randrange(len(text) + 1)
    return text[:at] + b'"' + rng.choice((b"", b"abc", b"\\", b"\\\"")) + text[at:].replace(b'"', b"")


def _deep_brackets(rng: random.Random, text: bytes) -> bytes:
    at = rng.randrange(len(text) + 1)
    opening = rng.choice((b"(", b"[", b"{", b"<", b"memref<", b"!ipu.tile_map<"))
    return text[:at] + opening * rng.choice((100, 2000, 50_000)) + text[at:]


def _random_bytes(rng: random.Random, text: bytes) -> bytes:
    data = bytearray(text)
    for _ in range(rng.choice((1, 4, 32))):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def _repeat_slice(rng: random.Random, text: bytes) -> bytes:
    start = rng.randrange(len(text) + 1)
    end = min(len(text), start + rng.randrange(1, 200))
    return text[:end] + text[start:end] * rng.choice((2, 50, 2000)) + text[end:]


def _swap_token(rng: random.Random, text: bytes) -> bytes:
    """A token of the file replaced by another of it: a type for a value, a name for a number."""
    tokens = text.split()
    if len(tokens) < 2:
        return text
    old, new = rng.choice(tokens), rng.choice(tokens)
    return text.replace(old, new, 1)


MUTATIONS: tuple[Callable[[random.Random, bytes], bytes], ...] = (
    _truncate, _unterminated_string, _deep_brackets, _random_bytes, _repeat_slice, _swap_token,
)


def mutate(rng: random.Random, text: bytes, limit: int = 1 << 20) -> tuple[bytes, str]:
    """A mutation of `text` (at most `limit` bytes, the hang rule's input size) and its name."""
    mutation = rng.choice(MUTATIONS)
    return mutation(rng, text)[:limit], mutation.__name__.lstrip("_")
