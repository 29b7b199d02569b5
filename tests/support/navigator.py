"""What other tests take from tests/units/test_navigator.py: its helpers, moved here."""

import math

from pathing_py.units import Navigator, UnitState

FINAL = {UnitState.ARRIVED, UnitState.HELD_UP, UnitState.UNREACHABLE}


def check_world(navigator):
    """Every step since the last check was a king move (a straight one on a 4-connected grid) onto a
    free cell past free corners, and no two units overlap now."""
    grid = navigator.grid
    for unit_id, (x0, y0), (x1, y1) in navigator.step_log:
        assert max(abs(x1 - x0), abs(y1 - y0)) == 1, f"unit {unit_id} jumped from {(x0, y0)} to {(x1, y1)}"
        if grid.connectivity == 4:
            assert x0 == x1 or y0 == y1, (
                f"unit {unit_id} stepped diagonally from {(x0, y0)} to {(x1, y1)} on a 4-connected grid"
            )
        for cell in {(x1, y1), (x1, y0), (x0, y1)}:
            assert grid.is_passable(cell), f"unit {unit_id} went through blocked cell {cell}"
    navigator.step_log.clear()
    units = list(navigator.units.values())
    for unit in units:
        assert grid.is_passable(unit.cell) and grid.is_passable(
            (math.floor(unit.position[0]), math.floor(unit.position[1]))
        )
    for i, a in enumerate(units):
        for b in units[i + 1 :]:
            gap = math.dist(a.position, b.position) - a.radius - b.radius
            assert gap > -1e-9, f"units {a.id} and {b.id} overlap by {-gap}"


#: A hairpin: from the top of the left arm to the top of the right one, the way runs 60 cells down, away from
#: the goal, and back up.
HAIRPIN = "\n".join(["......#......"] * 60 + ["............."] * 3)


def most_seconds_no_closer(navigator, units, seconds):
    """Update at 10 per second for ``seconds``, checking the world as it goes: the longest any of
    ``units`` went on without coming closer to its target (:attr:`Unit.closer_time`) before its order ended."""
    navigator.step_log = []
    longest = 0.0
    for _ in range(int(seconds * 10)):
        navigator.update(0.1)
        check_world(navigator)
        walking = [unit for unit in units if unit.state not in FINAL]
        longest = max([longest] + [navigator.time - unit.closer_time for unit in walking])
    return longest


def scenario_navigator(scenario, navigator_class=Navigator, **settings):
    """A navigator (``navigator_class``, made with ``settings``) with a crowd scenario's units, the ordered ones sent
    to their goals."""
    navigator = navigator_class(scenario.grid, **settings)
    units = [
        navigator.add_unit(tuple(start), speed=float(speed), radius=float(radius), priority=int(priority))
        for start, radius, speed, priority in zip(
            scenario.starts.tolist(), scenario.radii, scenario.speeds, scenario.priorities
        )
    ]
    for unit, goal, idle in zip(units, scenario.goals.tolist(), scenario.idle):
        if not idle:
            unit.move_to(tuple(goal))
    return navigator, units
