import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid, MapFormatError
from pathing_py.grid import diagonal_steps, passable_at, step_allowed, step_corners
from pathing_py.islands import label_islands
from tests.support import reference
from tests.support.strategies import cells, edits, maps


def flood_islands(passable):
    """Reference labelling: breadth-first flood fill over orthogonal moves."""
    height, width = passable.shape
    labels = np.zeros((height, width), dtype=int)
    count = 0
    for y in range(height):
        for x in range(width):
            if passable[y, x] and not labels[y, x]:
                count += 1
                labels[y, x] = count
                todo = [(x, y)]
                while todo:
                    cx, cy = todo.pop()
                    for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                        if 0 <= nx < width and 0 <= ny < height and passable[ny, nx] and not labels[ny, nx]:
                            labels[ny, nx] = count
                            todo.append((nx, ny))
    return labels, count


def same_partition(a, b):
    """Two labellings describe the same islands (numbers may differ)."""
    pairs = set(zip(a.ravel().tolist(), b.ravel().tolist()))
    return len(pairs) == len({p[0] for p in pairs}) == len({p[1] for p in pairs})


@settings(max_examples=150, deadline=None)
@given(maps(max_walls=0.7))
def test_labels_match_flood_fill(passable):
    labels, count = label_islands(passable)
    expected, expected_count = flood_islands(passable)
    assert count == expected_count
    assert same_partition(labels, expected)


@settings(max_examples=100, deadline=None)
@given(maps(max_walls=0.7), st.data())
def test_labels_stay_right_through_edits(passable, data):
    grid = Grid(passable)
    grid.islands  # label first, so that the edits update labels instead of recomputing them
    for batch, blocked in data.draw(edits(grid.width, grid.height, max_edits=8)):
        grid.set_blocked(batch, blocked)
        expected, _ = flood_islands(grid.passable)
        assert same_partition(grid.islands, expected)
        assert (grid.islands > 0).sum() == grid.passable.sum()


def test_block_edits_of_many_cells_at_once():
    grid = Grid(np.ones((9, 9), dtype=bool))
    grid.islands
    grid.set_blocked([(4, y) for y in range(9)])
    assert not grid.same_island((0, 0), (8, 8))
    grid.set_blocked([(4, 4)], blocked=False)
    assert grid.same_island((0, 0), (8, 8))


def test_version_changes_on_every_real_edit():
    grid = Grid.from_ascii("...\n...")
    hash_before = grid.content_hash()
    grid.set_blocked([(1, 1)])
    assert grid.version == 1 and grid.content_hash() != hash_before
    grid.set_blocked([(1, 1)])  # already blocked: nothing changes
    assert grid.version == 1
    grid.set_blocked([(1, 1)], blocked=False)
    assert grid.version == 2 and grid.content_hash() == hash_before


def test_edit_outside_changes_nothing():
    grid = Grid.from_ascii("...\n...")
    with pytest.raises(ValueError, match=r"\(3, 0\) is outside"):
        grid.set_blocked([(0, 0), (3, 0)])
    assert grid.passable.all() and grid.version == 0


def test_passable_is_read_only():
    grid = Grid.from_ascii("..")
    with pytest.raises(ValueError):
        grid.passable[0, 0] = False


def test_ascii_and_queries():
    grid = Grid.from_ascii("\n.#@\n...\n")
    assert (grid.width, grid.height) == (3, 2)
    assert grid.is_passable((0, 0)) and not grid.is_passable((1, 0)) and not grid.is_passable((2, 0))
    assert not grid.is_passable((5, 5)) and not grid.in_bounds((-1, 0))
    assert grid.island_of((1, 0)) == 0
    with pytest.raises(ValueError, match="outside"):
        grid.island_of((3, 0))


@pytest.mark.parametrize(
    "text, message",
    [
        ("..\n.", "row is 1 wide"),
        ("..x", "unknown map characters 'x'"),
        ("", "no rows"),
        ("#@\n##", "no passable cell"),
    ],
)
def test_ascii_errors(text, message):
    with pytest.raises(MapFormatError, match=message):
        Grid.from_ascii(text)


@pytest.mark.parametrize(
    "passable, cost, error, message",
    [
        (np.ones((0, 3), bool), None, ValueError, "non-empty 2-D"),
        (np.ones(3, bool), None, ValueError, "non-empty 2-D"),
        (np.ones((2, 2), int), None, TypeError, "bool"),
        (np.ones((2, 2), bool), np.ones((2, 3)), ValueError, "shape"),
        (np.ones((2, 2), bool), np.full((2, 2), 0.5), ValueError, ">= 1"),
        (np.ones((2, 2), bool), np.full((2, 2), np.nan), ValueError, "finite"),
    ],
)
def test_constructor_errors(passable, cost, error, message):
    with pytest.raises(error, match=message):
        Grid(passable, cost)


@settings(max_examples=60, deadline=None)
@given(maps(max_side=10), st.data())
def test_passable_at_answers_as_is_passable_on_and_off_the_map(passable, data):
    height, width = passable.shape
    around = data.draw(st.lists(cells(width + 4, height + 4), min_size=1, max_size=20))  # up to 2 cells off each side
    wanted = np.array(around) - 2
    grid = Grid(passable)
    assert passable_at(passable, wanted).tolist() == [grid.is_passable(cell) for cell in map(tuple, wanted.tolist())]


def write(tmp_path, text):
    path = tmp_path / "bad.map"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "text, message",
    [
        ("type octile\nheight 2\nwidth 2\nmap\n..\n", r"bad.map: expected 2 rows, found 1"),
        ("type hex\nheight 1\nwidth 2\nmap\n..\n", r"bad.map:1: unsupported map type 'hex'"),
        ("type octile\nheight x\nwidth 2\nmap\n..\n", "integer 'height'"),
        ("type octile\nheight 1\nwidth 2\nmop\n..\n", r"bad.map:4: expected 'map'"),
        ("type octile\nheight 1\nwidth 3\nmap\n..\n", r"bad.map:5: rows are 2 wide, header says 3"),
        ("type octile\nheight 2\nwidth 2\nmap\n..\n.?\n", r"bad.map:6: unknown map characters '\?'"),
        ("type octile\n", "header"),
    ],
)
def test_movingai_errors(tmp_path, text, message):
    with pytest.raises(MapFormatError, match=message):
        Grid.from_movingai(write(tmp_path, text))


def test_movingai_missing_file(tmp_path):
    with pytest.raises(MapFormatError, match="cannot read map"):
        Grid.from_movingai(tmp_path / "nope.map")


def test_movingai_terrain(movingai_dir):
    grid = Grid.from_movingai(movingai_dir / "gardenofwar.map")
    text = (movingai_dir / "gardenofwar.map").read_text().splitlines()[4:]
    water = [(x, y) for y, row in enumerate(text) for x, c in enumerate(row) if c == "W"]
    assert len(water) == 628 and not any(grid.is_passable(c) for c in water)
    assert (grid.width, grid.height) == (512, 512)


NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def test_the_corner_rule_agrees_with_the_reference_on_every_3x3_neighbourhood():
    """Every step from the centre of every 3x3 map: step_allowed as the reference says; and on a path
    out to each neighbour and back, the diagonal steps and their corners are those of step_corners."""
    centre = (1, 1)
    for pattern in range(2**9):
        passable = np.array([bool(pattern >> bit & 1) for bit in range(9)]).reshape(3, 3)
        for dx, dy in NEIGHBOURS:
            cell = (1 + dx, 1 + dy)
            assert step_allowed(passable, centre, cell) == reference.step_allowed(passable, centre, cell), (
                passable,
                cell,
            )
    path = [centre if i % 2 == 0 else (1 + dx, 1 + dy) for dx, dy in NEIGHBOURS for i in range(3)]
    xs, ys = np.array(path).T
    steps, (xs_a, ys_a), (xs_b, ys_b) = diagonal_steps(xs, ys)
    found = [
        (j, ((xa, ya), (xb, yb))) for j, xa, ya, xb, yb in zip(*(a.tolist() for a in (steps, xs_a, ys_a, xs_b, ys_b)))
    ]
    expected = [
        (j, step_corners(path[j - 1], path[j])) for j in range(1, len(path)) if step_corners(path[j - 1], path[j])
    ]
    assert found == expected and len(expected) == 8
