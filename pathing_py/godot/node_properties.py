"""Godot's own Node properties that pythonscript 0.50 leaves out of a Python node, given back.

pythonscript hands every property read and write on a node with a Python
script to the Python object first. Its Godot classes lack a few of Node's own
properties (``script``, and those whose accessors start with an underscore),
so for those:

- a read prints a traceback (upstream #280/#286): the inspector reads
  ``script`` and ``editor_description``, saving a scene reads ``_import_path``;
- a write lands in a plain Python attribute and the node never gets it: the
  ``__meta__`` of a scene file (e.g. the node's editor description) is lost
  when the scene loads, and gone from the file at the next save.

Node scripts put :class:`NodeProperties` first among their bases::

    @exposed(tool=True)
    class NavGrid(NodeProperties, Node2D):
        ...

Its properties answer with Godot's own accessors, reached through
``call()``, which falls back to the engine's method when the Python object
has none.

Metadata values cross into Python on the way: strings, numbers and the like
(all the editor stores) are fine, but a Resource kept in a Python node's
metadata is not kept alive by pythonscript 0.50 (``../GODOT_NOTES.md``).
"""

from typing import TYPE_CHECKING, Any

__all__ = ["NodeProperties"]


class NodeProperties:
    """Node properties Godot reads and writes through a Python node: ``script``, ``editor_description``,
    ``_import_path``, ``__meta__``."""

    if TYPE_CHECKING:  # Node's methods, which the Godot class after this one among a node's bases provides

        def get_script(self) -> Any: ...
        def call(self, method: str, *args: Any) -> Any: ...
        def get_meta_list(self) -> Any: ...
        def get_meta(self, name: Any) -> Any: ...
        def set_meta(self, name: Any, value: Any) -> None: ...
        def remove_meta(self, name: Any) -> None: ...

    @property
    def script(self):
        return self.get_script()

    @property
    def editor_description(self):
        return self.call("_get_editor_description")

    @editor_description.setter
    def editor_description(self, text) -> None:
        self.call("_set_editor_description", text)

    @property
    def _import_path(self):
        return self.call("_get_import_path")

    @_import_path.setter
    def _import_path(self, path) -> None:
        self.call("_set_import_path", path)

    @property
    def __meta__(self):
        from godot import Dictionary  # only ever read inside the engine

        meta = Dictionary()
        for name in self.get_meta_list():
            meta[name] = self.get_meta(name)
        return meta

    @__meta__.setter
    def __meta__(self, meta) -> None:
        names = {str(name) for name in meta.keys()}
        for name in self.get_meta_list():
            if str(name) not in names:
                self.remove_meta(name)
        for name in meta.keys():
            self.set_meta(name, meta[name])
