"""How the nodes a NavGrid serves (PathUnit, GroupManager) find it, and say why they cannot.

Such a node exports a ``nav_grid_path`` and puts :class:`NavGridLink` among
its bases, after :class:`~pathing_py.godot.node_properties.NodeProperties`::

    @exposed(tool=True)
    class PathUnit(NodeProperties, NavGridLink, Node2D):
        nav_grid_path = export(NodePath, default=NodePath("../NavGrid"))

The node then reaches its NavGrid with ``self._navgrid()`` (looked up each
time: the NavGrid may have been freed) and calls its methods with ``call``:
pythonscript 0.50 hands one node's script to another as the Godot object,
not as the Python object.
"""

from typing import TYPE_CHECKING, Any, Optional, Tuple

__all__ = ["NAVGRID_METHOD", "NavGridLink", "nav_grid_path_problem"]

#: A method only a NavGrid has: what tells a NavGrid from any other node.
NAVGRID_METHOD = "add_path_unit"


def nav_grid_path_problem(nav_grid_path: str, found: Optional[str], serves: str) -> str:
    """Why a node's ``nav_grid_path`` leads to no NavGrid, or "": part of its configuration warning.

    ``found`` is "NavGrid" when the path leads to one, the class of the node
    there otherwise, None when there is no node; ``serves`` says what the
    NavGrid does for the node ("moves this unit").
    """
    if not nav_grid_path:
        return f"Set nav_grid_path to the NavGrid that {serves}."
    if found is None:
        return f"nav_grid_path {nav_grid_path!r} does not point at a node."
    if found != "NavGrid":
        return f"nav_grid_path {nav_grid_path!r} points at a {found}, not a NavGrid."
    return ""


class NavGridLink:
    """The NavGrid at a node's ``nav_grid_path``, for the node scripts that export one."""

    if TYPE_CHECKING:  # what the node script and its Godot class provide
        nav_grid_path: Any

        def get_node_or_null(self, path: Any) -> Any: ...

    def _navgrid(self) -> Any:
        """The NavGrid at ``nav_grid_path``, or None."""
        node = self._node_at_path()
        return node if node is not None and node.has_method(NAVGRID_METHOD) else None

    def _navgrid_found(self) -> Tuple[str, Optional[str]]:
        """``nav_grid_path`` as text, and what it leads to, as :func:`nav_grid_path_problem` takes them."""
        node = self._node_at_path()
        found = None if node is None else "NavGrid" if node.has_method(NAVGRID_METHOD) else str(node.get_class())
        return str(self.nav_grid_path), found

    def _node_at_path(self) -> Any:
        # An empty NodePath would lead to the node itself.
        return self.get_node_or_null(self.nav_grid_path) if str(self.nav_grid_path) else None
