"""Crowd scenarios: units start clear of walls and of one another, ordered goals are reachable, the same seed gives
the same scenario."""

import numpy as np
import pytest

from pathing_py import Grid, find_path
from pathing_py.crowd_checks import overlapping_pairs, units_in_walls
from pathing_py.tools.scenarios import (
    SCENARIOS,
    CrowdScenario,
    circle_swap,
    crossing_blocks,
    crossroads,
    fitting_cells,
    gate,
    head_on_corridor,
    mixed_radii,
    movingai_orders,
    occupied_spot,
    packed_canyon,
    random_orders,
    two_cell_corridor,
)

#: Every scenario at its defaults but the Moving AI one (it needs the maps: see the tests below), and smaller or
#: larger variants that move each size parameter.
MADE = {
    **{name: make for name, make in SCENARIOS.items() if name != "movingai_orders"},
    "head_on_corridor 3 a side, long pocket": lambda: head_on_corridor(6, length=9, pocket=3),
    "two_cell_corridor odd sides": lambda: two_cell_corridor(14, radius=0.3),
    "crossroads narrow": lambda: crossroads(10, width=1, arm=5),
    "gate 7": lambda: gate(7, radius=0.25),
    "packed_canyon 1": lambda: packed_canyon(1),
    "occupied_spot far": lambda: occupied_spot(distance=9),
    "circle_swap large units": lambda: circle_swap(50, radius=1.3),
    "circle_swap small units": lambda: circle_swap(30, radius=0.1, spacing=1.42),
    "crossing_blocks large units": lambda: crossing_blocks(30, radius=1.0),
    "crossing_blocks packed": lambda: crossing_blocks(30, spacing=1),
    "mixed_radii one size": lambda: mixed_radii(2, radii=(2.0,)),
    "random_orders large units": lambda: random_orders(Grid(np.ones((30, 40), dtype=bool)), 20, radius=1.2, seed=3),
}


@pytest.fixture(scope="module", params=sorted(MADE))
def scenario(request) -> CrowdScenario:
    return MADE[request.param]()


def test_units_start_clear_of_walls_and_of_one_another(scenario):
    assert units_in_walls(scenario.grid.passable, scenario.starts, scenario.radii).size == 0
    assert overlapping_pairs(scenario.starts, scenario.radii).size == 0
    assert len(np.unique(scenario.start_cells, axis=0)) == scenario.count  # today's navigator holds whole cells


def test_ordered_goals_leave_room_for_every_unit_at_once(scenario):
    ordered = scenario.ordered
    goals, radii = scenario.goal_positions[ordered], scenario.radii[ordered]
    assert units_in_walls(scenario.grid.passable, goals, radii).size == 0
    assert overlapping_pairs(goals, radii).size == 0


def test_ordered_goals_are_reachable_where_the_units_fit(scenario):
    """Through cells whose centre a unit's circle fits at; for units of radius <= 0.5 that is every free cell."""
    for radius in np.unique(scenario.radii):
        units = np.flatnonzero(scenario.ordered & (scenario.radii == radius))
        fits = Grid(fitting_cells(scenario.grid.passable, radius))
        if radius <= 0.5:
            assert np.array_equal(fits.passable, scenario.grid.passable)
        unreachable = [
            int(unit) for unit in units
            if not find_path(fits, tuple(scenario.start_cells[unit].tolist()), tuple(scenario.goals[unit].tolist()))
        ]  # fmt: skip
        assert unreachable == []


def test_idle_units_belong_where_they_stand(scenario):
    assert np.array_equal(scenario.goals[scenario.idle], scenario.start_cells[scenario.idle])


def test_arrays_are_read_only_and_the_description_is_one_line(scenario):
    with pytest.raises(ValueError):
        scenario.starts[0, 0] = 0.0
    assert scenario.description and "\n" not in scenario.description
    assert scenario.name in SCENARIOS or scenario.name == "random_orders"


def test_the_same_parameters_make_the_same_scenario():
    for make in MADE.values():
        first, second = make(), make()
        for field in ("starts", "goals", "radii", "speeds", "priorities", "idle"):
            assert np.array_equal(getattr(first, field), getattr(second, field))
        assert np.array_equal(first.grid.passable, second.grid.passable)


def test_scenarios_have_the_sizes_asked_for():
    assert head_on_corridor(10).count == 10
    assert two_cell_corridor(40).count == 40
    assert crossroads(40).count == 40
    assert gate(100).count == 100
    assert packed_canyon(10).idle.sum() == 10 and packed_canyon(10).count == 11
    assert circle_swap(1000).count == 1000
    assert crossing_blocks(1000).count == 1000
    mixed = mixed_radii(60)
    assert mixed.count == 60 and sorted(np.unique(mixed.radii)) == [0.3, 0.5, 1.0]
    assert (np.bincount((mixed.radii * 10).astype(int))[[3, 5, 10]] == 20).all()


def test_the_one_cell_ways_are_one_cell_wide():
    """Each unit of head-on and canyon runs can only pass along the corridor (a free cell beside it is the pocket)."""
    passable = head_on_corridor(10, length=14, pocket=1).grid.passable
    assert passable.sum() == 15 and passable[2].sum() == 14
    canyon = packed_canyon(10)
    standing = canyon.start_cells[canyon.idle]
    open_around = (
        canyon.grid.passable[standing[:, 1] - 1, standing[:, 0]]
        | canyon.grid.passable[standing[:, 1] + 1, standing[:, 0]]
    )
    assert not open_around.any()
    gate_map = gate(100).grid.passable
    wall = gate_map.shape[1] // 2
    assert gate_map[:, wall].sum() == 1


def test_random_orders_are_seeded():
    grid = Grid(np.ones((20, 20), dtype=bool))
    first, again, other = (random_orders(grid, 30, seed=seed) for seed in (4, 4, 5))
    assert np.array_equal(first.starts, again.starts) and np.array_equal(first.goals, again.goals)
    assert not np.array_equal(first.starts, other.starts)
    cells = np.concatenate([first.start_cells, first.goals])
    assert len(np.unique(cells, axis=0)) == 60  # starts and goals all differ


def test_random_orders_stay_on_the_largest_island():
    grid = Grid.from_ascii("..#......\n..#......\n..#......")
    scenario = random_orders(grid, 6, seed=2)
    assert (np.concatenate([scenario.start_cells, scenario.goals])[:, 0] >= 3).all()
    with pytest.raises(ValueError, match="10 units of radius 0.5 need 20 cells .* on one island, the map has 18"):
        random_orders(grid, 10)


def test_a_moving_ai_map(movingai_dir):
    scenario = movingai_orders("den520d", 1000, folder=movingai_dir, seed=7)
    assert scenario.count == 1000 and scenario.grid.width == 256
    test_units_start_clear_of_walls_and_of_one_another(scenario)
    test_ordered_goals_leave_room_for_every_unit_at_once(scenario)
    islands = scenario.grid.islands
    starts, goals = scenario.start_cells, scenario.goals
    assert (islands[starts[:, 1], starts[:, 0]] == islands[goals[:, 1], goals[:, 0]]).all()
    again = movingai_orders("den520d", 1000, folder=movingai_dir, seed=7)
    assert np.array_equal(scenario.goals, again.goals)
    with pytest.raises(ValueError, match="no map 'nowhere'"):
        movingai_orders("nowhere", folder=movingai_dir)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: head_on_corridor(5), "units must be >= 2, and even, got 5"),
        (lambda: head_on_corridor(10, length=10), "length must be >= 11"),
        (lambda: head_on_corridor(10, pocket=0), "pocket must be >= 1"),
        (lambda: two_cell_corridor(40, radius=0.6), "radius must be <= 0.5 in a scenario of one-cell ways"),
        (lambda: crossroads(40, width=0), "width must be >= 1"),
        (lambda: gate(0), "units must be >= 1"),
        (lambda: gate(10, speed=0), "speed must be a positive number"),
        (lambda: packed_canyon(10, speed=float("nan")), "speed must be a positive number"),
        (lambda: occupied_spot(distance=0), "distance must be >= 1"),
        (lambda: circle_swap(100, radius=-1), "radius must be a positive number"),
        (lambda: circle_swap(100, spacing=1.0), "overlap at their starts"),
        (lambda: crossing_blocks(7), "even"),
        (lambda: crossing_blocks(8, radius=0.7, spacing=1), "spacing must be >= 2"),
        (lambda: mixed_radii(10, radii=()), "at least one radius"),
        (lambda: mixed_radii(10, radii=(0.5, float("inf"))), "a radius must be a positive number"),
        (lambda: random_orders(Grid(np.ones((4, 4), dtype=bool)), 3, radius=1.0), "3 units of radius 1 need 6 cells"),
    ],
)
def test_bad_parameters_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_parameters_of_the_wrong_type_are_refused():
    with pytest.raises(TypeError, match="units must be an int, got 2.5"):
        gate(2.5)
    with pytest.raises(TypeError, match="seed must be an int"):
        random_orders(Grid(np.ones((4, 4), dtype=bool)), 1, seed="1")


def make_by_hand(**changes) -> CrowdScenario:
    fields = dict(
        name="by hand",
        description="two units in a room",
        grid=Grid.from_ascii("....\n.#..\n...."),
        starts=np.array([[0.5, 0.5], [3.5, 2.5]]),
        goals=np.array([[3, 0], [0, 2]]),
        radii=np.array([0.5, 0.5]),
        speeds=np.array([2.0, 2.0]),
        priorities=np.array([0, 0]),
        idle=np.array([False, False]),
    )
    fields.update(changes)
    return CrowdScenario(**fields)


def test_a_scenario_made_by_hand_is_checked():
    assert make_by_hand().count == 2
    bad = [
        (dict(starts=np.zeros((0, 2))), "starts must be an \\(n, 2\\) array with n >= 1"),
        (dict(goals=np.array([[3, 0]])), "goals must have shape \\(2, 2\\)"),
        (dict(starts=np.array([[0.5, np.nan], [3.5, 2.5]])), "a start position is not finite"),
        (dict(radii=np.array([0.5, 0.0])), "radii must be positive numbers"),
        (dict(speeds=np.array([2.0, -1.0])), "speeds must be positive numbers"),
        (dict(starts=np.array([[1.5, 1.5], [3.5, 2.5]])), "unit 0's start \\(1.5, 1.5\\) reaches into a wall"),
        (dict(starts=np.array([[0.5, 0.5], [0.9, 0.5]])), "units 0 and 1 overlap at their starts"),
        (dict(goals=np.array([[1, 1], [0, 2]])), "unit 0's goal \\(1.5, 1.5\\) reaches into a wall"),
        (dict(goals=np.array([[4, 0], [0, 2]])), "unit 0's goal \\(4.5, 0.5\\) reaches into a wall or off the map"),
        (dict(goals=np.array([[0, 2], [0, 2]])), "units 0 and 1 overlap at their goals"),
        (dict(idle=np.array([False, True])), "an idle unit's goal must be the cell it starts in"),
    ]
    for changes, message in bad:
        with pytest.raises(ValueError, match=message):
            make_by_hand(**changes)
    with pytest.raises(TypeError, match="goals must be whole numbers"):
        make_by_hand(goals=np.array([[3.0, 0.0], [0.0, 2.0]]))
    assert make_by_hand(idle=np.array([False, True]), goals=np.array([[3, 0], [3, 2]])).ordered.tolist() == [
        True,
        False,
    ]
