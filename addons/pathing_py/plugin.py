"""Editor plugin of pathing_py: adds the addon's node types to the "Create Node" dialog."""

from godot import EditorPlugin, ResourceLoader, exposed

ADDON_DIR = "res://addons/pathing_py/"

#: (type name, Godot base class, script, icon), paths relative to ADDON_DIR.
NODE_TYPES = (("NavGrid", "Node2D", "nav_grid.py", "icons/nav_grid.svg"),)


@exposed(tool=True)
class PathingPyPlugin(EditorPlugin):
    def _enter_tree(self) -> None:
        for name, base, script, icon in NODE_TYPES:
            self.add_custom_type(
                name, base, ResourceLoader.load(ADDON_DIR + script), ResourceLoader.load(ADDON_DIR + icon)
            )

    def _exit_tree(self) -> None:
        for name, _base, _script, _icon in NODE_TYPES:
            self.remove_custom_type(name)
