"""Members' paces for every group at once (SPEC F2, F3): the array pass sets the paces one member at a time would."""

import math

import pytest

from pathing_py import Grid
from pathing_py.groups import Groups, GroupState
from pathing_py.groups.paces import MIN_PACE, SLOT_SLACK, PaceAsk, PaceTable, SlotLayout, centre_shift, followed
from pathing_py.units import Navigator, Unit
from pathing_py.units.unit import FINAL_STATES

FIELD = "\n".join(["." * 48] * 10 + ["." * 20 + "#" * 8 + "." * 20] + ["." * 48] * 13)


def reference_paces(group, navigator):
    """Member id -> pace, one member at a time, for a group holding its slots (the rule as :mod:`.paces` states it)."""
    members, commander, offsets, block = group.members, group.commander, group.offsets, group.size
    speed = min(unit.speed for unit in members)
    hx, hy = group.heading
    norm = math.hypot(hx, hy)
    cx, cy = commander.position
    lags = {commander.id: 0.0}
    paces = dict.fromkeys((unit.id for unit in members), speed)
    for unit in members:
        if unit is commander or unit.state in FINAL_STATES or unit.id not in offsets:
            continue
        dx, dy = offsets[unit.id]
        shift = 0.0 if unit.size == block else centre_shift(block, unit.size)
        x, y = unit.position
        lags[unit.id] = ((cx + dx + shift - x) * hx + (cy + dy + shift - y) * hy) / norm
    for unit in members:
        lag = lags.get(unit.id)
        if unit is commander or lag is None:
            continue
        if lag > SLOT_SLACK:
            paces[unit.id] = unit.speed
        elif lag < -SLOT_SLACK and not followed(unit, lags, navigator.occupancy):
            paces[unit.id] = speed * MIN_PACE
    if (
        commander.state not in FINAL_STATES
        and max(lags.values()) > 2 * SLOT_SLACK
        and not followed(commander, lags, navigator.occupancy)
    ):
        paces[commander.id] = speed * MIN_PACE
    return paces


def marching_squads(spacing):
    navigator = Navigator(Grid.from_ascii(FIELD))
    groups = Groups(navigator)
    squads = []
    for row, (target, wide) in enumerate((((40, 20), False), ((6, 20), True), ((24, 21), False))):
        units = [navigator.add_unit((3.5 + 14 * row + 2 * (i % 4), 1.5 + 2 * (i // 4)), speed=3.0 + i % 3)
                 for i in range(8)]  # fmt: skip
        if wide:
            units.append(navigator.add_unit((4.0 + 14 * row, 7.0), speed=2.5, radius=1.0))
        squad = groups.add_group(units, formation="box", spacing=spacing)
        squad.move_to(target)
        squads.append(squad)
    return navigator, groups, squads


@pytest.mark.parametrize("spacing", [1.0, 2.0])
def test_the_array_pass_sets_the_paces_each_member_would_for_every_group_at_once(spacing):
    navigator, groups, squads = marching_squads(spacing)
    table, checked = PaceTable(), 0
    for _ in range(240):
        navigator.update(0.1)
        formed = [squad for squad in squads if squad.state is GroupState.FORMED and squad.commander is not None]
        asks = [
            PaceAsk.now(navigator.agents, SlotLayout(squad.members, squad.commander, squad.offsets, squad.heading,
                                                     squad.size, key=None), holds=True)
            for squad in formed
        ]  # fmt: skip
        table.set_paces(navigator.agents, navigator.occupancy, asks)
        for squad in formed:
            expected = reference_paces(squad, navigator)
            assert {unit.id: unit.pace for unit in squad.members} == expected
            checked += any(pace != min(expected.values()) for pace in expected.values())
    assert checked  # some member walked at another pace than the group's


def test_only_the_members_whose_pace_changes_are_told(monkeypatch):
    navigator, groups, squads = marching_squads(2.0)
    for _ in range(60):
        navigator.update(0.1)
    told = []
    setter = Unit.pace.fset
    monkeypatch.setattr(Unit, "pace", Unit.pace.setter(lambda unit, pace: (told.append(unit), setter(unit, pace))))
    groups.steer(0.0)  # (the same positions and states as the update before: every pace stays)
    assert told == []
    squads[0].members[1].pace = 1.0  # set by hand: the next update sets it back
    told.clear()
    groups.steer(0.0)
    assert told == [squads[0].members[1]]
