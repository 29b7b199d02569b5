"""Hypothesis strategies shared by the tests: maps, terrain costs, cells and map edits, drawn as data.

Nothing is built from a drawn random seed, so a failing example shrinks:
maps towards fewer rows, columns and walls, edits towards fewer and smaller
batches. Map sides stay at most 24 by default so that the reference
searches stay quick.
"""

import math
from typing import List, Tuple

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

Cell = Tuple[int, int]
#: A batch of cells edited together, and whether they become blocked.
Edit = Tuple[List[Cell], bool]


@st.composite
def maps(draw, min_side: int = 1, max_side: int = 24, max_walls: float = 0.45) -> np.ndarray:
    """A passable mask: walls where every one of a few drawn layers of bits (one whole number a
    row) has a bit set, so each layer halves the share of walls; at least enough layers are drawn
    to keep that share at most ``max_walls`` on average.

    Rows shrink to 0, which is open ground, so a failure shrinks to the fewest
    walls that still show it.
    """
    height, width = draw(st.integers(min_side, max_side)), draw(st.integers(min_side, max_side))
    fewest = max(1, math.ceil(-math.log2(max_walls)))
    row = st.integers(0, 2**width - 1)
    walls = np.ones((height, width), dtype=bool)
    for _ in range(draw(st.integers(fewest, fewest + 3))):
        bits = np.array(draw(st.lists(row, min_size=height, max_size=height)), dtype=np.uint64)
        walls &= (bits[:, None] >> np.arange(width, dtype=np.uint64)) & np.uint64(1) == 1
    return ~walls


@st.composite
def walled_maps(draw, min_side: int = 3, max_side: int = 20, max_walls: int = 10) -> np.ndarray:
    """Open ground with straight wall segments: pockets, U shapes, enclosures (what noise rarely makes)."""
    height, width = draw(st.integers(min_side, max_side)), draw(st.integers(min_side, max_side))
    passable = np.ones((height, width), dtype=bool)
    segment = st.tuples(cells(width, height), st.integers(2, max(width, height)), st.booleans())
    for (x, y), length, across in draw(st.lists(segment, max_size=max_walls)):
        if across:
            passable[y, x : x + length] = False
        else:
            passable[y : y + length, x] = False
    return passable


@st.composite
def mazes(draw, max_rooms: int = 12) -> np.ndarray:
    """A perfect maze (one way between any two cells, corridors 1 wide): rooms on the even cells,
    each joined to the room north of it or the one west of it (a binary-tree maze; it shrinks to a
    comb). Blocking almost any corridor cell splits it, which noise maps rarely do."""
    rows, columns = draw(st.integers(1, max_rooms)), draw(st.integers(1, max_rooms))
    north = draw(st.lists(st.booleans(), min_size=rows * columns, max_size=rows * columns))
    passable = np.zeros((2 * rows - 1, 2 * columns - 1), dtype=bool)
    passable[::2, ::2] = True
    for i, go_north in enumerate(north):
        y, x = divmod(i, columns)
        if y > 0 and (go_north or x == 0):
            passable[2 * y - 1, 2 * x] = True
        elif x > 0:
            passable[2 * y, 2 * x - 1] = True
    return passable


def connectivities() -> st.SearchStrategy:
    """A grid's connectivity: 8 (shrinking to it, the default) or 4."""
    return st.sampled_from((8, 4))


def costs(shape: Tuple[int, int], highest: int = 4) -> st.SearchStrategy:
    """Terrain costs, whole numbers 1..``highest`` as floats (shrinking to 1, plain ground)."""
    return arrays(np.float64, shape, elements=st.integers(1, highest).map(float), fill=st.nothing())


def cells(width: int, height: int) -> st.SearchStrategy:
    """A cell ``(x, y)`` of a width x height map."""
    return st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))


def cells_of(passable: np.ndarray) -> st.SearchStrategy:
    """A cell of the map ``passable``."""
    return cells(passable.shape[1], passable.shape[0])


@st.composite
def rectangles(draw, width: int, height: int, max_side: int = 4) -> List[Cell]:
    """The cells of a rectangle of at most ``max_side`` x ``max_side`` cells, cut to the map."""
    x, y = draw(cells(width, height))
    across, down = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    return [(cx, cy) for cy in range(y, min(y + down, height)) for cx in range(x, min(x + across, width))]


def batches(width: int, height: int, max_cells: int = 8) -> st.SearchStrategy:
    """Cells edited together: a rectangle (a building, a door) or a scattered handful."""
    scattered = st.lists(cells(width, height), min_size=1, max_size=max_cells, unique=True)
    return st.one_of(rectangles(width, height), scattered)


def edits(width: int, height: int, max_edits: int = 5) -> st.SearchStrategy:
    """Map edits in order: batches of cells, each blocked (True) or freed (False)."""
    return st.lists(st.tuples(batches(width, height), st.booleans()), max_size=max_edits)


def headings() -> st.SearchStrategy:
    """A unit vector (x, y), from an angle in radians drawn as a float (shrinking to 0: east)."""
    return st.floats(-math.pi, math.pi).map(lambda angle: (math.cos(angle), math.sin(angle)))


@st.composite
def crowds(draw, side: float = 12.0, max_units: int = 40, max_radius: float = 1.5) -> Tuple[np.ndarray, np.ndarray]:
    """Circles as (positions (n, 2), radii (n,)) over a ``side`` x ``side`` square and a cell beyond it.

    Coordinates are drawn in steps of 1/64 cell, so that circles exactly
    touching and centres on cell edges come up; they shrink towards the
    corner (0, 0) and radii towards the smallest, 1/16 cell.
    """
    count = draw(st.integers(0, max_units))
    steps = int(side + 2) * 64
    positions = draw(arrays(np.int64, (count, 2), elements=st.integers(0, steps))) / 64.0 - 1.0
    radii = draw(arrays(np.int64, (count,), elements=st.integers(4, int(max_radius * 64)))) / 64.0
    return positions, radii
