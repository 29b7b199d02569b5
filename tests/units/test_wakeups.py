"""Units asleep while they wait (pathing_py.units.wakeups): woken by the events that may change what the traffic
rules say (a cell let go, a unit in the way that changes or is removed, a limit of the wait), and moving as units
that ask the rules at every sub-step do."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from pathing_py import Grid
from pathing_py.tools import scenarios
from pathing_py.units import Navigator, Route, RouteKind, UnitState
from pathing_py.units.wakeups import Wait
from tests.support.navigator import scenario_navigator
from tests.support.navigator_properties import crowds, run


def assert_sleeps_hold(navigator: Navigator) -> None:
    """Every unit asleep still waits as it fell asleep: it waits on its top route, and the cells of its step are
    held by the very units it sleeps on (none let go unheard), none of them removed."""
    for unit in navigator.units.values():
        sleep = navigator.wakeups.sleep_of(unit)
        if sleep is None:
            continue
        assert unit.state is UnitState.WAITING and unit.next_cell is None and unit.stack.top is sleep.route, unit
        assert all(navigator.units.get(other.id) is other for other in sleep.wait.units), unit
        if sleep.cells:
            assert navigator.occupancy.holders_of(sleep.cells, unit) == set(sleep.wait.units), unit


class WakingNavigator(Navigator):
    array_pass_units = 1  # (every crowd in array passes: units that wait sleep)

    def update(self, delta: float) -> None:
        super().update(delta)
        assert_sleeps_hold(self)


class PollingNavigator(Navigator):
    array_pass_units = 10**9  # (every crowd walked in order: units that wait ask the rules at every sub-step)


def test_a_unit_asleep_wakes_exactly_when_the_cell_it_waits_on_is_let_go():
    navigator = Navigator(Grid.from_ascii("......"))
    waiter, holder, other = (navigator.add_unit((x + 0.5, 0.5), speed=1.0) for x in (0, 1, 3))
    wait = Wait((holder,), math.inf, math.inf, math.inf, False, states_only=True)
    navigator.wakeups.sleep(waiter, Route(RouteKind.LOW_LEVEL, [(1, 0)]), [(1, 0)], wait, navigator.time)
    navigator.occupancy.hold(other, [(4, 0)])  # other cells taken and let go: it sleeps on
    navigator.occupancy.leave(other, (3, 0))
    assert waiter in navigator.wakeups
    navigator.occupancy.leave(holder, (1, 0))  # its cell let go: it wakes then
    assert waiter not in navigator.wakeups


def test_removing_a_unit_others_sleep_on_wakes_them():
    scenario = scenarios.packed_canyon(6)
    navigator, units = scenario_navigator(scenario, WakingNavigator)
    for _ in range(400):
        navigator.update(0.1)
        slept_on = [
            other
            for unit in units
            if unit.id in navigator.units and (sleep := navigator.wakeups.sleep_of(unit)) is not None
            for other in sleep.wait.units
        ]
        if slept_on:
            break
    assert slept_on, "no unit slept on another"
    removed = slept_on[0]
    sleepers = [unit for unit in units if unit is not removed and navigator.wakeups.sleep_of(unit) is not None]
    navigator.remove_unit(removed)
    assert_sleeps_hold(navigator)
    for unit in sleepers:
        sleep = navigator.wakeups.sleep_of(unit)
        assert sleep is None or removed not in sleep.wait.units
    for _ in range(50):
        navigator.update(0.1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
def test_units_that_sleep_move_and_wait_as_units_that_ask_at_every_sub_step(crowd):
    _, woken, woken_positions, _ = run(crowd, WakingNavigator)
    _, polled, polled_positions, _ = run(crowd, PollingNavigator)
    assert len(woken_positions) == len(polled_positions)
    assert max(np.abs(a - b).max() for a, b in zip(woken_positions, polled_positions)) <= 1e-9
    assert [(unit.state, unit.cell) for unit in woken] == [(unit.state, unit.cell) for unit in polled]
    waits = [wait for unit in woken for wait in (unit.waiting_for, unit.stats.waited)]
    assert waits == pytest.approx([wait for unit in polled for wait in (unit.waiting_for, unit.stats.waited)], abs=1e-9)


@pytest.mark.parametrize("scenario", [scenarios.crossing_blocks(40), scenarios.gate(100)], ids=["blocks", "gate"])
def test_a_crowd_that_sleeps_moves_and_waits_as_one_that_asks_at_every_sub_step(scenario):
    """The property above, update by update, on crowds dense enough that many units sleep, wake and sleep again, and
    are pushed or set on a jam's plan as they sleep (a rule that resets a unit's wait as it wakes it keeps its
    value)."""
    worlds = [scenario_navigator(scenario, navigator_class) for navigator_class in (WakingNavigator, PollingNavigator)]
    slept = 0
    for _ in range(600):
        for navigator, _ in worlds:
            navigator.update(0.1)
        (woken, units), (_, polled) = worlds
        slept += len(woken.wakeups)
        assert [(u.state, u.cell, u.next_cell, u.waiting_for, u.closer_time) for u in units] == [
            (u.state, u.cell, u.next_cell, u.waiting_for, u.closer_time) for u in polled
        ]
    assert slept >= 100 and not len(worlds[1][0].wakeups)
