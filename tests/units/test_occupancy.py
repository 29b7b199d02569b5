"""Which unit holds which cell (pathing_py.units.occupancy): the holders, their buckets and the units' own cells
agree after every update, and the steps units take at once on reaching a cell centre (``Navigator._plain_step``)
are those the general way (``_take_next_cell``) takes."""

import numpy as np
from hypothesis import HealthCheck, given, settings

from pathing_py.units import Navigator
from pathing_py.units.occupancy import block_cells
from tests.support.navigator_properties import crowds, run


def assert_holders_agree(navigator: Navigator) -> None:
    """The holder of each cell, the buckets and each unit's ``held`` say the same; a standing unit holds its block and
    no more, a stepping one its block ahead; each unit still stepping out of a cell is between two cells."""
    occupancy, grid = navigator.occupancy, navigator.grid
    holders = dict(occupancy.items())
    assert len(occupancy) == len(holders)
    assert dict(occupancy.held_in(0, 0, grid.width, grid.height)) == holders  # (what window queries read)
    assert {cell: unit for unit in navigator.units.values() for cell in unit.held} == holders
    for unit in navigator.units.values():
        if unit.next_cell is None:
            assert unit.held == set(block_cells(unit.cell, unit.size)), unit
        else:
            assert unit.held >= set(block_cells(unit.next_cell, unit.size)), unit
    for x in range(grid.width):
        for y in range(grid.height):
            for leaver in occupancy.leavers((x, y)):
                assert leaver.next_cell is not None and leaver.cell == (x, y), leaver
                assert navigator.units.get(leaver.id) is leaver


class CheckedNavigator(Navigator):
    array_pass_units = 1  # (every crowd in array passes)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.step_log = []

    def update(self, delta: float) -> None:
        super().update(delta)
        assert_holders_agree(self)


class GeneralNavigator(CheckedNavigator):
    def _plain_step(self, unit):
        return None  # (every step found by the general way)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
def test_holders_buckets_and_units_agree_after_every_update(crowd):
    run(crowd, CheckedNavigator)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
def test_units_take_the_steps_the_general_way_takes_at_once(crowd):
    plain, plain_units, plain_trace, _ = run(crowd, CheckedNavigator)
    general, general_units, general_trace, _ = run(crowd, GeneralNavigator)
    assert plain.step_log == general.step_log
    assert len(plain_trace) == len(general_trace)
    assert all(np.array_equal(a, b) for a, b in zip(plain_trace, general_trace))  # (the same arithmetic: no tolerance)
    assert [(unit.state, unit.cell) for unit in plain_units] == [(unit.state, unit.cell) for unit in general_units]
    assert [unit.stats.distance for unit in plain_units] == [unit.stats.distance for unit in general_units]
