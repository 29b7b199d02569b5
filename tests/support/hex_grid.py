"""What other tests take from tests/test_hex_grid.py: its helpers, moved here."""

from typing import Tuple

from hypothesis import strategies as st

from pathing_py.cell_layout import CellLayout

Cell = Tuple[int, int]


def moved(layout: CellLayout, tile: Cell) -> Tuple[float, float]:
    """How far Godot moves a TileMap cell (map_to_world's rule: odd lines, abs(line) & 1), restated here."""
    if layout.offset_axis is None or abs(tile[1 - layout.offset_axis]) % 2 == 0:
        return 0.0, 0.0
    return (layout.shift, 0.0) if layout.offset_axis == 0 else (0.0, layout.shift)


def touching(layout: CellLayout, origin: Cell, a: Cell, b: Cell) -> bool:
    """Whether two grid cells share a side of positive length: on one line, next to each other; on
    neighbouring lines, their spans along the lines overlapping."""
    axis = layout.offset_axis
    tiles = [(cell[0] + origin[0], cell[1] + origin[1]) for cell in (a, b)]
    starts = [tile[axis] + moved(layout, tile)[axis] for tile in tiles]
    lines = [tile[1 - axis] for tile in tiles]
    if lines[0] == lines[1]:
        return abs(starts[0] - starts[1]) == 1
    return abs(lines[0] - lines[1]) == 1 and abs(starts[0] - starts[1]) < 1


@st.composite
def layouts(draw) -> CellLayout:
    """A half-offset layout: rows or columns moved either way, cell axes square, stretched, isometric or skewed."""
    axes = draw(st.sampled_from([
        ((1.0, 0.0), (0.0, 1.0)), ((82.0, 0.0), (0.0, 94.0)), ((20.0, 0.0), (0.0, 16.0)),
        ((24.0, 12.0), (-24.0, 12.0)), ((24.0, 4.0), (-6.0, 20.0)), ((10.0, -3.0), (7.0, 30.0)),
    ]))  # fmt: skip
    return CellLayout(
        *axes, (3.0, -5.0), offset_axis=draw(st.sampled_from((0, 1))), shift=draw(st.sampled_from((0.5, -0.5)))
    )


origins = st.tuples(st.integers(-3, 3), st.integers(-3, 3))
