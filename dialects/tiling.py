"""What the `ipu` and `poplar` dialects share about placing data and work on tiles.

A tile map is a short list of runs: `0 to 1424 x 68, 1424 to 1472 x 66` says that tiles
0..1423 hold 68 consecutive row-major elements each (tile 0 elements [0, 68), tile 1
[68, 136), ...) and tiles 1424..1471 hold 66 each, continuing where the previous run
stopped. A map of work may start after element 0 (`from 1: ...`), e.g. a stencil over
the interior points of an array, whose first vertex reads element 0 as its halo. The same runs place the vertices of a compute set: block k of the map is the
work of the k-th vertex. Both the IR and the printed host code stay the size of the
run list, never of the tile count.

A slice rule says which part of a tensor one vertex is connected to, given its block
[begin, end) and its index k in the map:

    whole       the whole tensor (a scalar, or a small array every vertex reads)
    block       elements [begin, end)
    halo<l, h>  elements [begin - l, end + h): the block and its neighbours (stencils)
    partial     element k: one result per vertex (partial reductions)
    partials<n> elements [k n, (k + 1) n): n results per vertex (a reduction's partials)
    rows<n>     elements [begin n, end n): the rows [begin, end) of the tensor seen as
                rows of n elements (the inputs of a block of a reduction's outputs)
    columns<n>  the columns [begin, end) of the tensor seen as rows of n elements, all
                its rows, row by row (not contiguous: Poplar gathers it)
    neighbours  (ipu.tiled_map inputs only) the block and whatever neighbours the body
                reads; ipu-plan-exchange replaces it with the halo those reads need

Each dialect declares its own attributes (`#ipu.tile_map`, `#poplar.tile_map`, ...) on
top of the mixins here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from math import prod
from typing import ClassVar

from ipu_lower.dialects.codelet_body import is_vector_field
from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr
from xdsl.ir import Attribute
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ipu_lower.arch import ARCHS


@dataclass(frozen=True)
class TileRun:
    """Tiles [first, end) hold `count` elements each."""

    first: int
    end: int
    count: int

    @property
    def tiles(self) -> int:
        return self.end - self.first

    @property
    def elements(self) -> int:
        return self.tiles * self.count


@dataclass(frozen=True)
class Block:
    """The part of a tile map on one tile: the vertex at `index` of the map (in element
    order) runs on `tile` over elements [begin, end); `run` is its run's position."""

    tile: int
    index: int
    run: int
    begin: int
    end: int


class TileMapMixin:
    """A tile map attribute: its flat (first, end, count) triples and the element its
    first block starts at (`from 1: 0 to 4 x 2` places elements [1, 9); 0 unless given),
    with queries, checks and syntax. A dialect declares `name`, `groups:
    ArrayAttr[IntAttr]` and `first_element: IntAttr`."""

    name: str
    groups: ArrayAttr[IntAttr]
    first_element: IntAttr

    def __init__(self, runs: Sequence[TileRun | tuple[int, int, int]], start: int = 0):
        super().__init__(self.flat(runs), IntAttr(start))  # type: ignore[call-arg]

    def verify(self) -> None:
        self.verify_runs(f"#{self.name}")
        if self.start < 0:
            raise VerifyException(f"#{self.name} starts at element {self.start}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return cls.parse_runs(parser)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(self.runs_text())

    @property
    def start(self) -> int:
        return self.first_element.data

    @staticmethod
    def flat(runs: Sequence[TileRun | tuple[int, int, int]]) -> ArrayAttr[IntAttr]:
        return ArrayAttr([IntAttr(v) for r in runs for v in (r if isinstance(r, tuple) else (r.first, r.end, r.count))])

    def runs(self) -> list[TileRun]:
        v = [a.data for a in self.groups.data]
        return [TileRun(v[i], v[i + 1], v[i + 2]) for i in range(0, len(v) - 2, 3)]

    def run_starts(self) -> list[int]:
        """The first element of each run."""
        starts, offset = [], self.start
        for run in self.runs():
            starts.append(offset)
            offset += run.elements
        return starts

    def total(self) -> int:
        """How many elements the blocks cover."""
        return sum(r.elements for r in self.runs())

    def end(self) -> int:
        """The element after the last block."""
        return self.start + self.total()

    def num_blocks(self) -> int:
        return sum(r.tiles for r in self.runs())

    def max_per_tile(self) -> int:
        """The most elements any tile holds (the busiest tile's share of the work)."""
        return max((r.count for r in self.runs()), default=0)

    def last_tile(self) -> int:
        return max((r.end - 1 for r in self.runs()), default=-1)

    def first_block(self) -> Block | None:
        runs = self.runs()
        return Block(runs[0].first, 0, 0, self.start, self.start + runs[0].count) if runs else None

    def last_block(self) -> Block | None:
        runs = self.runs()
        if not runs:
            return None
        end, last = self.end(), runs[-1]
        return Block(last.end - 1, self.num_blocks() - 1, len(runs) - 1, end - last.count, end)

    def blocks(self) -> Iterator[Block]:
        """Every block, in element order (proportional to the tile count: for tests and
        planning checks, never for building IR)."""
        index = 0
        for r, (run, start) in enumerate(zip(self.runs(), self.run_starts())):
            for t in range(run.tiles):
                yield Block(run.first + t, index, r, start + t * run.count, start + (t + 1) * run.count)
                index += 1

    def restricted(self, begin: int, end: int):
        """This map cut to the elements [begin, end) (inside it): tiles whose blocks lie
        outside drop out, the blocks at both ends shrink. O(runs)."""
        runs: list[tuple[int, int, int]] = []

        def add(first: int, end_tile: int, count: int) -> None:
            if runs and runs[-1][1] == first and runs[-1][2] == count:
                runs[-1] = (runs[-1][0], end_tile, count)
            else:
                runs.append((first, end_tile, count))

        for run, start in zip(self.runs(), self.run_starts()):
            lo, hi = max(begin, start), min(end, start + run.elements)
            if lo >= hi:
                continue
            head, tail = (lo - start) // run.count, (hi - 1 - start) // run.count
            head_end = start + (head + 1) * run.count
            if head == tail:
                add(run.first + head, run.first + head + 1, hi - lo)
                continue
            add(run.first + head, run.first + head + 1, head_end - lo)
            if tail > head + 1:
                add(run.first + head + 1, run.first + tail, run.count)
            add(run.first + tail, run.first + tail + 1, hi - (start + tail * run.count))
        return type(self)(runs, begin)

    def block_of_tile(self, tile: int) -> tuple[int, int] | None:
        """The elements [begin, end) tile `tile` holds, None if it holds none. O(runs)."""
        for run, start in zip(self.runs(), self.run_starts()):
            if run.first <= tile < run.end:
                begin = start + (tile - run.first) * run.count
                return begin, begin + run.count
        return None

    def owner(self, begin: int, end: int) -> int | None:
        """The tile holding all of [begin, end), or None if it is split or unmapped."""
        for run, start in zip(self.runs(), self.run_starts()):
            if start <= begin < start + run.elements:
                t = (begin - start) // run.count
                return run.first + t if end <= start + (t + 1) * run.count else None
        return None

    def verify_runs(self, what: str) -> None:
        if len(self.groups.data) % 3:
            raise VerifyException(f"{what} needs (first, end, count) triples")
        if not self.groups.data:
            raise VerifyException(f"{what} needs at least one run")
        previous_end = 0
        for run in self.runs():
            if run.first < previous_end or run.end <= run.first:
                raise VerifyException(
                    f"{what} runs must cover increasing, non-empty tile ranges "
                    f"(run {run.first} to {run.end} starts before tile {previous_end} or is empty)"
                )
            if run.count <= 0:
                raise VerifyException(f"{what} run {run.first} to {run.end} holds {run.count} elements per tile")
            previous_end = run.end

    @classmethod
    def parse_runs(cls, parser: AttrParser) -> tuple[ArrayAttr[IntAttr], IntAttr]:
        """`<[from N:] first to end x count, ...>`: the parameters of a tile map."""

        def parse_run() -> tuple[int, int, int]:
            first = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_keyword("to")
            end = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_keyword("x")
            return first, end, parser.parse_integer(allow_negative=False, allow_boolean=False)

        parser.parse_punctuation("<")
        start = 0
        if parser.parse_optional_keyword("from"):
            start = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_punctuation(":")
        runs = [] if parser.parse_optional_punctuation(">") else None
        if runs is None:  # an empty map parses, for the verifier to name the problem
            runs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_run)
            parser.parse_punctuation(">")
        return cls.flat(runs), IntAttr(start)

    def runs_text(self) -> str:
        start = f"from {self.start}: " if self.start else ""
        return "<" + start + ", ".join(f"{r.first} to {r.end} x {r.count}" for r in self.runs()) + ">"


@dataclass(frozen=True)
class GridBlock:
    """The part of a grid map on one tile: the vertex at `index` (row-major over the
    map's blocks) runs on `tile` over the box `box` ((begin, end) per dimension); `run`
    numbers its combination of per-dimension runs, row-major."""

    tile: int
    index: int
    run: int
    box: tuple[tuple[int, int], ...]

    @property
    def extents(self) -> tuple[int, ...]:
        return tuple(end - begin for begin, end in self.box)


class GridMapMixin:
    """A grid map attribute: an N-dimensional array cut into boxes, the product of one
    tile map per dimension whose "tiles" number the blocks along it. Block (i0, i1, ...)
    lives on tile i0 * s0 + i1 * s1 + ...: `grid<<0 to 2 x 3> * 2, <0 to 2 x 4> * 1>` puts
    the 3x4 boxes of a 6x8 array on tiles 0, 1 (top) and 2, 3 (bottom). Like a tile map
    it stays the size of its runs, whatever the tile count. A dialect declares `name`,
    `dims: ArrayAttr[its TileMapAttr]`, `strides: ArrayAttr[IntAttr]` and `DIM_MAP`."""

    name: str
    dims: ArrayAttr
    strides: ArrayAttr[IntAttr]
    DIM_MAP: ClassVar[type]

    def __init__(self, dims: Sequence[TileMapMixin], strides: Sequence[int]):
        super().__init__(ArrayAttr(dims), ArrayAttr([IntAttr(s) for s in strides]))  # type: ignore[call-arg]

    @property
    def rank(self) -> int:
        return len(self.dims.data)

    def dim_maps(self) -> list[TileMapMixin]:
        return list(self.dims.data)

    def tile_strides(self) -> list[int]:
        return [s.data for s in self.strides.data]

    def verify(self) -> None:
        what = f"#{self.name}"
        if self.rank < 2 or len(self.strides.data) != self.rank:
            raise VerifyException(f"{what} needs one tile map and one stride for each of at least two dimensions")
        strides = self.tile_strides()
        # row-major numbering: a stride exceeds every tile offset the later dimensions give
        reach = 0
        for dim, stride in reversed(list(zip(self.dim_maps(), strides))):
            if stride <= reach:
                raise VerifyException(f"{what} strides {strides} give two blocks one tile")
            reach += stride * dim.last_tile()

    def run_extents(self) -> list[tuple[int, ...]]:
        """The box extents of each combination of per-dimension runs, row-major (the
        `run` of `GridBlock`)."""
        return [tuple(r.count for r in combo) for combo in product(*(d.runs() for d in self.dim_maps()))]

    def runs(self) -> list[TileRun]:
        """Per combination of per-dimension runs, row-major: its tiles are not a range,
        so only `count` (the elements of each of its boxes) is meaningful."""
        return [TileRun(0, 1, prod(extents)) for extents in self.run_extents()]

    def total(self) -> int:
        return prod(d.total() for d in self.dim_maps())

    def num_blocks(self) -> int:
        return prod(d.num_blocks() for d in self.dim_maps())

    def max_per_tile(self) -> int:
        return prod(d.max_per_tile() for d in self.dim_maps())

    def bounds(self) -> list[tuple[int, int]]:
        """The box the blocks cover: (first element, end) per dimension."""
        return [(d.start, d.end()) for d in self.dim_maps()]

    def bounds_text(self) -> str:
        return "[" + ", ".join(f"{b}:{e}" for b, e in self.bounds()) + "]"

    def last_tile(self) -> int:
        return sum(s * d.last_tile() for d, s in zip(self.dim_maps(), self.tile_strides()))

    def blocks(self) -> Iterator[GridBlock]:
        """Every block, row-major (proportional to the tile count: for estimates and
        checks, never for building IR)."""
        per_dim = [list(d.blocks()) for d in self.dim_maps()]
        run_counts = [len(d.runs()) for d in self.dim_maps()]
        for index, blocks in enumerate(product(*per_dim)):
            run = 0
            for block, n in zip(blocks, run_counts):
                run = run * n + block.run
            tile = sum(b.tile * s for b, s in zip(blocks, self.tile_strides()))
            yield GridBlock(tile, index, run, tuple((b.begin, b.end) for b in blocks))

    def corner_blocks(self) -> list[GridBlock]:
        """The blocks at the corners of the grid: a rule widens every box alike, so
        their slices are the extremes of all (O(2^rank))."""
        ends = [(d.first_block(), d.last_block()) for d in self.dim_maps()]
        return [
            GridBlock(sum(b.tile * s for b, s in zip(combo, self.tile_strides())), 0, 0, tuple((b.begin, b.end) for b in combo))
            for combo in product(*ends)
        ]

    def restricted(self, box: Sequence[tuple[int, int]]):
        """This grid cut to `box` (inside it): blocks outside drop out, those on its
        faces shrink; tiles keep their numbers."""
        dims = [d.restricted(begin, end) for d, (begin, end) in zip(self.dim_maps(), box)]  # type: ignore[attr-defined]
        return type(self)(dims, self.tile_strides())

    def owner_box(self, tile: int) -> tuple[tuple[int, int], ...] | None:
        """The box tile `tile` holds, None if it holds none (O(rank x runs))."""
        box = []
        for dim, stride in zip(self.dim_maps(), self.tile_strides()):
            index, tile = divmod(tile, stride)
            block = dim.block_of_tile(index)
            if block is None:
                return None
            box.append(block)
        return tuple(box) if tile == 0 else None

    @classmethod
    def parse_grid(cls, parser: AttrParser) -> tuple[ArrayAttr, ArrayAttr[IntAttr]]:
        """`grid<<runs> * stride, ...>` (after the keyword `grid`)."""

        def parse_dim() -> tuple[TileMapMixin, int]:
            dim = cls.DIM_MAP.new(cls.DIM_MAP.parse_runs(parser))
            parser.parse_punctuation("*")
            return dim, parser.parse_integer(allow_negative=False, allow_boolean=False)

        dims = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_dim)
        return ArrayAttr([d for d, _ in dims]), ArrayAttr([IntAttr(s) for _, s in dims])

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return cls.parse_grid(parser)

    def runs_text(self) -> str:
        return "grid<" + ", ".join(f"{d.runs_text()} * {s}" for d, s in zip(self.dim_maps(), self.tile_strides())) + ">"

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(self.runs_text()[len("grid"):])


def parse_any_map(parser: AttrParser, tile_map: type, grid_map: type):
    """A tile map's `<runs>` or a grid map's `grid<...>` (the syntax of ops placed over one)."""
    if parser.parse_optional_keyword("grid"):
        return grid_map.new(grid_map.parse_grid(parser))
    return tile_map.new(tile_map.parse_runs(parser))


SLICE_KINDS = ("whole", "block", "halo", "partial", "partials", "rows", "columns")
SIZED_KINDS = ("partials", "rows", "columns")
"""The rules with one size parameter, `partials<6>` (kept in `lo`)."""
UNPLANNED = "neighbours"


class SliceRuleMixin:
    """A slice rule attribute: `kind` is one of `KINDS`, `lo`/`hi` the halo widths;
    over a grid map a halo may instead give widths per dimension, `widths` holding
    (before, after) for each: `halo<[1, 1], [0, 0]>` widens a box by one row on each
    side and no column. A dialect declares `name` and those four parameters."""

    KINDS: ClassVar[tuple[str, ...]] = SLICE_KINDS
    kind: StringAttr
    lo: IntAttr
    hi: IntAttr
    widths: ArrayAttr[IntAttr]

    def __init__(self, kind: str, lo: int = 0, hi: int = 0, widths: Sequence[tuple[int, int]] = ()):
        super().__init__(*self.parameters_of(kind, lo, hi, widths))  # type: ignore[call-arg]

    def verify(self) -> None:
        self.verify_rule()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_rule(parser)

    @classmethod
    def parameters_of(
        cls, kind: str, lo: int = 0, hi: int = 0, widths: Sequence[tuple[int, int]] = ()
    ) -> tuple[Attribute, ...]:
        return (StringAttr(kind), IntAttr(lo), IntAttr(hi), ArrayAttr([IntAttr(w) for pair in widths for w in pair]))

    @property
    def halo(self) -> tuple[int, int]:
        return self.lo.data, self.hi.data

    @property
    def per_dimension(self) -> bool:
        """Whether the halo gives its widths per dimension (a grid map's)."""
        return bool(self.widths.data)

    def ring(self, rank: int) -> list[tuple[int, int]]:
        """(before, after) in each of `rank` dimensions: the widths per dimension, or
        the halo's in every one."""
        if self.per_dimension:
            flat = [w.data for w in self.widths.data]
            return list(zip(flat[::2], flat[1::2]))
        return [self.halo] * rank

    @property
    def is_whole(self) -> bool:
        return self.kind.data == "whole"

    @property
    def is_partial(self) -> bool:
        return self.kind.data == "partial"

    @property
    def is_unplanned(self) -> bool:
        return self.kind.data == UNPLANNED

    @property
    def is_blockwise(self) -> bool:
        """block or halo: the vertex sees a run of elements that follows its block."""
        return self.kind.data in ("block", "halo", UNPLANNED)

    @property
    def size(self) -> int:
        """The parameter of `partials<n>`, `rows<n>`, `columns<n>` (0 for other rules)."""
        return self.lo.data if self.kind.data in SIZED_KINDS else 0

    @property
    def needs_vector_field(self) -> bool:
        """Whether the vertex sees a run of elements (not one)."""
        return self.kind.data in ("block", "halo", *SIZED_KINDS)

    def slice_of(self, block: Block) -> tuple[int, int] | None:
        """The elements of the tensor the vertex of `block` connects, None for whole;
        for `columns<n>`, the columns of a row."""
        match self.kind.data:
            case "whole":
                return None
            case "partial":
                return block.index, block.index + 1
            case "partials":
                return block.index * self.size, (block.index + 1) * self.size
            case "rows":
                return block.begin * self.size, block.end * self.size
            case "columns":
                return block.begin, block.end
            case _:
                return block.begin - self.lo.data, block.end + self.hi.data

    def step(self, count: int) -> int:
        """How far `slice_of` moves from a block to the next of the same run, whose
        blocks hold `count` elements each (0 for whole)."""
        match self.kind.data:
            case "whole":
                return 0
            case "partial":
                return 1
            case "partials":
                return self.size
            case "rows":
                return count * self.size
            case _:
                return count

    @property
    def fits_grid(self) -> bool:
        """Whether the rule means something over a grid map: whole, or the block's box,
        widened by a halo in every dimension."""
        return self.kind.data in ("whole", "block", "halo", UNPLANNED)

    def box_of(self, block: GridBlock) -> tuple[tuple[int, int], ...] | None:
        """The box of the tensor the vertex of a grid `block` connects, None for whole."""
        if self.is_whole:
            return None
        return tuple((begin - lo, end + hi) for (begin, end), (lo, hi) in zip(block.box, self.ring(len(block.box))))

    def element_ranges(self, block: Block, elements: int) -> list[tuple[int, int]]:
        """The runs of consecutive elements the vertex of `block` connects, of a tensor
        of `elements` elements (one but for `columns<n>`: a run per row)."""
        bounds = self.slice_of(block)
        if bounds is None:
            return [(0, elements)]
        if self.kind.data == "columns":
            return [(row + bounds[0], row + bounds[1]) for row in range(0, elements, self.size)]
        return [bounds]

    def extent(self, elements: int) -> int:
        """What `slice_of` ranges over for a tensor of `elements` elements: its elements,
        or the length of its rows for `columns<n>`."""
        return self.size if self.kind.data == "columns" else elements

    def slice_size(self, block_size: int, elements: int) -> int:
        """How many elements a vertex whose block holds `block_size` elements connects,
        of a tensor of `elements` elements."""
        match self.kind.data:
            case "whole":
                return elements
            case "partial":
                return 1
            case "partials":
                return self.size
            case "rows":
                return block_size * self.size
            case "columns":
                return elements // self.size * block_size
            case _:
                return block_size + self.lo.data + self.hi.data

    def verify_rule(self) -> None:
        if self.kind.data not in self.KINDS:
            raise VerifyException(f"unknown slice rule '{self.kind.data}' (expected {', '.join(self.KINDS)})")
        if self.per_dimension:
            if self.kind.data != "halo" or self.lo.data or self.hi.data or len(self.widths.data) % 2:
                raise VerifyException("widths per dimension are (before, after) pairs of a halo")
            if any(w.data < 0 for w in self.widths.data):
                raise VerifyException(f"halo widths must not be negative, got {self.rule_text()}")
            return
        if self.kind.data in SIZED_KINDS:
            if self.lo.data < 1 or self.hi.data:
                raise VerifyException(f"a {self.kind.data} rule needs one size of at least 1, got <{self.lo.data}, {self.hi.data}>")
            return
        if self.lo.data < 0 or self.hi.data < 0:
            raise VerifyException(f"halo widths must not be negative, got <{self.lo.data}, {self.hi.data}>")
        if self.kind.data != "halo" and (self.lo.data or self.hi.data):
            raise VerifyException(f"only a halo rule has widths, not '{self.kind.data}'")

    @classmethod
    def parse_rule(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        kind = parser.parse_keyword_in(cls.KINDS, " (a slice rule)")
        if kind in SIZED_KINDS:
            parser.parse_punctuation("<")
            size = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_punctuation(">")
            return cls.parameters_of(kind, size)
        if kind != "halo":
            return cls.parameters_of(kind)
        parser.parse_punctuation("<")
        if parser.parse_optional_punctuation("[") is not None:  # widths per dimension

            def parse_pair() -> tuple[int, int]:
                before = parser.parse_integer(allow_negative=False, allow_boolean=False)
                parser.parse_punctuation(",")
                after = parser.parse_integer(allow_negative=False, allow_boolean=False)
                parser.parse_punctuation("]")
                return before, after

            pairs = [parse_pair()]
            while parser.parse_optional_punctuation(",") is not None:
                parser.parse_punctuation("[")
                pairs.append(parse_pair())
            parser.parse_punctuation(">")
            return cls.parameters_of(kind, widths=pairs)
        lo = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_punctuation(",")
        hi = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_punctuation(">")
        return cls.parameters_of(kind, lo, hi)

    def rule_text(self) -> str:
        if self.per_dimension:
            return "halo<" + ", ".join(f"[{lo}, {hi}]" for lo, hi in self.ring(0)) + ">"
        if self.kind.data == "halo":
            return f"halo<{self.lo.data}, {self.hi.data}>"
        if self.kind.data in SIZED_KINDS:
            return f"{self.kind.data}<{self.lo.data}>"
        return self.kind.data

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.rule_text()}>")


def check_tiles_exist(tile_map: TileMapMixin, arch: str) -> None:
    """The map uses tiles that the architecture `arch` has (unknown archs are left to
    the op that names them)."""
    tiles = ARCHS[arch].tiles if arch in ARCHS else None
    if tiles is not None and tile_map.last_tile() >= tiles:
        raise VerifyException(f"uses tile {tile_map.last_tile()} but {arch} has {tiles} tiles")


def check_covers(tile_map: TileMapMixin | GridMapMixin, shape: Sequence[int], what: str) -> None:
    """A tensor's layout covers exactly its elements (a grid map: its box)."""
    if isinstance(tile_map, GridMapMixin):
        if tile_map.bounds() != [(0, n) for n in shape]:
            raise VerifyException(f"grid map {what}covers the box {tile_map.bounds_text()} but the tensor has shape {list(shape)}")
        return
    elements = prod(shape)
    if (tile_map.start, tile_map.end()) != (0, elements):
        raise VerifyException(f"tile map {what}covers elements [{tile_map.start}:{tile_map.end()}] but the tensor has {elements}")


def check_slices_inside(
    rules: Sequence[SliceRuleMixin],
    tile_map: TileMapMixin | GridMapMixin,
    sizes: Sequence[int],
    names: Sequence[str],
    shapes: Sequence[Sequence[int]] | None = None,
) -> None:
    """Every slice the rules give over `tile_map` lies inside its tensor (of `sizes[i]`
    elements, of shape `shapes[i]` for a grid map). The extremes are the first and the
    last block (the corner blocks of a grid), so this is O(runs)."""
    if isinstance(tile_map, GridMapMixin):
        _check_boxes_inside(rules, tile_map, shapes or [()] * len(rules), names)
        return
    for rule, name in zip(rules, names):
        if rule.per_dimension:
            raise VerifyException(f"'{name}' is connected {rule.rule_text()}: widths per dimension need a grid map")
    first, last = tile_map.first_block(), tile_map.last_block()
    if first is None or last is None:
        return
    for rule, size, name in zip(rules, sizes, names):
        if rule.kind.data == "columns" and size % rule.size:
            raise VerifyException(f"'{name}' has {size} elements, which are no rows of {rule.size}")
        for block in (first, last):
            bounds = rule.slice_of(block)
            limit = rule.extent(size)
            if bounds is not None and not 0 <= bounds[0] < bounds[1] <= limit:
                within = f"its rows of {limit}" if limit != size else f"its {size} elements"
                raise VerifyException(
                    f"the {rule.rule_text()} slice [{bounds[0]}:{bounds[1]}] of '{name}' on tile "
                    f"{block.tile} is outside {within}"
                )


def _check_boxes_inside(
    rules: Sequence[SliceRuleMixin], grid: GridMapMixin, shapes: Sequence[Sequence[int]], names: Sequence[str]
) -> None:
    corners = grid.corner_blocks()
    for rule, shape, name in zip(rules, shapes, names):
        if not rule.fits_grid:
            raise VerifyException(f"'{name}' is connected {rule.rule_text()}, which a grid map has no meaning for")
        if rule.is_whole:
            continue
        if len(shape) != grid.rank:
            raise VerifyException(f"'{name}' has {len(shape)} dimensions, the grid map {grid.rank}")
        if rule.per_dimension and len(rule.ring(0)) != grid.rank:
            raise VerifyException(f"'{name}' is connected {rule.rule_text()}, widths for a grid map of {grid.rank} dimensions")
        for block in corners:
            box = rule.box_of(block)
            assert box is not None
            if any(not 0 <= b < e <= n for (b, e), n in zip(box, shape)):
                text = ", ".join(f"{b}:{e}" for b, e in box)
                raise VerifyException(
                    f"the {rule.rule_text()} box [{text}] of '{name}' on tile {block.tile} is outside its shape {list(shape)}"
                )


def verify_placement(
    codelet_name: str,
    field_names: Sequence[str],
    field_types: Sequence[Attribute],
    rules: Sequence[SliceRuleMixin],
    tensors: Sequence[tuple[str, Attribute, int]],
) -> None:
    """Each (rule, tensor) fits the codelet field it is connected to.
    `tensors` gives each operand's name, element type and element count."""
    for field, field_type, rule, (name, element, size) in zip(field_names, field_types, rules, tensors):
        where = f"'{name}' connected to field '{field}' of {codelet_name}"
        if rule.is_unplanned:
            raise VerifyException(f"{where}: its halo is not planned yet (run ipu-plan-exchange)")
        if element != field_type.element_type:  # type: ignore[attr-defined]
            raise VerifyException(f"{where} has element type {element}, the field {field_type.element_type}")  # type: ignore[attr-defined]
        if is_vector_field(field_type):
            if rule.is_partial:
                raise VerifyException(f"{where}: a partial slice is one element, the field is a vector")
        elif rule.needs_vector_field:
            raise VerifyException(f"{where}: a {rule.rule_text()} slice needs a vector field, the field is a scalar")
        elif rule.is_whole and size != 1:
            raise VerifyException(f"{where}: a whole tensor of {size} elements needs a vector field")
