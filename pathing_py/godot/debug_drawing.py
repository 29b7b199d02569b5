"""What a NavGrid draws at run time when ``debug_draw`` is on (SPEC E4), in plain Python: no engine needed.

Per unit, in TileMap-local pixels: its plan ahead as a polyline (where it
stands, then the cells and key points still to pass, as ``pathing-py demo``
draws it), the cells it holds outlined in the colour of how it is doing
(:func:`unit_look`: moving, waiting, resolving, making way, taking turns, stopped, standing), and the
cell it is moving into outlined again, smaller. Per group: the slot cells
where it forms, while it forms, and its members' cells at the target while it
is under way. The graph's key points come from
:func:`pathing_py.godot.editor.graph_drawing`, as the editor draws them.

Predicted positions (SPEC U6): each unit under way gets a small square where
it will be every PREDICTION_STEP seconds over the next PREDICTION_HORIZON
(:func:`pathing_py.units.prediction.predicted_positions`: along its route at
its speed now, unless other units stop it). Collision states (SPEC U5,
:mod:`pathing_py.units.collisions`) are the colours of :func:`unit_look`:
``waiting`` for a cell another unit holds is a collision not resolved yet,
``resolving`` one a rule settles (the unit pushed the others out of its way
and waits for them to clear it), ``making_way`` the other side of one
(stepping aside, waiting aside, going back, or walking a jam's plan); units
hold whole cells, so the held cells are the immediate prediction the
navigator checks.

Quick start, on a row of eight 16-pixel cells at the canvas origin::

    >>> from pathing_py.godot.bridge import TileInfo, TileMapNavigator
    >>> from pathing_py.godot.units import UnitDriver
    >>> from pathing_py.godot.debug_drawing import units_drawing
    >>> tilemap = TileMapNavigator.from_tilemap([word for x in range(8) for word in (x, 0, 0)], (16, 16),
    ...                                         [TileInfo(0, "ground")])
    >>> driver = UnitDriver(tilemap, ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)))
    >>> at = ((8.0, 8.0), (9.0, 8.0), (8.0, 9.0))
    >>> driver.add(1, "scout", at, at, speed=4.0), driver.order(1, (120.0, 8.0))
    (Answer(status='OK', message=''), Answer(status='OK', message=''))
    >>> _ = driver.step(1 / 30)
    >>> drawing = units_drawing(driver)
    >>> drawing.routes[:4]                        # from the scout through the cells ahead
    [(10.133333333333333, 8.0), (24.0, 8.0), (24.0, 8.0), (40.0, 8.0)]
    >>> len(drawing.held["moving"]) // 8          # cells held (four sides, two ends each): the one it steps into
    1
    >>> # the route, 4 predicted squares, 1 held cell:
    >>> [(len(segments), colour) for segments, colour, _width in drawing.layers()][:3]
    [(14, (1.0, 1.0, 1.0, 0.75)), (32, (1.0, 1.0, 1.0, 1.0)), (8, (0.3, 0.9, 0.35, 1.0))]
"""

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..debug import plan_ahead
from ..grid import Cell
from ..groups import Group, GroupState
from ..units import CollisionState, Navigator, Resolution, Unit, UnitState
from ..units.prediction import predicted_positions
from ..units.unit import STANDING_STATES
from .bridge import Position, TileFrame, positions
from .editor import rect_outlines
from .groups import GroupDriver
from .units import UnitDriver

__all__ = [
    "FORMING_SLOT_COLOUR",
    "LOOKS",
    "LOOK_COLOURS",
    "Layer",
    "ROUTE_COLOUR",
    "Rgba",
    "TARGET_SLOT_COLOUR",
    "UnitsDrawing",
    "drawing_of",
    "unit_look",
    "units_drawing",
]

#: A colour as Godot's ``Color(r, g, b, a)`` takes it, each from 0 to 1.
Rgba = Tuple[float, float, float, float]
#: What one ``draw_multiline`` call draws: segment ends in pairs (TileMap-local pixels), colour, width in pixels.
Layer = Tuple[List[Position], Rgba, float]

#: How a unit is doing, as :func:`unit_look` names it, and the colour of its cells.
LOOKS = ("moving", "waiting", "resolving", "making_way", "taking_turns", "stopped", "standing")
LOOK_COLOURS: Dict[str, Rgba] = {
    "moving": (0.3, 0.9, 0.35, 1.0),
    "waiting": (1.0, 0.85, 0.1, 1.0),
    "resolving": (1.0, 0.3, 0.15, 1.0),
    "making_way": (0.2, 0.75, 1.0, 1.0),
    "taking_turns": (0.1, 0.9, 0.8, 1.0),
    "stopped": (1.0, 0.1, 0.6, 1.0),
    "standing": (0.85, 0.85, 0.85, 0.6),
}
ROUTE_COLOUR: Rgba = (1.0, 1.0, 1.0, 0.75)
PREDICTED_COLOUR: Rgba = (1.0, 1.0, 1.0, 1.0)
FORMING_SLOT_COLOUR: Rgba = (1.0, 0.55, 0.0, 1.0)
TARGET_SLOT_COLOUR: Rgba = (0.75, 0.45, 1.0, 1.0)
#: Line widths, pixels.
ROUTE_WIDTH = 1.0
HELD_WIDTH = 1.0
NEXT_WIDTH = 2.0
SLOT_WIDTH = 1.5
#: Insets of the smaller squares, in cells from each side: the next cell inside its held outline, slots
#: inside the cells their members will hold.
NEXT_INSET = 0.25
SLOT_INSET = 0.1
#: Side of the squares at predicted positions, in cells.
PREDICTED_SIDE = 0.2


def unit_look(unit: Unit) -> str:
    """How a unit is drawn: one of :data:`LOOKS`.

    ``stopped``: it stopped short of its goal (HELD_UP or UNREACHABLE);
    ``making_way`` (:attr:`Unit.making_way`); ``taking_turns``: it holds before a
    long narrow passage until its turn there (:attr:`Unit.taking_turns`); ``resolving``: its collision is
    being settled (it waits for the units it pushed); ``waiting``: for a cell
    another unit holds, or slowed behind one stepping out of its next cell;
    ``standing``: idle or arrived; ``moving`` otherwise (planning, or on its way).
    """
    if unit.state in (UnitState.HELD_UP, UnitState.UNREACHABLE):
        return "stopped"
    if unit.making_way:
        return "making_way"
    if unit.state is UnitState.WAITING and unit.taking_turns:
        return "taking_turns"
    collision = unit.collision if unit.collision is not None and unit.collision.ended is None else None  # open
    if unit.state is UnitState.WAITING:
        return "resolving" if collision is not None and collision.state is CollisionState.RESOLVING else "waiting"
    if collision is not None and collision.resolution is Resolution.SLOW:
        return "waiting"
    return "standing" if unit.state in STANDING_STATES else "moving"


@dataclass(frozen=True)
class UnitsDrawing:
    """Units and groups as line segments in TileMap-local pixels, ends in pairs, for ``draw_multiline``.

    ``routes``: each unit's plan ahead; ``predicted``: small squares where
    units under way will be over the next second; ``held`` and ``next_cells``: by
    look, the outlines of the cells units hold and, smaller, of the cells they
    move into; ``forming_slots`` and ``target_slots``: the slot cells of
    groups forming, and the members' cells at the target of groups under way.
    """

    routes: List[Position]
    predicted: List[Position]
    held: Dict[str, List[Position]]
    next_cells: Dict[str, List[Position]]
    forming_slots: List[Position]
    target_slots: List[Position]

    def layers(self) -> List[Layer]:
        """One layer per colour that has segments, in drawing order: slots, routes, predicted positions,
        held cells, next cells."""
        kinds: List[Layer] = [
            (self.forming_slots, FORMING_SLOT_COLOUR, SLOT_WIDTH),
            (self.target_slots, TARGET_SLOT_COLOUR, SLOT_WIDTH),
            (self.routes, ROUTE_COLOUR, ROUTE_WIDTH),
            (self.predicted, PREDICTED_COLOUR, ROUTE_WIDTH),
        ]
        kinds += [(self.held[look], LOOK_COLOURS[look], HELD_WIDTH) for look in LOOKS]
        kinds += [(self.next_cells[look], LOOK_COLOURS[look], NEXT_WIDTH) for look in LOOKS]
        return [kind for kind in kinds if kind[0]]


def units_drawing(units: UnitDriver, groups: Optional[GroupDriver] = None) -> UnitsDrawing:
    """The drawing of a NavGrid's PathUnits and of the groups its GroupManagers ordered."""
    return drawing_of(units.navigator, units.frame, groups.groups.groups.values() if groups is not None else ())


def drawing_of(navigator: Navigator, frame: TileFrame, groups: Iterable[Group] = ()) -> UnitsDrawing:
    """The drawing of a navigator's units and of ``groups`` over a TileMap whose cells ``frame`` maps to pixels."""
    units = sorted(navigator.units.values(), key=lambda unit: unit.id)
    ends: List[Tuple[float, float]] = []
    predicted: List[Tuple[float, float, float, float]] = []
    half = PREDICTED_SIDE / 2
    held: Dict[str, List[Cell]] = {look: [] for look in LOOKS}
    moving_into: Dict[str, List[Cell]] = {look: [] for look in LOOKS}
    for unit in units:
        plan = plan_ahead(unit)
        ends += [end for step in zip(plan, plan[1:]) for end in step]
        if unit.state in (UnitState.MOVING, UnitState.RUN):
            predicted += [
                (x - half, y - half, PREDICTED_SIDE, PREDICTED_SIDE) for _, (x, y) in predicted_positions(unit)[1:]
            ]
        look = unit_look(unit)
        held[look] += sorted(unit.held)
        if unit.next_cell is not None:
            moving_into[look].append(unit.next_cell)
    forming: List[Cell] = []
    targets: List[Cell] = []
    for group in groups:
        if group.state is GroupState.FORMING:
            forming += [cell for cell in map(group.slot_cell, group.members) if cell is not None]
        elif any(unit.state not in STANDING_STATES for unit in group.members):
            targets += group.goals.values()
    return UnitsDrawing(
        routes=positions(frame.grid_to_pixels(ends)),
        predicted=rect_outlines(predicted, frame),
        held={look: _squares(cells, 0.0, frame) for look, cells in held.items()},
        next_cells={look: _squares(cells, NEXT_INSET, frame) for look, cells in moving_into.items()},
        forming_slots=_squares(forming, SLOT_INSET, frame),
        target_slots=_squares(targets, SLOT_INSET, frame),
    )


def _squares(cells: Sequence[Cell], inset: float, frame: TileFrame) -> List[Position]:
    """The outlines of grid cells drawn ``inset`` cells inside each side."""
    return rect_outlines([(x + inset, y + inset, 1.0 - 2 * inset, 1.0 - 2 * inset) for x, y in cells], frame)
