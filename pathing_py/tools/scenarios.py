"""Crowd scenarios as plain data: a map, where each unit starts, where it is ordered, its size, speed and priority.

The same scenarios drive the crowd benchmark (``bench/bench_crowd.py``), the
tests and the demo, so each is made by one function with its sizes as
parameters (the cases of issue 12)::

    >>> from pathing_py.tools.scenarios import gate
    >>> scenario = gate(units=9)
    >>> scenario.count, scenario.grid.width, scenario.grid.height
    (9, 15, 7)
    >>> scenario.starts[0].tolist(), scenario.goals[0].tolist()
    ([2.5, 2.5], [9, 2])

Positions are floats in cell units (cell (x, y) covers [x, x+1) x [y, y+1));
goals are cells, which a unit reaches at the cell's centre. A unit is either
ordered to its goal or *idle*: never given an order, standing where it
belongs; an idle unit's goal row holds that cell (its start cell), so that a
run can check it is back there at the end. Every unit starts and every
ordered unit's goal lies clear of walls and of the other units for its
radius; every ordered goal is reachable (through cells where the unit fits).
Scenarios of one-cell ways take radii up to 0.5 cell; the open ones any size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from ..clearance import size_class
from ..crowd_checks import overlapping_pairs, units_in_walls
from ..grid import Grid
from .movingai import BENCHMARKS_VARIABLE, find_benchmarks

__all__ = [
    "DEFAULT_SPEED",
    "SCENARIOS",
    "CrowdScenario",
    "armies",
    "circle_swap",
    "crossing_blocks",
    "crossroads",
    "fitting_cells",
    "gate",
    "head_on_corridor",
    "mixed_radii",
    "movingai_orders",
    "occupied_spot",
    "packed_canyon",
    "random_orders",
    "two_cell_corridor",
]

#: Cells per second, unless a scenario says otherwise (``bench/bench_units.py`` walks units at this speed too).
DEFAULT_SPEED = 4.0
#: The largest radius of units that move in one-cell corridors and gates (cells).
NARROW_RADIUS = 0.5


@dataclass(frozen=True, eq=False)
class CrowdScenario:
    """One crowd scenario. Arrays are read-only copies, one row per unit.

    Attributes
    ----------
    name, description : str
        A short name, and one line saying what happens.
    grid : Grid
        The map; made anew by each call of a scenario function.
    starts : (n, 2) float array
        Start positions (x, y), cell units.
    goals : (n, 2) int array
        Goal cells of ordered units; an idle unit's own cell.
    radii, speeds : (n,) float arrays
        Cells, and cells per second.
    priorities : (n,) int array
        Higher moves first and makes lower ones give way (SPEC U3, U7).
    idle : (n,) bool array
        Units never ordered (see the module docstring).
    """

    name: str
    description: str
    grid: Grid
    starts: np.ndarray
    goals: np.ndarray
    radii: np.ndarray
    speeds: np.ndarray
    priorities: np.ndarray
    idle: np.ndarray

    def __post_init__(self) -> None:
        shape = np.shape(self.starts)
        if len(shape) != 2 or shape[0] == 0:
            raise ValueError(f"scenario {self.name!r}: starts must be an (n, 2) array with n >= 1, got shape {shape}")
        count = shape[0]
        fields = (
            ("starts", np.float64, (count, 2)),
            ("goals", np.int64, (count, 2)),
            ("radii", np.float64, (count,)),
            ("speeds", np.float64, (count,)),
            ("priorities", np.int64, (count,)),
            ("idle", np.bool_, (count,)),
        )
        for field, dtype, expected in fields:
            object.__setattr__(
                self, field, _frozen(f"scenario {self.name!r}: {field}", getattr(self, field), dtype, expected)
            )
        self._check_units()

    @property
    def count(self) -> int:
        return len(self.starts)

    @property
    def ordered(self) -> np.ndarray:
        """Which units are given an order: the ones not idle."""
        return ~self.idle

    @property
    def start_cells(self) -> np.ndarray:
        """The cell each unit starts in, (n, 2) ints."""
        return np.floor(self.starts).astype(np.int64)

    @property
    def goal_positions(self) -> np.ndarray:
        """The centre of each goal cell, (n, 2) floats: where a unit stands once there."""
        return self.goals + 0.5

    def _check_units(self) -> None:
        """Numbers in range, and every start, and every ordered goal, clear of walls and of one another."""
        if not np.isfinite(self.starts).all():
            raise ValueError(f"scenario {self.name!r}: a start position is not finite")
        for field in ("radii", "speeds"):
            values = getattr(self, field)
            if not (np.isfinite(values).all() and (values > 0).all()):
                raise ValueError(f"scenario {self.name!r}: {field} must be positive numbers")
        passable = self.grid.passable
        if (self.idle & (self.goals != self.start_cells).any(axis=1)).any():
            raise ValueError(f"scenario {self.name!r}: an idle unit's goal must be the cell it starts in")
        ordered = self.ordered
        checks = (
            ("start", np.arange(self.count), self.starts),
            ("goal", np.flatnonzero(ordered), self.goal_positions[ordered]),
        )
        for what, units, positions in checks:
            walled = units_in_walls(passable, positions, self.radii[units])
            if len(walled):
                unit = int(units[walled[0]])
                raise ValueError(
                    f"scenario {self.name!r}: unit {unit}'s {what} {tuple(positions[walled[0]].tolist())}"
                    " reaches into a wall or off the map"
                )
            pairs = overlapping_pairs(positions, self.radii[units])
            if len(pairs):
                first, second = (int(units[i]) for i in pairs[0])
                raise ValueError(f"scenario {self.name!r}: units {first} and {second} overlap at their {what}s")


# -- one-cell ways (radius <= 0.5) ---------------------------------------------------------------


def head_on_corridor(
    units: int = 10, *, length: Optional[int] = None, pocket: int = 1, radius: float = 0.5, speed: float = DEFAULT_SPEED
) -> CrowdScenario:
    """Two files of ``units / 2`` meet head-on in a corridor one cell wide, with a side pocket of ``pocket``
    cells at its middle; each file is ordered to the other's end, keeping its order.

    With a one-cell pocket the files pass one unit at a time through it, which needs room for all but one
    unit on either side of the pocket: the default length, ``2 * units + 1``, leaves it. In a shorter
    corridor the units nearest its ends may never reach the pocket, and no moves get the files through."""
    per_side = _count("units", units, 2, even=True) // 2
    length = 4 * per_side + 1 if length is None else _count("length", length, 2 * per_side + 1)
    pocket = _count("pocket", pocket, 1, most=length)
    radius, speed = _narrow_radius(radius), _positive("speed", speed)
    passable = np.zeros((4, length + 2), dtype=bool)  # walls around; row 1 holds the pocket, row 2 the corridor
    passable[2, 1 : length + 1] = True
    first_pocket = 1 + (length - pocket) // 2
    passable[1, first_pocket : first_pocket + pocket] = True
    left = np.stack([np.arange(1, per_side + 1), np.full(per_side, 2)], axis=1)
    shift = np.array([length - per_side, 0])
    starts, goals = np.concatenate([left, left + shift]), np.concatenate([left + shift, left])
    description = (
        f"{per_side} a side head-on in a {length}-cell corridor one cell wide, with a {pocket}-cell side pocket"
    )
    return _scenario("head_on_corridor", description, passable, starts, goals, radius, speed)


def two_cell_corridor(
    units: int = 40, *, length: Optional[int] = None, radius: float = 0.5, speed: float = 1.0
) -> CrowdScenario:
    """``units / 2`` against ``units / 2`` in a corridor two cells wide, each side packed two abreast at its end
    and ordered to the other end. 1 cell per second by default: RVO2 deadlocks there (issue 12)."""
    per_side = _count("units", units, 2, even=True) // 2
    columns = math.ceil(per_side / 2)
    length = 2 * columns + 6 if length is None else _count("length", length, 2 * columns + 1)
    radius, speed = _narrow_radius(radius), _positive("speed", speed)
    passable = np.zeros((4, length + 2), dtype=bool)
    passable[1:3, 1 : length + 1] = True
    left = _block(columns, 2, per_side, 1, (1, 1), by_columns=True)
    shift = np.array([length - columns, 0])
    right = np.array([length + 1, 0]) + np.array([-1, 1]) * left  # the left side mirrored
    starts, goals = np.concatenate([left, right]), np.concatenate([left + shift, right - shift])
    description = f"{per_side} against {per_side} in a {length}-cell corridor two cells wide"
    return _scenario("two_cell_corridor", description, passable, starts, goals, radius, speed)


def crossroads(
    units: int = 40, *, width: int = 3, arm: Optional[int] = None, radius: float = 0.5, speed: float = DEFAULT_SPEED
) -> CrowdScenario:
    """Two streams of ``units / 2`` cross where two roads ``width`` cells wide meet: one west to east, one
    north to south, each packed at the end of its road's arm and ordered to the far end."""
    per_stream = _count("units", units, 2, even=True) // 2
    width = _count("width", width, 1)
    rows = math.ceil(per_stream / width)
    arm = rows + 6 if arm is None else _count("arm", arm, rows)
    radius, speed = _narrow_radius(radius), _positive("speed", speed)
    side = 2 * arm + width
    passable = np.zeros((side, side), dtype=bool)
    passable[arm : arm + width, :] = True
    passable[:, arm : arm + width] = True
    west = _block(rows, width, per_stream, 1, (0, arm), by_columns=True)
    north = west[:, ::-1]  # the same block turned onto the other road
    shift = side - rows
    starts = np.concatenate([west, north])
    goals = np.concatenate([west + [shift, 0], north + [0, shift]])
    description = f"two streams of {per_stream} cross where roads {width} cells wide meet, arms of {arm} cells"
    return _scenario("crossroads", description, passable, starts, goals, radius, speed)


def gate(units: int = 100, *, radius: float = 0.5, speed: float = DEFAULT_SPEED) -> CrowdScenario:
    """A packed block of ``units`` crosses from one room to the next through a gate one cell wide, to the
    same block in the other room."""
    units = _count("units", units, 1)
    radius, speed = _narrow_radius(radius), _positive("speed", speed)
    columns = math.ceil(math.sqrt(units))
    rows = math.ceil(units / columns)
    room = columns + 4  # room width, walls included on the outer side
    passable = np.zeros((rows + 4, 2 * room + 1), dtype=bool)
    passable[1:-1, 1:room] = True
    passable[1:-1, room + 1 : -1] = True
    passable[(rows + 4) // 2, room] = True  # the gate in the wall between the rooms
    starts = _block(columns, rows, units, 1, (2, 2))
    goals = starts + [room, 0]
    description = f"a block of {units} ({columns}x{rows}) from one room to the next through a gate one cell wide"
    return _scenario("gate", description, passable, starts, goals, radius, speed)


def armies(
    units: int = 60,
    *,
    gates: int = 3,
    gate_width: int = 3,
    columns: int = 6,
    radius: float = 0.5,
    speed: float = DEFAULT_SPEED,
) -> CrowdScenario:
    """Two armies of ``units / 2``, each packed ``columns`` deep on its side of a wall across the field, cross
    to each other's places through ``gates`` gates ``gate_width`` cells wide, spread evenly along the wall
    (the crowd of ``pathing-py demo --scenario armies``)."""
    per_side = _count("units", units, 2, even=True) // 2
    gates, gate_width, columns = (
        _count("gates", gates, 1),
        _count("gate_width", gate_width, 1),
        _count("columns", columns, 1),
    )
    radius, speed = _narrow_radius(radius), _positive("speed", speed)
    rows = math.ceil(per_side / columns)
    height = max(2 * gates * gate_width + 1, rows + 4)
    width = 2 * (columns + 10) + 1
    passable = np.ones((height, width), dtype=bool)
    wall = width // 2
    passable[:, wall] = False
    for number in range(gates):  # centred in equal stretches of the wall
        first = (2 * number + 1) * height // (2 * gates) - gate_width // 2
        passable[max(first, 0) : first + gate_width, wall] = True
    west = _block(columns, rows, per_side, 1, (2, (height - rows) // 2))
    east = np.array([width - 1, 0]) + np.array([-1, 1]) * west  # the west army mirrored
    starts, goals = np.concatenate([west, east]), np.concatenate([east, west])
    description = (
        f"two armies of {per_side} cross a wall through {gates} gates {gate_width} cells wide,"
        " each to the other's places"
    )
    return _scenario("armies", description, passable, starts, goals, radius, speed)


def packed_canyon(idle: int = 10, *, radius: float = 0.5, speed: float = DEFAULT_SPEED) -> CrowdScenario:
    """A unit drives through a canyon one cell wide that ``idle`` idle units fill end to end, into a room
    where they can step aside; they are to be back in the canyon afterwards (SPEC U9). The driver has
    priority 1, the idle units 0."""
    idle = _count("idle", idle, 1)
    radius, speed = _narrow_radius(radius), _positive("speed", speed)
    entrance, room = 4, 6  # first canyon column; width of the room beyond it
    passable = np.zeros((7, entrance + idle + room + 1), dtype=bool)
    passable[1:6, 1:entrance] = True
    passable[3, entrance : entrance + idle] = True
    passable[1:6, entrance + idle : -1] = True
    canyon = np.stack([np.arange(entrance, entrance + idle), np.full(idle, 3)], axis=1)
    driver_start, driver_goal = np.array([[1, 3]]), np.array([[entrance + idle + room - 1, 3]])
    starts, goals = np.concatenate([driver_start, canyon]), np.concatenate([driver_goal, canyon])
    standing = np.arange(idle + 1) > 0
    description = f"one unit drives through a canyon one cell wide packed with {idle} idle units"
    return _scenario(
        "packed_canyon",
        description,
        passable,
        starts,
        goals,
        radius,
        speed,
        idle=standing,
        priorities=(~standing).astype(int),
    )


def occupied_spot(*, distance: int = 4, radius: float = 0.5, speed: float = DEFAULT_SPEED) -> CrowdScenario:
    """A unit is ordered into the cell where an idle unit stands, ``distance`` cells away in a small room; the
    idle one has to make way. The mover has priority 1, the idle unit 0."""
    distance = _count("distance", distance, 1)
    radius, speed = _narrow_radius(radius), _positive("speed", speed)
    passable = np.zeros((7, 2 * distance + 5), dtype=bool)
    passable[1:-1, 1:-1] = True
    spot = np.array([distance + 2, 3])
    starts = np.array([spot - [distance, 0], spot])
    goals = np.array([spot, spot])
    description = f"a unit ordered into the cell of an idle unit {distance} cells away"
    return _scenario(
        "occupied_spot",
        description,
        passable,
        starts,
        goals,
        radius,
        speed,
        idle=np.array([False, True]),
        priorities=np.array([1, 0]),
    )


# -- open ground (any radius) --------------------------------------------------------------------


def circle_swap(
    units: int = 1000, *, radius: float = 0.5, speed: float = DEFAULT_SPEED, spacing: Optional[float] = None
) -> CrowdScenario:
    """``units`` on a circle in the open, ``spacing`` cells apart along it, each ordered to the opposite point.

    Starts are cell centres, so the goals are too. The default spacing keeps
    neighbours in different cells (more than a cell's diagonal apart) and
    clear of each other after rounding to cell centres.
    """
    units = _count("units", units, 2)
    radius, speed = _positive("radius", radius), _positive("speed", speed)
    spacing = (1.5 if 2 * radius <= 1 else 2 * radius + 1.5) if spacing is None else _positive("spacing", spacing)
    circle = max(units * spacing / (2 * math.pi), spacing)
    margin = math.ceil(circle + radius) + 2
    centre = margin + 0.5  # a cell centre, so that the opposite of a cell centre is one
    angles = 2 * math.pi * np.arange(units) / units
    points = centre + circle * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    starts = np.floor(points).astype(np.int64)
    goals = 2 * margin - starts  # the cell opposite, through the centre cell
    side = 2 * margin + 1
    description = f"{units} units swap across a circle of radius {circle:.0f} cells in the open"
    return _scenario("circle_swap", description, np.ones((side, side), dtype=bool), starts, goals, radius, speed)


def crossing_blocks(
    units: int = 1000, *, radius: float = 0.5, speed: float = DEFAULT_SPEED, spacing: Optional[int] = None
) -> CrowdScenario:
    """Two blocks of ``units / 2`` cross at right angles in the open: one heads east, one south, both reach the
    crossing at once and stop as the same blocks beyond it. Neighbours stand ``spacing`` cells apart: by
    default twice as far as their radius needs (a unit's width between them), 1 packs radius 0.5 units."""
    per_block = _count("units", units, 2, even=True) // 2
    radius, speed = _positive("radius", radius), _positive("speed", speed)
    step = 2 * _lattice_step(radius) if spacing is None else _count("spacing", spacing, _lattice_step(radius))
    columns = math.ceil(math.sqrt(per_block))
    rows = math.ceil(per_block / columns)
    extent = step * max(columns, rows)
    travel = 2 * extent + 2  # blocks never overlap one another's starts or goals
    margin = math.ceil(radius) + 1
    east = _block(columns, rows, per_block, step, (margin, margin + travel // 2))
    south = _block(columns, rows, per_block, step, (margin + travel // 2, margin))
    starts = np.concatenate([east, south])
    goals = np.concatenate([east + [travel, 0], south + [0, travel]])
    side = 2 * margin + travel + extent
    description = (
        f"two blocks of {per_block} ({columns}x{rows}, {step} cells apart) cross at right angles in the open,"
        f" {travel} cells each"
    )
    return _scenario("crossing_blocks", description, np.ones((side, side), dtype=bool), starts, goals, radius, speed)


def mixed_radii(
    units: int = 60, *, radii: Sequence[float] = (0.3, 0.5, 1.0), speed: float = DEFAULT_SPEED
) -> CrowdScenario:
    """Two groups of ``units / 2`` with radii taken in turn from ``radii`` swap places head-on in the open."""
    per_side = _count("units", units, 2, even=True) // 2
    if not len(radii):
        raise ValueError("radii must name at least one radius")
    sizes = [_positive("a radius", r) for r in radii]
    speed = _positive("speed", speed)
    step = _lattice_step(max(sizes))
    rows = math.ceil(math.sqrt(per_side))
    columns = math.ceil(per_side / rows)
    margin = math.ceil(max(sizes)) + 1
    gap = 4 * step  # between the groups
    west = _block(columns, rows, per_side, step, (margin, margin))
    shift = step * columns + gap
    starts = np.concatenate([west, west + [shift, 0]])
    goals = np.concatenate([west + [shift, 0], west])
    passable = np.ones((2 * margin + step * rows, 2 * margin + shift + step * columns), dtype=bool)
    per_unit = np.resize(np.array(sizes), 2 * per_side)
    description = (
        f"two groups of {per_side} with radii {'/'.join(f'{r:g}' for r in sizes)} swap places head-on in the open"
    )
    return _scenario("mixed_radii", description, passable, starts, goals, per_unit, speed)


# -- maps ------------------------------------------------------------------------------------------


def random_orders(
    grid: Grid,
    units: int = 1000,
    *,
    radius: float = 0.5,
    speed: float = DEFAULT_SPEED,
    seed: int = 1,
    name: str = "random_orders",
    where: str = "a map",
) -> CrowdScenario:
    """``units`` on distinct random cells of ``grid``'s largest island (of cells where they fit), each ordered
    to another such cell; starts and goals all differ, and are at least a unit's width apart."""
    units = _count("units", units, 1)
    radius, speed = _positive("radius", radius), _positive("speed", speed)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, got {seed!r}")
    fits = fitting_cells(grid.passable, radius)
    step = _lattice_step(radius)  # cells this far apart hold units that do not overlap
    on_lattice = np.zeros_like(fits)
    on_lattice[::step, ::step] = True
    islands = Grid(fits).islands if fits.any() else np.zeros(fits.shape, dtype=np.int64)
    sizes = np.bincount(islands[fits & on_lattice], minlength=2)
    sizes[0] = 0
    ys, xs = np.nonzero((islands == int(np.argmax(sizes))) & on_lattice & fits)
    if len(xs) < 2 * units:
        raise ValueError(
            f"{units} units of radius {radius:g} need {2 * units} cells (to start on and go to) on one island,"
            f" the map has {len(xs)}"
        )
    chosen = np.random.default_rng(int(seed)).permutation(len(xs))[: 2 * units]
    cells = np.stack([xs[chosen], ys[chosen]], axis=1)
    description = f"{units} units with random orders (seed {seed}) on {where}"
    return _scenario(name, description, grid, cells[:units], cells[units:], radius, speed)


def movingai_orders(
    map_name: str = "den520d",
    units: int = 1000,
    *,
    folder: Union[str, Path, None] = None,
    radius: float = 0.5,
    speed: float = DEFAULT_SPEED,
    seed: int = 1,
) -> CrowdScenario:
    """:func:`random_orders` on a Moving AI map, read from ``folder`` (by default ``$PATHING_PY_MOVINGAI``
    or the project's ``shared/benchmarks/movingai``)."""
    maps = Path(folder) if folder is not None else find_benchmarks(Path(__file__))
    if maps is None:
        raise ValueError(f"no Moving AI folder found: set {BENCHMARKS_VARIABLE} or pass folder")
    path = maps / f"{map_name}.map"
    if not path.is_file():
        raise ValueError(f"no map {map_name!r} in {maps}")
    grid = Grid.from_movingai(path)
    where = f"{map_name} ({grid.width}x{grid.height})"
    return random_orders(grid, units, radius=radius, speed=speed, seed=seed, name="movingai_orders", where=where)


def fitting_cells(passable: np.ndarray, radius: float) -> np.ndarray:
    """``fits[y, x]``: whether a circle of ``radius`` at the centre of cell (x, y) is clear of walls and the
    map's edge."""
    passable = np.asarray(passable)
    ys, xs = np.nonzero(passable)
    centres = np.stack([xs, ys], axis=1) + 0.5
    fits = np.zeros(passable.shape, dtype=bool)
    fits[ys, xs] = True
    walled = units_in_walls(passable, centres, np.full(len(centres), _positive("radius", radius)))
    fits[ys[walled], xs[walled]] = False
    return fits


#: Every scenario by name, each callable with its defaults (the Moving AI one needs the maps).
SCENARIOS: Dict[str, Callable[..., CrowdScenario]] = {
    "head_on_corridor": head_on_corridor,
    "two_cell_corridor": two_cell_corridor,
    "crossroads": crossroads,
    "gate": gate,
    "armies": armies,
    "packed_canyon": packed_canyon,
    "occupied_spot": occupied_spot,
    "circle_swap": circle_swap,
    "crossing_blocks": crossing_blocks,
    "mixed_radii": mixed_radii,
    "movingai_orders": movingai_orders,
}


# -- building blocks -------------------------------------------------------------------------------


def _scenario(
    name: str,
    description: str,
    passable: Union[np.ndarray, Grid],
    start_cells: np.ndarray,
    goals: np.ndarray,
    radius: Union[float, np.ndarray],
    speed: float,
    *,
    idle: Optional[np.ndarray] = None,
    priorities: Optional[np.ndarray] = None,
) -> CrowdScenario:
    """A scenario whose units start at the centres of their blocks at ``start_cells`` (the cells themselves for
    units of radius up to 0.5; see :mod:`pathing_py.clearance`), and whose goals are their blocks' cells too."""
    count = len(start_cells)
    radii = np.broadcast_to(np.asarray(radius, dtype=np.float64), (count,))
    halves = np.array([size_class(r) for r in radii], dtype=np.float64)[:, None] / 2.0
    return CrowdScenario(
        name=name,
        description=description,
        grid=passable if isinstance(passable, Grid) else Grid(passable),
        starts=np.asarray(start_cells, dtype=np.float64).reshape(count, 2) + halves,
        goals=goals,
        radii=radii,
        speeds=np.full(count, speed),
        priorities=np.zeros(count, dtype=np.int64) if priorities is None else priorities,
        idle=np.zeros(count, dtype=bool) if idle is None else idle,
    )


def _block(
    columns: int, rows: int, count: int, step: int, origin: Tuple[int, int], by_columns: bool = False
) -> np.ndarray:
    """The first ``count`` cells of a ``columns`` x ``rows`` lattice ``step`` cells apart from ``origin``, row by row
    (column by column if ``by_columns``): an (count, 2) int array."""
    xs, ys = np.meshgrid(np.arange(columns), np.arange(rows), indexing="ij" if by_columns else "xy")
    cells = np.stack([xs.ravel(), ys.ravel()], axis=1)[:count]
    return origin + step * cells


def _lattice_step(radius: float) -> int:
    """The fewest whole cells between the centres of two units of ``radius`` that do not overlap."""
    return max(1, math.ceil(2 * radius))


def _frozen(name: str, values, dtype, shape: Tuple[int, ...]) -> np.ndarray:
    """A read-only copy of ``values`` as ``dtype``; whole numbers stay whole (no float cells)."""
    array = np.array(values)
    if array.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {array.shape}")
    if dtype is np.int64 and not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"{name} must be whole numbers, got dtype {array.dtype}")
    array = array.astype(dtype)
    array.setflags(write=False)
    return array


def _count(name: str, value, least: int, *, most: Optional[int] = None, even: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < least or (most is not None and value > most) or (even and value % 2):
        limits = f">= {least}" + (f" and <= {most}" if most is not None else "") + (", and even" if even else "")
        raise ValueError(f"{name} must be {limits}, got {value}")
    return int(value)


def _positive(name: str, value) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, np.integer, np.floating))
        or not (math.isfinite(value) and value > 0)
    ):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return float(value)


def _narrow_radius(radius) -> float:
    radius = _positive("radius", radius)
    if radius > NARROW_RADIUS:
        raise ValueError(f"radius must be <= {NARROW_RADIUS} in a scenario of one-cell ways, got {radius:g}")
    return radius
