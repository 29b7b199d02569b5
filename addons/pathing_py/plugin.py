"""Editor plugin of pathing_py: the NavGrid, PathUnit and GroupManager node types, and the button that bakes a graph.

Selecting a NavGrid shows "Bake key-point graph" in the 2D editor's toolbar,
with a progress bar and a line saying how the last bake went. The NavGrid
does the work on a worker thread, so the editor keeps running; the plugin
starts it, shows its progress, and stores the written file in the NavGrid's
``graph_path`` as an undoable change (which also marks the scene modified).
"""

from typing import Optional

from godot import (
    Array,
    Button,
    ConfigFile,
    EditorFileSystem,
    EditorPlugin,
    HBoxContainer,
    ImageTexture,
    Label,
    Node,
    Object,
    ProgressBar,
    ProjectSettings,
    ResourceLoader,
    Texture,
    UndoRedo,
    Vector2,
    exposed,
)
from godot.bindings import _File

from pathing_py.godot.bridge import GODOT_OK
from pathing_py.godot.project_scripts import python_scripts

ADDON_DIR = "res://addons/pathing_py/"

#: (type name, Godot base class, script, icon), paths relative to ADDON_DIR.
NODE_TYPES = (
    ("NavGrid", "Node2D", "nav_grid.py", "icons/nav_grid.svg"),
    ("PathUnit", "Node2D", "path_unit.py", "icons/path_unit.svg"),
    ("GroupManager", "Node", "group_manager.py", "icons/group_manager.svg"),
)

#: The script of the nodes the bake button serves (a file name of NODE_TYPES).
NAVGRID_SCRIPT = "nav_grid.py"

#: Where the bake controls go: the toolbar of the 2D editor.
TOOLBAR = EditorPlugin.CONTAINER_CANVAS_EDITOR_MENU

#: The status line when the bake button has no NavGrid to bake (no scene open, or another node selected).
NOTHING_TO_BAKE = "Select a NavGrid in the open scene: its TileMap's key-point graph is what gets baked."


def imported_texture(path: str) -> Optional[Texture]:
    """The texture of an image the editor has imported, None before its first import.

    Loading an image whose import is missing prints "Failed loading resource"
    errors; its ``.import`` file names the imported file to look for.
    """
    config = ConfigFile()
    if config.load(path + ".import") != GODOT_OK:
        return None
    imported = str(config.get_value("remap", "path", ""))
    if not imported or not _File().file_exists(imported):
        return None
    return ResourceLoader.load(path)


@exposed(tool=True)
class PathingPyPlugin(EditorPlugin):
    _navgrid = None  # the NavGrid selected in the editor
    _scripts = None  # the project's Python scripts by res:// path, held while the plugin runs (see _hold_scripts)
    _navgrid_script = None
    _toolbar = None
    _progress = None
    _status = None

    def _enter_tree(self) -> None:
        self._scripts = {}
        self._hold_scripts()
        filesystem: EditorFileSystem = self.get_editor_interface().get_resource_filesystem()
        filesystem.connect("filesystem_changed", self, "_hold_scripts")
        if not self._add_node_types():
            # A fresh checkout: the editor imports the icons after the plugins start; add them then.
            filesystem.connect("resources_reimported", self, "_on_resources_reimported")
        self._navgrid_script = self._scripts[ADDON_DIR + NAVGRID_SCRIPT]
        self._toolbar = self._make_toolbar()
        self.add_control_to_container(TOOLBAR, self._toolbar)

    def _add_node_types(self) -> bool:
        """Register the node types, with their icons where imported; whether every icon was."""
        complete = True
        for name, base, script, icon_path in NODE_TYPES:
            icon = imported_texture(ADDON_DIR + icon_path)
            complete = complete and icon is not None
            # pythonscript 0.50 refuses None for a Texture argument: an empty texture shows no icon.
            self.add_custom_type(name, base, self._scripts[ADDON_DIR + script], icon or ImageTexture())
        return complete

    def _hold_scripts(self) -> None:
        """Load and hold every Python script of the project not held yet (see pathing_py.godot.project_scripts):
        pythonscript 0.50 cannot load a script again once Godot freed it, and the editor frees those it loads to
        draw their thumbnails, or that remove_custom_type lets go."""
        for path in python_scripts(str(ProjectSettings.globalize_path("res://"))):
            if path not in self._scripts:
                self._scripts[path] = ResourceLoader.load(path)

    def _on_resources_reimported(self, _resources) -> None:
        for name, _base, _script, _icon in NODE_TYPES:
            self.remove_custom_type(name)
        if self._add_node_types():
            filesystem: EditorFileSystem = self.get_editor_interface().get_resource_filesystem()
            filesystem.disconnect("resources_reimported", self, "_on_resources_reimported")

    def _exit_tree(self) -> None:
        filesystem: EditorFileSystem = self.get_editor_interface().get_resource_filesystem()
        filesystem.disconnect("filesystem_changed", self, "_hold_scripts")
        toolbar: HBoxContainer = self._toolbar
        self.remove_control_from_container(TOOLBAR, toolbar)
        toolbar.queue_free()
        for name, _base, _script, _icon in NODE_TYPES:
            self.remove_custom_type(name)

    def _make_toolbar(self) -> HBoxContainer:
        toolbar = HBoxContainer.new()
        button = Button.new()
        button.set_text("Bake key-point graph")
        button.set_tooltip("Bake the NavGrid's key-point graph into <scene name>.kpg next to the scene")
        button.connect("pressed", self, "_on_bake_pressed")
        progress = ProgressBar.new()
        progress.set_custom_minimum_size(Vector2(120, 0))
        progress.set_visible(False)
        status = Label.new()
        toolbar.add_child(button)
        toolbar.add_child(progress)
        toolbar.add_child(status)
        toolbar.set_visible(False)
        self._progress = progress
        self._status = status
        return toolbar

    # -- the selected NavGrid ---------------------------------------------------------------

    def handles(self, obj: Object) -> bool:
        script = obj.get_script()
        return script is not None and script == self._navgrid_script

    def edit(self, obj: Object) -> None:
        self._navgrid = obj

    def make_visible(self, visible: bool) -> None:
        toolbar: HBoxContainer = self._toolbar
        toolbar.set_visible(visible)
        if not visible:  # deselected, or its scene closed: the editor calls no edit(None)
            self._navgrid = None

    # -- baking -------------------------------------------------------------------------------

    def _on_bake_pressed(self) -> None:
        navgrid: "NavGrid" = self._navgrid
        scene: Optional[Node] = self.get_editor_interface().get_edited_scene_root()
        status: Label = self._status
        if navgrid is None or scene is None:
            status.set_text(NOTHING_TO_BAKE)
            return
        problem = str(navgrid.call("start_bake", scene.get_filename()))
        if problem:
            status.set_text(problem)
            return
        status.set_text("Baking…")
        progress: ProgressBar = self._progress
        progress.set_value(0.0)
        progress.set_visible(True)
        navgrid.connect("bake_progressed", self, "_on_bake_progressed")
        navgrid.connect("bake_finished", self, "_on_bake_finished", Array([navgrid]), Object.CONNECT_ONESHOT)

    def _on_bake_progressed(self, fraction: float) -> None:
        progress: ProgressBar = self._progress
        progress.set_value(100.0 * fraction)

    def _on_bake_finished(self, graph_file: str, message: str, navgrid: "NavGrid") -> None:
        navgrid.disconnect("bake_progressed", self, "_on_bake_progressed")
        progress: ProgressBar = self._progress
        progress.set_visible(False)
        status: Label = self._status
        status.set_text(str(message))
        if str(graph_file):
            undo: UndoRedo = self.get_undo_redo()
            undo.create_action("Bake key-point graph")
            undo.add_do_property(navgrid, "graph_path", str(graph_file))
            undo.add_undo_property(navgrid, "graph_path", navgrid.get("graph_path"))
            undo.commit_action()
