"""Units larger than a cell in the navigator (SPEC G4, U4): planned on the grid of their size, holding their
blocks, pushing and pushed, with the map edited under them."""

import numpy as np
import pytest

from pathing_py import Grid
from pathing_py.clearance import block_centre
from pathing_py.crowd_checks import overlapping_pairs, units_in_walls
from pathing_py.debug import plan_ahead
from pathing_py.tools.crowd_runs import CrowdRun
from pathing_py.tools.scenarios import mixed_radii
from pathing_py.units import Navigator, UnitState
from pathing_py.units.prediction import predicted_positions

GAP_MAP = """
..........
..........
#####.####
..........
..........
"""

POCKET_MAP = """
###..#####
###..#####
..........
..........
##########
"""

#: POCKET_MAP with the pocket a cell deeper, and a niche beside its mouth.
NICHE_POCKET_MAP = """
###..#####
###..#####
##...#####
..........
..........
##########
"""


def run_checked(navigator, units, seconds, delta=0.05):
    """Update for ``seconds``, checking after every update that no units overlap and none is in a wall;
    the cells each unit stood on (block top-left cells, in order)."""
    radii = np.array([unit.radius for unit in units])
    cells = {unit.id: [unit.cell] for unit in units}
    for _ in range(round(seconds / delta)):
        navigator.update(delta)
        positions = np.array([unit.position for unit in units])
        assert not len(overlapping_pairs(positions, radii)), f"units overlap at {navigator.time:.2f} s"
        assert not len(units_in_walls(navigator.grid.passable, positions, radii)), (
            f"a unit is in a wall at {navigator.time:.2f} s"
        )
        for unit in units:
            if cells[unit.id][-1] != unit.cell:
                cells[unit.id].append(unit.cell)
    return cells


def test_a_tank_is_not_routed_through_a_gap_a_soldier_takes():
    navigator = Navigator(Grid.from_ascii(GAP_MAP))
    tank = navigator.add_unit(block_centre((0, 0), 2), speed=2.0, radius=1.0)
    soldier = navigator.add_unit((9.5, 0.5), speed=2.0, radius=0.5)
    tank.move_to((0, 3))
    soldier.move_to((9, 4))
    run_checked(navigator, [tank, soldier], 10)
    assert soldier.state is UnitState.ARRIVED and soldier.cell == (9, 4)
    assert tank.state is UnitState.UNREACHABLE and "cannot be reached" in tank.reason
    assert tank.cell[1] == 0 and tank.position == block_centre(tank.cell, 2)  # it stayed north of the wall

    refused = navigator.set_blocked([(4, 2)], blocked=False)  # the gap widens to two cells: the tank fits
    assert not refused
    tank.move_to((0, 3))
    cells = run_checked(navigator, [tank, soldier], 15)
    assert tank.state is UnitState.ARRIVED and tank.cell == (0, 3) and tank.position == (1.0, 4.0)
    assert (4, 1) in cells[tank.id] and (4, 2) in cells[tank.id]  # through the gap: its block covers x 4 and 5


def test_a_goal_without_room_for_the_block_is_unreachable_with_the_reason():
    navigator = Navigator(Grid.from_ascii(GAP_MAP))
    tank = navigator.add_unit(block_centre((0, 0), 2), speed=2.0, radius=1.0)
    tank.move_to((9, 0))  # its block would leave the map
    run_checked(navigator, [tank], 8)
    assert tank.state is UnitState.UNREACHABLE and "has no room for a unit of radius 1" in tank.reason
    assert tank.cell == (8, 0)  # the nearest block that fits


def test_an_edit_under_the_block_but_off_its_top_left_cells_turns_the_tank():
    navigator = Navigator(Grid(np.ones((6, 16), dtype=bool)))
    tank = navigator.add_unit(block_centre((0, 0), 2), speed=2.0, radius=1.0)
    tank.move_to((14, 0))
    navigator.update(0.5)
    assert (
        navigator.set_blocked([(8, 1)]) == []
    )  # under the block's lower row on its way, never a top-left cell it plans
    cells = run_checked(navigator, [tank], 20)
    assert tank.state is UnitState.ARRIVED and tank.cell == (14, 0)
    assert not any(x <= 8 <= x + 1 and y <= 1 <= y + 1 for x, y in cells[tank.id])  # it went round


def test_a_tank_and_soldiers_cross_head_on_in_a_room():
    navigator = Navigator(Grid(np.ones((8, 16), dtype=bool)), give_up=5.0)
    tank = navigator.add_unit(block_centre((1, 3), 2), speed=2.0, radius=1.0)
    soldiers = [navigator.add_unit((14.5, y + 0.5), speed=2.0, radius=0.3) for y in range(2, 6)]
    tank.move_to((13, 3))
    for soldier, y in zip(soldiers, range(2, 6)):
        soldier.move_to((1, y))
    run_checked(navigator, [tank, *soldiers], 30)
    assert [unit.state for unit in [tank, *soldiers]] == [UnitState.ARRIVED] * 5
    assert tank.cell == (13, 3) and [soldier.cell for soldier in soldiers] == [(1, y) for y in range(2, 6)]


def test_an_idle_tank_makes_way_for_a_soldier_and_comes_back():
    grid = Grid.from_ascii(POCKET_MAP)  # the tank fills the corridor; the pocket above it fits its block
    navigator = Navigator(grid)
    tank = navigator.add_unit(block_centre((3, 2), 2), speed=2.0, radius=1.0)
    soldier = navigator.add_unit((0.5, 2.5), speed=2.0, radius=0.5)
    soldier.move_to((9, 3))
    cells = run_checked(navigator, [tank, soldier], 20)
    assert soldier.state is UnitState.ARRIVED and soldier.cell == (9, 3)
    assert (
        cells[tank.id][1][1] < 2 and tank.cell == (3, 2) and tank.state is UnitState.IDLE
    )  # up into the pocket and back


def test_an_idle_tank_makes_way_through_a_soldier_that_leaves_its_way_first_and_both_come_back():
    grid = Grid.from_ascii(NICHE_POCKET_MAP)  # the pocket fits the tank's block past the soldier, who has a niche
    navigator = Navigator(grid)
    tank = navigator.add_unit(block_centre((3, 3), 2), speed=2.0, radius=1.0)
    idle = navigator.add_unit((3.5, 2.5), speed=2.0, radius=0.3)
    soldier = navigator.add_unit((0.5, 3.5), speed=2.0, radius=0.5)
    soldier.move_to((9, 4))
    cells = run_checked(navigator, [tank, idle, soldier], 30)
    assert soldier.state is UnitState.ARRIVED and soldier.cell == (9, 4)
    assert (2, 2) in cells[idle.id] and min(
        y for _, y in cells[tank.id]
    ) < 2  # the soldier into its niche, the tank up past it
    assert tank.cell == (3, 3) and idle.cell == (3, 2) and tank.state is idle.state is UnitState.IDLE


def test_the_plan_ahead_and_the_predictions_of_a_tank_run_through_the_centres_of_its_squares():
    navigator = Navigator(Grid(np.ones((6, 12), dtype=bool)))
    tank = navigator.add_unit(block_centre((0, 0), 2), speed=2.0, radius=1.0)
    tank.move_to((9, 0))  # straight east along the top row of squares, centres at y = 1
    navigator.update(0.25)
    assert tank.position == pytest.approx((1.5, 1.0))
    assert plan_ahead(tank)[1:] == [(x + 1.0, 1.0) for x in range(1, 10)]
    predicted = [position for _, position in predicted_positions(tank, horizon=1.0, step=0.5)]
    assert predicted == [pytest.approx(p) for p in [(1.5, 1.0), (2.5, 1.0), (3.5, 1.0)]]


def test_two_packed_groups_of_mixed_sizes_swapping_places_all_arrive():
    """The crowd benchmark's mixed_radii: 30 units of radius 0.3, 0.5 and 1.0 a side, packed, swap places
    head-on. A unit of radius 1.0 stood held up for good behind another standing at its goal in the packed
    field, whose only way out led through cells of smaller units: they now leave its way first."""
    run = CrowdRun(mixed_radii(60))
    while not run.done and run.navigator.time < 200:
        run.update(1 / 30)
    assert run.arrived == 60
    assert run.overlaps == 0 and run.in_walls == 0
