"""Predicted positions (SPEC U6): where a unit will be over the next moments, read off its cells and routes."""

import math

import pytest

from pathing_py import Grid
from pathing_py.units import Navigator, UnitState
from pathing_py.units.prediction import cells_ahead, predicted_positions, route_cells


def test_a_unit_under_way_is_predicted_along_its_cells_at_its_speed():
    navigator = Navigator(Grid.from_ascii("......\n......\n......"))
    unit = navigator.add_unit((0.5, 0.5), speed=2.0)
    unit.move_to((5, 2))
    navigator.update(0.1)
    assert unit.state is UnitState.MOVING and cells_ahead(unit)[0] == unit.next_cell
    assert cells_ahead(unit)[1:] == route_cells(unit) and cells_ahead(unit)[-1] == (5, 2)
    predicted = predicted_positions(unit, horizon=2.0, step=0.5)
    assert [t for t, _ in predicted] == [0.0, 0.5, 1.0, 1.5, 2.0] and predicted[0][1] == unit.position
    # Each step walks speed x step cells along the polyline through the cell centres ahead: no corner is cut.
    points = [unit.position] + [(x + 0.5, y + 0.5) for x, y in cells_ahead(unit)]
    assert (
        sum(math.dist(a, b) for a, b in zip(points, points[1:])) > unit.speed * 2.0
    )  # the horizon ends before the goal
    for (t0, p0), (t1, p1) in zip(predicted, predicted[1:]):
        assert math.dist(p0, p1) <= unit.speed * (t1 - t0) + 1e-9


def test_a_unit_that_waits_or_stands_is_predicted_where_it_is():
    navigator = Navigator(Grid.from_ascii("..."))
    standing = navigator.add_unit((0.5, 0.5), speed=1.0)
    assert predicted_positions(standing) == [(t, (0.5, 0.5)) for t in (0.0, 0.25, 0.5, 0.75, 1.0)]
    blocker = navigator.add_unit((1.5, 0.5), speed=1.0)
    standing.move_to((2, 0))
    blocker.move_to((0, 0))  # head-on in a one-cell corridor: they wait
    navigator.update(0.1)
    navigator.update(0.1)
    waiting = [unit for unit in (standing, blocker) if unit.state is UnitState.WAITING]
    assert waiting and all(
        {position for _, position in predicted_positions(unit)} == {unit.position} for unit in waiting
    )


@pytest.mark.parametrize("horizon, step", [(1.0, 0.0), (1.0, -0.5), (-1.0, 0.25)])
def test_a_bad_horizon_or_step_is_refused(horizon, step):
    unit = Navigator(Grid.from_ascii("..")).add_unit((0.5, 0.5), speed=1.0)
    with pytest.raises(ValueError, match="step"):
        predicted_positions(unit, horizon=horizon, step=step)
