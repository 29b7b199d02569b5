"""What other tests take from tests/units/test_navigator_properties.py: its helpers, moved here."""

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pathing_py import Grid
from pathing_py.clearance import block_centre, size_class
from pathing_py.crowd_checks import overlapping_pairs, units_in_walls
from pathing_py.units import CollisionState, Navigator, UnitState
from pathing_py.units.occupancy import block_cells
from pathing_py.units.unit import FINAL_STATES
from tests.support.strategies import maps

#: Seconds of waiting before units give up, short so that every drawn run ends quickly.
GIVE_UP = 2.0
#: Updates run at the drawn deltas; the run then goes on at STEADY_DELTA until every order ended.
DRAWN_UPDATES = 150
STEADY_DELTA = 0.1
#: Simulated seconds by which every order must have ended: trips across a 10x10 room at 1 cell/s, plus the
#: stall checks (3 x GIVE_UP each, up to three of them) and the waits of jam plans.
TIME_LIMIT = 240.0


@st.composite
def crowds(draw):
    """A room, units on distinct free cells with their speeds and radii, a goal for each (anywhere on the
    map, walls too), and the update deltas of the run's first updates (1 ms to 500 ms, in turn)."""
    passable = draw(maps(min_side=3, max_side=10, max_walls=0.3))
    free = np.argwhere(passable)[:, ::-1]  # (x, y)
    assume(len(free) >= 1)
    count = draw(st.integers(1, min(8, len(free))))
    picks = draw(st.lists(st.integers(0, len(free) - 1), min_size=count, max_size=count, unique=True))
    height, width = passable.shape
    goals = draw(
        st.lists(st.tuples(st.integers(0, width - 1), st.integers(0, height - 1)), min_size=count, max_size=count)
    )
    speeds = draw(arrays(np.float64, count, elements=st.sampled_from([1.0, 2.5, 4.0, 8.0])))
    radii = draw(arrays(np.float64, count, elements=st.sampled_from([0.5, 0.3, 0.1, 1.0])))
    deltas = draw(arrays(np.float64, st.integers(1, 6), elements=st.floats(0.001, 0.5)))
    blocks = [
        block_cells(tuple(free[pick]), size_class(r)) for pick, r in zip(picks, radii)
    ]  # a unit of radius 1 stands on 2x2
    cells = [cell for block in blocks for cell in block]
    assume(len(set(cells)) == len(cells) and all(x < width and y < height and passable[y, x] for x, y in cells))
    return passable, free[picks], goals, speeds, radii, deltas


def run(crowd, navigator_class=Navigator):
    """Order every unit, update until every order ended (or TIME_LIMIT), checking the invariants after
    every update; the navigator, its units, their positions after each update and the cell each unit's
    ``arrived`` event named (the first, if a unit made way and arrived again)."""
    passable, starts, goals, speeds, radii, deltas = crowd
    navigator = navigator_class(Grid(passable), give_up=GIVE_UP, wait_limit=0.5)
    units = [
        navigator.add_unit(block_centre((x, y), size_class(r)), speed=float(v), radius=float(r))
        for (x, y), v, r in zip(starts.tolist(), speeds, radii)
    ]
    for unit, goal in zip(units, goals):
        unit.move_to(goal)
    trace = [np.array([unit.position for unit in units])]
    arrived_at = {}
    while navigator.time < TIME_LIMIT and not all(unit.state in FINAL_STATES for unit in units):
        number = len(trace) - 1
        delta = float(deltas[number % len(deltas)]) if number < DRAWN_UPDATES else STEADY_DELTA
        navigator.update(delta)
        positions = np.array([unit.position for unit in units])
        assert not len(overlapping_pairs(positions, radii)), f"units overlap after update {number}"
        assert not len(units_in_walls(passable, positions, radii)), f"a unit entered a wall at update {number}"
        moved = np.hypot(*(positions - trace[-1]).T)
        assert np.all(moved <= speeds * delta + 1e-9), f"a unit moved faster than its speed at update {number}"
        trace.append(positions)
        for (
            record
        ) in navigator.collisions.open():  # U5: the records open are those of units under way, each its unit's own
            assert (
                record.unit.collision is record and record.ended is None and record.state is not CollisionState.RESOLVED
            ), record
            assert record.unit.state not in FINAL_STATES and navigator.units.get(record.unit.id) is record.unit, record
        for unit_id, event, cell in navigator.events():
            if event == UnitState.ARRIVED.signal:
                arrived_at.setdefault(unit_id, cell)
    return navigator, units, trace, arrived_at


class Restless(Navigator):
    """A navigator that never finds its world at rest: every update does the whole work."""

    @property
    def at_rest(self) -> bool:
        return False
