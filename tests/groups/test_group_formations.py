"""Groups in formation (SPEC F3, F4): forming before marching, slots from the centre, arriving in shape,
turning rules per shape, and formations that do not fit."""

import math

import numpy as np
import pytest

from pathing_py import Grid
from pathing_py.groups import Formation, Groups, GroupState
from pathing_py.units import Navigator, UnitState
from tests.support.navigator import check_world

OPEN = "\n".join(["." * 40] * 24)


def squad_on(ascii_map, shape, spacing=2.0, units=9, speeds=(4.0, 5.0), top=2):
    grid = Grid.from_ascii(ascii_map)
    navigator = Navigator(grid)
    groups = Groups(navigator)
    members = [
        navigator.add_unit((2.5 + (i % 3) * 2, top + 0.5 + (i // 3) * 2), speed=speeds[i % len(speeds)])
        for i in range(units)
    ]
    return navigator, groups, groups.add_group(members, formation=shape, spacing=spacing)


def march(navigator, groups, squad, updates=900, on_event=None):
    """Update until the group arrives, checking every step; the events with the update they came in."""
    navigator.step_log = []
    events = []
    for number in range(updates):
        navigator.update(0.1)
        check_world(navigator)
        for event in groups.events():
            events.append((number, event[1]))
            if on_event:
                on_event(event[1])
        if events and events[-1][1] == "group_arrived":
            break
    return events


@pytest.mark.parametrize("shape", ["line", "column", "box", "wedge"])
def test_a_formation_forms_where_it_stands_then_marches_and_arrives_in_shape(shape):
    navigator, groups, squad = squad_on(OPEN, shape)
    squad.move_to((30, 16))
    seen = {}

    def at(event):
        if event == "formation_formed":  # every member on its slot, and no one has set off yet
            seen["slots"] = {unit.id: unit.cell for unit in squad.members}
            seen["plans"] = sum(unit.stats.plans for unit in squad.members)

    events = march(navigator, groups, squad, on_event=at)
    assert [name for _, name in events] == ["group_ordered", "formation_forming", "formation_formed", "group_arrived"]
    # The route is planned before forming (a line forms facing the way it sets off, a box the target), once.
    assert seen["slots"] == {unit.id: squad.slot_cell(unit) for unit in squad.members} and seen["plans"] == (
        shape != "box"
    )
    assert all(unit.state is UnitState.ARRIVED for unit in squad.members)
    assert (
        sum(unit.stats.plans for unit in squad.members) == 1
    )  # by the commander at the order (forming may hand the lead on)
    # In shape at the target: each member where its slot lies from the commander's, as where it formed.
    commander = squad.commander
    for unit in squad.members:
        formed = np.subtract(seen["slots"][unit.id], seen["slots"][commander.id])
        arrived = np.subtract(unit.cell, commander.cell)
        assert tuple(arrived) == squad.offsets[unit.id] and tuple(formed) == squad.offsets[unit.id], unit
    assert all(unit.priority == 0 and unit.squad is None and unit.pace == squad.speed for unit in squad.members)


def test_the_centre_slot_goes_to_the_commander_and_slots_fill_from_the_centre():
    navigator, groups, squad = squad_on(OPEN, "line", units=5)  # a line of 5 slots for 5 members
    squad.move_to((30, 4))
    navigator.update(0.1)  # the route first: the line forms facing the way it sets off
    formation = squad.formation
    centre = formation.nearest_first[0]
    assert squad.slots[squad.commander.id] == centre and sorted(squad.slots.values()) == list(range(5))


def test_a_formation_of_more_slots_than_members_keeps_to_the_middle_slots():
    offsets = [(x, 0) for x in range(-3, 4)]  # seven slots in a row, for five members
    navigator, groups, squad = squad_on(OPEN, offsets, spacing=2.0, units=5)
    squad.move_to((30, 4))
    navigator.update(0.1)
    assert sorted(squad.slots.values()) == [1, 2, 3, 4, 5]
    events = march(navigator, groups, squad)
    assert events[-1][1] == "group_arrived" and all(unit.state is UnitState.ARRIVED for unit in squad.members)


@pytest.mark.parametrize("shape, forms_again", [("line", True), ("wedge", True), ("box", False)])
def test_a_line_forms_again_when_it_turns_and_a_box_marches_on_as_it_faces(shape, forms_again):
    navigator, groups, squad = squad_on(OPEN, shape)
    squad.move_to((30, 4))  # east
    march(navigator, groups, squad)
    facing = squad.heading
    squad.move_to((30, 20))  # south: a quarter turn
    events = march(navigator, groups, squad)
    assert ("formation_forming" in [name for _, name in events]) == forms_again
    assert events[-1][1] == "group_arrived" and all(unit.state is UnitState.ARRIVED for unit in squad.members)
    if not forms_again:
        assert squad.heading == facing  # the box keeps its facing
    else:
        assert abs(math.atan2(squad.heading[1], squad.heading[0]) - math.pi / 2) < math.pi / 4


def test_a_small_turn_does_not_form_a_line_again():
    navigator, groups, squad = squad_on(OPEN, "line")
    squad.move_to((30, 6))
    march(navigator, groups, squad)
    squad.move_to((38, 9))  # less than 45 degrees off
    events = march(navigator, groups, squad)
    assert [name for _, name in events] == ["group_ordered", "group_arrived"]


#: Open ground above a wall from the west edge: from the north-west to behind the wall, a route runs east, south,
#: then west.
BEND = "\n".join("".join("#" if 12 <= y <= 19 and x < 26 else "." for x in range(40)) for y in range(34))


def angle(heading):
    return math.atan2(heading[1], heading[0])


def turned(a, b):
    return abs(math.remainder(angle(a) - angle(b), 2 * math.pi))


@pytest.mark.parametrize("shape, halts", [("line", True), ("column", True), ("box", False)])
def test_a_line_halts_and_forms_again_where_its_route_bends_and_a_box_marches_on(shape, halts):
    """F4 along one order: where the route turns more than 45 degrees away from the facing, a line halts, forms again
    facing the way on, and walks on along the same route (no new search); a box keeps its facing."""
    navigator, groups, squad = squad_on(BEND, shape, units=6)
    facings = []
    squad.move_to((6, 27))
    events = march(navigator, groups, squad, updates=2000, on_event=lambda name: facings.append((name, squad.heading)))
    assert events[-1][1] == "group_arrived" and all(unit.state is UnitState.ARRIVED for unit in squad.members)
    assert sum(unit.stats.plans for unit in squad.members) == 1
    formings = [heading for name, heading in facings if name == "formation_forming"]
    if halts:
        assert len(formings) >= 2 and all(turned(a, b) > math.pi / 4 for a, b in zip(formings, formings[1:])), formings
        assert formings[0] != squad.heading and turned(formings[0], (1, 0)) <= math.pi / 4  # first facing the first leg
        assert turned(squad.heading, (-1, 0)) <= math.pi / 4 + 1e-9  # facing the last leg, west or south-west
    else:
        assert len(formings) == 1 and {heading for _, heading in facings} == {formings[0]}
    commander = squad.commander
    assert all(tuple(np.subtract(unit.cell, commander.cell)) == squad.offsets[unit.id] for unit in squad.members)


def test_a_line_let_out_of_formation_on_its_way_to_halt_at_a_bend_walks_on_without_one():
    navigator, groups, squad = squad_on(BEND, "line", units=6)
    squad.move_to((6, 27))
    events = march(navigator, groups, squad, updates=2000)
    marching = [number for number, name in events if name == "formation_formed"][0]  # it sets off for the first bend
    navigator, groups, squad = squad_on(BEND, "line", units=6)
    squad.move_to((6, 27))
    march(navigator, groups, squad, updates=marching + 5)  # on its way to halt there
    squad.set_formation(None)
    events = march(navigator, groups, squad, updates=2000)
    assert [name for _, name in events] == ["formation_broken", "group_arrived"]
    assert all(unit.state is UnitState.ARRIVED for unit in squad.members) and squad.state is GroupState.BROKEN
    assert sum(unit.stats.plans for unit in squad.members) == 1


def test_a_slot_in_a_wall_at_the_target_sends_its_member_to_a_free_cell_beside_the_formation():
    rows = [list("." * 40) for _ in range(24)]
    for x, y in ((31, 12), (32, 12), (31, 13), (32, 13)):
        rows[y][x] = "#"
    navigator, groups, squad = squad_on("\n".join("".join(row) for row in rows), "box")
    squad.move_to((30, 12))
    events = march(navigator, groups, squad)
    cells = [unit.cell for unit in squad.members]
    assert events[-1][1] == "group_arrived" and all(unit.state is UnitState.ARRIVED for unit in squad.members)
    assert len(set(cells)) == len(cells) and all(navigator.grid.is_passable(cell) for cell in cells)


def test_bad_formations_are_refused_when_the_group_is_made():
    grid = Grid.from_ascii(OPEN)
    navigator = Navigator(grid)
    groups = Groups(navigator)
    units = [navigator.add_unit((0.5 + x, 0.5), speed=4.0) for x in range(3)]
    with pytest.raises(ValueError, match="unknown formation 'ring'"):
        groups.add_group(units, formation="ring")
    with pytest.raises(ValueError, match="spacing"):
        groups.add_group(units, formation="line", spacing=0.5)
    with pytest.raises(ValueError):
        groups.add_group(units, formation=[(0, 0), (0.2, 0)])  # slots closer than a cell
    assert not groups.groups and groups.group_of(units[0]) is None  # nothing half made
    squad = groups.add_group(units, formation=Formation.column(3))
    assert squad.state is GroupState.BROKEN


def test_an_unreachable_target_stops_the_formation_near_it():
    rows = [("." * 30 + "#" + "." * 9) for _ in range(24)]
    navigator, groups, squad = squad_on("\n".join(rows), "box")
    squad.move_to((35, 12))
    events = march(navigator, groups, squad)
    assert events[-1][1] == "group_arrived"
    assert all(unit.state in (UnitState.UNREACHABLE, UnitState.HELD_UP) and unit.cell[0] < 30 for unit in squad.members)


def test_formations_are_deterministic():
    def run():
        navigator, groups, squad = squad_on(OPEN, "wedge")
        squad.move_to((30, 16))
        events = march(navigator, groups, squad)
        return events, [unit.cell for unit in squad.members]

    assert run() == run()


def obstacle_map(kind):
    """Open ground with, across the way from the west to (34, 11): a wall with a gap three cells wide,
    a wall with a door one cell wide, or a lake in the middle."""
    rows = [list("." * 40) for _ in range(24)]
    for y in range(24):
        for x in range(40):
            wall = (kind == "gap" and x == 20 and not 10 <= y <= 12) or (kind == "door" and x == 20 and y != 11)
            if wall or (kind == "lake" and 18 <= x <= 21 and 9 <= y <= 13):
                rows[y][x] = "#"
    return "\n".join("".join(row) for row in rows)


@pytest.mark.parametrize(
    "kind, choice", [("gap", "formation_scaled"), ("door", "formation_broken"), ("lake", "formation_halved")]
)
def test_a_formation_passes_what_it_does_not_fit_and_arrives_in_shape(kind, choice):
    """F5: a box scales down through a gap, breaks to file through a door and forms again, parts around a lake."""
    navigator, groups, squad = squad_on(obstacle_map(kind), "box", top=8)  # in formation already, level with the target
    squad.move_to((34, 11))
    events = march(navigator, groups, squad)
    names = [name for _, name in events]
    assert choice in names and names[-1] == "group_arrived", names
    if choice in ("formation_broken", "formation_halved"):  # whole again behind it, or at the target
        assert "formation_formed" in names[names.index(choice) + 1 :], names
    assert all(unit.state is UnitState.ARRIVED for unit in squad.members)
    commander = squad.commander
    assert all(tuple(np.subtract(unit.cell, commander.cell)) == squad.offsets[unit.id] for unit in squad.members)
    assert sum(unit.stats.plans for unit in squad.members) == 1


def test_a_line_formed_on_its_route_passes_a_gap_in_a_thin_wall_as_its_own_shape_fits_and_says_so():
    """F5 without a graph: the route was planned before the line formed (facing the way it sets off), its
    narrow points found for the members' places then. The line of twelve, thirteen cells wide, does not fit
    the gap of four in a wall one cell thick: it passes it halved or broken, says so, and arrives in shape."""
    rows = ["".join("#" if x == 20 and not 13 <= y <= 16 else "." for x in range(40)) for y in range(30)]
    navigator, groups, squad = squad_on("\n".join(rows), "line", spacing=1.2, units=12, top=10)
    squad.move_to((32, 15))
    events = march(navigator, groups, squad)
    names = [name for _, name in events]
    assert names[:3] == ["group_ordered", "formation_forming", "formation_formed"] and names[-1] == "group_arrived", (
        names
    )
    assert {"formation_scaled", "formation_halved", "formation_broken"} & set(names[3:]), names
    assert all(unit.state is UnitState.ARRIVED for unit in squad.members)
    commander = squad.commander
    assert all(tuple(np.subtract(unit.cell, commander.cell)) == squad.offsets[unit.id] for unit in squad.members)


def test_a_group_takes_another_formation_where_it_stands():
    navigator, groups, squad = squad_on(OPEN, None)
    squad.set_formation("line", spacing=2)
    events = march(navigator, groups, squad, updates=100)
    assert [name for _, name in events] == ["formation_forming", "formation_formed"]  # no order: it stays formed
    assert squad.state is GroupState.FORMED and all(unit.cell == squad.slot_cell(unit) for unit in squad.members)
    squad.set_formation(None)
    assert squad.state is GroupState.BROKEN and groups.events() == [(squad.id, "formation_broken", "no formation")]
    with pytest.raises(ValueError, match="unknown formation"):
        squad.set_formation("ring")
    assert squad.shape is None and squad.state is GroupState.BROKEN  # a refused shape changes nothing


def test_a_group_under_way_forms_anew_and_goes_on_with_its_order():
    navigator, groups, squad = squad_on(OPEN, "box")
    squad.move_to((34, 18))
    for _ in range(30):
        navigator.update(0.1)
    squad.set_formation("wedge")
    events = march(navigator, groups, squad)
    names = [name for _, name in events]
    assert (
        names[names.index("formation_forming") :][:2] == ["formation_forming", "formation_formed"]
        and names[-1] == "group_arrived"
    ), names
    assert squad.formation.name == "wedge" and all(unit.state is UnitState.ARRIVED for unit in squad.members)
    assert all(unit.cell == squad.goals[unit.id] for unit in squad.members)  # its cells of the wedge at the target


def line_of_five(shape):
    """Five units in a row at spacing 2 on an open 40x20 map, in ``shape``."""
    navigator = Navigator(Grid.from_ascii("\n".join(["." * 40] * 20)))
    groups = Groups(navigator)
    members = [navigator.add_unit((2.5 + 2 * i, 10.5), speed=4.0) for i in range(5)]
    return navigator, groups, groups.add_group(members, formation=shape, spacing=2)


@pytest.mark.parametrize("how", ["remove_unit", "group.remove"])
@pytest.mark.parametrize("shape", ["line", "column", "wedge", "box"])
def test_a_formed_group_that_lost_a_member_forms_again_at_its_next_order_and_arrives(shape, how):
    """Issue 43: a formation of four that lost its member in slot 0 took the slot numbers of five to its next
    order (IndexError in _march_goals), and the order stayed open for good."""
    navigator, groups, squad = line_of_five(shape)
    squad.move_to((30, 10))
    march(navigator, groups, squad)
    lost = next(unit for unit in squad.members if squad.slots.get(unit.id) == 0)
    navigator.remove_unit(lost) if how == "remove_unit" else squad.remove(lost)
    navigator.update(0.1)
    squad.move_to((5, 5))
    events = march(navigator, groups, squad)
    assert [name for _, name in events][-3:] == ["formation_forming", "formation_formed", "group_arrived"]
    assert len(squad.formation) == 4 and sorted(squad.slots.values()) == [0, 1, 2, 3]
    assert all(unit.state is UnitState.ARRIVED and unit.cell == squad.goals[unit.id] for unit in squad.members)
    for _ in range(20):
        navigator.update(0.1)
    assert squad.resting and navigator.at_rest


def until(navigator, groups, squad, event):
    """Update until the group announces ``event`` (the events so far are dropped)."""
    for _ in range(600):
        navigator.update(0.1)
        if event in [name for _, name, _ in groups.events()]:
            return
    raise AssertionError(f"no {event}")


@pytest.mark.parametrize("moment", ["formation_forming", "formation_formed"])
@pytest.mark.parametrize("how", ["remove_unit", "group.remove", "add"])
def test_a_formation_that_loses_or_gains_a_member_on_its_way_closes_up_and_goes_on(moment, how):
    """Issue 43: a member lost or taken in while the group forms or marches: the group forms again where it
    stands with a slot for each member now (no gap, no member without one), then goes on with its order."""
    navigator, groups, squad = line_of_five("line")
    squad.move_to((30, 10))
    until(navigator, groups, squad, moment)
    if moment == "formation_formed":
        for _ in range(10):  # marching
            navigator.update(0.1)
    if how == "add":
        squad.add(navigator.add_unit((20.5, 18.5), speed=4.0))
    else:
        leaver = next(unit for unit in squad.members if unit is not squad.commander)
        navigator.remove_unit(leaver) if how == "remove_unit" else squad.remove(leaver)
    events = march(navigator, groups, squad)
    names = [name for _, name in events]
    ends = (
        ["formation_formed", "group_arrived"]
        if moment == "formation_forming"
        else ["formation_forming", "formation_formed", "group_arrived"]
    )
    assert names[-len(ends) :] == ends and names.count("formation_formed") == 1, names  # (forming, it goes on forming)
    count = 6 if how == "add" else 4
    assert len(squad.members) == len(squad.formation) == count and sorted(squad.slots.values()) == list(range(count))
    assert all(unit.state is UnitState.ARRIVED and unit.cell == squad.goals[unit.id] for unit in squad.members)
    commander = squad.commander
    assert all(
        tuple(np.subtract(unit.cell, commander.cell)) == squad.offsets[unit.id] for unit in squad.members
    )  # in shape


def test_members_without_a_slot_stand_while_the_group_forms_rather_than_wait_for_a_route():
    """Issue 43: members a formation has no slot for sat in FIND_PATH, waiting for a route no one planned, as long
    as the group formed."""
    navigator = Navigator(Grid.from_ascii(OPEN))
    groups = Groups(navigator)
    members = [navigator.add_unit((2.5 + 2 * i, 10.5), speed=4.0) for i in range(5)]
    squad = groups.add_group(members, formation=[(-1, 0), (0, 0), (1, 0)], spacing=2)  # three slots for five
    squad.move_to((30, 12))
    navigator.update(0.1)  # the route planned, the group forms facing the way it sets off
    assert squad.state is GroupState.FORMING
    unslotted = [unit for unit in members if unit.id not in squad.slots]
    assert len(unslotted) == 2 and all(unit.state is not UnitState.FIND_PATH for unit in unslotted)
    events = march(navigator, groups, squad)
    assert events[-1][1] == "group_arrived" and all(unit.state is UnitState.ARRIVED for unit in members)
