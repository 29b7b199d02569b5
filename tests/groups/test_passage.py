"""How a formation passes what lies on its route (SPEC F5): the choices on maps made for each, and
properties every passage keeps on drawn maps."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid
from pathing_py.groups.passage import narrow_points, plan_passage, with_narrow_points
from tests.support.strategies import walled_maps

#: A box of 3 x 3 at spacing 2, the commander in the middle.
BOX = np.array([[dx, dy] for dy in (-2, 0, 2) for dx in (-2, 0, 2)])
#: A line of 5 across a route heading east (y grows downwards), two cells apart.
LINE = np.array([[0, dy] for dy in (-4, -2, 0, 2, 4)])


def wall_across(gap_rows, width=20, height=15, x=10) -> Grid:
    rows = [["."] * width for _ in range(height)]
    for y in range(height):
        if y not in gap_rows:
            rows[y][x] = "#"
    return Grid.from_ascii("\n".join("".join(row) for row in rows))


def cells(aims) -> list:
    return [tuple(cell) for cell in aims.tolist()]


def test_a_formation_that_fits_keeps_its_shape():
    grid = Grid.from_ascii("\n".join(["." * 20] * 15))
    passage = plan_passage(BOX, (2, 7), [(8, 7), (12, 7)], grid)
    assert passage.choices == [] and (passage.aims == np.array([(8, 7), (12, 7)])[:, None, :] + BOX).all()


def test_a_gap_narrower_than_the_formation_is_passed_scaled_down():
    grid = wall_across(gap_rows=(6, 7, 8))
    passage = plan_passage(BOX, (2, 7), [(10, 7)], grid)
    assert passage.choices == [(0, "scaled")]
    aims = cells(passage.aims[0])
    assert len(set(aims)) == 9 and all(grid.is_passable(cell) for cell in aims) and {x for x, _ in aims} == {9, 10, 11}


def test_a_door_one_cell_wide_breaks_the_formation_and_members_file_through_it():
    grid = wall_across(gap_rows=(7,))
    passage = plan_passage(LINE, (2, 7), [(10, 7)], grid)
    assert passage.choices == [(0, "broken")] and set(cells(passage.aims[0])) == {(10, 7)}


def test_a_line_passes_a_pillar_in_its_way_on_both_sides():
    rows = [["."] * 20 for _ in range(15)]
    rows[5][10] = rows[9][10] = "#"  # pillars where two members of the line would stand
    grid = Grid.from_ascii("\n".join("".join(row) for row in rows))
    passage = plan_passage(LINE, (2, 7), [(10, 7)], grid)
    assert passage.choices == [(0, "halved")]
    aims = cells(passage.aims[0])
    assert aims[2] == (10, 7) and aims[1][1] < 5 and aims[3][1] > 9  # each outwards, on its own side
    assert len(set(aims)) == 5 and all(grid.is_passable(cell) for cell in aims)


def test_a_member_beside_a_thick_wall_does_not_go_round_it_to_the_ground_behind():
    """Halving goes round an obstacle close by; ground behind a wall that only a long way round reaches is no place
    to pass."""
    rows = [
        ["#" if 8 <= y <= 15 and x < 25 else "." for x in range(30)] for y in range(20)
    ]  # ground behind, reached at x >= 25
    grid = Grid.from_ascii("\n".join("".join(row) for row in rows))
    passage = plan_passage(LINE, (2, 6), [(10, 6)], grid)
    assert passage.choices == [(0, "broken")]
    assert all(y < 8 for _, y in cells(passage.aims[0])) and all(
        grid.is_passable(cell) for cell in cells(passage.aims[0])
    )


def test_narrow_points_are_where_the_formation_begins_and_ends_not_fitting():
    grid = wall_across(gap_rows=(6, 7, 8))
    path = [(x, 7) for x in range(2, 18)]
    ends = narrow_points(BOX, path, grid.passable)
    assert [path[i] for i in ends] == [(8, 7), (10, 7), (12, 7)]  # into the gap, the wall's line, out of it
    assert narrow_points(BOX, [], grid.passable) == []
    assert narrow_points(np.zeros((0, 2), dtype=np.int64), path, grid.passable) == []  # the commander alone fits


def test_narrow_points_are_added_on_the_straight_ways_between_key_points_planned_for_another_shape():
    grid = wall_across(gap_rows=(6, 7, 8))
    points, narrow = with_narrow_points(BOX, (2, 7), [(10, 7), (17, 7)], grid.passable)
    assert narrow == {(8, 7), (10, 7), (12, 7)} and points == ((8, 7), (10, 7), (12, 7), (17, 7))  # (10, 7) both
    assert with_narrow_points(BOX, (2, 2), [(17, 2)], Grid(np.ones((16, 20), dtype=bool)).passable) == (
        ((17, 2),),
        set(),
    )


@settings(max_examples=60, deadline=None)
@given(
    walled_maps(min_side=6, max_side=16),
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=8, unique=True),
    st.data(),
)
def test_every_aim_is_free_and_members_share_a_cell_only_filing_through_a_key_point(passable, offsets, data):
    grid = Grid(passable)
    free = np.argwhere(passable)
    if len(free) < 2:
        return
    points = [tuple(int(v) for v in free[data.draw(st.integers(0, len(free) - 1))][::-1]) for _ in range(3)]
    offsets = np.array(offsets)
    passage = plan_passage(offsets, points[0], points[1:], grid)
    chosen = dict(passage.choices)
    for index, point in enumerate(points[1:]):
        aims = cells(passage.aims[index])
        assert all(grid.is_passable(cell) for cell in aims)
        if index not in chosen:
            assert aims == [(point[0] + dx, point[1] + dy) for dx, dy in offsets.tolist()]
        shared = {cell for cell in aims if aims.count(cell) > 1}
        assert shared <= {point} and (not shared or chosen.get(index) == "broken")


def test_a_formation_that_runs_off_the_map_at_the_end_of_the_path_is_narrow_there():
    grid = Grid.from_ascii("\n".join(["." * 20] * 15))
    assert narrow_points(BOX, [(x, 7) for x in range(12, 20)], grid.passable) == [
        6,
        7,
    ]  # from x = 18 the box reaches x = 20
