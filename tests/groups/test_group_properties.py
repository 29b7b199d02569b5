"""Properties of groups on drawn rooms, groups, formations, orders and update deltas (issue 10).

Whatever the room, the members' sizes and speeds, the formation and cohesion and the frame times: no two
units ever overlap, no circle enters a wall, no unit moves further in an update than its speed allows, no
member is lost, and every order ends: each group says it arrived once, after its order, with every member
in a final state that says the truth about the map.
"""

import numpy as np
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pathing_py import Grid, KeyPointGraph
from pathing_py.clearance import block_at, block_centre, size_class
from pathing_py.crowd_checks import overlapping_pairs, units_in_walls
from pathing_py.groups import Cohesion, Groups
from pathing_py.units import Navigator, UnitState
from pathing_py.units.occupancy import block_cells
from pathing_py.units.unit import FINAL_STATES, STANDING_STATES
from tests.support.navigator_properties import Restless
from tests.support.strategies import maps

#: Seconds of waiting before units give up, short so that every drawn run ends quickly.
GIVE_UP = 2.0
#: Updates run at the drawn deltas; the run then goes on at STEADY_DELTA until every group arrived.
DRAWN_UPDATES = 150
STEADY_DELTA = 0.1
#: Simulated seconds by which every group must have arrived: forming and crossing a 12x12 room at 1 cell/s,
#: and the stall checks of members held up on the way.
TIME_LIMIT = 400.0
SHAPES = (None, "line", "column", "box", "wedge")


@st.composite
def group_orders(draw):
    """A room; one to three groups on distinct free cells, each member with a speed and radius, each group
    with a formation, spacing, cohesion and a target anywhere on the map (walls too); whether routes use a
    key-point graph; and the deltas of the run's first updates (1 ms to 500 ms, in turn)."""
    passable = draw(maps(min_side=4, max_side=12, max_walls=0.3))
    free = np.argwhere(passable)[:, ::-1]  # (x, y)
    sizes = draw(st.lists(st.integers(1, 6), min_size=1, max_size=3))
    count = sum(sizes)
    assume(len(free) >= count)
    picks = draw(st.lists(st.integers(0, len(free) - 1), min_size=count, max_size=count, unique=True))
    speeds = draw(arrays(np.float64, count, elements=st.sampled_from([4.0, 1.0, 2.5, 8.0])))
    radii = draw(arrays(np.float64, count, elements=st.sampled_from([0.5, 0.3, 1.0])))
    blocks = [
        block_cells(tuple(free[pick]), size_class(r)) for pick, r in zip(picks, radii)
    ]  # a unit of radius 1 stands on 2x2
    cells = [cell for block in blocks for cell in block]
    height, width = passable.shape
    assume(len(set(cells)) == len(cells) and all(x < width and y < height and passable[y, x] for x, y in cells))
    groups = [
        (size, draw(st.sampled_from(SHAPES)), draw(st.sampled_from([1.0, 2.0])), draw(st.sampled_from(list(Cohesion))),
         (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))))
        for size in sizes
    ]  # fmt: skip
    graph = draw(st.booleans())
    deltas = draw(arrays(np.float64, st.integers(1, 6), elements=st.floats(0.001, 0.5)))
    return passable, free[picks], speeds, radii, groups, graph, deltas


def ordered(orders, navigator_class=Navigator):
    """The navigator, its units, their groups and each group with its members, every group ordered to its target."""
    passable, starts, speeds, radii, group_list, use_graph, _ = orders
    grid = Grid(passable)
    navigator = navigator_class(
        grid, KeyPointGraph.bake(grid, cluster_size=4) if use_graph else None, give_up=GIVE_UP, wait_limit=0.5
    )
    units = [navigator.add_unit(block_centre((x, y), size_class(r)), speed=float(v), radius=float(r))
             for (x, y), v, r in zip(starts.tolist(), speeds, radii)]  # fmt: skip
    groups = Groups(navigator)
    made, first = [], 0
    for size, shape, spacing, cohesion, target in group_list:
        members = units[first : first + size]
        group = groups.add_group(members, formation=shape, spacing=spacing, cohesion=cohesion)
        group.move_to(target)
        made.append((group, members))
        first += size
    return navigator, units, groups, made


#: Found by CI: the world was found at rest before the groups' orders ended, and a member that traffic set
#: going meanwhile stood still RUN for good once they had (ac01c72).
RESTED_WITH_A_MEMBER_UNDER_WAY = (
    np.array(
        [
            [True, True, False, True, True, True, True, False],
            [True, True, True, True, True, True, True, True],
            [True, True, True, True, False, False, False, True],
            [True, True, True, True, True, True, True, True],
            [False, True, True, True, True, True, True, True],
        ]
    ),
    np.array([[0, 0], [4, 3], [3, 1], [2, 1], [5, 3], [4, 0], [7, 1], [4, 1], [6, 3], [3, 4], [3, 0], [1, 2], [1, 4]]),
    np.full(13, 4.0),
    np.full(13, 0.3),
    [
        (6, None, 1.0, Cohesion.SPEED, (0, 0)),
        (3, "box", 1.0, Cohesion.SPEED, (0, 3)),
        (4, None, 1.0, Cohesion.SPEED, (2, 0)),
    ],
    False,
    np.array([0.001]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(group_orders())
@example(RESTED_WITH_A_MEMBER_UNDER_WAY)
def test_groups_never_overlap_nor_enter_walls_lose_no_member_and_every_order_ends(orders):
    passable, _, speeds, radii, _, _, deltas = orders
    navigator, units, groups, made = ordered(orders)
    events = {group.id: [] for group, _ in made}
    positions = np.array([unit.position for unit in units])
    while navigator.time < TIME_LIMIT and not (
        all("group_arrived" in events[group.id] for group, _ in made)
        and all(unit.state in FINAL_STATES for unit in units)
    ):
        # (until members that arrived and then made way for others stand again)
        number = navigator.stats.updates
        delta = float(deltas[number % len(deltas)]) if number < DRAWN_UPDATES else STEADY_DELTA
        navigator.update(delta)
        for group_id, name, _ in groups.events():
            events[group_id].append(name)
        moved_to = np.array([unit.position for unit in units])
        assert not len(overlapping_pairs(moved_to, radii)), f"units overlap after update {number}"
        assert not len(units_in_walls(passable, moved_to, radii)), f"a unit entered a wall at update {number}"
        assert np.all(np.hypot(*(moved_to - positions).T) <= speeds * delta + 1e-9), (
            f"a unit moved faster than its speed at update {number}"
        )
        positions = moved_to
    for group, members in made:
        names = events[group.id]
        assert names[0] == "group_ordered" and names.count("group_arrived") == 1 and names[-1] == "group_arrived", names
        assert group.members == members, f"group {group.id} lost members"
    for unit in units:
        assert navigator.units.get(unit.id) is unit, f"{unit} was lost"
        assert unit.state in FINAL_STATES, f"{unit} still {unit.state.name} after {navigator.time:.0f} s"
        assert block_at(unit.position, unit.size) == unit.cell
        assert unit.state is UnitState.ARRIVED or unit.reason, f"{unit} ended {unit.state.name} with no reason"


#: A line of three crossing an empty room: the world comes to rest once it arrived.
LINE_ACROSS_A_ROOM = (
    np.ones((5, 8), dtype=bool),
    np.array([[0, 1], [0, 2], [0, 3]]),
    np.array([4.0, 4.0, 2.5]),
    np.array([0.5, 0.5, 0.3]),
    [(3, "line", 1.0, Cohesion.ROUTE, (6, 2))],
    False,
    np.array([0.1]),
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(group_orders())
@example(LINE_ACROSS_A_ROOM)
@example(RESTED_WITH_A_MEMBER_UNDER_WAY)
def test_groups_at_rest_move_as_they_do_when_every_update_does_the_whole_work(orders):
    """A world of groups comes to rest once their orders ended (``Navigator.at_rest``: the groups steer
    nothing then), and moves as if every update did the whole work, then and after new orders."""
    runs = []
    for navigator_class in (Navigator, Restless):
        navigator, units, groups, made = ordered(orders, navigator_class)
        trace, events, rested = [], [], False
        for target in (
            None,
            tuple(orders[1][0].tolist()),
        ):  # the first order, then every group to the first unit's start
            if target is not None:
                for group, _ in made:
                    group.move_to(target)
            ends = navigator.time + TIME_LIMIT
            while navigator.time < ends and not (
                groups.resting() and all(unit.state in FINAL_STATES for unit in units)
            ):
                navigator.update(STEADY_DELTA)
                trace.append([unit.position for unit in units])
                events += groups.events()
            for _ in range(30):  # past the updates in which the world is found at rest
                navigator.update(STEADY_DELTA)
                trace.append([unit.position for unit in units])
            rested = rested or navigator.at_rest
        runs.append((trace, events, [(unit.state, unit.cell) for unit in units], rested))
    (trace, events, ends, rested), (restless_trace, restless_events, restless_ends, restless_rested) = runs
    assert trace == restless_trace and events == restless_events and ends == restless_ends
    assert not restless_rested and (rested or orders is not LINE_ACROSS_A_ROOM)


#: What may happen to a group's members between two updates (issue 43): a unit taken off the map, a member let go,
#: a unit taken in (a member let go earlier, or a new one), the group ordered again, or given another formation.
CHANGES = ("remove_unit", "leave", "join", "order", "formation")
#: Updates in a row a unit may stand in FIND_PATH: plans are served in the update (no time budget), so a member
#: waiting for its commander's route has it within two; longer, it waits on nothing.
FIND_PATH_UPDATES = 3
#: Updates among which the changes come: the first DRAWN_UPDATES at the drawn deltas, then (at STEADY_DELTA) groups
#: marching, passing obstacles and at rest.
CHANGE_UPDATES = 400
#: Seconds after every order ended within which the world comes to rest: members pushed off their goals walk back.
AFTER_ORDERS = 60.0


@st.composite
def changing_groups(draw):
    """Group orders (:func:`group_orders`) and, at drawn updates of the run's first CHANGE_UPDATES, changes to
    the groups' members and orders: (update, change, which group, which unit or cell, a shape)."""
    orders = draw(group_orders())
    change = st.tuples(st.integers(0, CHANGE_UPDATES - 1), st.sampled_from(CHANGES), st.integers(0, 2),
                       st.integers(0, 400), st.sampled_from(SHAPES))  # fmt: skip
    return orders, sorted(draw(st.lists(change, min_size=1, max_size=8)), key=lambda change: change[0])


def apply_change(navigator, groups, made, change):
    """Make one drawn change (nothing when it does not apply: an empty group is not ordered)."""
    _, kind, which, pick, shape = change
    group = made[which % len(made)][0]
    grid = navigator.grid
    if kind == "remove_unit" and navigator.units:
        units = list(navigator.units.values())
        navigator.remove_unit(units[pick % len(units)])
    elif kind == "leave" and group.members:
        group.remove(group.members[pick % len(group.members)])
    elif kind == "join" and group.members:  # (a group that lost every member is gone, as a GroupManager's is)
        loose = [unit for unit in navigator.units.values() if groups.group_of(unit) is None]
        free = [(x, y) for y in range(grid.height) for x in range(grid.width)
                if grid.is_passable((x, y)) and navigator.holder((x, y)) is None
                and not navigator.occupancy.leavers((x, y))]  # fmt: skip
        if loose:
            group.add(loose[pick % len(loose)])
        elif free:
            x, y = free[pick % len(free)]
            group.add(navigator.add_unit((x + 0.5, y + 0.5), speed=4.0, radius=0.4))
    elif kind in ("order", "formation") and any(navigator.units.get(unit.id) is unit for unit in group.members):
        # (a member removed in this frame is still listed: the group drops it at the order)
        if kind == "order":
            group.move_to((pick % grid.width, (pick // grid.width) % grid.height))
        else:
            group.set_formation(shape, spacing=1.0 + pick % 2)


#: Found while writing the test: a line of five loses the member in slot 0 once formed, and is ordered again.
LINE_LOSES_ITS_FIRST_SLOT = (
    (np.ones((8, 12), dtype=bool), np.array([[0, 3], [2, 3], [4, 3], [6, 3], [8, 3]]), np.full(5, 4.0), np.full(5, 0.5),
     [(5, "line", 2.0, Cohesion.ROUTE, (10, 3))], False, np.array([0.1])),
    [(60, "remove_unit", 0, 0, None), (61, "order", 0, 13, None)],
)  # fmt: skip

#: Found by CI: in one frame a group is ordered, a member is removed, and the commander is let go: the new
#: commander must be a unit still there, and the members it plans for too.
COMMANDER_LEAVES_AFTER_A_MEMBER_WAS_REMOVED = (
    (np.ones((11, 10), dtype=bool), np.array([[x, 0] for x in range(7)]), np.full(7, 4.0), np.full(7, 0.5),
     [(1, None, 1.0, Cohesion.SPEED, (0, 0)), (4, None, 1.0, Cohesion.ROUTE, (1, 1)),
      (2, "line", 1.0, Cohesion.SPEED, (0, 0))],
     False, np.array([0.5, 0.5])),
    [(0, "leave", 2, 0, None), (0, "leave", 0, 0, None), (0, "leave", 0, 0, None), (0, "remove_unit", 0, 1, None),
     (0, "join", 0, 0, None), (254, "order", 1, 0, None), (254, "remove_unit", 0, 254, None),
     (254, "leave", 1, 0, None)],
)  # fmt: skip

#: Found by a property run (issue 42): three groups sent to one corner of a pocket of 4 x 2 cells, each given the free
#: cells nearest it on its own (three units had one goal, two another): units pushed off their goals walked back in
#: turn until 72.5 s, not within AFTER_ORDERS of the orders' end (6.3 s).
GROUPS_SENT_TO_ONE_POCKET = (
    (np.array([[1] * 9, [1] * 9, [0, 0, 0, 0, 1, 1, 1, 1, 1], [1] * 9], dtype=bool),
     np.array([[x, 0] for x in range(9)]),
     np.full(9, 4.0), np.full(9, 0.5),
     [(1, None, 1.0, Cohesion.SPEED, (0, 0)), (6, None, 1.0, Cohesion.SPEED, (0, 0)),
      (2, None, 1.0, Cohesion.SPEED, (0, 0))],
     False, np.array([0.0625])),
    [(0, "leave", 0, 0, None)],
)  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(changing_groups())
@example(LINE_LOSES_ITS_FIRST_SLOT)
@example(COMMANDER_LEAVES_AFTER_A_MEMBER_WAS_REMOVED)
@example(GROUPS_SENT_TO_ONE_POCKET)
def test_groups_that_lose_gain_and_are_ordered_again_at_any_moment_end_every_order_and_rest(changing):
    """Members removed, let go and taken in, groups ordered again and given other formations, at drawn moments
    (forming, formed, marching, passing obstacles, at rest), in the frame of an order too: no exception, no unit
    waits in FIND_PATH on nothing, every group's last order ends with group_arrived, and the world comes to rest."""
    orders, changes = changing
    passable, _, _, _, _, _, deltas = orders
    navigator, _, groups, made = ordered(orders)
    events = {group.id: [] for group, _ in made}
    finding = {}  # unit id -> updates in a row it stood in FIND_PATH
    pending = list(changes)
    while (
        pending
        or navigator.stats.updates < DRAWN_UPDATES
        or not (groups.resting() and all(unit.state in STANDING_STATES for unit in navigator.units.values()))
    ):
        assert navigator.time < TIME_LIMIT, (
            f"orders still open after {navigator.time:.0f} s: {[(g, g.members) for g, _ in made]}"
        )
        number = navigator.stats.updates
        while pending and pending[0][0] <= number:
            apply_change(navigator, groups, made, pending.pop(0))
        navigator.update(float(deltas[number % len(deltas)]) if number < DRAWN_UPDATES else STEADY_DELTA)
        for group_id, name, _ in groups.events():
            events[group_id].append(name)
        units = list(navigator.units.values())
        radii = np.array([unit.radius for unit in units])
        positions = np.array([unit.position for unit in units]).reshape(-1, 2)
        if units:
            assert not len(overlapping_pairs(positions, radii)), f"units overlap after update {number}"
            assert not len(units_in_walls(passable, positions, radii)), f"a unit entered a wall at update {number}"
        finding = {unit.id: finding.get(unit.id, 0) + 1 for unit in units if unit.state is UnitState.FIND_PATH}
        assert max(finding.values(), default=0) <= FIND_PATH_UPDATES, (
            f"units wait on nothing: {finding} at update {number}"
        )
    for group, _ in made:
        names = events[group.id]
        if "group_ordered" in names and group.members:
            assert "group_arrived" in names[len(names) - names[::-1].index("group_ordered") :], names
    settled = navigator.time + AFTER_ORDERS
    while not navigator.at_rest and navigator.time < settled:  # (members pushed off their goals walk back)
        navigator.update(STEADY_DELTA)
    # The world rests (groups sent to one place too: units moved off their goals walk back a bounded number of times),
    # but without units (the navigator then never finds itself at rest).
    assert navigator.at_rest or not navigator.units, [
        (unit, unit.off_goal, navigator.goes_on_later(unit)) for unit in navigator.units.values()
    ]
