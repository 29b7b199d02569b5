"""Cells a game painted on its TileMaps at run time, read again: which of them block now (SPEC G1).

A NavGrid reads its whole TileMap (and the TileMaps stacked on it) when it
builds its grid. A game that paints a few cells itself (``TileMap.set_cell``)
tells it which (``NavGrid.cells_painted``); the node reads just those cells
of every layer again, as ``tile_data`` words of those cells, and
:meth:`TileRules.read` decides with the rules of the first read (collision
shapes, ``blocking`` tiles, ``empty_passable``) whether each cell blocks,
so that a cell painted and then read either way ends alike::

    >>> from pathing_py.godot.painted_cells import TileRules, whole_cells
    >>> rules = TileRules(collision=({0: False, 1: True},), listed=(frozenset(),))
    >>> cells = whole_cells([(2, 0), (3.0, 0)], "cells_painted")
    >>> layer = [2, 1, 0]                      # cell (2, 0) holds tile 1 (a wall); (3, 0) holds no tile
    >>> rules.read(cells, [layer]).passable.tolist()
    [False, True]
"""

import math
import numbers
from dataclasses import dataclass
from typing import FrozenSet, Iterable, List, Sequence, Tuple

import numpy as np

from ..grid import Cell
from .tile_data import CollisionRules, blocked_cells, decode_tile_data

__all__ = ["CellsRead", "TileRules", "tile_words", "whole_cells"]


def whole_cells(cells: Iterable, doing: str) -> List[Cell]:
    """``cells`` as whole TileMap cells; ValueError naming the first that is not two finite whole numbers,
    the message starting with ``doing``."""
    if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
        raise ValueError(f"{doing}: cells must be a list of TileMap cells (a PoolVector2Array), got {cells!r}")
    whole = []
    for index, cell in enumerate(cells):
        try:
            x, y = cell
            if (
                isinstance(x, bool)
                or isinstance(y, bool)
                or not isinstance(x, numbers.Real)
                or not isinstance(y, numbers.Real)
            ):
                raise TypeError
            fine = math.isfinite(x) and math.isfinite(y) and float(x).is_integer() and float(y).is_integer()
        except (TypeError, ValueError, OverflowError):
            fine = False
        if not fine:
            raise ValueError(f"{doing}: cells[{index}] must be a TileMap cell, two whole numbers, got {cell!r}")
        whole.append((int(x), int(y)))
    return whole


@dataclass(frozen=True)
class CellsRead:
    """Per layer ``[layer, i]``: whether cell ``i`` holds a tile there (``painted``) and whether that tile blocks
    (``blocked``); per cell, whether units may enter it (``passable``)."""

    painted: np.ndarray
    blocked: np.ndarray
    passable: np.ndarray


@dataclass(frozen=True)
class TileRules:
    """How a NavGrid reads the tiles of its TileMap (layer 0) and of those stacked on it: per layer the
    TileSet's collision rules and the tile ids its ``blocking_tiles`` list, what to make of tile ids a TileSet
    lacks (as :func:`~pathing_py.godot.tile_data.blocked_cells` takes it), and whether empty cells are walkable."""

    collision: Tuple[CollisionRules, ...]
    listed: Tuple[FrozenSet[int], ...]
    unknown_tiles: str = "open"
    empty_passable: bool = True

    def read(self, cells: Sequence[Cell], layers: Sequence[Iterable[int]]) -> CellsRead:
        """What ``cells`` hold, given each layer's ``tile_data`` words (format 1) of the painted ones among them.

        A cell blocks where any layer's tile blocks, is walkable where some
        layer has a tile and none blocks, and follows ``empty_passable`` where
        no layer has one, as :func:`~pathing_py.godot.tile_data.passable_cells` decides for the whole map.
        """
        if len(layers) != len(self.collision):
            raise ValueError(f"the NavGrid reads {len(self.collision)} TileMaps, got the cells of {len(layers)}")
        codes = _codes(np.asarray(cells, dtype=np.int64).reshape(-1, 2))
        painted = np.zeros((len(layers), len(codes)), dtype=bool)
        blocked = np.zeros_like(painted)
        for index, (words, collision, listed) in enumerate(zip(layers, self.collision, self.listed)):
            decoded = decode_tile_data(words)
            found = _codes(np.stack([decoded.x, decoded.y], axis=1))
            if not len(found):
                continue
            # decode_tile_data sorts by (y, x), as the codes are ordered
            at = np.minimum(np.searchsorted(found, codes), len(found) - 1)
            hit = found[at] == codes
            painted[index] = hit
            blocked[index, hit] = blocked_cells(decoded, collision, listed, self.unknown_tiles, "")[at[hit]]
        passable = np.where(painted.any(axis=0), ~blocked.any(axis=0), self.empty_passable)
        return CellsRead(painted, blocked, passable)


def _codes(cells: np.ndarray) -> np.ndarray:
    """One int per (x, y) 16-bit cell, ordered as (y, x)."""
    return (cells[:, 1] + (1 << 15)) * (1 << 16) + (cells[:, 0] + (1 << 15))


def tile_words(
    cells: Sequence[Cell], tiles: Sequence[int], autotile_coords: Sequence[Tuple[float, float]]
) -> List[int]:
    """The ``tile_data`` words (format 1) of the cells that hold a tile: per cell its tile id as
    ``TileMap.get_cell`` gives it (negative: no tile) and its ``get_cell_autotile_coord``."""
    words: List[int] = []
    for (x, y), tile, (ax, ay) in zip(cells, tiles, autotile_coords):
        if tile >= 0:
            words += [((y & 0xFFFF) << 16) | (x & 0xFFFF), int(tile), ((int(ay) & 0xFFFF) << 16) | (int(ax) & 0xFFFF)]
    return words
