"""The units' arrays (pathing_py.units.agents, .moves): they agree with the units after every update, a
removed unit leaves no trace in them, and the array pass moves units as the event path would."""

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from pathing_py import Grid
from pathing_py.clearance import block_centre
from pathing_py.tools import scenarios
from pathing_py.units import Navigator
from pathing_py.units.agents import AgentArrays
from pathing_py.units.moves import Round, move_on, sub_steps
from pathing_py.units.unit import FINAL_STATES, STATE_CODES
from tests.support.navigator_properties import crowds, run


def assert_arrays_agree(navigator: Navigator) -> None:
    """Every unit's row says what the unit says, and no other row is in use."""
    agents = navigator.agents
    slots = [unit.slot for unit in navigator.units.values()]
    assert len(set(slots)) == len(slots) and sorted(slots) == agents.slots_in_use()
    close = np.zeros(len(agents.close), dtype=bool)  # who reads others' positions: units stepping close behind others
    for unit in navigator.units.values():
        close[unit.slot] = bool(unit.step_leavers)
    assert agents.close.tolist() == close.tolist()
    for unit in navigator.units.values():
        row = unit.slot
        assert unit.agents is agents
        assert agents.moving[row] == (unit.next_cell is not None), unit
        assert agents.state[row] == STATE_CODES[unit.state], unit
        assert agents.speed[row] == unit.speed and agents.walk_speed[row] == unit.current_speed, unit
        if unit.next_cell is not None:
            assert tuple(agents.target[row]) == block_centre(unit.next_cell, unit.size), unit
        else:
            assert unit.position == block_centre(unit.cell, unit.size), unit  # it stands on its block's centre


class CheckedNavigator(Navigator):
    array_pass_units = 1  # (every crowd in array passes)

    def update(self, delta: float) -> None:
        super().update(delta)
        assert_arrays_agree(self)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
def test_the_arrays_agree_with_the_units_after_every_update(crowd):
    run(crowd, CheckedNavigator)


class WalkingNavigator(Navigator):
    array_pass_units = 10**9  # (every crowd walked in order, in Python)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
def test_the_array_passes_move_units_as_a_walk_in_order_does(crowd):
    _, passes, in_passes, _ = run(crowd, CheckedNavigator)
    _, walk, walked, _ = run(crowd, WalkingNavigator)
    assert len(in_passes) == len(walked)
    assert (
        max(np.abs(a - b).max() for a, b in zip(in_passes, walked)) <= 1e-9
    )  # (hypot's last bit, numpy's or Python's)
    assert [(unit.state, unit.cell) for unit in passes] == [(unit.state, unit.cell) for unit in walk]
    assert [unit.stats.distance for unit in passes] == pytest.approx([unit.stats.distance for unit in walk], abs=1e-9)


def test_the_arrays_agree_with_the_units_while_walls_come_and_go_and_units_leave_and_join():
    grid = Grid.from_ascii("\n".join(["." * 16] * 10))
    navigator = CheckedNavigator(grid, give_up=2.0, wait_limit=0.5)
    rng = random.Random(4)
    free = [(x, y) for y in range(10) for x in range(16)]
    for cell in rng.sample(free, 20):
        navigator.add_unit(block_centre(cell, 1), speed=rng.choice([1.0, 3.0, 9.0]), radius=rng.choice([0.2, 0.5]))
    for number in range(600):
        if number % 20 == 0:
            for unit in rng.sample(list(navigator.units.values()), 5):
                unit.move_to(rng.choice(free))
        if number % 35 == 0:
            wall = [(rng.randrange(16), rng.randrange(10)) for _ in range(3)]
            navigator.set_blocked(wall, blocked=number % 70 == 0)
        if number % 45 == 0 and navigator.units:
            navigator.remove_unit(rng.choice(list(navigator.units.values())))  # mid-step, mid-push, as it comes
            open_cells = [cell for cell in free if grid.is_passable(cell) and navigator.holder(cell) is None]
            navigator.add_unit(block_centre(rng.choice(open_cells), 1), speed=2.0)
        navigator.update(rng.choice([0.001, 1 / 60, 0.1, 0.5]))


def test_a_unit_removed_mid_step_leaves_no_trace_and_keeps_its_last_position():
    navigator = Navigator(Grid.from_ascii("." * 10))
    mover = navigator.add_unit((0.5, 0.5), speed=2.0)
    mover.move_to((9, 0))
    navigator.update(0.0)
    navigator.update(0.3)  # between two cells
    assert mover.next_cell is not None
    where, slot = mover.position, mover.slot
    navigator.remove_unit(mover)
    assert navigator.agents.slots_in_use() == [] and not navigator.agents.moving.any()
    assert tuple(navigator.agents.position[slot]) == (0.0, 0.0)
    newcomer = navigator.add_unit((5.5, 0.5), speed=1.0)  # takes the slot
    assert newcomer.slot == slot and newcomer.position == (5.5, 0.5)
    assert mover.position == where  # the removed unit still says where it was
    assert_arrays_agree(navigator)


@pytest.mark.parametrize("removed", ["driver", "pushed"])
def test_a_unit_removed_mid_push_leaves_no_trace_and_the_others_come_to_rest(removed):
    """The driver pushing a file of idle units along a packed canyon (SPEC U9), or the first unit it pushed, is
    removed while the pushed units are under way: no row, cell or wait is left to it, and the rest end at rest."""
    scenario = scenarios.packed_canyon(4)
    navigator = CheckedNavigator(scenario.grid)
    units = [navigator.add_unit(tuple(start), speed=float(speed), radius=float(radius))
             for start, radius, speed in zip(scenario.starts.tolist(), scenario.radii, scenario.speeds)]  # fmt: skip
    driver, pushed = units[0], units[1]
    driver.move_to(tuple(scenario.goals[0].astype(int).tolist()))
    for _ in range(200):
        navigator.update(0.1)
        if pushed.next_cell is not None or pushed.stack:  # pushed: making way along the canyon
            break
    assert pushed.stack, "the driver never pushed the first idle unit"
    gone = driver if removed == "driver" else pushed
    navigator.remove_unit(gone)
    assert_arrays_agree(navigator)
    for _ in range(600):
        navigator.update(0.1)
        if navigator.at_rest:
            break
    assert navigator.at_rest, [unit for unit in navigator.units.values() if unit.state not in FINAL_STATES]
    assert all(navigator.units.get(holder.id) is holder for _, holder in navigator.occupancy.items())
    assert all(gone not in unit.blocked_by for unit in navigator.units.values())


@pytest.mark.parametrize(
    "bad",
    [
        lambda n: n.add_unit((0.5, 0.5), speed=1.0),  # a held cell
        lambda n: n.add_unit((2.5, 0.5), speed=-1.0),
        lambda n: n.add_unit((2.5, 0.5), speed=math.inf),
        lambda n: n.add_unit((math.nan, 0.5), speed=1.0),
        lambda n: n.add_unit((1.5, 0.5), speed=1.0),  # a blocked cell
        lambda n: n.update(math.inf),
        lambda n: n.remove_unit(n.removed),
        lambda n: n.removed.move_to((3, 0)),
    ],
)
def test_bad_input_leaves_the_arrays_as_they_were(bad):
    """Every refusal (a ValueError naming what is wrong) comes before any row, cell or state changes."""
    navigator = Navigator(Grid.from_ascii(".#..\n...."))
    standing, walking = navigator.add_unit((0.5, 0.5), speed=1.0), navigator.add_unit((0.5, 1.5), speed=2.0)
    navigator.removed = navigator.add_unit((3.5, 1.5), speed=1.0)
    navigator.remove_unit(navigator.removed)
    walking.move_to((3, 1))
    navigator.update(0.3)
    rows = {
        name: getattr(navigator.agents, name).copy()
        for name in ("position", "target", "speed", "walk_speed", "moving", "close", "state")
    }
    held = dict(navigator.occupancy.items())
    with pytest.raises(ValueError):
        bad(navigator)
    assert all(np.array_equal(getattr(navigator.agents, name), rows[name]) for name in rows)
    assert dict(navigator.occupancy.items()) == held and list(navigator.units.values()) == [standing, walking]
    assert_arrays_agree(navigator)


@pytest.mark.parametrize("follower_first", [False, True])
def test_a_unit_waiting_for_a_cell_takes_it_in_the_round_it_is_let_go_or_the_next_if_its_turn_has_passed(
    follower_first,
):
    """What any way of waking waiting units must keep: a fast unit closes up behind a slow one in a one-cell corridor
    and waits for the cell that one stands in; that cell is let go as the slow one starts its next step, and the
    waiting unit takes it in that same update when its turn comes after the slow one's (it ranks lower), in the next
    update when its turn came first (a higher priority)."""
    navigator = CheckedNavigator(Grid.from_ascii("." * 30))
    slow = navigator.add_unit((3.5, 0.5), speed=1.0)
    fast = navigator.add_unit((0.5, 0.5), speed=4.0, priority=1 if follower_first else 0)
    slow.move_to((29, 0))
    fast.move_to((28, 0))
    let_go, taken = {}, {}
    for number in range(120):
        navigator.step_log = []
        navigator.update(0.05)
        for unit_id, start, end in navigator.step_log:
            (let_go if unit_id == slow.id else taken).setdefault(start if unit_id == slow.id else end, number)
    cells = [cell for cell in let_go if cell in taken and cell[0] >= 4]  # cells the fast one waited for, closed up
    assert len(cells) >= 5
    assert all(taken[cell] - let_go[cell] == (1 if follower_first else 0) for cell in cells), [
        (cell, let_go[cell], taken[cell]) for cell in cells
    ]


def test_slots_grow_past_the_first_capacity_and_keep_every_row():
    agents = AgentArrays(capacity=2)
    slots = [agents.add(float(i), 0.5, 1.0) for i in range(5)]
    assert slots == [0, 1, 2, 3, 4] and len(agents) == 5
    assert agents.position[:5, 0].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    agents.remove(1)
    assert agents.add(9.0, 9.0, 2.0) == 1 and len(agents) == 5


def test_sub_steps_are_at_most_half_a_cell_long():
    counts, seconds = sub_steps(0.1, np.array([30.0, 1.0, 5.0]))
    assert counts.tolist() == [6, 1, 1] and seconds.tolist() == pytest.approx([0.1 / 6, 0.1, 0.1])


def test_moving_on_stops_short_of_the_centre_and_leaves_the_rest_to_events():
    agents = AgentArrays()
    near, far = agents.add(0.5, 0.5, 2.0), agents.add(3.5, 0.5, 2.0)
    agents.target[near], agents.target[far] = (1.5, 1.5), (4.5, 0.5)
    slots = np.array([near, far])
    moved = move_on(agents, slots, np.array([0.1, 0.6]))  # 0.2 cells of 1.41; 1.2 cells of 1: it would get there
    assert moved.tolist() == [True, False]
    x, y = 0.5, 0.5
    distance = np.hypot(1.0, 1.0)
    assert tuple(agents.position[near]) == (x + 1.0 * 0.2 / distance, y + 1.0 * 0.2 / distance)
    assert tuple(agents.position[far]) == (3.5, 0.5)  # untouched: its event moves it


def test_a_round_hands_out_units_in_rank_order_and_takes_those_woken_before_their_turn():
    due = np.array([True, True, True, False, True])
    rank_of = np.arange(5)
    round_ = Round(np.array([1, 4]), due, rank_of, np.zeros(5, dtype=bool), np.zeros((5, 2)))
    taken = []
    for rank in round_:
        taken.append(rank)
        if rank == 1:
            round_.wake(0)  # its turn passed: next round
            round_.wake(2)  # still to come
            round_.wake(3)  # not due this round
            round_.wake(2)  # twice: once
    assert taken == [1, 2, 4]


def test_a_unit_sees_one_that_moved_on_in_the_array_pass_where_a_walk_in_order_would():
    before = np.array([[1.0, 1.0], [2.0, 2.0]])
    round_ = Round(np.array([0]), np.array([True, True]), np.array([0, 1]), np.array([False, True]), before)
    for _ in round_:  # rank 0's turn: rank 1 has not moved yet in a walk in order
        assert round_.position(1, (2.25, 2.0)) == (2.0, 2.0)
        assert round_.position(0, (1.5, 1.0)) == (1.5, 1.0)
