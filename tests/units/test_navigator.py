import collections
import math
import random

import numpy as np
import pytest

from pathing_py import Grid, KeyPointGraph
from pathing_py.crowd_checks import overlapping_pairs, units_in_walls
from pathing_py.search import find_path
from pathing_py.tools import scenarios
from pathing_py.tools.crowd_runs import CrowdRun
from pathing_py.units import Navigator, PathRequestQueue, PathStack, Route, RouteKind, UnitState
from pathing_py.units import navigator as navigator_module
from pathing_py.units.jams.plans import SEARCH_WORK_PER_UPDATE
from pathing_py.units.jams.untangling import MAX_SEQUENTIAL_MOVES, MOVE_WORK
from pathing_py.units.navigator import HELD_UP_RESUMES, MAX_UPDATE_SECONDS, STALL_SLICES, UPDATE_PARTS
from pathing_py.units.traffic import waiting_aside
from tests.support.navigator import FINAL, HAIRPIN, check_world, most_seconds_no_closer, scenario_navigator


def run(navigator, delta, updates, edit=None, check=True):
    """Update up to ``updates`` times, until every unit is in a final state; before each update
    ``edit(number)`` may return cells to block. Returns the number of updates run."""
    navigator.step_log = []
    for number in range(updates):
        cells = edit(number) if edit else None
        if cells:
            navigator.set_blocked(cells)
        navigator.update(delta)
        if check:
            check_world(navigator)
        if all(unit.state in FINAL for unit in navigator.units.values()):
            return number + 1
    return updates


def wall_ahead_of(units, seed):
    """An edit that every fifth update drops a 3x3 block on some unit's route, a few cells ahead."""
    rng = random.Random(seed)

    def edit(number):
        if number % 5 or number > 80:
            return None
        walking = [unit for unit in units if unit.state not in FINAL and len(unit.stack)]
        if not walking:
            return None
        unit = rng.choice(walking)
        ahead = [
            cell
            for route in reversed(list(unit.stack))
            for cell in route.remaining
            if route.kind is not RouteKind.HIGH_LEVEL
        ]
        if len(ahead) < 6:
            return None
        x, y = ahead[5]
        block = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        return [cell for cell in block if unit.navigator.grid.in_bounds(cell)]

    return edit


def scattered_units(grid, count, seed):
    """``count`` units on distinct free cells, each with a goal on another free cell."""
    rng = random.Random(seed)
    free = [(int(x), int(y)) for y, x in zip(*np.nonzero(grid.passable))]
    cells = rng.sample(free, 2 * count)
    return cells[:count], cells[count:]


def test_quick_start_units_arrive_around_a_wall():
    grid = Grid.from_ascii("..........\n....##....\n..........")
    navigator = Navigator(grid)
    tank = navigator.add_unit((0.5, 1.5), speed=4.0)
    tank.move_to((9, 1))
    run(navigator, 0.1, 60)
    assert tank.state is UnitState.ARRIVED and tank.cell == (9, 1) and tank.position == (9.5, 1.5)
    kinds = [kind for _, kind, _ in navigator.events()]
    assert kinds[0] == "path_found" and kinds[-1] == "arrived"


@pytest.mark.parametrize("name, connectivity", [("den520d", 8), ("AR0011SR", 8), ("8room_000", 8), ("den520d", 4)])
@pytest.mark.parametrize("use_graph", [False, True])
def test_units_reach_their_goals_on_a_benchmark_map_while_walls_appear(movingai_dir, name, connectivity, use_graph):
    grid = Grid.from_movingai(movingai_dir / f"{name}.map", connectivity=connectivity)
    graph = KeyPointGraph.bake(grid) if use_graph else None
    navigator = Navigator(grid, graph)
    starts, goals = scattered_units(grid, 12, seed=len(name))
    units = [navigator.add_unit((x + 0.5, y + 0.5), speed=8.0) for x, y in starts]
    for unit, goal in zip(units, goals):
        unit.move_to(goal)
    run(navigator, 0.25, 1200, wall_ahead_of(units, seed=1))
    assert navigator.stats.notified > 0 and sum(unit.stats.encounters for unit in units) > 0
    for unit in units:
        assert unit.state in FINAL, unit
        if grid.same_island(unit.cell, unit.goal) and grid.is_passable(unit.goal):
            assert unit.state is UnitState.ARRIVED and unit.cell == unit.goal, (unit, unit.reason)
        else:
            assert unit.state is UnitState.UNREACHABLE and unit.reason
            island = grid.islands == grid.island_of(unit.cell)
            ys, xs = np.nonzero(island)
            nearest = ((xs - unit.goal[0]) ** 2 + (ys - unit.goal[1]) ** 2).min()
            assert (unit.cell[0] - unit.goal[0]) ** 2 + (unit.cell[1] - unit.goal[1]) ** 2 == nearest


def test_unreachable_goal_stops_at_the_nearest_reachable_cell():
    grid = Grid.from_ascii(
        """
.........
.........
.....###.
.....#.#.
.....###.
"""
    )
    navigator = Navigator(grid)
    unit = navigator.add_unit((0.5, 0.5), speed=5.0)
    unit.move_to((6, 3))
    updates = run(navigator, 0.1, 200)
    assert unit.state is UnitState.UNREACHABLE and "cannot be reached" in unit.reason
    assert unit.cell in {(6, 1), (4, 3), (8, 3)}  # the free cells nearest the boxed goal, 2 cells away
    assert updates < 200
    unit.move_to((5, 3))  # a wall cell
    run(navigator, 0.1, 200)
    assert unit.state is UnitState.UNREACHABLE and "is blocked" in unit.reason


@pytest.mark.parametrize("delta", [0.001, 0.016, 0.1, 0.25, 0.5])
def test_no_delta_makes_a_unit_tunnel(delta):
    grid = Grid.from_ascii(
        """
....#....
....#....
.........
....#....
....#....
"""
    )
    navigator = Navigator(grid)
    fast = navigator.add_unit((0.5, 0.5), speed=30.0, radius=0.3)
    other = navigator.add_unit((8.5, 4.5), speed=30.0, radius=0.3)
    fast.move_to((8, 0))
    other.move_to((0, 4))
    run(navigator, delta, int(10 / delta))
    assert fast.state is UnitState.ARRIVED and other.state is UnitState.ARRIVED


def test_each_unit_takes_sub_steps_of_its_own(monkeypatch):
    """Sub-steps come from each unit's own speed, half a cell at most: a tiny or a fast unit costs the others none."""
    navigator = Navigator(Grid.from_ascii("." * 40 + "\n" + "." * 40))
    fast = navigator.add_unit((0.5, 0.5), speed=30.0, radius=0.5)
    slow = navigator.add_unit((0.5, 1.5), speed=1.0, radius=0.02)
    fast.move_to((39, 0))
    slow.move_to((39, 1))
    navigator.update(0.0)  # plans
    calls = []  # (unit id, seconds) of each sub-step: moving on in an array pass, or an event in _advance
    advance, move_on = Navigator._advance, navigator_module.move_on
    by_slot = {unit.slot: unit.id for unit in (fast, slow)}

    def moving_on(agents, slots, seconds):
        moved = move_on(agents, slots, seconds)
        calls.extend((by_slot[slot], dt) for slot, dt in zip(slots[moved].tolist(), seconds[moved].tolist()))
        return moved

    monkeypatch.setattr(navigator_module, "move_on", moving_on)
    monkeypatch.setattr(
        Navigator, "_advance", lambda self, unit, dt: (calls.append((unit.id, dt)), advance(self, unit, dt))
    )
    navigator.update(0.1)
    assert sorted(calls) == sorted(
        [(fast.id, 0.1 / 6)] * 6 + [(slow.id, 0.1)]
    )  # 3 cells in 6 sub-steps; 0.1 cell in one
    assert slow.position[0] == pytest.approx(0.6) and fast.position[0] == pytest.approx(3.5)


def test_a_huge_delta_advances_the_world_by_one_update_at_most():
    navigator = Navigator(Grid.from_ascii("." * 40))
    units = [navigator.add_unit((x + 0.5, 0.5), speed=1.0, radius=0.01) for x in range(0, 20, 2)]  # a cell apart
    for unit in units:
        unit.move_to((unit.cell[0] + 20, 0))
    navigator.update(0.0)  # plans
    navigator.update(1e9)  # a game paused for years: no billions of sub-steps
    assert navigator.time == MAX_UPDATE_SECONDS
    assert [unit.position[0] for unit in units] == pytest.approx(
        [x + 0.5 + MAX_UPDATE_SECONDS for x in range(0, 20, 2)]
    )


def trajectories(seed):
    grid = Grid.from_ascii("\n".join(["." * 20] * 12))
    grid.set_blocked([(10, y) for y in range(1, 11)])
    navigator = Navigator(grid)
    starts, goals = scattered_units(grid, 10, seed)
    units = [navigator.add_unit((x + 0.5, y + 0.5), speed=3.0, priority=i % 3) for i, (x, y) in enumerate(starts)]
    for unit, goal in zip(units, goals):
        unit.move_to(goal)
    positions = []
    for number in range(200):
        if number == 20:
            navigator.set_blocked([(5, y) for y in range(0, 6)])
        navigator.update(0.05)
        positions.append(tuple(unit.position for unit in units))
    return positions, [(unit.state, unit.cell) for unit in units]


def test_same_inputs_same_trajectories():
    assert trajectories(4) == trajectories(4)


def test_splice_then_full_replan():
    grid = Grid.from_ascii("\n".join(["." * 30] * 30))
    navigator = Navigator(grid)
    unit = navigator.add_unit((0.5, 4.5), speed=4.0)
    unit.move_to((29, 4))
    navigator.update(0.1)
    navigator.set_blocked([(10, 3), (10, 4), (10, 5)])  # a short wall: a splice goes around it
    run(navigator, 0.1, 20)
    assert unit.stats.splices == 1 and unit.stats.plans == 1
    navigator.set_blocked([(20, y) for y in range(0, 28)])  # a long wall: too far around for a splice
    run(navigator, 0.1, 200)
    assert unit.state is UnitState.ARRIVED
    assert unit.stats.plans == 2


def test_a_crowd_on_a_four_connected_map_walks_straight_steps_only():
    """Units crossing each other's ways wait, detour and make way, all by straight steps."""
    grid = Grid.from_ascii("\n".join(["." * 16] * 12), connectivity=4)
    grid.set_blocked([(8, y) for y in range(12) if y not in (5, 6)])
    navigator = Navigator(grid)
    starts, goals = [(1, y) for y in range(2, 10)], [(14, y) for y in range(9, 1, -1)]
    units = [navigator.add_unit((x + 0.5, y + 0.5), speed=4.0) for x, y in starts + goals[:3]]
    for unit, goal in zip(units, goals + starts[:3]):
        unit.move_to(goal)
    run(navigator, 0.1, 2000)
    assert all(unit.state is UnitState.ARRIVED for unit in units), [(unit, unit.reason) for unit in units]


def test_units_off_the_changed_regions_do_no_work():
    grid = Grid.from_ascii("\n".join(["." * 64] * 40))
    navigator = Navigator(grid, region_size=8)
    north = navigator.add_unit((0.5, 2.5), speed=4.0)
    south = navigator.add_unit((0.5, 37.5), speed=4.0)
    north.move_to((63, 2))
    south.move_to((63, 37))
    navigator.update(0.1)
    navigator.set_blocked([(30, y) for y in range(0, 6)])
    run(navigator, 0.1, 300)
    assert north.state is UnitState.ARRIVED and south.state is UnitState.ARRIVED
    assert south.stats.encounters == 0 and south.stats.plans == 1
    assert north.stats.encounters == 1
    assert navigator.stats.notified == 1


def test_an_idle_unit_in_the_way_is_walked_around():
    grid = Grid.from_ascii("\n".join(["." * 12] * 3))
    navigator = Navigator(grid)
    mover = navigator.add_unit((0.5, 1.5), speed=4.0)
    navigator.add_unit((5.5, 1.5), speed=4.0)  # idle, on the straight route
    mover.move_to((11, 1))
    run(navigator, 0.1, 100)
    assert mover.state is UnitState.ARRIVED and mover.stats.detours >= 1


@pytest.mark.parametrize("row", [1, 2, 3, 4])
@pytest.mark.parametrize("east_first", [True, False], ids=["east older", "west older"])
def test_units_meeting_head_on_pass_each_other_on_their_right(row, east_first):
    """Two units facing each other in the open go round each other as people walking do: the one
    that steps aside keeps to its right (walking east, by the south; walking west, by the north)."""
    grid = Grid.from_ascii("\n".join(["." * 12] * 6))
    navigator = Navigator(grid)
    added = {
        start: navigator.add_unit((start + 0.5, row + 0.5), speed=2.0) for start in ((0, 11) if east_first else (11, 0))
    }
    east, west = added[0], added[11]  # the older unit outranks the other
    east.move_to((11, row))
    west.move_to((0, row))
    rows = {east: set(), west: set()}
    for _ in range(200):
        navigator.update(0.05)
        for unit in rows:
            rows[unit].add(unit.cell[1])
    assert east.state is UnitState.ARRIVED and west.state is UnitState.ARRIVED
    assert rows[east] | rows[west] != {row}  # one stepped aside
    assert rows[east] <= {row, row + 1} and rows[west] <= {row - 1, row}


@pytest.mark.parametrize("start", [(0, 1), (0, 0), (7, 0), (0, 7), (7, 7)], ids=["straight", "nw", "ne", "sw", "se"])
def test_a_standing_unit_on_the_goal_makes_way(start):
    """Whichever way the mover comes (diagonal steps need their corner cells free), the standing unit
    steps to a cell off the mover's way, and the mover arrives without waiting for anyone."""
    grid = Grid.from_ascii("\n".join(["." * 8] * 8))
    navigator = Navigator(grid)
    idle = navigator.add_unit((4.5, 4.5) if start != (0, 1) else (7.5, 1.5), speed=4.0)  # older: it outranks the mover
    mover = navigator.add_unit((start[0] + 0.5, start[1] + 0.5), speed=4.0)
    goal = idle.cell
    mover.move_to(goal)
    run(navigator, 0.1, 40)  # 4 s: twice the walk, far less than waiting for a give-up
    assert mover.state is UnitState.ARRIVED and mover.cell == goal
    assert idle.state is UnitState.IDLE and idle.cell != goal and idle.stats.detours >= 1


@pytest.mark.parametrize("idle", [1, 3, 10])
def test_a_unit_pushes_through_a_packed_canyon_and_every_pushed_unit_goes_back(idle):
    """SPEC U9: the driver pushes the first idle unit, which pushes the next, until the last can step aside in
    the room; the pushes are undone in reverse order, so each unit ends where it stood."""
    scenario = scenarios.packed_canyon(idle)
    navigator, units = scenario_navigator(scenario)
    navigator.step_log = []
    homes = [tuple(cell) for cell in np.floor(scenario.starts[scenario.idle]).astype(int).tolist()]
    for _ in range(int(90 / 0.1)):
        navigator.update(0.1)
        check_world(navigator)
        standing = [unit for unit, is_idle in zip(units, scenario.idle) if is_idle]
        if units[0].state is UnitState.ARRIVED and all(
            u.state is UnitState.IDLE and u.next_cell is None for u in standing
        ):
            break
    assert units[0].state is UnitState.ARRIVED and units[0].cell == tuple(scenario.goals[0].astype(int).tolist())
    assert [unit.cell for unit in standing] == homes
    assert all(unit.stats.detours >= 1 for unit in standing) and navigator.events()[-1][1] == "arrived"


def test_units_waiting_for_what_only_another_units_move_ends_sleep_and_an_order_wakes_one():
    """In a crowd that moves in array passes, a unit waiting aside on purpose, or blocked by units that only an event
    changes, sleeps (see pathing_py.units.wakeups): a unit waiting aside asks whether it still waits once an update
    (the answer changes once an update), a unit blocked not at all while it sleeps, its waiting still counted. It
    wakes as its wait ends (the pushed units go back, see above), or at an order."""
    scenario = scenarios.packed_canyon(6)
    navigator, units = scenario_navigator(scenario)
    navigator.array_pass_units = 0  # (a crowd this small walks its units in order, asking the rules at every sub-step)
    asked = collections.Counter()
    still_passing, wait_or_detour = navigator.traffic.still_passing, navigator.traffic.wait_or_detour
    navigator.traffic.still_passing = lambda unit, *args: asked.update([unit]) or still_passing(unit, *args)
    navigator.traffic.wait_or_detour = lambda unit, *args: asked.update([unit]) or wait_or_detour(unit, *args)

    def waits(unit):
        return unit.next_cell is None and unit.state is UnitState.WAITING

    delta = 0.25  # two sub-steps an update
    slept = {"aside": 0, "blocked": 0}
    for _ in range(300):
        asleep = [(unit, unit.stats.waited, unit.waiting_for) for unit in units[1:] if unit in navigator.wakeups]
        asked.clear()
        navigator.update(delta)
        for unit, waited, waiting_for in asleep:
            if unit not in navigator.wakeups or not waits(unit):
                continue
            if waiting_aside(unit):
                assert asked[unit] <= 1 and unit.waiting_for == 0.0
                slept["aside"] += 1
            elif not asked[unit]:
                assert unit.waiting_for == pytest.approx(waiting_for + delta)
                slept["blocked"] += 1
            else:
                continue
            assert unit.stats.waited == pytest.approx(waited + delta)
        if min(slept.values()) >= 10 and any(waiting_aside(unit) and waits(unit) for unit in units[1:]):
            break
    assert min(slept.values()) >= 10
    sleeper = next(unit for unit in units[1:] if waiting_aside(unit) and waits(unit))
    sleeper.move_to(sleeper.cell)  # ordered to stay where it is: it ends its order there at once
    navigator.update(0.1)
    assert sleeper.state is UnitState.ARRIVED and not waiting_aside(sleeper) and sleeper not in navigator.wakeups


def test_a_unit_ordered_into_an_occupied_spot_gets_it():
    scenario = scenarios.occupied_spot()
    navigator, (mover, idle) = scenario_navigator(scenario)
    run(navigator, 0.1, 300)
    assert mover.state is UnitState.ARRIVED and mover.cell == tuple(scenario.goals[0].astype(int).tolist())
    assert idle.state is UnitState.IDLE and idle.stats.detours == 1


def test_a_unit_walking_a_jams_plan_pushes_a_unit_that_stopped_in_its_way():
    """A unit from outside a jam's plan that waits, for a unit of the plan, in the cell that unit is to
    take in its turn makes way, whatever its rank: else each waits for the other until the plan overruns."""
    navigator = Navigator(Grid(np.ones((3, 5), dtype=bool)))
    walker = navigator.add_unit((1.5, 1.5), speed=2.0)
    outsider = navigator.add_unit((2.5, 1.5), speed=2.0, priority=5)
    # the unit's part of a plan, as JamPlans hands it over: every turn has come
    walker.stack.push(Route(RouteKind.AVOIDANCE, [(2, 1), (3, 1)], wait_at=2, may_take=lambda index: True))
    navigator.set_state(walker, UnitState.RUN)
    outsider.move_to((1, 1))
    run(navigator, 0.05, 400)
    assert walker.cell == (3, 1)
    assert outsider.state is UnitState.ARRIVED and outsider.cell == (1, 1) and outsider.stats.detours == 1


@pytest.mark.parametrize(
    "make",
    [
        lambda: scenarios.head_on_corridor(4),
        lambda: scenarios.head_on_corridor(6),
        lambda: scenarios.head_on_corridor(8),
        lambda: scenarios.head_on_corridor(10),
        lambda: scenarios.two_cell_corridor(8),
        lambda: scenarios.two_cell_corridor(12),
        lambda: scenarios.gate(16),
    ],
    ids=[
        "head-on 2 a side, pocket",
        "head-on 3 a side, pocket",
        "head-on 4 a side, pocket",
        "head-on 5 a side, pocket",
        "two-cell corridor 4 against 4",
        "two-cell corridor 6 against 6",
        "gate 16",
    ],
)
def test_jams_are_untangled_and_every_unit_arrives(make):
    """SPEC U8: files head-on, blocks crossing in a passage two cells wide and a knot at a gate jam
    for good under the pairwise rules; moves planned for the jam's units together get all of them
    through, each entering cells in the planned turn, with no overlap and no jump."""
    scenario = make()
    navigator, units = scenario_navigator(scenario)
    run(navigator, 1 / 30, 3000)
    for _ in range(
        20 * 30
    ):  # and 20 s more: one that arrived early and was pushed off its goal (at the gate) goes back
        navigator.update(1 / 30)
        check_world(navigator)
    assert [unit.state for unit in units] == [UnitState.ARRIVED] * len(units)
    assert [unit.cell for unit in units] == [tuple(goal) for goal in scenario.goals.astype(int).tolist()]
    assert sum(unit.stats.detours for unit in units) >= len(units)  # every unit walked a plan's route


def run_until_arrived(navigator, units, seconds):
    """Update at 30 per second until every unit arrived or ``seconds`` passed, checking the world as it goes;
    the most units that kept their cells for a jam's plan being searched at once, and the most work the
    searches for jams' plans did in one update."""
    navigator.step_log = []
    kept = most_work = 0
    for number in range(int(seconds * 30)):
        work = navigator.stats.jam_work
        navigator.update(1 / 30)
        kept = max(kept, sum(navigator.jams.keeps_cell(unit) for unit in units))
        most_work = max(most_work, navigator.stats.jam_work - work)
        if number % 10 == 0:
            check_world(navigator)
        if all(unit.state is UnitState.ARRIVED for unit in units):
            break
    return kept, most_work


@pytest.mark.parametrize(
    "make, seconds",
    [
        (lambda: scenarios.crossroads(40), 60),
        (lambda: scenarios.gate(100), 150),
        (lambda: scenarios.circle_swap(200), 150),
    ],
    ids=["two streams of 20 crossing at a crossroads", "100 through a one-cell gate", "200 swapping across a circle"],
)
def test_the_crowds_of_issue_12_end_with_every_unit_arrived(make, seconds):
    """Three of issue 12's scenarios at their sizes, at 30 updates a second: every unit arrives, none overlaps
    another or reaches into a wall after any update (the crowd benchmark runs them too, and the others: head-on
    and the two-cell corridor, packed canyon, occupied spot and mixed radii have tests of their own). Units
    pushed off their goals meanwhile walk back, until the world rests with every unit on its goal (at the gate,
    38 stood off their goals when every order had ended; two of them stood for good each on the other's)."""
    run = CrowdRun(make())
    while not run.done and run.navigator.time < seconds:
        run.update(1 / 30)
    assert run.arrived == len(run.ordered) and run.overlaps == 0 and run.in_walls == 0
    while not run.navigator.at_rest and run.navigator.time < 2 * seconds:
        run.update(1 / 30)
    assert run.navigator.at_rest and run.overlaps == 0 and run.in_walls == 0
    assert [unit.cell for unit in run.units] == [tuple(goal) for goal in run.scenario.goals.astype(int).tolist()]


def test_units_each_standing_on_the_others_goal_swap_back():
    """Two units pushed off their goals onto each other's, with a unit on its own goal between them: each goal
    is held, by a unit off its goal too, so one pushes the other aside and each gets back to its own."""
    navigator = Navigator(Grid(np.ones((3, 5), dtype=bool)))
    first, middle, second = (navigator.add_unit((x + 0.5, 1.5), speed=2.0) for x in (1, 2, 3))
    for unit, goal in ((first, (3, 1)), (middle, (2, 1)), (second, (1, 1))):  # as pushes after they arrived leave them
        unit.goal = goal
        navigator.set_state(unit, UnitState.ARRIVED)
    assert first.off_goal and second.off_goal and not middle.off_goal
    navigator.step_log = []
    for _ in range(60 * 30):
        navigator.update(1 / 30)
        check_world(navigator)
        if navigator.at_rest:
            break
    assert navigator.at_rest
    assert [(unit.state, unit.cell) for unit in (first, middle, second)] == [
        (UnitState.ARRIVED, (3, 1)),
        (UnitState.ARRIVED, (2, 1)),
        (UnitState.ARRIVED, (1, 1)),
    ]


def test_a_world_whose_unit_off_its_goal_finds_it_held_for_good_comes_to_rest():
    """Two units ordered to one cell: the one on it stands there for good, the other beside it (it arrived,
    then made way); nothing will change until an order, so the world rests (it never did before)."""
    navigator = Navigator(Grid(np.ones((3, 5), dtype=bool)))
    holder, other = navigator.add_unit((2.5, 1.5), speed=2.0), navigator.add_unit((3.5, 1.5), speed=2.0)
    for unit in (holder, other):
        unit.goal = (2, 1)
        navigator.set_state(unit, UnitState.ARRIVED)
    assert other.off_goal and not holder.off_goal
    for _ in range(60 * 30):
        navigator.update(1 / 30)
        if navigator.at_rest:
            break
    assert navigator.at_rest and (holder.cell, other.cell) == ((2, 1), (3, 1))
    holder.move_to((0, 0))  # an order wakes the world: the other walks back to its goal
    assert not navigator.at_rest
    for _ in range(60 * 30):
        navigator.update(1 / 30)
        if navigator.at_rest:
            break
    assert navigator.at_rest and (holder.cell, other.cell) == ((0, 0), (2, 1))


def test_twenty_against_twenty_in_a_corridor_two_cells_wide_all_arrive():
    """Issue 12's scenario. The jam's first plan would be walked in 158 ticks; while the units stand, plans
    with three more seeds are searched over the next updates, and the one taken is walked in 96: every
    unit is at its goal within 250 s (about 310 s with the first plan). The first seed's search is sliced
    too (it took 0.4 s in one update, a frame's hitch): no update searches for more than a slice of work
    and one step of a search (pushing and swapping's plan is counted at once)."""
    scenario = scenarios.two_cell_corridor(40)
    navigator, units = scenario_navigator(scenario)
    kept, most_work = run_until_arrived(navigator, units, 250)
    assert [unit.state for unit in units] == [UnitState.ARRIVED] * len(units)
    assert [unit.cell for unit in units] == [tuple(goal) for goal in scenario.goals.astype(int).tolist()]
    assert kept == len(units)  # every unit of the corridor stood while the better plans were searched
    assert 0 < most_work <= SEARCH_WORK_PER_UPDATE + MOVE_WORK * MAX_SEQUENTIAL_MOVES


def test_no_better_plans_are_searched_where_the_first_joint_search_found_none():
    """Five a side head-on through a pocket: the first seed's joint searches find no plan (pushing and
    swapping does), and searches with other seeds would each run their whole budget in vain: the first
    seed's search runs a slice an update, and its plan is walked once it is done."""
    scenario = scenarios.head_on_corridor(10)
    navigator, units = scenario_navigator(scenario)
    searched = better = 0  # updates after which a jam's plan was being searched, and better plans were
    for _ in range(60 * 30):
        navigator.update(1 / 30)
        searched += navigator.jams.searching
        better += navigator.jams.searching_better
    assert searched > 1 and better == 0
    assert all(unit.state is UnitState.ARRIVED for unit in units)


@pytest.mark.parametrize("delta", [1 / 30, 0.1])
def test_two_units_in_a_dead_end_each_on_the_others_goal_swap_through_a_pocket_past_the_jams_window(delta):
    """To swap, one unit waits in the pocket while the other passes it, into the cell beyond, 5 cells from
    the jam: outside the window a jam's plan first gets (3 cells round it), where no plan is found. The
    window grows for units that are to take one another's cells (each stood held up for good before)."""
    grid = Grid.from_ascii(
        """
#####.####
#.........
##########
"""
    )
    navigator = Navigator(grid)
    inner, outer = navigator.add_unit((8.5, 1.5), speed=4.0), navigator.add_unit((9.5, 1.5), speed=4.0)
    inner.move_to((9, 1))
    outer.move_to((8, 1))
    run(navigator, delta, round(30 / delta))
    assert (inner.state, inner.cell, outer.state, outer.cell) == (UnitState.ARRIVED, (9, 1), UnitState.ARRIVED, (8, 1))


def test_a_unit_destroyed_while_its_jams_plan_is_searched_is_left_out_and_the_others_arrive():
    scenario = scenarios.two_cell_corridor(40)
    navigator, units = scenario_navigator(scenario)
    for _ in range(30 * 30):  # the jam's first plan is made at 5 s
        navigator.update(1 / 30)
        if any(navigator.jams.keeps_cell(unit) for unit in units):
            break
    assert any(navigator.jams.keeps_cell(unit) for unit in units)
    navigator.remove_unit(units[0])
    navigator.update(1 / 30)
    assert not any(navigator.jams.keeps_cell(unit) for unit in units)  # the search is dropped
    run_until_arrived(navigator, units[1:], 300)
    assert all(unit.state is UnitState.ARRIVED for unit in units[1:])


def test_a_jam_whose_plans_bring_no_unit_closer_is_not_planned_again_and_every_order_ends():
    """Eight units in a 3x4 room, goals shared or in walls (found by tests/units/test_navigator_properties.py): each
    jam plan shuffled the units round and back, walking a plan counts as progress, and the next plan followed,
    for ever. A jam whose units all walked a plan since they last came closer is left to the stall check."""
    grid = Grid.from_ascii(
        """
...
.#.
#..
...
"""
    )
    navigator = Navigator(grid, give_up=2.0, wait_limit=0.5)
    starts = [(0, 3), (1, 3), (1, 0), (2, 2), (1, 2), (2, 0), (0, 0), (2, 3)]
    goals = [(2, 1), (2, 3), (2, 3), (0, 0), (1, 1), (2, 0), (1, 1), (0, 0)]
    speeds = [8.0, 2.5, 2.5, 8.0, 1.0, 4.0, 8.0, 1.0]
    radii = [0.1, 0.3, 0.3, 0.3, 0.1, 0.3, 0.5, 0.5]
    units = [navigator.add_unit((x + 0.5, y + 0.5), speed=v, radius=r) for (x, y), v, r in zip(starts, speeds, radii)]
    for unit, goal in zip(units, goals):
        unit.move_to(goal)
    for number in range(150):  # the frame times drawn
        navigator.update((0.07466425596421512, 0.28515390620462655)[number % 2])
    run(navigator, 0.1, 2400)
    assert all(unit.state in FINAL for unit in units), units
    assert any(unit.stats.detours for unit in units)  # jam plans were walked before they were given up


def test_units_queueing_at_a_gate_wait_while_the_queue_moves_on():
    """A block of 25 crosses a one-cell gate with ``give_up`` 4 s: the back of the queue waits far longer than
    that, for units that wait too, while the head of the queue moves on. That is not being stuck: every unit
    arrives (units at the back used to end BLOCKED), with no overlap and no circle in a wall after any update,
    and the same steps from the same start."""
    logs = []
    for _ in range(2):
        scenario = scenarios.gate(25)
        navigator, units = scenario_navigator(scenario, give_up=4.0)
        navigator.step_log = []
        radii = np.array([unit.radius for unit in units])
        for _ in range(int(60 * 30)):
            navigator.update(1 / 30)
            positions = np.array([unit.position for unit in units])
            assert not len(overlapping_pairs(positions, radii)) and not len(
                units_in_walls(scenario.grid.passable, positions, radii)
            )
            if all(unit.state in FINAL for unit in units):
                break
        assert [unit.state for unit in units] == [UnitState.ARRIVED] * len(units), [
            unit.reason for unit in units if unit.reason
        ]
        assert max(unit.stats.waited for unit in units) > 4.0  # some waited longer than give_up in all
        logs.append(navigator.step_log)
    assert logs[0] == logs[1]


def test_head_on_in_a_corridor_gives_up_with_a_reason():
    grid = Grid.from_ascii("########\n........\n########")
    navigator = Navigator(grid, wait_limit=0.2, give_up=2.0)
    a = navigator.add_unit((0.5, 1.5), speed=4.0, priority=1)
    b = navigator.add_unit((7.5, 1.5), speed=4.0)
    a.move_to((7, 1))
    b.move_to((0, 1))
    run(navigator, 0.1, 200)  # pushes, a jam plan, a search for a way round: then they give up
    assert {a.state, b.state} <= FINAL and UnitState.HELD_UP in {a.state, b.state}
    blocked = a if a.state is UnitState.HELD_UP else b
    assert "waited" in blocked.reason


def test_edits_refuse_cells_held_by_units():
    grid = Grid.from_ascii("....\n....")
    navigator = Navigator(grid)
    navigator.add_unit((1.5, 0.5), speed=1.0)
    assert navigator.set_blocked([(1, 0), (2, 0)]) == [(1, 0)]
    assert grid.is_passable((1, 0)) and not grid.is_passable((2, 0))
    with pytest.raises(ValueError, match="outside"):
        navigator.set_blocked([(9, 9)])


def test_the_graph_follows_edits_made_through_the_navigator():
    grid = Grid.from_ascii("\n".join(["." * 24] * 24))
    graph = KeyPointGraph.bake(grid, cluster_size=8)
    navigator = Navigator(grid, graph)
    navigator.set_blocked([(8, y) for y in range(20)])
    assert graph == KeyPointGraph.bake(grid, cluster_size=8)


@pytest.mark.parametrize("connectivity", [8, 4])
@pytest.mark.parametrize("link", ["exact", "fast"])
def test_graph_routes_and_links(link, connectivity):
    grid = Grid.from_ascii("\n".join(["." * 40] * 40), connectivity=connectivity)
    grid.set_blocked([(20, y) for y in range(35)])
    navigator = Navigator(grid, KeyPointGraph.bake(grid, cluster_size=10), link=link)
    unit = navigator.add_unit((2.5, 2.5), speed=10.0)
    unit.move_to((37, 3))
    run(navigator, 0.1, 300)
    assert unit.state is UnitState.ARRIVED
    assert any(kind == "waypoint_reached" for _, kind, _ in navigator.events())
    if link == "fast":
        assert unit.stats.walks >= 1


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda n: n.add_unit((float("nan"), 0.5), speed=1.0), "not finite"),
        (lambda n: n.add_unit((0.5, 0.5), speed=0.0), "speed"),
        (lambda n: n.add_unit((0.5, 0.5), speed=1.0, radius=4.5), r"radius must be in \(0, 4\]"),
        (
            lambda n: n.add_unit((1.0, 1.0), speed=1.0, radius=1.0),
            r"on cell \(1, 0\), which is blocked",
        ),  # its block has (1, 0)
        (lambda n: n.add_unit((3.5, 0.5), speed=1.0, radius=0.8), "off the map"),
        (lambda n: n.add_unit((1.5, 0.5), speed=1.0), "blocked"),
        (lambda n: n.add_unit((9.5, 0.5), speed=1.0), "off the map"),
        (lambda n: n.update(float("nan")), "delta"),
        (lambda n: n.update(-0.1), "delta"),
    ],
)
def test_bad_input_is_refused(call, message):
    navigator = Navigator(Grid.from_ascii(".#.."))
    with pytest.raises(ValueError, match=message):
        call(navigator)


@pytest.mark.parametrize("priority", [float("nan"), 1.5, "1", True])
def test_a_priority_that_is_no_whole_number_is_refused(priority):
    navigator = Navigator(Grid.from_ascii("...."))
    with pytest.raises(TypeError, match="priority"):
        navigator.add_unit((0.5, 0.5), speed=1.0, priority=priority)
    assert not navigator.units


def test_bad_orders_are_refused():
    navigator = Navigator(Grid.from_ascii("...."))
    unit = navigator.add_unit((0.5, 0.5), speed=1.0)
    with pytest.raises(ValueError, match="outside"):
        unit.move_to((4, 0))
    with pytest.raises(TypeError, match="goal"):
        unit.move_to((1.5, 0))
    assert unit.state is UnitState.IDLE


def test_time_budget_is_honoured():
    ticks = iter(range(1000))
    queue = PathRequestQueue(budget=2.5, clock=lambda: next(ticks))  # each request "takes" one tick
    for requester in range(10):
        queue.submit(requester, None, now=0.0)
    served = queue.serve(lambda requester, request: None, now=0.1)
    assert served == 3 and len(queue) == 7  # ticks 0..2 spent, budget reached, the rest wait
    queue.serve(lambda requester, request: None, now=0.2)
    assert queue.stats.served == 6 and queue.stats.longest == 10
    assert queue.stats.max_latency == pytest.approx(0.2)


def test_a_removed_unit_leaves_no_events_behind():
    """Events a unit made before it was removed (a route given to it at once) are not handed out after."""
    navigator = Navigator(Grid.from_ascii("\n".join(["." * 8] * 3)))
    staying, leaving = (navigator.add_unit((0.5, y + 0.5), speed=4.0) for y in (0, 2))
    for unit in (staying, leaving):
        navigator.follow(unit, (7, unit.cell[1]), ())
    navigator.remove_unit(leaving)
    navigator.update(0.1)
    assert {unit_id for unit_id, _, _ in navigator.events()} == {staying.id}


def test_path_stack_is_last_in_first_out_and_shares_routes():
    stack = PathStack()
    high = Route(RouteKind.HIGH_LEVEL, [(5, 5), (9, 9)])
    stack.push(high)
    stack.push(Route(RouteKind.LOW_LEVEL, [(1, 1)]))
    stack.top.advance()
    stack.pop_finished()
    assert stack.top is high and len(stack) == 1
    other = high.shared()
    assert other.waypoints is high.waypoints and other.index == 0
    assert high in stack and other not in stack  # that very route: one over the same waypoints is another
    patrol = Route(RouteKind.HIGH_LEVEL, [(0, 0), (3, 0)], loop=True)
    patrol.advance()
    patrol.advance()
    assert patrol.current == (0, 0) and not patrol.finished


def door_map():
    """Two rooms split by the wall x = 4, whose door (4, 1) is shut."""
    return Grid.from_ascii("....#....\n....#....\n....#....")


def kinds_by_unit(navigator):
    """The navigator's events since the last call, as each unit's list of event kinds."""
    kinds = {}
    for unit_id, kind, _ in navigator.events():
        kinds.setdefault(unit_id, []).append(kind)
    return kinds


def test_units_cut_off_from_their_goals_go_on_when_the_door_opens():
    navigator = Navigator(door_map())
    first = navigator.add_unit((0.5, 0.5), speed=4.0)
    second = navigator.add_unit((0.5, 2.5), speed=4.0)
    first.move_to((5, 1))
    second.move_to((6, 1))  # both head for (3, 1), the cell nearest their goals: one makes way for the other
    run(navigator, 0.1, 200)
    assert first.state is second.state is UnitState.UNREACHABLE and first.cell != second.cell
    assert [kinds[-1] for kinds in kinds_by_unit(navigator).values()] == ["unreachable", "unreachable"]
    navigator.set_blocked([(4, 1)], blocked=False)
    run(navigator, 0.1, 200)
    for unit in (first, second):
        assert unit.state is UnitState.ARRIVED and unit.cell == unit.goal and unit.reason == "", unit
    for kinds in kinds_by_unit(navigator).values():  # the game hears of the new plan, then of the arrival
        assert kinds[0] == "path_found" and kinds[-1] == "arrived", kinds


def test_a_world_at_rest_only_advances_its_clock_until_an_edit_or_an_order_wakes_it():
    """Once every unit stands with nothing left to do, an update reads neither map changes nor units (standing
    units cost a game next to nothing a frame); an edit that opens a way, or an order, wakes the world."""
    navigator = Navigator(door_map())
    cut_off = navigator.add_unit((0.5, 0.5), speed=4.0)
    idle = navigator.add_unit((0.5, 2.5), speed=4.0)
    cut_off.move_to((5, 1))
    run(navigator, 0.1, 200)
    assert cut_off.state is UnitState.UNREACHABLE
    collected = []
    collect = navigator.watcher.collect
    navigator.watcher.collect = lambda: collected.append(navigator.time) or collect()
    for _ in range(STALL_SLICES):  # the world is found at rest within STALL_SLICES updates
        navigator.update(0.1)
    collected.clear()
    navigator.events()
    started, positions = navigator.time, [unit.position for unit in (cut_off, idle)]
    for _ in range(50):
        navigator.update(0.1)
    assert navigator.at_rest and collected == [] and navigator.time == pytest.approx(started + 5.0)
    assert [unit.position for unit in (cut_off, idle)] == positions and navigator.events() == []
    navigator.set_blocked([(4, 1)], blocked=False)
    assert not navigator.at_rest
    run(navigator, 0.1, 200)
    assert collected and cut_off.state is UnitState.ARRIVED and cut_off.cell == (5, 1)
    for _ in range(2 * STALL_SLICES):
        navigator.update(0.1)
    collected.clear()
    assert navigator.at_rest
    idle.move_to((7, 2))
    assert not navigator.at_rest
    run(navigator, 0.1, 200)
    assert collected and idle.state is UnitState.ARRIVED and idle.cell == (7, 2)


def test_a_unit_cut_off_for_longer_than_retry_time_stays_where_it_stopped():
    navigator = Navigator(door_map(), retry_time=2.0)
    unit = navigator.add_unit((0.5, 1.5), speed=4.0)
    unit.move_to((5, 1))
    run(navigator, 0.1, 100)
    assert unit.state is UnitState.UNREACHABLE and navigator.events()[-1][1] == "unreachable"
    stopped_at = unit.cell
    for _ in range(25):  # 2.5 s: past retry_time
        navigator.update(0.1)
    navigator.set_blocked([(4, 1)], blocked=False)
    run(navigator, 0.1, 50)
    assert unit.state is UnitState.UNREACHABLE and unit.cell == stopped_at and navigator.events() == []
    unit.move_to((5, 1))  # a new order goes through the open door
    run(navigator, 0.1, 100)
    assert unit.state is UnitState.ARRIVED


def test_a_unit_walking_to_the_nearest_cell_goes_on_when_the_door_opens_before_it_gets_there():
    navigator = Navigator(door_map())
    unit = navigator.add_unit((0.5, 1.5), speed=4.0)
    unit.move_to((7, 1))
    navigator.update(0.1)
    navigator.set_blocked([(4, 1)], blocked=False)
    run(navigator, 0.1, 100)
    assert unit.state is UnitState.ARRIVED and unit.cell == (7, 1)
    kinds = [kind for kind in kinds_by_unit(navigator)[unit.id] if kind != "waypoint_reached"]
    assert kinds == ["path_found", "path_found", "arrived"]


@pytest.mark.parametrize("use_graph", [False, True])
def test_a_unit_under_way_takes_a_door_that_opens_on_a_much_shorter_way(use_graph):
    grid = Grid.from_ascii("\n".join(["." * 30] * 20))
    grid.set_blocked([(15, y) for y in range(19)])  # a wall with a gap at the bottom, and a shut door at (15, 1)
    around = find_path(grid, (2, 1), (28, 1)).cost
    navigator = Navigator(grid, KeyPointGraph.bake(grid, cluster_size=10) if use_graph else None)
    unit = navigator.add_unit((2.5, 1.5), speed=4.0)
    unit.move_to((28, 1))
    for _ in range(3):
        navigator.update(0.1)
    navigator.set_blocked([(25, 10)])
    navigator.set_blocked([(25, 10)], blocked=False)  # a cell opened off any shorter way: nothing to do
    navigator.update(0.1)
    assert unit.stats.plans == 1
    navigator.set_blocked([(15, 1)], blocked=False)
    run(navigator, 0.1, 200, check=False)  # keeps the step log
    assert unit.state is UnitState.ARRIVED
    assert any(cell == (15, 1) for _, _, cell in navigator.step_log), "the unit did not go through the door"
    assert unit.stats.distance < 0.75 * around and unit.stats.shortcuts == 1


def swamp_and_road(wall_columns):
    """Four rows: a swamp (cost 20) at y = 0, the way at y = 1, a wall at y = 2 over ``wall_columns``, a road at
    y = 3."""
    passable = np.ones((4, 13), dtype=bool)
    passable[2, wall_columns] = False
    cost = np.ones((4, 13))
    cost[0, :] = 20.0
    return Grid(passable, cost)


def test_a_detour_around_a_standing_unit_keeps_to_the_road():
    navigator = Navigator(swamp_and_road([6]))  # around through the swamp is fewer steps, around the wall far cheaper
    mover = navigator.add_unit((0.5, 1.5), speed=4.0)
    navigator.add_unit((6.5, 1.5), speed=4.0)  # idle, in the way
    mover.move_to((12, 1))
    run(navigator, 0.1, 100, check=False)  # keeps the step log
    assert mover.state is UnitState.ARRIVED and mover.stats.detours == 1
    assert not any(cell[1] == 0 for _, _, cell in navigator.step_log), "the detour went through the swamp"


def test_a_route_around_a_jam_keeps_to_the_road():
    grid = swamp_and_road(slice(1, 12))
    navigator = Navigator(grid)
    mover = navigator.add_unit((0.5, 1.5), speed=4.0)
    navigator.add_unit((6.5, 1.5), speed=4.0)  # idle, in the way
    mover.move_to((12, 1))
    navigator.update(0.0)
    assert navigator.traffic.route_around_units(mover, (12, 1))
    passable = grid.passable.copy()
    passable[1, 6] = False  # the standing unit's cell
    cheapest = find_path(Grid(passable, grid.cost), mover.cell, (12, 1)).cells
    assert [mover.cell, *mover.stack.top.waypoints] == cheapest and all(y > 0 for _, y in cheapest)


def test_no_route_around_units_that_cut_off_the_target():
    navigator = Navigator(Grid.from_ascii("#######\n#.....#\n#######"))
    mover = navigator.add_unit((1.5, 1.5), speed=4.0)
    navigator.add_unit((3.5, 1.5), speed=4.0)  # idle, across the corridor
    mover.move_to((5, 1))
    navigator.update(0.0)
    routes = list(mover.stack)
    assert navigator.traffic.route_around_units(mover, (5, 1)) is False
    assert list(mover.stack) == routes


@pytest.mark.parametrize("seed", range(3))
def test_occupancy_answers_windows_as_a_scan_of_every_unit_would(seed):
    rng = random.Random(seed)
    grid = Grid.from_ascii("\n".join(["." * 40] * 30))
    navigator = Navigator(grid)
    starts, goals = scattered_units(grid, 60, seed)
    units = [navigator.add_unit((x + 0.5, y + 0.5), speed=3.0) for x, y in starts]
    for unit, goal in zip(units, goals):
        unit.move_to(goal)
    occupancy = navigator.occupancy
    for _ in range(30):
        navigator.update(0.1)
        for _ in range(10):
            left, top = rng.randrange(-5, 40), rng.randrange(-5, 30)
            right, bottom = left + rng.randrange(1, 20), top + rng.randrange(1, 20)
            scanned = {
                (cell, unit.id)
                for unit in units
                for cell in unit.held
                if left <= cell[0] < right and top <= cell[1] < bottom
            }
            assert {(cell, unit.id) for cell, unit in occupancy.held_in(left, top, right, bottom)} == scanned
            centre, reach = (rng.randrange(40), rng.randrange(30)), rng.randrange(0, 12)
            near = [
                unit
                for unit in units
                if any(max(abs(x - centre[0]), abs(y - centre[1])) <= reach for x, y in unit.held)
            ]
            assert list(occupancy.units_near(centre, reach)) == near
    assert len(occupancy) == sum(len(unit.held) for unit in units)


class FakeSquad:
    """A squad of one (``pathing_py.units.unit.Squad``): the unit keeps to its orders as a group member does."""

    def __init__(self, members):
        self.members = members
        self.rank = (0, -min(unit.id for unit in members))


def test_a_squad_member_stuck_for_good_stops_held_up_goes_on_later_and_its_order_ends_held_up():
    """A member stalled where there is no way round the units in its way stops HELD_UP, goes on later as any
    unit does (planning again: left to its group, members of groups crossing at the mouths of two corridors
    stood held up for good in a knot of 150 units), and its order ends HELD_UP for good after HELD_UP_RESUMES
    goes."""
    navigator = Navigator(Grid.from_ascii("...."), give_up=1.0)
    member = navigator.add_unit((0.5, 0.5), speed=4.0)
    for x in (1, 2, 3):  # standing in a dead end: no way to push them out of it
        navigator.add_unit((x + 0.5, 0.5), speed=4.0)
    member.squad = FakeSquad([member])
    member.move_to((3, 0))
    states = []
    for _ in range(200):  # 20 s: the stall limit is 3 s
        navigator.update(0.1)
        states.append(member.state)
    assert states[20] is UnitState.WAITING and member.state is UnitState.HELD_UP and "came no closer" in member.reason
    assert not navigator.goes_on_later(member) and member.resumed == HELD_UP_RESUMES
    assert member.stats.plans == 1 + HELD_UP_RESUMES and member.cell == (0, 0)


def unit_events(navigator, unit):
    return [event for unit_id, event, _ in navigator.events() if unit_id == unit.id]


def test_a_unit_held_up_goes_on_once_the_units_around_it_stand_and_the_game_hears_how_it_ends():
    navigator = Navigator(Grid.from_ascii("......\n......"), give_up=1.0)
    unit = navigator.add_unit((0.5, 0.5), speed=2.0)
    navigator.add_unit((2.5, 0.5), speed=2.0)  # idle on its way: it makes way once the unit goes on
    unit.move_to((5, 0))
    navigator.update(0.5)  # planned, and one cell walked: at the centre of (1, 0)
    assert unit.cell == (1, 0) and unit.next_cell is None
    navigator.finish(unit, UnitState.HELD_UP, "kept out")  # as the traffic rules stop a unit
    navigator.update(0.5)
    assert unit.state is UnitState.HELD_UP  # not before give_up seconds
    for _ in range(80):
        navigator.update(0.1)
    assert unit.state is UnitState.ARRIVED and unit.cell == (5, 0) and unit.resumed == 1
    heard = [event for event in unit_events(navigator, unit) if event != "waypoint_reached"]
    assert heard == ["path_found", "held_up", "path_found", "arrived"]


@pytest.mark.parametrize("walker", [False, True])
def test_a_unit_held_up_goes_on_once_no_unit_near_it_is_under_way_or_later_once_none_next_to_it_is(walker):
    """After ``give_up`` seconds if no unit within 20 cells is under way; after three times as long if none
    within 2 cells is (two blocks of 500 crossing: the last unit arrived 26 s after every other one)."""
    navigator = Navigator(Grid.from_ascii("\n".join(["." * 30] * 5)), give_up=1.0)
    unit = navigator.add_unit((0.5, 0.5), speed=2.0)
    unit.move_to((5, 0))
    navigator.update(0.5)
    navigator.finish(unit, UnitState.HELD_UP, "kept out")
    if walker:  # 6 cells off, walking on for 9 s
        navigator.add_unit((1.5, 4.5), speed=1.0).move_to((10, 4))
    resumed_at = None
    for _ in range(50):
        navigator.update(0.1)
        if resumed_at is None and unit.state is not UnitState.HELD_UP:
            resumed_at = navigator.time
    assert resumed_at == pytest.approx(3.5 if walker else 1.5, abs=0.05)  # stopped at 0.5 s
    assert unit.state is UnitState.ARRIVED


def test_a_unit_held_up_that_is_pushed_aside_stands_where_it_was_pushed_to():
    """Issue 43: in a knot of 60 to 95 units on den520d (bench_crowd.py's movingai_orders), units held up were pushed
    aside and walked back into the knot, to be pushed again, for minutes (one 40 times), and went on only once it
    had dissolved: the last arrived after the benchmark's limit. Held up, a unit goes on later from wherever it
    stands: pushed into a niche, it stays there, out of the way."""
    navigator = Navigator(Grid.from_ascii("####.####\n.........\n#########"))
    held = navigator.add_unit((4.5, 1.5), speed=2.0)
    held.move_to((0, 1))
    navigator.finish(held, UnitState.HELD_UP, "kept out")  # as the traffic rules stop a unit
    driver = navigator.add_unit((0.5, 1.5), speed=2.0)
    driver.move_to((8, 1))
    navigator.step_log = []
    for _ in range(80):  # 8 s: less than give_up, after which the held-up unit goes on
        navigator.update(0.1)
        check_world(navigator)
    assert driver.state is UnitState.ARRIVED
    assert held.state is UnitState.HELD_UP and held.cell == (4, 0) and held.reason == "kept out"


def test_a_unit_held_up_does_not_go_on_while_a_unit_that_arrived_there_stands_on_its_goal():
    """Two units ordered to one cell: the one held up would only push the one there off to take its place (in
    a packed room, such units took turns on two cells until 165 s). It goes on once that unit has gone."""
    navigator = Navigator(Grid.from_ascii("......\n......"), give_up=1.0)
    unit = navigator.add_unit((0.5, 0.5), speed=2.0)
    there = navigator.add_unit((5.5, 0.5), speed=2.0)
    there.move_to((5, 0))
    unit.move_to((5, 0))
    navigator.update(0.5)
    navigator.finish(unit, UnitState.HELD_UP, "kept out")  # as the traffic rules stop a unit
    assert there.state is UnitState.ARRIVED and not navigator.goes_on_later(unit)
    for _ in range(50):
        navigator.update(0.1)
    assert unit.state is UnitState.HELD_UP and unit.resumed == 0 and there.cell == (5, 0) and navigator.at_rest
    there.move_to((5, 1))
    assert navigator.goes_on_later(unit)
    for _ in range(80):
        navigator.update(0.1)
    assert unit.state is UnitState.ARRIVED and unit.cell == (5, 0) and unit.resumed == 1


def test_in_a_packed_room_with_two_goals_for_seven_units_every_order_ends_and_the_room_rests_soon():
    """Five units ordered to one cell of a room of 10 free cells, two to another, one into the nook below:
    those held up do not take turns pushing each other off the goals (the room rested at 165 s so)."""
    navigator = Navigator(Grid.from_ascii("...\n...\n...\n.##"))
    starts = [(0, 0), (1, 0), (2, 1), (0, 2), (1, 2), (0, 1), (2, 0), (1, 1)]
    goals = [(0, 0), (0, 0), (0, 0), (0, 0), (0, 1), (0, 1), (0, 0), (0, 3)]
    units = [navigator.add_unit((x + 0.5, y + 0.5), speed=1.0) for x, y in starts]
    for unit, goal in zip(units, goals):
        unit.move_to(goal)
    navigator.step_log = []
    while not navigator.at_rest and navigator.time < 600:
        navigator.update(0.1)
        check_world(navigator)
    assert navigator.time < 60
    assert all(
        unit.state in (UnitState.ARRIVED, UnitState.HELD_UP) and not navigator.goes_on_later(unit) for unit in units
    )
    for goal in ((0, 0), (0, 1), (0, 3)):  # each goal held by a unit that arrived there
        holder = navigator.holder(goal)
        assert holder is not None and holder.goal == goal and holder.state is UnitState.ARRIVED


def test_an_order_goes_on_after_held_up_at_most_twice():
    navigator = Navigator(Grid.from_ascii("......\n......"), give_up=1.0)
    unit = navigator.add_unit((0.5, 0.5), speed=2.0)
    unit.move_to((5, 0))
    stops = 0
    for _ in range(60):  # (the check reads each unit every STALL_SLICES updates)
        navigator.update(0.5)  # a cell an update, from centre to centre
        if unit.state is not UnitState.HELD_UP and unit.stack.destination() is not None:  # under way: stop it again
            navigator.finish(unit, UnitState.HELD_UP, "kept out")
            stops += 1
            assert navigator.goes_on_later(unit) is (stops < 3)  # the order has not ended for good
    assert stops == 3 and unit.state is UnitState.HELD_UP and unit.resumed == 2 and unit.cell == (3, 0)
    unit.move_to((5, 0))  # a new order goes on after HELD_UP again
    assert unit.resumed == 0


def test_a_file_walks_on_as_one_and_the_cell_a_unit_leaves_is_neither_walled_nor_given_to_a_new_unit():
    """A unit lets go of the cell it steps out of at once: the next of a file takes it and follows right
    behind, slowed so as never to touch it. The cell is still partly the leaver's until it arrives: a wall
    is refused there and no unit can be added in it."""
    navigator = Navigator(Grid.from_ascii("............"))
    file = [navigator.add_unit((x + 0.5, 0.5), speed=2.0) for x in (3, 2, 1, 0)]
    for unit, goal in zip(file, (11, 10, 9, 8)):
        unit.move_to((goal, 0))
    navigator.update(0.1)
    leader = file[0]
    assert leader.next_cell == (4, 0) and navigator.holder((3, 0)) is file[1]  # taken by the next at once
    navigator.update(0.1)
    assert all(unit.next_cell is not None for unit in file)  # all four under way together
    assert navigator.holder((0, 0)) is None and file[3].cell == (0, 0)  # the last one's first cell: let go of
    assert navigator.set_blocked([(0, 0)]) == [(0, 0)] and navigator.grid.is_passable((0, 0))
    with pytest.raises(ValueError, match=r"cell \(0, 0\) is held by unit 4"):
        navigator.add_unit((0.5, 0.5), speed=1.0)
    arrived_at = None
    for step in range(100):
        navigator.update(0.1)
        gaps = [math.dist(a.position, b.position) for a, b in zip(file, file[1:])]
        assert min(gaps) >= 1.0 - 1e-9, gaps
        if arrived_at is None and all(unit.state is UnitState.ARRIVED for unit in file):
            arrived_at = navigator.time
    assert arrived_at is not None and arrived_at < 8 / 2.0 + 1.0  # 8 cells at 2 cells/s: the file as one, not in turns


def test_a_unit_walking_a_route_that_leads_away_from_its_goal_first_comes_closer_at_its_key_points():
    """The stall check stops units that came no closer to their targets for a while. Measured as a straight
    line to the goal, the unit came no closer for 56 s; through the key points still to pass, for 6 s at most."""
    grid = Grid.from_ascii(HAIRPIN)
    navigator = Navigator(grid, KeyPointGraph.bake(grid, cluster_size=8))
    unit = navigator.add_unit((2.5, 1.5), speed=2.0)
    unit.move_to((10, 1))
    assert most_seconds_no_closer(navigator, [unit], 80) <= 10.0
    assert unit.state is UnitState.ARRIVED


# -- input (issue 43) ------------------------------------------------------------------------------


@pytest.mark.parametrize("radius, at", [(0.5, (2.99, 3.01)), (0.3, (2.99, 3.01)), (1.0, (2.99, 5.01))])
def test_units_stand_on_the_centre_of_their_block_whatever_position_they_are_added_at(radius, at):
    """(0.99, 0.5) and (1.01, 0.5) were two circles 0.02 apart, overlapping and reaching into cells they did not
    hold, which an edit could then block."""
    navigator = Navigator(Grid.from_ascii("\n".join(["." * 8] * 5)))
    units = [navigator.add_unit((x, 2.5), speed=1.0, radius=radius) for x in at]
    for unit in units:
        assert unit.position == (unit.cell[0] + unit.size / 2, unit.cell[1] + unit.size / 2)
    positions, radii = np.array([unit.position for unit in units]), np.array([radius, radius])
    assert not len(overlapping_pairs(positions, radii))
    navigator.set_blocked([(x, y) for y in range(5) for x in range(8)])  # every cell no unit holds
    assert not len(units_in_walls(navigator.grid.passable, positions, radii))


def test_a_unit_of_another_navigator_with_the_same_id_is_not_removed():
    """It removed this navigator's unit, raised KeyError in occupancy.py and left a ghost holding its cell."""
    grid = Grid.from_ascii("....")
    navigator, other = Navigator(grid), Navigator(Grid.from_ascii("...."))
    mine, stranger = navigator.add_unit((0.5, 0.5), speed=1.0), other.add_unit((2.5, 0.5), speed=1.0)
    assert mine.id == stranger.id
    with pytest.raises(ValueError, match="not a unit of this navigator"):
        navigator.remove_unit(stranger)
    assert navigator.units == {mine.id: mine} and navigator.holder((0, 0)) is mine and navigator.stats.removed == 0
    with pytest.raises(TypeError, match="unit must be a Unit"):
        navigator.remove_unit(mine.id)
    navigator.remove_unit(mine)
    assert navigator.holder((0, 0)) is None and not navigator.units


@pytest.mark.parametrize("number", [np.float32, np.float64, np.int64, np.int32])
def test_numpy_numbers_are_taken_wherever_python_numbers_are(number):
    navigator = Navigator(Grid.from_ascii("\n".join(["." * 8] * 3)))
    radius = number(1) / 2 if number in (np.float32, np.float64) else 0.5
    unit = navigator.add_unit((number(1), number(1)), speed=number(4), radius=radius, priority=np.int64(2))
    assert unit.position == (1.5, 1.5) and unit.speed == 4.0 and type(unit.speed) is float and unit.priority == 2
    assert navigator.set_blocked([(np.int64(5), np.int32(0))], np.bool_(True)) == [] and not navigator.grid.is_passable(
        (5, 0)
    )
    unit.move_to((np.int64(7), np.int64(2)))
    navigator.update(number(1))
    assert navigator.time == 1.0 and type(navigator.time) is float


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda n: n.add_unit((10**400, 0.5), speed=1.0), ValueError, "position"),
        (lambda n: n.add_unit((0.5, 0.5), speed=10**400), ValueError, "speed"),
        (lambda n: n.add_unit((0.5, 0.5), speed=1.0, radius=10**400), ValueError, "radius"),
        (lambda n: n.add_unit((0.5, 0.5), speed=1.0, priority=10**400), ValueError, "priority"),
        (lambda n: n.add_unit(("1", 0.5), speed=1.0), TypeError, "position"),
        (lambda n: n.add_unit((0.5, 0.5), speed="fast"), ValueError, "speed"),
        (lambda n: n.update(10**400), ValueError, "delta"),
        (lambda n: n.update("0.1"), ValueError, "delta"),
        (lambda n: n.set_blocked([(10**400, 0)]), ValueError, "outside"),
        (lambda n: n.set_blocked([(1, 0)], blocked="yes"), TypeError, "blocked must be True or False"),
        (lambda n: n.set_blocked([(1, 0)], blocked=1), TypeError, "blocked must be True or False"),
    ],
)
def test_overflowing_numbers_and_non_boolean_flags_are_refused_clearly(call, error, message):
    """10**400 gave a stray OverflowError; ``set_blocked(cells, blocked="yes")`` silently did nothing. The message
    shows a refused number's first digits, not all 401 of 10**400 (speed, radius and delta did)."""
    navigator = Navigator(Grid.from_ascii("...."))
    with pytest.raises(error, match=message) as refused:
        call(navigator)
    assert len(str(refused.value)) < 120
    assert not navigator.units and navigator.grid.passable.all()


def test_an_update_says_where_its_time_went():
    """NavigatorStats.part_seconds splits the last update's time (UPDATE_PARTS): the traffic rules count only once a
    unit's way is held, the plans once a path was planned, and an update at rest spends nothing anywhere."""
    navigator = Navigator(Grid.from_ascii("\n".join(["." * 12] * 3)))
    navigator.add_unit((5.5, 1.5), speed=1.0)  # standing in the way
    walker = navigator.add_unit((0.5, 1.5), speed=4.0)
    walker.move_to((11, 1))
    navigator.update(0.1)
    parts = navigator.stats.part_seconds
    assert list(parts) == list(UPDATE_PARTS) and all(seconds >= 0.0 for seconds in parts.values())
    assert (
        parts["plans"] > 0.0 and parts["events"] > 0.0 and parts["traffic"] == 0.0
    )  # planned, set off, no one in its way yet
    while walker.collision is None and navigator.time < 5.0:
        navigator.update(0.1)
    assert navigator.stats.part_seconds["traffic"] > 0.0  # it met the standing unit: the rules ran
    run(navigator, 0.1, 400, check=False)
    navigator.update(0.1)
    navigator.update(0.1)
    assert navigator.at_rest and set(navigator.stats.part_seconds.values()) == {0.0}


@pytest.mark.parametrize(
    "arguments, error, message",
    [
        ({"retry_time": 10**400}, ValueError, "retry_time must be a finite number of seconds >= 0"),
        ({"retry_time": float("nan")}, ValueError, "retry_time"),
        ({"retry_time": float("inf")}, ValueError, "retry_time"),
        ({"retry_time": -1.0}, ValueError, "retry_time"),
        ({"retry_time": "30"}, TypeError, "retry_time must be a number"),
        ({"wait_limit": 10**400}, ValueError, "wait_limit must be a finite number of seconds > 0"),
        ({"wait_limit": 0.0}, ValueError, "wait_limit"),
        ({"wait_limit": float("nan")}, ValueError, "wait_limit"),
        ({"wait_limit": None}, TypeError, "wait_limit"),
        ({"give_up": float("inf")}, ValueError, "give_up"),
        ({"give_up": -10}, ValueError, "give_up"),
        ({"give_up": True}, TypeError, "give_up"),
        ({"time_budget": 10**400}, ValueError, "time_budget"),
        ({"time_budget": float("inf")}, ValueError, "time_budget"),
        ({"time_budget": 0}, ValueError, "time_budget"),
        ({"time_budget": "0.002"}, TypeError, "time_budget"),
        ({"region_size": 10**400}, ValueError, "region_size"),
        ({"region_size": 0}, ValueError, "region_size"),
        ({"region_size": 16.0}, TypeError, "region_size"),
        ({"clock": 0.0}, TypeError, "clock"),
        ({"link": "slow"}, ValueError, "link"),
    ],
)
def test_bad_constructor_arguments_are_refused_naming_the_argument(arguments, error, message):
    """``Navigator(grid, retry_time=10**400)`` gave a stray OverflowError (issue 43), NaN and infinities slipped
    through."""
    with pytest.raises(error, match=message):
        Navigator(Grid.from_ascii("...."), **arguments)


def test_a_grid_that_is_no_grid_is_refused():
    with pytest.raises(TypeError, match="grid must be a Grid"):
        Navigator(np.ones((3, 3), dtype=bool))


@pytest.mark.parametrize("number", [np.float32, np.float64, np.int64, np.int32])
def test_numpy_numbers_are_taken_by_the_constructor(number):
    navigator = Navigator(Grid.from_ascii("...."), time_budget=number(1), wait_limit=number(2), give_up=number(4),
                          region_size=np.int64(8), retry_time=number(0))  # fmt: skip
    assert navigator.retry_time == 0.0 and type(navigator.retry_time) is float
    assert (
        navigator.traffic.wait_limit == 2.0
        and navigator.traffic.give_up == 4.0
        and type(navigator.traffic.give_up) is float
    )
    assert navigator.requests.budget == 1.0 and navigator.watcher.region_size == 8
