"""Groups meeting head-on in a narrow gate (issue 10's arrival target): both get through, every member
arrives, no two units overlap, and each group order costs one full search (members stuck in the crowd wait
for their squad's way instead of searching the whole map on their own)."""

import collections

import pytest

from pathing_py import Grid, KeyPointGraph
from pathing_py.groups import Cohesion, Groups
from pathing_py.units import Navigator, UnitState
from pathing_py.units.wakeups import Wakeups
from tests.support.navigator import check_world

#: Two open halves 40 cells wide, joined by one gate in the wall between them.
WIDTH, HEIGHT, WALL = 40, 21, 10
#: Blocks of units, 5 a row, start this many cells from the map's top and bottom edges.
BLOCK_LEFT, BLOCK_EDGE = 18, 1


def gate_grid(gate: int) -> Grid:
    rows = ["." * WIDTH] * HEIGHT
    opening = range(WIDTH // 2 - gate // 2, WIDTH // 2 - gate // 2 + gate)
    rows[WALL] = "".join("." if x in opening else "#" for x in range(WIDTH))
    return Grid.from_ascii("\n".join(rows))


def block(navigator, size, top):
    """``size`` units packed 5 a row from the top edge (``top``) or the bottom edge (not ``top``)."""

    def y(i):
        return BLOCK_EDGE + i // 5 if top else HEIGHT - 1 - BLOCK_EDGE - i // 5

    return [navigator.add_unit((BLOCK_LEFT + i % 5 + 0.5, y(i) + 0.5), speed=4.0) for i in range(size)]


def cross(shape, size, gate, cohesion, singles=False, updates=3000, array_pass_units=Navigator.array_pass_units):
    """A group from the top through the gate to the bottom, and a group (or, with ``singles``, as many
    units ordered one by one) from the bottom to the top; run until every order ended. The navigator,
    the groups, and the step log of the whole run."""
    grid = gate_grid(gate)
    navigator = Navigator(grid, KeyPointGraph.bake(grid, cluster_size=8))
    navigator.array_pass_units = array_pass_units
    groups = Groups(navigator)
    spacing = 1.0 if shape is None else 2.0
    down = groups.add_group(block(navigator, size, top=True), formation=shape, spacing=spacing, cohesion=cohesion)
    up = block(navigator, size, top=False)
    ordered = [down]
    if singles:
        for unit in up:
            unit.move_to((unit.cell[0], HEIGHT - 1 - unit.cell[1]))
    else:
        ordered.append(groups.add_group(up, formation=shape, spacing=spacing, cohesion=cohesion))
        ordered[-1].move_to((WIDTH // 2, 3))
    down.move_to((WIDTH // 2, HEIGHT - 4))
    navigator.step_log = []
    steps = []
    arrived = 0
    for _ in range(updates):
        navigator.update(0.1)
        steps += navigator.step_log
        check_world(navigator)
        arrived += sum(name == "group_arrived" for _, name, _ in groups.events())
        if arrived == len(ordered) and all(
            unit.state in (UnitState.ARRIVED, UnitState.HELD_UP) for unit in navigator.units.values()
        ):
            break
    return navigator, ordered, steps


@pytest.mark.parametrize("shape, size, gate, cohesion", [
    ("box", 20, 1, Cohesion.ROUTE),
    ("box", 12, 2, Cohesion.ARRIVAL),
    ("line", 12, 1, Cohesion.ARRIVAL),
    (None, 20, 1, Cohesion.ROUTE),
    (None, 12, 2, Cohesion.ARRIVAL),
])  # fmt: skip
def test_two_groups_meeting_head_on_in_a_gate_both_get_through_with_one_search_each(shape, size, gate, cohesion):
    navigator, ordered, _ = cross(shape, size, gate, cohesion)
    stopped = [(unit, unit.reason) for unit in navigator.units.values() if unit.state is not UnitState.ARRIVED]
    assert stopped == []
    assert [sum(unit.stats.plans for unit in group.members) for group in ordered] == [1] * len(ordered)


@pytest.mark.parametrize("shape", ["box", None])
def test_a_group_and_single_units_meeting_head_on_in_a_gate_all_get_through(shape):
    navigator, (group,), _ = cross(shape, 12, 1, Cohesion.ROUTE, singles=True)
    assert [unit for unit in navigator.units.values() if unit.state is not UnitState.ARRIVED] == []
    assert sum(unit.stats.plans for unit in group.members) == 1


def test_groups_crossing_in_a_gate_do_the_same_every_run():
    first = cross("box", 12, 1, Cohesion.ROUTE)[2]
    assert first and cross("box", 12, 1, Cohesion.ROUTE)[2] == first


@pytest.mark.parametrize("shape, size, gate", [("box", 12, 1), (None, 20, 1)])
def test_members_that_only_wait_in_a_queue_sleep_and_the_groups_move_as_when_none_sleeps(
    shape, size, gate, monkeypatch
):
    """Members waiting behind squad-mates, or on their shared route behind units stepping, sleep until an event wakes
    them (see pathing_py.units.wakeups): the groups make the same steps, to the same ends, as when every member asks
    the traffic rules at every sub-step (the walk in order of a small crowd)."""
    slept = collections.Counter()
    sleep = Wakeups.sleep

    def counted(self, unit, route, cells, wait, *rest):
        slept[unit.squad is not None and bool(wait.units)] += 1
        return sleep(self, unit, route, cells, wait, *rest)

    monkeypatch.setattr(Wakeups, "sleep", counted)
    navigator, _, steps = cross(shape, size, gate, Cohesion.ROUTE, array_pass_units=1)
    ends = [(unit.cell, unit.state, unit.stats.waited) for unit in navigator.units.values()]
    assert slept[True] >= 100

    navigator, _, awake_steps = cross(shape, size, gate, Cohesion.ROUTE, array_pass_units=10**9)
    assert awake_steps == steps
    assert [(unit.cell, unit.state, unit.stats.waited) for unit in navigator.units.values()] == ends
