"""Members' paces for many groups at once (SPEC F2, F3): every member's lag behind its slot in one array pass.

A group marching in formation keeps each member level with its slot: a member behind its slot walks at its
own speed, one ahead of it slows down, and the commander slows down while one lags far. Every group asks
that at every update, of every member. Here the members of every group asked in one update are rows of one
table (their rows of the navigator's :class:`~pathing_py.units.agents.AgentArrays`, and where each marches
from its commander), the lags and paces are worked out for all of them in a few array operations, and
Python runs only for the members that may slow down (whether a member follows close behind them, a look at
the cells around them) and for the members whose pace changes.
"""

import functools
import math
from operator import attrgetter
from typing import Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..grid import Cell
from ..units.agents import AgentArrays
from ..units.occupancy import Occupancy
from ..units.unit import FINAL_STATES, STATE_CODES, Unit

__all__ = ["MIN_PACE", "SLOT_SLACK", "PaceAsk", "PaceTable", "SlotLayout", "centre_shift", "followed"]

#: The slowest a leading member walks, as a fraction of the group's speed (it keeps moving: stopping
#: between two cells would hold both).
MIN_PACE = 0.25
#: Cells a member marching in formation may fall behind its slot (or get ahead of it) before it walks at its
#: own speed to catch up (or slows down); the commander slows down while a member lags twice as far.
SLOT_SLACK = 1.0

_speed = attrgetter("speed")
#: Whether a state code (AgentArrays.state) is a final state's: a member that ended its order keeps no slot.
_FINAL_CODES = np.zeros(len(STATE_CODES), dtype=bool)
_FINAL_CODES[[STATE_CODES[state] for state in FINAL_STATES]] = True


class SlotLayout:
    """A group's members as rows, and where each marches from the commander (its offset, its centre's shift in
    the commander's block, the heading): the group makes it again when its members, commander, offsets or
    heading change, not at every update."""

    __slots__ = ("units", "slots", "leads", "leader", "kept", "offsets", "shifts", "headings", "norms", "key")

    def __init__(
        self,
        members: Sequence[Unit],
        commander: Optional[Unit],
        offsets: Mapping[int, Cell],
        heading: Tuple[float, float],
        block: int,
        key: object,
    ):
        count = len(members)
        self.key = key  #: what the group made it for (it compares it with what it has now)
        self.units = list(members)
        #: The members' rows in the navigator's arrays, and their commander's.
        self.slots = np.array([unit.slot for unit in members], dtype=np.intp)
        self.leads = np.full(count, -1 if commander is None else commander.slot, dtype=np.intp)
        self.leader = np.array([unit is commander for unit in members], dtype=bool)
        #: Members that keep a slot (the commander aside, and those that joined since the offsets were made).
        self.kept = np.array([unit is not commander and unit.id in offsets for unit in members], dtype=bool)
        #: Where each member marches from the commander: its offset (x, y), and how far its centre lies from
        #: the middle of its block there, down and right (a member narrower than the widest, :func:`centre_shift`).
        self.offsets = np.zeros((count, 2))
        self.shifts = np.zeros(count)
        for row, unit in enumerate(members):
            if self.kept[row]:
                self.offsets[row] = offsets[unit.id]
                self.shifts[row] = 0.0 if unit.size == block else centre_shift(block, unit.size)
        hx, hy = heading
        self.headings = np.tile(np.array([hx, hy], dtype=float), (count, 1))
        self.norms = np.full(count, math.hypot(hx, hy))


def centre_shift(block: int, size: int) -> float:
    """How far (cells, down and right) the centre of a member ``size`` cells wide placed in the middle of a block
    of side ``block`` (``group._within``) lies from the block's centre: where it marches beside the commander, the
    widest member."""
    return (block - size) // 2 + (size - block) / 2


class PaceAsk(NamedTuple):
    """What one group asks of :meth:`PaceTable.set_paces`."""

    layout: SlotLayout
    holds: bool  #: whether it holds its slots (else every member walks at the group's speed)
    #: Its members' state codes when it asked (AgentArrays.state): a member that had ended its order keeps no slot.
    states: np.ndarray

    @classmethod
    def now(cls, agents: AgentArrays, layout: SlotLayout, holds: bool) -> "PaceAsk":
        return cls(layout, holds, agents.state[layout.slots])


class PaceTable:
    """The rows of the groups whose paces one update sets, kept while the same groups ask with the same layouts."""

    def __init__(self) -> None:
        self._asked: List[Tuple[SlotLayout, bool]] = []  #: the groups laid out as rows, and which hold their slots
        self._units: List[Unit] = []
        self._ids: List[List[int]] = []  #: the member ids of each group laid out
        self._slots = self._leads = self._starts = self._group_of = np.zeros(0, dtype=np.intp)
        self._holding = self._leader = self._kept = np.zeros(0, dtype=bool)
        self._offsets = self._headings = np.zeros((0, 2))
        self._shifts = self._norms = np.zeros(0)

    def set_paces(
        self, agents: AgentArrays, occupancy: Occupancy, asks: Sequence[PaceAsk], every: bool = False
    ) -> None:
        """Set the paces of the members of the groups that ``asks``, each as it asked. A group that holds its slots
        walks at its slowest member's speed but for a member more than SLOT_SLACK cells behind its slot (at its own
        speed) or ahead of it (at MIN_PACE of the group's), and the commander, while a member lags twice as far (at
        MIN_PACE); a member that others of the group follow close behind is never slowed down. Any other group
        walks at its slowest member's speed. Only the members whose walking speed changes are told, or ``every``
        member (one that has just joined has no pace yet: it walks at its own speed, maybe the group's)."""
        if not asks:
            return
        asked = [(ask.layout, ask.holds) for ask in asks]
        if asked != self._asked:
            self._lay_out(asked)
        units, slots, starts, group_of = self._units, self._slots, self._starts, self._group_of
        own = np.fromiter(map(_speed, units), dtype=float, count=len(units))
        speed = np.minimum.reduceat(own, starts)[group_of]
        paces = speed.copy()
        if self._holding.any():
            states = np.concatenate([ask.states for ask in asks])
            self._hold_slots(agents.position, ~_FINAL_CODES[states], occupancy, own, speed, paces)
        changed = np.arange(len(units)) if every else np.flatnonzero(paces != agents.walk_speed[slots])
        for row, pace in zip(changed.tolist(), paces[changed].tolist()):
            units[row].pace = pace

    def _lay_out(self, asked: List[Tuple[SlotLayout, bool]]) -> None:
        layouts = [layout for layout, _ in asked]
        counts = np.array([len(layout.units) for layout in layouts], dtype=np.intp)
        self._asked = list(asked)
        self._units = [unit for layout in layouts for unit in layout.units]
        self._ids = [[unit.id for unit in layout.units] for layout in layouts]
        self._starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.intp)
        self._group_of = np.repeat(np.arange(len(layouts), dtype=np.intp), counts)
        self._holding = np.repeat(np.array([holds for _, holds in asked], dtype=bool), counts)
        for name in ("slots", "leads", "leader", "kept", "offsets", "shifts", "headings", "norms"):
            setattr(self, f"_{name}", np.concatenate([getattr(layout, name) for layout in layouts]))

    def _hold_slots(
        self,
        position: np.ndarray,
        under_way: np.ndarray,
        occupancy: Occupancy,
        own: np.ndarray,
        speed: np.ndarray,
        paces: np.ndarray,
    ) -> None:
        holding = self._holding
        at, lead, offsets, shifts = position[self._slots], position[self._leads], self._offsets, self._shifts
        # Its slot's centre less its own, along the heading (ahead of its slot: below 0), summed in the order of
        # one member's arithmetic (the same floats).
        lags = (
            (lead[:, 0] + offsets[:, 0] + shifts - at[:, 0]) * self._headings[:, 0]
            + (lead[:, 1] + offsets[:, 1] + shifts - at[:, 1]) * self._headings[:, 1]
        ) / self._norms
        keeping = holding & self._kept & under_way
        leading = holding & self._leader
        behind = np.where(keeping, lags, -math.inf)  # how far behind each member is; -inf: it keeps no slot
        behind[leading] = 0.0
        lagging = keeping & (lags > SLOT_SLACK)
        paces[lagging] = own[lagging]
        furthest = np.maximum.reduceat(behind, self._starts)[self._group_of]
        slowing = (keeping & (lags < -SLOT_SLACK)) | (leading & under_way & (furthest > 2 * SLOT_SLACK))
        rows = np.flatnonzero(slowing)
        if not len(rows):
            return
        behind_list, starts, units = behind.tolist(), self._starts.tolist(), self._units
        lags_of: Dict[int, Dict[int, float]] = {}  # group -> member id -> how far behind, for the groups asked
        for row, group in zip(rows.tolist(), self._group_of[rows].tolist()):
            lags_by_id = lags_of.get(group)
            if lags_by_id is None:
                ids = self._ids[group]
                lags_by_id = lags_of[group] = dict(zip(ids, behind_list[starts[group] : starts[group] + len(ids)]))
            if not followed(units[row], lags_by_id, occupancy):
                paces[row] = speed[row] * MIN_PACE


def followed(unit: Unit, behind: Mapping[int, float], occupancy: Occupancy) -> bool:
    """Whether a member of the group (one of ``behind``'s: how far behind each is, as cells it has left
    to walk or lags its slot) further behind than ``unit`` holds a cell next to it: slowing the unit
    down would hold it back too."""
    x, y, lag, holder = *unit.cell, behind[unit.id], occupancy.holder
    for i, j in _ring(unit.size):  # (a loop, not a set of the holders: members ahead of their slots ask every update)
        other = holder((x + i, y + j))
        if other is not None and other is not unit and behind.get(other.id, -math.inf) > lag:
            return True
    return False


@functools.lru_cache(maxsize=None)
def _ring(side: int) -> Tuple[Cell, ...]:
    """The cells around a block ``side`` cells wide, row by row, as offsets from its top-left cell (every
    :func:`followed` asks: made once a size)."""
    return tuple(
        (i, j) for j in range(-1, side + 1) for i in range(-1, side + 1) if not (0 <= i < side and 0 <= j < side)
    )
