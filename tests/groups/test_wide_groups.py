"""Groups with members wider than a cell (SPEC F1, F3, F5 with G4): the route fits the widest member, and
slots, goals and passages are worked out in blocks of its size, so that no two members' squares overlap."""

import numpy as np
import pytest

from pathing_py import Grid
from pathing_py.groups import Groups, GroupState, gathering_cells
from pathing_py.groups.passage import plan_passage
from pathing_py.sized_grids import SizedGrids
from pathing_py.units import Navigator, UnitState
from tests.support.groups import walk

#: Two halves of a field joined by a one-cell gap at (8, 4) and, far off, a two-cell opening at (17, 4).
WALLED = "\n".join(["." * 20] * 4 + ["#" * 8 + "." + "#" * 8 + ".." + "#"] + ["." * 20] * 6)
GAP = (8, 4)


def overlapping_blocks(units) -> bool:
    held = [cell for unit in units for cell in unit.held]
    return len(held) != len(set(held))


def walled_squad(with_tank: bool):
    navigator = Navigator(Grid.from_ascii(WALLED))
    groups = Groups(navigator)
    soldiers = [navigator.add_unit((x + 0.5, y + 0.5), speed=4.0) for x, y in ((4, 0), (5, 0), (4, 3), (5, 3), (6, 2))]
    tank = [navigator.add_unit((5.0, 2.0), speed=3.0, radius=1.0)] if with_tank else []  # on cells (4, 1) to (5, 2)
    return navigator, groups, groups.add_group(soldiers + tank)


@pytest.mark.parametrize("with_tank", [False, True])
def test_a_group_with_a_tank_takes_the_way_the_tank_fits_through(with_tank):
    navigator, groups, squad = walled_squad(with_tank)
    squad.move_to((8, 8))
    cells_passed = set()
    navigator.step_log = []
    for _ in range(600):
        navigator.update(0.1)
        cells_passed.update(cell for unit in squad.members for cell in unit.held)
        assert not overlapping_blocks(squad.members)
        if any(name == "group_arrived" for _, name, _ in groups.events()):
            break
    assert all(unit.state is UnitState.ARRIVED for unit in squad.members)
    assert sum(unit.stats.plans for unit in squad.members) == 1  # the commander's search, shared
    assert (GAP in cells_passed) is not with_tank  # soldiers alone take the gap; with the tank, the opening
    if with_tank:
        tank = squad.members[-1]
        assert squad.commander is tank and squad.size == 2
        assert tank.cell == (7, 7)  # its square covers the target, centred nearest it


def test_a_line_of_tanks_forms_marches_and_stands_in_its_slots_at_the_target():
    navigator = Navigator(Grid.from_ascii("\n".join(["." * 30] * 20)))
    groups = Groups(navigator)
    tanks = [navigator.add_unit((3 + 2 * i, 3.0), speed=2.0, radius=1.0) for i in range(4)]
    squad = groups.add_group(tanks, formation="box")
    squad.move_to((20, 14))
    events, _ = walk(navigator, groups, delta=0.05, updates=1000)
    names = [name for _, name, _ in events]
    assert names == ["group_ordered", "formation_forming", "formation_formed", "group_arrived"], events
    assert squad.state is GroupState.FORMED and all(unit.cell == squad.goals[unit.id] for unit in tanks)
    assert not overlapping_blocks(tanks)
    goals = np.array([squad.goals[unit.id] for unit in tanks])
    gaps = np.abs(goals[:, None, :] - goals[None, :, :]).max(axis=2) + 2 * np.eye(4, dtype=int)
    assert gaps.min() == 2  # a box: squares side by side


def test_gathering_cells_for_wide_units_are_squares_that_never_overlap_or_hold_a_blocked_cell():
    grid = Grid.from_ascii("\n".join(["........"] * 3 + ["...#...."] + ["........"] * 4))
    tank_grid = SizedGrids(grid).grid(2)
    cells = gathering_cells(tank_grid, (1, 1), 6, blocked=[(5, 5)], size=2)
    assert cells[0] == (1, 1) and len(cells) == 6
    squares = [(x + i, y + j) for x, y in cells for i in (0, 1) for j in (0, 1)]
    assert len(squares) == len(set(squares)) and (5, 5) not in squares and (3, 3) not in squares
    assert all(tank_grid.is_passable(cell) for cell in cells)


def test_a_line_of_tanks_shrinks_to_pass_a_gap_but_never_closer_than_a_tank():
    rows = ["." * 20] * 5 + ["#" * 7 + "." * 6 + "#" * 7] + ["." * 20] * 5  # a gap of six cells, x 7 to 12
    tank_grid = SizedGrids(Grid.from_ascii("\n".join(rows))).grid(2)
    offsets = np.array([[-4, 0], [0, 0], [4, 0]])  # three tanks two squares apart
    passage = plan_passage(offsets, (9, 2), [(9, 3), (9, 5), (9, 8)], tank_grid, size=2)
    assert passage.choices == [(1, "scaled")]
    aims = passage.aims[1]
    assert aims.tolist() == [[7, 5], [9, 5], [11, 5]]  # half the offsets: squares side by side in the gap
    assert all(tank_grid.is_passable((x, y)) for x, y in aims.tolist())
    whole = plan_passage(offsets, (9, 2), [(9, 3)], tank_grid, size=2)
    assert whole.choices == [] and whole.aims[0].tolist() == [[5, 3], [9, 3], [13, 3]]
