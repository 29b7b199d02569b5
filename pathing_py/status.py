"""The one vocabulary of statuses a game sees: path results, walk results, unit and group states, and
the outcomes of requests to the Godot nodes all take their names from :class:`Status`.

A name means one thing wherever it appears, so that a game can act on it without knowing which part
of the package said it. Walls and units are told apart by the word: ``BLOCKED`` is always a wall
(a cell whose tile blocks), ``HELD`` always a unit (one standing in a cell or keeping the way shut).
Signal names are the same words in lower case (``held_up``, ``unreachable``, ``formation_formed``).
Reasons and messages that come with a status name TileMap cells, as the signals do.

==================  ====================================================================================
Status              Meaning
==================  ====================================================================================
OK                  the request was carried out
BUILT               the NavGrid read its TileMap and built its grid
NO_GRID             the NavGrid has no grid: its TileMap is missing or could not be read
NOT_DRIVEN          the PathUnit is not moved by a NavGrid (a GroupManager: a unit of the order is not)
INVALID_POSITION    a position or cell is not two finite numbers (a painted cell: not two whole ones)
INVALID_SETTINGS    a node's settings are out of range (speed, radius, priority, cohesion, formation, spacing)
INVALID_TRANSFORM   a node's transform is not finite or is scaled to zero
NO_TILE             the NavGrid has no usable wall_tile or floor_tile to paint a cell with
EMPTY_SELECTION     a group order names no unit
OUT_OF_BOUNDS       a position, cell, start or goal lies outside the map
CELL_BLOCKED        a wall: the cell's tile blocks, no unit can stand there
CELL_HELD           a unit holds the cell: try again later
FOUND               a path joins the start to the goal
START_BLOCKED       a wall stands on the start cell
GOAL_BLOCKED        a wall stands on the goal cell
UNREACHABLE         walls cut the goal off: no way leads there (a unit stops at the reachable cell nearest it)
LIMIT_REACHED       the search or walk stopped at the limit it was given, before the goal
IDLE                the unit has no order
FIND_PATH           the unit waits for its path (it may still be finishing a step)
RUN                 the unit stands at a cell centre, taking its next waypoint
MOVING              the unit moves between two cell centres
WAITING             the unit waits for a unit in its next cell, aside for one it let by, or its turn at a narrow pass
ARRIVED             the unit (or walk) reached its goal
HELD_UP             the unit stopped: other units keep its way or its goal shut
BROKEN              the group keeps no formation
FORMING             the group takes up its formation's slots before it marches
FORMED              every member of the group stands in its slot
==================  ====================================================================================

The README's "Statuses" section is this table.
"""

import enum

__all__ = ["Status"]


@enum.unique
class Status(enum.Enum):
    """Every status name a game sees; the value is the name itself, the word the nodes return."""

    OK = "OK"
    BUILT = "BUILT"
    NO_GRID = "NO_GRID"
    NOT_DRIVEN = "NOT_DRIVEN"
    INVALID_POSITION = "INVALID_POSITION"
    INVALID_SETTINGS = "INVALID_SETTINGS"
    INVALID_TRANSFORM = "INVALID_TRANSFORM"
    NO_TILE = "NO_TILE"
    EMPTY_SELECTION = "EMPTY_SELECTION"
    OUT_OF_BOUNDS = "OUT_OF_BOUNDS"
    CELL_BLOCKED = "CELL_BLOCKED"
    CELL_HELD = "CELL_HELD"
    FOUND = "FOUND"
    START_BLOCKED = "START_BLOCKED"
    GOAL_BLOCKED = "GOAL_BLOCKED"
    UNREACHABLE = "UNREACHABLE"
    LIMIT_REACHED = "LIMIT_REACHED"
    IDLE = "IDLE"
    FIND_PATH = "FIND_PATH"
    RUN = "RUN"
    MOVING = "MOVING"
    WAITING = "WAITING"
    ARRIVED = "ARRIVED"
    HELD_UP = "HELD_UP"
    BROKEN = "BROKEN"
    FORMING = "FORMING"
    FORMED = "FORMED"
