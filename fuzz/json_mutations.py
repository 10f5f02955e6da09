"""Structure-aware mutations of a JSON document (an SDFG): each picks a node of the tree
and deletes, retypes, duplicates, nests or inflates it."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

Json = Any
Path_ = tuple[str | int, ...]

SWAPS: tuple[Json, ...] = (
    True, False, None, [], {}, 2**64, 2**63, -(2**63) - 1, -1, 0, 1.5, -0.0, 1e308,
    "NaN", "inf", "-inf", "", "0", "N", "x" * 5000, [1, 2, 3], {"type": "Array"},
    "18446744073709551616", "-1", "1e400", "0:N:0", "0:2**64", "N/0", "None", "true",
    "opaque", "pointer", "complex64", "float64", "int64", "uint64", "bool_", "Scalar", "View", "Stream",
)
"""Values a field is swapped for: other JSON types, integers past int64, strings numbers parse from."""


def node_paths(document: Json) -> list[Path_]:
    """Every node below the root, as the keys that lead to it."""
    found: list[Path_] = []
    stack: list[tuple[Path_, Json]] = [((), document)]
    while stack:
        path, node = stack.pop()
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in children:
            found.append((*path, key))
            stack.append(((*path, key), child))
    return found


def _parent(document: Json, path: Path_) -> Json:
    for key in path[:-1]:
        document = document[key]
    return document


def _delete(rng: random.Random, parent: Json, key: str | int) -> str:
    del parent[key]
    return "delete"


def _swap(rng: random.Random, parent: Json, key: str | int) -> str:
    parent[key] = copy.deepcopy(rng.choice(SWAPS))
    return f"swap to {str(parent[key])[:20]!r}"


def _duplicate(rng: random.Random, parent: Json, key: str | int) -> str:
    if isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif isinstance(parent[key], list) and parent[key]:
        items = parent[key]
        parent[key] = [copy.deepcopy(item) for _ in range(rng.choice((2, 10, 100))) for item in items]
    else:
        parent[f"{key}_copy"] = copy.deepcopy(parent[key])
    return "duplicate"


def _nest(rng: random.Random, parent: Json, key: str | int) -> str:
    depth = rng.choice((50, 500, 900))  # json.dumps recurses: 1000 is its limit
    value = parent[key]
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"a": value}
    parent[key] = value
    return f"nest {depth} deep"


def _inflate(rng: random.Random, parent: Json, key: str | int) -> str:
    value = parent[key]
    if isinstance(value, str):
        parent[key] = value + rng.choice(("x", "(", "[", "+1", "é", "\x00")) * rng.choice((1000, 100_000))
    elif isinstance(value, int) and not isinstance(value, bool):
        parent[key] = rng.choice((value * 10**6, 10**30, -value - 1, 2**31))
    else:
        return _swap(rng, parent, key)
    return "inflate"


MUTATIONS: tuple[Callable[[random.Random, Json, str | int], str], ...] = (_delete, _swap, _duplicate, _nest, _inflate)


def mutate(rng: random.Random, document: Json, count: int = 1) -> tuple[Json, list[str]]:
    """A mutated deep copy of `document` and what was done to it."""
    document = copy.deepcopy(document)
    done = []
    for _ in range(count):
        paths = node_paths(document)
        if not paths:
            break
        path = rng.choice(paths)
        mutation = rng.choice(MUTATIONS)
        done.append(f"{mutation(rng, _parent(document, path), path[-1])} at {'/'.join(map(str, path))[:120]}")
        if mutation is _nest:
            break  # one nesting at most: json.dumps (like deepcopy) stops at 1000 levels
    return document, done


def string_fields(document: Json) -> list[Path_]:
    """The paths of every string value, the places to put payloads."""
    paths = []
    for path in node_paths(document):
        if isinstance(_parent(document, path)[path[-1]], str):
            paths.append(path)
    return paths


def replace(document: Json, path: Path_, value: Json) -> Json:
    document = copy.deepcopy(document)
    _parent(document, path)[path[-1]] = value
    return document
