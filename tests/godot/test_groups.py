"""pathing_py.godot.groups: what a GroupManager hands its NavGrid and gets back, driven without the engine.

The fakes of tests/godot/test_units.py stand in for the TileMap and the
PathUnit nodes; a GroupDriver sits beside the UnitDriver as in NavGrid, and
frames run as NavGrid._physics_process runs them: the units' step and signals,
then the group signals of each manager that has some.
"""

import math
from typing import Dict, List, Tuple

import pytest

from pathing_py.godot.groups import (
    GROUP_SIGNALS,
    GroupDriver,
    GroupSettings,
    GroupSignal,
    manager_problem,
)
from pathing_py.godot.units import UnitDriver
from pathing_py.groups import Cohesion
from pathing_py.status import Status
from tests.support.godot_groups import FIELD, MANAGER, SQUAD, make_squad, settings
from tests.support.godot_units import CELL_SIZE, FakeTileMap, add, make_driver, tile_cell_of, world_centre, world_of

TARGET = (9, 1)
#: World pixels a unit at 4 cells per second may move in one 60th of a second (the fake TileMap is scaled twice).
STEP_LIMIT = 4.0 * CELL_SIZE[0] * 2.0 / 60 * 1.001


def play(driver: UnitDriver, groups: GroupDriver, seconds: float, owners=(MANAGER,), delta: float = 1 / 60):
    """Frames: the moves, and each owner's group signals in order."""
    moves: list = []
    heard: Dict[int, List[GroupSignal]] = {owner: [] for owner in owners}
    for _ in range(round(seconds / delta)):
        moves += driver.step(delta)
        list(driver.signals())
        for owner, signal in groups.pending():  # as NavGrid._emit_group_signals (the owners are their own nodes)
            heard.setdefault(owner, []).append(signal)
    return moves, heard


def summary(signals: List[GroupSignal]) -> List[Tuple]:
    return [(signal.group_id, signal.name) + tuple(signal.arguments(lambda *pair: pair)[1:]) for signal in signals]


def chebyshev(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# -- one order -----------------------------------------------------------------------------------


def test_a_group_order_brings_every_unit_to_its_own_cell_by_the_target_with_two_signals():
    driver, groups, nodes = make_squad()
    answer = groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    assert answer and answer.status == Status.OK.value and answer.message == ""
    moves, heard = play(driver, groups, 12.0)
    assert summary(heard[MANAGER]) == [(1, "group_ordered", TARGET, world_centre(TARGET)), (1, "group_arrived", 6, 6)]
    assert all(driver.state_of(key) == "ARRIVED" for key in nodes)
    ends = {key: tile_cell_of(world_of(move)) for move in moves for key, node in nodes.items() if move[0] is node}
    assert len(set(ends.values())) == 6 and all(chebyshev(cell, TARGET) <= 2 for cell in ends.values()), ends
    last: Dict[int, Tuple[float, float]] = {key: world_centre(cell) for key, cell in zip(nodes, SQUAD)}
    for move in moves:  # frame by frame: no jump
        key = next(key for key, node in nodes.items() if move[0] is node)
        assert math.dist(last[key], world_of(move)) <= STEP_LIMIT
        last[key] = world_of(move)


def test_once_a_group_arrived_the_world_rests_and_moves_no_node_until_the_next_order():
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings(formation="box"))
    moves, heard = play(driver, groups, 12.0)
    assert heard[MANAGER][-1].name == "group_arrived" and driver.navigator.at_rest
    assert play(driver, groups, 2.0) == ([], {MANAGER: []})
    back = SQUAD[0]
    answer = groups.order(MANAGER, list(nodes), world_centre(back), settings())
    assert answer and not driver.navigator.at_rest
    moves, heard = play(driver, groups, 12.0)
    assert {node for node, _, _ in moves} == set(nodes.values())
    assert summary(heard[MANAGER])[-1][1] == "group_arrived" and driver.navigator.at_rest


@pytest.mark.parametrize("name", ["speed", "route", "arrival"])
def test_the_cohesion_named_is_the_groups(name):
    driver, groups, nodes = make_squad()
    assert groups.order(MANAGER, list(nodes), world_centre(TARGET), settings(name))
    group = groups.groups.group_of(driver.unit_of(1))
    assert group is not None and group.cohesion is Cohesion(name) and len(group.members) == 6
    _, heard = play(driver, groups, 12.0)
    assert summary(heard[MANAGER])[-1] == (1, "group_arrived", 6, 6)


def test_a_selection_of_one_unit_is_a_group_of_one():
    driver, groups, nodes = make_squad()
    assert groups.order(MANAGER, [3], world_centre(TARGET), settings())
    _, heard = play(driver, groups, 12.0)
    assert summary(heard[MANAGER]) == [(1, "group_ordered", TARGET, world_centre(TARGET)), (1, "group_arrived", 1, 1)]
    assert driver.frame.from_grid(driver.unit_of(3).cell) == TARGET


def test_a_unit_selected_twice_counts_once():
    driver, groups, nodes = make_squad()
    assert groups.order(MANAGER, [1, 2, 1, 3], world_centre(TARGET), settings())
    _, heard = play(driver, groups, 12.0)
    assert summary(heard[MANAGER])[-1] == (1, "group_arrived", 3, 3)


# -- refusals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "keys, target, cohesion, status, message",
    [
        ([], world_centre(TARGET), "route", Status.EMPTY_SELECTION.value, "order_move: the selection is empty"),
        (
            [1, None, 2],
            world_centre(TARGET),
            "route",
            Status.NOT_DRIVEN.value,
            "order_move: units[1] is not a node: nothing",
        ),
        (
            [1, 2, 99],
            world_centre(TARGET),
            "route",
            Status.NOT_DRIVEN.value,
            "order_move: units[2] (instance 99) is not a PathUnit of this NavGrid: nothing was ordered",
        ),
        ([1, 2], (math.nan, 0.0), "route", Status.INVALID_POSITION.value, "order_move: position"),
        ([1, 2], (0.0, -math.inf), "route", Status.INVALID_POSITION.value, "not finite"),
        (
            [1, 2],
            world_centre((40, 0)),
            "route",
            Status.OUT_OF_BOUNDS.value,
            "order_move: TileMap cell (40, 0) is outside the map, TileMap cells (-4, -2) to (11, 4) "
            "(the TileMap's painted rectangle; set the NavGrid's bounds to navigate beyond it)",
        ),
        (
            [1, 2],
            world_centre(TARGET),
            "fast",
            Status.INVALID_SETTINGS.value,
            "order_move: cohesion 'fast' is not one of 'speed', 'route', 'arrival'",
        ),
    ],
)
def test_a_bad_order_is_refused_whole_and_a_good_one_still_works(keys, target, cohesion, status, message):
    driver, groups, nodes = make_squad()
    answer = groups.order(MANAGER, keys, target, settings(cohesion))
    assert not answer and answer.status == status and message in answer.message, answer
    assert all(driver.state_of(key) == "IDLE" and groups.groups.group_of(driver.unit_of(key)) is None for key in nodes)
    assert list(groups.signals(MANAGER)) == []
    assert groups.order(MANAGER, [1, 2], world_centre(TARGET), settings())
    _, heard = play(driver, groups, 12.0)
    assert summary(heard[MANAGER]) == [(1, "group_ordered", TARGET, world_centre(TARGET)), (1, "group_arrived", 2, 2)]


@pytest.mark.parametrize(
    "path, found, cohesion, warning",
    [
        ("", None, "route", "Set nav_grid_path to the NavGrid that moves the units this manager orders."),
        ("../Nav", None, "route", "nav_grid_path '../Nav' does not point at a node."),
        ("../TileMap", "TileMap", "route", "nav_grid_path '../TileMap' points at a TileMap, not a NavGrid."),
        ("../NavGrid", "NavGrid", "Route", "Cohesion 'Route' is not one of 'speed', 'route', 'arrival'."),
        ("../NavGrid", "NavGrid", "arrival", ""),
    ],
)
def test_manager_problem_is_the_configuration_warning(path, found, cohesion, warning):
    assert manager_problem(path, found, settings(cohesion)) == warning


def test_settings_are_the_keyword_arguments_of_add_group():
    assert GroupSettings.read(settings("speed")).add_group_options() == {
        "cohesion": Cohesion.SPEED,
        "formation": None,
        "spacing": 1.0,
    }
    options = GroupSettings.read(settings("route", "wedge", 2)).add_group_options()
    assert options == {"cohesion": Cohesion.ROUTE, "formation": "wedge", "spacing": 2.0}


@pytest.mark.parametrize(
    "formation, spacing, message",
    [
        ("ring", 1.0, "formation 'ring' is not one of 'none', 'line', 'column', 'box', 'wedge'"),
        ("box", 0.5, "spacing must be a number of cells >= 1, got 0.5"),
        ("box", math.nan, "spacing must be a number of cells >= 1, got nan"),
    ],
)
def test_a_bad_formation_setting_is_refused_and_warned_about(formation, spacing, message):
    driver, groups, nodes = make_squad()
    answer = groups.order(MANAGER, list(nodes), world_centre(TARGET), settings(formation=formation, spacing=spacing))
    assert answer.status == Status.INVALID_SETTINGS.value and message in answer.message
    assert (
        manager_problem("../NavGrid", "NavGrid", settings(formation=formation, spacing=spacing))
        == f"{message[:1].upper()}{message[1:]}."
    )


def test_a_formation_order_signals_each_state_and_arrives_in_shape():
    driver, groups, nodes = make_squad()
    assert groups.order(MANAGER, list(nodes), world_centre(TARGET), settings(formation="line", spacing=2.0))
    _, heard = play(driver, groups, 20.0)
    names = [signal.name for signal in heard[MANAGER]]  # a line 11 cells wide in a field 7 high: it parts or breaks
    assert names[:3] == ["group_ordered", "formation_forming", "formation_formed"] and names[-1] == "group_arrived", (
        names
    )
    assert all(name.startswith("formation_") for name in names[3:-1]) and heard[MANAGER][1].detail == "line"
    assert heard[MANAGER][-1].arrived == 6


# -- the selection is the group ------------------------------------------------------------------------


def test_units_ordered_again_leave_their_group_which_goes_on_without_them():
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    _, before = play(driver, groups, 0.5)
    assert groups.order(MANAGER, [1, 2, 3], world_centre((9, -2)), settings())
    _, heard = play(driver, groups, 12.0)
    signals = summary(before[MANAGER] + heard[MANAGER])
    assert signals[:2] == [
        (1, "group_ordered", TARGET, world_centre(TARGET)),
        (2, "group_ordered", (9, -2), world_centre((9, -2))),
    ]
    assert sorted(signals[2:]) == [(1, "group_arrived", 3, 3), (2, "group_arrived", 3, 3)]
    assert all(driver.state_of(key) == "ARRIVED" for key in nodes)


def test_a_member_ordered_on_its_own_leaves_its_group_which_arrives_without_it():
    """PathUnit.move_to on a member: it goes where it was sent, and the group no longer waits for it or steers it."""
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings("arrival", "box", 2.0))
    _, before = play(driver, groups, 0.5)
    alone = groups.groups.groups[1].members[-1]
    key = driver.key_of(alone)
    assert groups.order_alone(key, world_centre((-4, 4))).status == Status.OK.value
    assert groups.groups.group_of(alone) is None and alone.squad is None and alone.pace is None
    moves, heard = play(driver, groups, 30.0)
    assert summary(heard[MANAGER])[-1] == (1, "group_arrived", 5, 5)
    last = [move for move in moves if move[0] is nodes[key]][-1]
    assert tile_cell_of(world_of(last)) == (-4, 4) and driver.state_of(key) == "ARRIVED"
    refused = groups.order_alone(key, (math.nan, 0.0))
    assert refused.status == Status.INVALID_POSITION.value and driver.state_of(key) == "ARRIVED"


def test_a_group_whose_every_unit_is_ordered_again_is_dropped_without_a_signal():
    """Two orders in one frame, before the first group's commander planned (its members wait for its route)."""
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    groups.order(MANAGER, list(nodes)[::-1], world_centre((9, -2)), settings("arrival"))
    assert list(groups.groups.groups) == [2]
    _, heard = play(driver, groups, 30.0)  # into the map's top edge: about 16 s of making way for each other
    assert [(s.group_id, s.name) for s in heard[MANAGER]] == [
        (1, "group_ordered"),
        (2, "group_ordered"),
        (2, "group_arrived"),
    ]
    assert summary(heard[MANAGER])[-1] == (2, "group_arrived", 6, 6)


def test_each_manager_hears_its_own_groups_and_a_manager_that_leaves_lets_its_units_finish():
    driver, groups, nodes = make_squad()
    other = 2000
    groups.order(MANAGER, [1, 2, 3], world_centre(TARGET), settings())
    groups.order(other, [4, 5, 6], world_centre((9, -2)), settings())
    play(driver, groups, 0.5, owners=(MANAGER, other))
    groups.forget_owner(other)
    assert list(groups.signals(other)) == []
    _, heard = play(driver, groups, 12.0, owners=(MANAGER, other))
    assert summary(heard[MANAGER]) == [(1, "group_arrived", 3, 3)] and heard[other] == []
    assert all(driver.state_of(key) == "ARRIVED" for key in nodes)  # the other's units finished on their own
    assert all(groups.groups.group_of(driver.unit_of(key)) is None for key in (4, 5, 6))


def test_a_manager_freed_by_a_handler_of_its_own_signals_hears_no_more_of_them():
    """The NavGrid emits each manager's signals on its node one by one (``pending``): a game's handler may free the
    manager, which then forgets it; the signals still queued for it are dropped, not emitted on a freed node."""
    driver, groups, nodes = make_squad()
    other = 2000
    groups.order(MANAGER, [1, 2, 3], world_centre(TARGET), settings(), node="first manager")
    groups.order(other, [4, 5, 6], world_centre((9, -2)), settings(), node="second manager")
    groups.order(MANAGER, [1, 2], world_centre(TARGET), settings(), node="first manager")  # a second signal for it
    emitted = []
    for node, signal in groups.pending():
        emitted.append((node, signal.group_id, signal.name))
        groups.forget_owner(MANAGER if node == "first manager" else other)  # its handler freed it: it left the tree
    assert emitted == [("first manager", 1, "group_ordered"), ("second manager", 2, "group_ordered")]
    assert list(groups.pending()) == []


# -- members lost, and the NavGrid reading its TileMap again ----------------------------------------------


def test_a_member_that_leaves_is_lost_and_the_rest_arrive():
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    play(driver, groups, 0.5)
    driver.remove(4)  # its PathUnit left the tree
    _, heard = play(driver, groups, 12.0)
    assert summary(heard[MANAGER]) == [(1, "member_lost", "unit 4 was removed"), (1, "group_arrived", 5, 5)]


@pytest.mark.parametrize("formation", ["none", "box"])
def test_a_member_removed_in_the_frame_of_the_order_is_lost_and_the_rest_arrive(formation):
    """In formation, members get their routes (slots) with the order itself: a member removed before the next
    frame must take its route's signals with it."""
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings(formation=formation, spacing=2.0))
    driver.remove(6)
    _, heard = play(driver, groups, 20.0)
    assert ("member_lost", "unit 6 was removed") in [(s.name, s.detail) for s in heard[MANAGER]]
    assert summary(heard[MANAGER])[-1] == (1, "group_arrived", 5, 5)


def test_a_group_that_lost_every_member_is_gone():
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, [1, 2], world_centre(TARGET), settings())
    driver.remove(1)
    driver.remove(2)
    _, heard = play(driver, groups, 1.0)
    assert [signal.name for signal in heard[MANAGER]] == ["group_ordered", "member_lost", "member_lost"]
    assert groups.groups.groups == {}


@pytest.mark.parametrize("freed", [[4], [1, 2, 3, 4, 5, 6]])
def test_members_freed_in_the_frame_of_a_formation_order_are_lost_and_the_rest_form_and_arrive(freed):
    """Issue 43: PathUnits freed (their NavGrid removes them at once) and ``order_formation`` in the same frame:
    the group still listed them and ordered a removed unit (``ValueError: unit 4 was removed``); a group that lost
    every member so is gone without an error."""
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    play(driver, groups, 0.5)
    for key in freed:
        driver.remove(key)
    assert groups.change_formation(MANAGER, settings(formation="line", spacing=2.0))
    _, heard = play(driver, groups, 25.0)
    names = [signal.name for signal in heard[MANAGER]]
    assert names.count("member_lost") == len(freed)
    if len(freed) == len(nodes):
        assert names == ["member_lost"] * len(freed) and groups.groups.groups == {}
    else:
        assert names[names.index("formation_forming") :][1] == "formation_formed" and names[-1] == "group_arrived", (
            names
        )
        assert summary(heard[MANAGER])[-1] == (1, "group_arrived", 5, 5)
    for _ in range(20):
        driver.step(1 / 60)
    assert groups.resting() and (driver.navigator.at_rest or len(freed) == len(nodes))  # (no units: never at rest)


def grown(field: List[str]) -> FakeTileMap:
    """The field with a row more on top: the NavGrid builds a new grid, and a new driver takes over."""
    return FakeTileMap(["." * len(field[0])] + field, origin=(-4, -3))


def take_over(driver: UnitDriver, groups: GroupDriver, tilemap: FakeTileMap) -> Tuple[UnitDriver, GroupDriver]:
    """What NavGrid._drive_units does after a rebuild that changed the map's size."""
    successor = make_driver(tilemap)
    successor_groups = GroupDriver(successor)
    successor.take_over(driver)
    successor_groups.take_over(groups)
    return successor, successor_groups


def test_groups_are_made_again_by_the_driver_that_takes_over_and_arrive_under_their_ids():
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, [1, 2, 3], world_centre((9, -2)), settings())
    groups.order(MANAGER, [4, 5, 6], world_centre(TARGET), settings("arrival"))
    _, before = play(driver, groups, 0.5)
    driver, groups = take_over(driver, groups, grown(FIELD))
    for key in nodes:
        assert groups.groups.group_of(driver.unit_of(key)).cohesion is (
            Cohesion.ROUTE if key <= 3 else Cohesion.ARRIVAL
        )
    _, after = play(driver, groups, 12.0)
    assert [s.name for s in before[MANAGER]] == ["group_ordered", "group_ordered"]
    assert sorted(summary(after[MANAGER])) == [(1, "group_arrived", 3, 3), (2, "group_arrived", 3, 3)]
    assert groups.order(MANAGER, [1], world_centre((0, 4)), settings())  # ids go on where they were
    [ordered] = groups.signals(MANAGER)
    assert (ordered.group_id, ordered.name, ordered.cell) == (3, "group_ordered", (0, 4))
    assert ordered.position == pytest.approx(world_centre((0, 4)))


def test_a_member_that_cannot_stand_on_the_new_grid_is_lost_and_a_group_that_had_arrived_stays_still():
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    _, heard = play(driver, groups, 12.0)
    assert summary(heard[MANAGER])[-1] == (1, "group_arrived", 6, 6)
    walled = grown(FIELD)
    walled.set_cell(*driver.frame.from_grid(driver.unit_of(6).cell), 1)  # a wall where unit 6 stands
    driver, groups = take_over(driver, groups, walled)
    moves, heard = play(driver, groups, 2.0)
    assert summary(heard[MANAGER]) == [(1, "member_lost", "unit 6 could not stand on the grid the NavGrid read again")]
    assert moves == [] and all(driver.state_of(key) == "IDLE" for key in range(1, 6))  # not sent again
    assert len(groups.groups.group_of(driver.unit_of(1)).members) == 5


def test_a_member_removed_in_the_frame_of_the_take_over_is_lost_and_the_rest_arrive():
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    _, before = play(driver, groups, 0.5)
    driver.remove(2)
    driver, groups = take_over(driver, groups, grown(FIELD))
    _, after = play(driver, groups, 12.0)
    assert summary(before[MANAGER] + after[MANAGER])[1:] == [
        (1, "member_lost", "unit 2 was removed"),
        (1, "group_arrived", 5, 5),
    ]


def test_a_group_under_way_whose_target_left_the_map_ends_with_none_arrived():
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre((11, 1)), settings())
    play(driver, groups, 0.5)
    driver, groups = take_over(driver, groups, FakeTileMap([row[:-1] for row in FIELD]))  # one column less
    _, heard = play(driver, groups, 2.0)
    assert summary(heard[MANAGER]) == [(1, "group_arrived", 0, 6)]


# -- signals ---------------------------------------------------------------------------------------


def test_signal_arguments_follow_the_table():
    def vector(x, y):
        return ("Vector2", x, y)

    assert set(GROUP_SIGNALS) == {"group_ordered", "group_arrived", "member_lost",
                                  "formation_forming", "formation_formed", "formation_scaled",
                                  "formation_halved", "formation_broken", "waiting_for_turn"}  # fmt: skip
    assert GroupSignal(3, "group_ordered", (9, 1), (8.0, 24.0)).arguments(vector) == [
        3,
        ("Vector2", 9, 1),
        ("Vector2", 8.0, 24.0),
    ]
    assert GroupSignal(3, "group_arrived", arrived=4, members=6).arguments(vector) == [3, 4, 6]
    assert GroupSignal(3, "member_lost", detail="unit 7 was removed").arguments(vector) == [3, "unit 7 was removed"]


def test_an_event_without_a_signal_is_an_error_not_silence():
    """A new event of the groups needs its GroupManager signal (and its GROUP_SIGNALS row) first."""
    driver, groups, nodes = make_squad()
    groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    group = groups.groups.group_of(driver.unit_of(1))
    groups.groups.announce(group, "formation_dancing", "")
    with pytest.raises(ValueError, match="no signal for: 'formation_dancing'"):
        driver.step(1 / 60)


def test_a_manager_changes_the_formation_of_its_groups_where_they_stand():
    driver, groups, nodes = make_squad()
    assert groups.order(MANAGER, list(nodes), world_centre(TARGET), settings())
    play(driver, groups, 12.0)
    refused = groups.change_formation(MANAGER, settings(formation="ring"))
    assert refused.status == Status.INVALID_SETTINGS.value and refused.message.startswith(
        "order_formation: formation 'ring'"
    )
    assert groups.change_formation(MANAGER, settings(formation="box", spacing=2.0))
    _, heard = play(driver, groups, 6.0)
    assert [signal.name for signal in heard[MANAGER]] == [
        "formation_forming",
        "formation_formed",
    ]  # no order open: it stays
    group = groups.groups.group_of(driver.unit_of(1))
    assert group.formation.name == "box" and all(unit.cell == group.slot_cell(unit) for unit in group.members)
    assert groups.change_formation(MANAGER + 1, settings(formation="line"))  # a manager without groups: nothing to do


def test_a_group_order_with_a_tank_in_it_brings_the_tank_along_to_a_square_of_its_own():
    driver, groups, nodes = make_squad()
    tank, answer = add(driver, 7, (0, -2), radius=1.0)  # stands on the 2x2 cells (0, -2) to (1, -1)
    assert answer, answer
    answer = groups.order(MANAGER, [*nodes, 7], world_centre(TARGET), settings())
    assert answer and answer.status == Status.OK.value, answer
    group = groups.groups.group_of(driver.unit_of(7))
    assert group is not None and group.commander is driver.unit_of(7)  # the widest member plans the route
    moves, heard = play(driver, groups, 15.0)
    assert summary(heard[MANAGER])[-1] == (1, "group_arrived", 7, 7)
    assert all(driver.state_of(key) == "ARRIVED" for key in [*nodes, 7])
    held = [cell for unit in group.members for cell in unit.held]
    assert len(held) == len(set(held)) == 6 + 4  # the tank's square overlaps no soldier's cell
    assert chebyshev(driver.frame.from_grid(driver.unit_of(7).cell), TARGET) <= 1  # the tank's square covers the target
    assert sum(unit.stats.plans for unit in group.members) == 1
    assert [move for move in moves if move[0] is tank]  # the tank node was moved
