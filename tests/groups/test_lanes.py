"""Groups keep to the right of their way (pathing_py.groups.lanes): key points move right where the group fits,
and groups meeting head-on round a wall's end pass each other side by side."""

import numpy as np
import pytest

from pathing_py import Grid, KeyPointGraph
from pathing_py.groups import Groups
from pathing_py.groups.lanes import keep_right
from pathing_py.units import Navigator, UnitState
from tests.support.navigator import check_world

OPEN = Grid(np.ones((21, 21), dtype=bool))
#: A group three cells wide across a way east or west: its commander and a member either side.
ACROSS = np.array([(0, 0), (0, -1), (0, 1)])


@pytest.mark.parametrize(
    "start, goal, moved",
    [
        ((0, 10), (20, 10), (10, 12)),
        ((20, 10), (0, 10), (10, 8)),
        ((10, 0), (10, 20), (9, 10)),
    ],  # (south: the group files along it)
    ids=["east", "west", "south"],
)
def test_a_key_point_moves_to_the_right_of_the_way_by_half_the_groups_width_and_a_cell(start, goal, moved):
    assert keep_right(((10, 10),), start, goal, OPEN, ACROSS) == (moved,)


def test_a_key_point_where_the_group_was_found_not_to_fit_stays_on_its_way():
    assert keep_right(((10, 10), (14, 10)), (0, 10), (20, 10), OPEN, ACROSS, fixed={(10, 10)}) == ((10, 10), (14, 12))


def test_a_key_point_moves_only_as_far_as_the_group_fits_beside_it():
    grid = Grid.from_ascii(
        "\n".join(["." * 21] * 12 + ["#" * 21] + ["." * 21] * 8)
    )  # a wall 3 cells right of (10, 9) going east
    assert keep_right(((10, 9),), (0, 9), (20, 9), grid, ACROSS) == ((10, 10),)
    assert keep_right(((10, 11),), (0, 11), (20, 11), grid, ACROSS) == ((10, 11),)  # the wall beside its right member


def test_a_key_point_where_the_group_does_not_fit_stays():
    door = Grid.from_ascii(
        "\n".join("".join("#" if x == 10 and y != 10 else "." for x in range(21)) for y in range(21))
    )
    assert keep_right(((10, 10),), (0, 10), (20, 10), door, ACROSS) == ((10, 10),)  # a formation files through the door


def test_a_group_that_does_not_fit_beside_a_key_point_by_a_wall_on_its_left_moves_out_to_where_it_fits():
    """Where routes round a wall's end meet: the group going the other way keeps the corner."""
    grid = Grid.from_ascii("\n".join(["." * 21] * 9 + ["#" * 21] + ["." * 21] * 11))
    assert keep_right(((10, 10),), (0, 10), (20, 10), grid, ACROSS) == ((10, 12),)


def test_key_points_next_to_one_another_stay_side_by_side():
    """The two cells of a way between two clusters of the key-point graph."""
    assert keep_right(((9, 10), (10, 10)), (0, 10), (20, 10), OPEN, ACROSS) == ((9, 12), (10, 12))


#: Open ground with a wall up from the bottom edge in the middle: routes between its two sides pass its top end.
WALL_END = Grid.from_ascii(
    "\n".join("".join("#" if x == 24 and y >= 10 else "." for x in range(48)) for y in range(30))
)


def test_groups_meeting_head_on_round_a_walls_end_pass_each_other_side_by_side():
    """Both routes pass the same key points off the wall's end: the group with the wall on its right keeps to
    it, the other moves out by its width, and the two pass each other (both had arrived only after 37 s,
    when both kept to the wall's end)."""
    navigator = Navigator(WALL_END, KeyPointGraph.bake(WALL_END, cluster_size=8))
    groups = Groups(navigator)
    west = [navigator.add_unit((4.5 + i % 5, 22.5 + i // 5), speed=4.0) for i in range(12)]
    east = [navigator.add_unit((39.5 + i % 5, 22.5 + i // 5), speed=4.0) for i in range(12)]
    eastward, westward = groups.add_group(west), groups.add_group(east)
    eastward.move_to((41, 24))
    westward.move_to((6, 24))
    navigator.step_log = []
    arrived = 0
    while arrived < 2 and navigator.time < 30.0:
        navigator.update(0.1)
        check_world(navigator)
        arrived += sum(name == "group_arrived" for _, name, _ in groups.events())
    assert arrived == 2 and all(unit.state is UnitState.ARRIVED for unit in navigator.units.values())
    assert [sum(unit.stats.plans for unit in group.members) for group in (eastward, westward)] == [1, 1]
