"""Collision records (SPEC U5): kept across updates, one per waiting unit, ended by what settled them."""

import math

from pathing_py import Grid, Navigator
from pathing_py.units import CollisionState, Resolution, UnitState
from pathing_py.units.collisions import Collisions


def ended(navigator):
    return {
        (state.value, None if resolution is None else resolution.value): count
        for (state, resolution), count in navigator.collisions.ended.items()
        if count
    }


def test_a_unit_behind_a_slower_one_slows_with_one_collision_a_cell_resolved_as_it_arrives():
    """SPEC U7 case 4: the fast unit steps into each cell the slow one leaves and slows so as not to touch
    it; each cell's collision is open (resolving, by slowing) over several updates and resolved on arrival."""
    navigator = Navigator(Grid.from_ascii("........"))
    slow, fast = navigator.add_unit((2.5, 0.5), speed=0.5), navigator.add_unit((0.5, 0.5), speed=4.0)  # cell centres
    slow.move_to((7, 0))
    fast.move_to((6, 0))
    records, gaps = [], []
    while fast.state is not UnitState.ARRIVED:
        navigator.update(0.05)
        if fast.collision is not None and fast.collision.ended is None:
            assert fast.collision.state is CollisionState.RESOLVING and fast.state is UnitState.MOVING
            if fast.collision not in records:
                records.append(fast.collision)
        gaps.append(math.dist(fast.position, slow.position))
        assert navigator.time < 30
    assert len(records) >= 4 and all(
        record.unit is fast and record.others == {slow} and record.state is CollisionState.RESOLVED
        for record in records
    )
    assert all(record.resolution is Resolution.SLOW and record.ended > record.since for record in records)
    assert fast.collision is None and navigator.collisions.open() == []
    assert ended(navigator) == {("resolved", "slow"): len(records)}
    assert min(gaps) >= 1.0 - 1e-9 and sum(gap < 1.01 for gap in gaps) > len(gaps) / 2  # mostly right behind it


def test_a_unit_that_pushes_a_standing_one_aside_resolves_its_collision_by_the_push():
    navigator = Navigator(Grid.from_ascii("......\n......\n......"))
    mover, stander = navigator.add_unit((0, 1), speed=2.0), navigator.add_unit((3, 1), speed=2.0)
    mover.move_to((3, 1))
    states = set()
    for _ in range(100):
        navigator.update(0.05)
        if mover.collision is not None and mover.collision.ended is None:
            states.add((mover.collision.state, mover.collision.resolution))
    assert mover.state is UnitState.ARRIVED and mover.cell == (3, 1) and stander.state is UnitState.IDLE
    assert (CollisionState.RESOLVING, Resolution.PUSH) in states
    assert ended(navigator)[("resolved", "push")] == 1


def test_a_unit_that_gives_up_ends_its_collision_unresolved_and_keeps_it_as_its_last():
    navigator = Navigator(Grid.from_ascii("...."))
    mover, stander = navigator.add_unit((0, 0), speed=2.0), navigator.add_unit((2, 0), speed=2.0)
    mover.move_to((3, 0))  # the standing unit is pushed into the dead end, onto the goal: no way past it
    for _ in range(400):
        navigator.update(0.1)
    assert mover.state is UnitState.HELD_UP and stander.cell == (3, 0)
    last = mover.collision
    assert last is not None and last.others == {stander} and last.cell == (3, 0)
    assert last.state is CollisionState.UNRESOLVED and last.resolution is Resolution.GIVE_UP and last.ended is not None
    assert navigator.collisions.open() == [] and ended(navigator)[("unresolved", "give up")] == 1


def test_a_removed_unit_takes_its_collision_with_it():
    navigator = Navigator(Grid.from_ascii("...."))
    mover, _stander = navigator.add_unit((0, 0), speed=2.0), navigator.add_unit((2, 0), speed=2.0)
    mover.move_to((3, 0))
    while not navigator.collisions.open():
        navigator.update(0.1)
    navigator.remove_unit(mover)
    assert navigator.collisions.open() == [] and mover.collision is None
    assert ended(navigator) == {("unresolved", None): 1}


def test_meeting_the_same_units_again_after_giving_up_reopens_the_same_collision():
    navigator = Navigator(Grid.from_ascii("...."))
    unit, other, third = (navigator.add_unit((x, 0), speed=1.0) for x in range(3))
    collisions = Collisions()
    assert collisions.meet(unit, (1, 0), [other], 1.0)  # new: waiting starts
    first = unit.collision
    assert not collisions.meet(unit, (1, 0), {other}, 2.0) and unit.collision is first
    collisions.stopped(unit, 3.0)
    assert first.ended == 3.0 and first.state is CollisionState.UNRESOLVED and first.resolution is Resolution.GIVE_UP
    assert not collisions.meet(unit, (1, 0), [other], 4.0)  # it goes on: the same collision, open again
    assert unit.collision is first and first.ended is None and collisions.open() == [first] and not +collisions.ended
    collisions.resolving(unit, Resolution.DETOUR)
    assert first.state is CollisionState.RESOLVING
    assert collisions.meet(unit, (1, 0), [third], 5.0)  # another unit now: the old collision was resolved
    assert (
        first.state is CollisionState.RESOLVED and first.resolution is Resolution.DETOUR and unit.collision is not first
    )
