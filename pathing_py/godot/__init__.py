"""The Godot-facing half of pathing_py: TileMaps, scene files and the plain-Python side of the nodes.

Everything here runs without the engine (the addon's node scripts in
``addons/pathing_py/`` are thin shells over it, and the tests drive it in plain
Python), but it speaks Godot's terms: TileMap cells and pixels, ``tile_data``,
``.tscn`` / ``.tres`` text, node properties. ``import pathing_py`` does not
import it; import its modules by name::

    >>> from pathing_py.godot.tile_data import grid_from_tile_data
    >>> grid_from_tile_data([0, 0, 0], collision={0: False}).passable.tolist()
    [[True]]
"""
