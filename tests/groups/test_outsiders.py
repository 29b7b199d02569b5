"""Cells units stand on or head for, kept for a frame (groups/outsiders.py): what groups' members are not sent to."""

from pathing_py import Grid
from pathing_py.groups import Groups, outsiders
from pathing_py.units import Navigator, UnitState
from pathing_py.units.occupancy import block_cells
from pathing_py.units.unit import FINAL_STATES

FIELD = "\n".join(["." * 30] * 20)


def reference_standing(navigator, groups, group):
    """Cells where units outside ``group`` stand, one unit at a time."""
    return {cell for unit in navigator.units.values()
            if groups.group_of(unit) is not group and unit.next_cell is None
            and (unit.state in FINAL_STATES or unit.state is UnitState.IDLE)
            for cell in block_cells(unit.cell, unit.size)}  # fmt: skip


def reference_taken(navigator, groups, group):
    """Those, and the goals of outsiders' orders under way or that they were moved off, one unit at a time."""
    return reference_standing(navigator, groups, group) | {
        cell for unit in navigator.units.values()
        if unit.goal is not None and groups.group_of(unit) is not group
        and (unit.state not in FINAL_STATES and unit.state is not UnitState.IDLE or unit.off_goal)
        for cell in block_cells(unit.goal, unit.size)
    }  # fmt: skip


def squads_and_loners():
    navigator = Navigator(Grid.from_ascii(FIELD))
    groups = Groups(navigator)
    squads = [
        groups.add_group([navigator.add_unit((2.5 + 6 * k + i % 2, 2.5 + i // 2), speed=4.0) for i in range(4)])
        for k in range(4)
    ]
    loners = [navigator.add_unit((2.5 + 3 * i, 15.5), speed=3.0) for i in range(6)]
    loners.append(navigator.add_unit((20.0, 10.0), speed=2.0, radius=1.0))
    return navigator, groups, squads, loners


def check(navigator, groups, squads):
    for squad in squads:
        assert groups.standing_outsiders(squad) == reference_standing(navigator, groups, squad)
        assert groups.taken_by_outsiders(squad) == reference_taken(navigator, groups, squad)


def test_the_cells_kept_for_a_frame_are_those_every_unit_has_now():
    navigator, groups, squads, loners = squads_and_loners()
    check(navigator, groups, squads)
    for number, squad in enumerate(squads):  # ordered in one frame: each sees the goals of those ordered before
        squad.move_to((20 - 2 * number, 8))
        check(navigator, groups, squads)
    squads[1].move_to((12, 14))  # ordered again in the frame: its members' goals change, not their states
    check(navigator, groups, squads)
    loners[0].move_to((4, 12))  # a game's own order, in the same frame
    check(navigator, groups, squads)
    for _ in range(40):
        navigator.update(0.1)
        check(navigator, groups, squads)
    navigator.remove_unit(loners[1])
    navigator.remove_unit(squads[0].members[0])
    check(navigator, groups, squads[1:])
    squads[0].move_to((3, 3))  # (its lost member dropped first)
    check(navigator, groups, squads)
    for _ in range(60):
        navigator.update(0.1)
        check(navigator, groups, squads)


def test_groups_ordered_in_one_frame_look_again_only_at_the_units_that_changed(monkeypatch):
    navigator, groups, squads, loners = squads_and_loners()
    navigator.update(0.1)
    found = []
    cells_of = outsiders._cells_of

    def counted(units):
        units = list(units)
        found.extend(units)
        return cells_of(units)

    monkeypatch.setattr(outsiders, "_cells_of", counted)
    for number, squad in enumerate(squads):
        squad.move_to((20 - 2 * number, 8))
    units, members = len(navigator.units), sum(len(squad.members) for squad in squads)
    assert len(found) <= units + members  # once each in the frame, and each squad's members once ordered
