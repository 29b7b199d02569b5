tool
extends EditorPlugin
# Drives the editor as a user would, then quits. tests/engine/test_editor.py copies it into a project copy as
# addons/editor_check/ and enables it after pathing_py; what to do comes as --check=NAME (see _run), the scene
# to bake as --scene=res://…. Every fact is printed as one JSON object a line; {"done": true} ends a run that
# got to its end.
#
#   godot3-server --no-window --path COPY -e --check=bake --scene=res://scenes/demo.tscn

const NAV_GRID_SCRIPT = "res://addons/pathing_py/nav_grid.py"
const PATH_UNIT_SCRIPT = "res://addons/pathing_py/path_unit.py"
const GROUP_MANAGER_SCRIPT = "res://addons/pathing_py/group_manager.py"
const BAKE_BUTTON_TEXT = "Bake key-point graph"
const SCENES_FOLDER = "res://scenes/"
const DEMO_SCENE = "res://scenes/demo.tscn"
#: Editor frames a bake may take before the run gives up.
const BAKE_FRAMES = 20000

var options = {}
var fractions = []  # bake_progressed arguments, in order
var finished = []  # bake_finished arguments
var draws = 0  # draw signals of the baked NavGrid
var frames_before_save = 10  # frames after the file system scan


func _enter_tree():
	for argument in OS.get_cmdline_args():
		if argument.begins_with("--") and "=" in argument:
			options[argument.substr(2, argument.find("=") - 2)] = argument.substr(argument.find("=") + 1, len(argument))
	call_deferred("_start")


func _start():
	if options["check"] != "save":  # the saves start from _process
		get_tree().quit(yield(_run(options["check"]), "completed"))


func _process(_delta):
	# Saving reloads tool scripts, this one too: a coroutine on the stack or resumed after a save finds its script
	# gone. The saves run from the engine's own call, once the scan is done and some frames later.
	if options.get("check") != "save" or get_editor_interface().get_resource_filesystem().is_scanning():
		return
	frames_before_save -= 1
	if frames_before_save == 0:
		get_tree().quit(_save_every_scene())


func _run(check):
	yield(_scan_done(), "completed")
	if check == "fresh":
		yield(_fresh(), "completed")
	elif check == "scenes":
		yield(_select_every_node_of_ours(), "completed")
	elif check == "bake":
		yield(_bake(options["scene"]), "completed")
	elif check == "bounds":
		yield(_bounds_outline(), "completed")
	elif check == "group_manager":
		yield(_group_manager(options["scene"]), "completed")
	else:
		_report({"error": "unknown --check=%s" % check})
		return 1
	_report({"done": true})
	return 0


func _scan_done():
	# The file system scan (and the first import) runs over frames; plugins start before it ends.
	var filesystem = get_editor_interface().get_resource_filesystem()
	yield(get_tree(), "idle_frame")
	while filesystem.is_scanning():
		yield(get_tree(), "idle_frame")
	yield(_frames(10), "completed")


func _frames(count):
	for _i in range(count):
		yield(get_tree(), "idle_frame")


func _report(fact):
	print(to_json(fact))


# -- a fresh checkout: nothing imported, no scene open -----------------------------------------


func _fresh():
	var scene = get_editor_interface().get_edited_scene_root()
	_report({"edited_scene": scene.filename if scene else ""})
	_press_bake("no scene open")
	get_editor_interface().open_scene_from_path(DEMO_SCENE)
	yield(_frames(5), "completed")
	scene = get_editor_interface().get_edited_scene_root()
	for node in _nodes_of_ours(scene):
		_report({"node": str(scene.get_path_to(node)), "icon": _scene_dock_icon(node)})
	_select(scene.get_node("TileMap"))
	yield(_frames(5), "completed")
	_press_bake("TileMap selected")


# -- every scene, every node of ours selected --------------------------------------------------


func _select_every_node_of_ours():
	for path in _scenes():
		get_editor_interface().open_scene_from_path(path)
		yield(_frames(5), "completed")
		var scene = get_editor_interface().get_edited_scene_root()
		_report({"opened": path, "edited_scene": scene.filename})
		for node in _nodes_of_ours(scene):
			_select(node)
			yield(_frames(5), "completed")
			_report({"selected": str(scene.get_path_to(node)), "scene": path, "script": node.get_script().resource_path,
				"inspected": _inspected_properties(node), "icon": _scene_dock_icon(node),
				"toolbar_visible": _bake_button().is_visible_in_tree()})
		# A node that is not ours: the bake button is hidden, and pressing it anyway says what to do.
		_select(scene)
		yield(_frames(5), "completed")
		_press_bake("scene root of " + path + " selected")


func _scenes():
	var found = []
	var folder = Directory.new()
	folder.open(SCENES_FOLDER)
	folder.list_dir_begin(true)
	var name = folder.get_next()
	while name != "":
		if name.ends_with(".tscn"):
			found.append(SCENES_FOLDER + name)
		name = folder.get_next()
	found.sort()
	return found


func _nodes_of_ours(node):
	var found = []
	var script = node.get_script()
	if script != null and script.resource_path in [NAV_GRID_SCRIPT, PATH_UNIT_SCRIPT, GROUP_MANAGER_SCRIPT]:
		found.append(node)
	for child in node.get_children():
		found += _nodes_of_ours(child)
	return found


func _select(node):
	var selection = get_editor_interface().get_selection()
	selection.clear()
	selection.add_node(node)
	get_editor_interface().inspect_object(node)  # the inspector reads its properties; plugins' handles/edit run


func _inspected_properties(node):
	# The property editors the inspector made for the node, by property name.
	var names = []
	for editor in _all(get_editor_interface().get_inspector(), "EditorProperty"):
		if editor.get_edited_object() == node:
			names.append(editor.get_edited_property())
	return names


func _all(node, class_name_):
	var found = [node] if node.is_class(class_name_) else []
	for child in node.get_children():
		found += _all(child, class_name_)
	return found


func _scene_dock_icon(node):
	# The Scene dock shows a node of a custom type with the icon its plugin registered for that type.
	var trees = _all(get_editor_interface().get_base_control(), "SceneTreeEditor")
	var item = trees[0].get_child(0).get_root()  # the SceneTreeEditor's Tree, its root item the scene's root
	var path = str(get_editor_interface().get_edited_scene_root().get_path_to(node))
	for name in path.split("/"):
		var child = item.get_children()
		while child != null and child.get_text(0) != name:
			child = child.get_next()
		item = child
		if item == null:
			return {}
	var icon = item.get_icon(0)
	return {"path": icon.resource_path if icon else "", "width": icon.get_width() if icon else 0}


# -- saving: every stored property and meta of our nodes kept ---------------------------------


func _save_every_scene():
	# The README's advice: the editor re-saves the script of a scene's root, with its own indentation.
	var settings = get_editor_interface().get_editor_settings()
	settings.set_setting("text_editor/indent/type", 1)  # spaces
	settings.set_setting("text_editor/indent/size", 4)
	for path in _scenes():
		get_editor_interface().open_scene_from_path(path)
		var before = _node_states(get_editor_interface().get_edited_scene_root())
		var error = get_editor_interface().save_scene()  # packing the scene reads every stored property
		var saved = ResourceLoader.load(path, "", true).instance()
		_report({"saved": path, "error": error, "before": before, "after": _node_states(saved)})
		saved.free()
	_report({"done": true})
	return 0


func _node_states(scene):
	# Every stored script property and every meta of our nodes, as text, by node path.
	var states = {}
	for node in _nodes_of_ours(scene):
		var state = {}
		for property in node.get_script().get_script_property_list():
			if property.usage & PROPERTY_USAGE_STORAGE:
				state[property.name] = var2str(node.get(property.name))
		for name in node.get_meta_list():
			state["meta:" + name] = var2str(node.get_meta(name))
		states[str(scene.get_path_to(node))] = state
	return states


# -- the bake button ---------------------------------------------------------------------------


func _bake_button():
	for button in _all(get_editor_interface().get_base_control(), "Button"):
		if button.text == BAKE_BUTTON_TEXT:
			return button
	return null


func _status_label():
	# The toolbar holds the button, the progress bar and the status line, in that order.
	return _bake_button().get_parent().get_child(2)


func _progress_bar():
	return _bake_button().get_parent().get_child(1)


func _press_bake(situation):
	_status_label().text = ""
	_bake_button().emit_signal("pressed")
	_report({"pressed": situation, "status": _status_label().text})


func _bake(scene_path):
	var graph_file = scene_path.get_basename() + ".kpg"
	Directory.new().remove(graph_file)  # a scene never baked: the bake must write the file
	get_editor_interface().open_scene_from_path(scene_path)
	yield(_frames(5), "completed")
	var scene = get_editor_interface().get_edited_scene_root()
	var navgrid = _nodes_of_ours(scene)[0]
	navgrid.graph_path = ""
	_select(navgrid)
	yield(_frames(5), "completed")
	var button = _bake_button()
	_report({"toolbar_visible": button.is_visible_in_tree(), "graph_path_before": navgrid.graph_path})
	navgrid.connect("bake_progressed", self, "_on_bake_progressed")
	navgrid.connect("bake_finished", self, "_on_bake_finished")
	button.emit_signal("pressed")
	var progress = _progress_bar()
	var seen = []  # [progress bar value, visible, status line] whenever one of them changed
	var frames = 0
	while finished.empty() and frames < BAKE_FRAMES:
		var state = [progress.value, progress.visible, _status_label().text]
		if seen.empty() or seen.back() != state:
			seen.append(state)
		yield(get_tree(), "idle_frame")
		frames += 1
	yield(get_tree(), "idle_frame")  # the plugin's own bake_finished handler has run too
	seen.append([progress.value, progress.visible, _status_label().text])
	_report({"fractions": fractions, "finished": finished, "frames": frames, "seen": seen,
		"graph_path": navgrid.graph_path, "file_exists": File.new().file_exists(graph_file)})
	get_undo_redo().undo()
	_report({"graph_path_after_undo": navgrid.graph_path})
	get_undo_redo().redo()
	_report({"graph_path_after_redo": navgrid.graph_path})
	yield(_observe_graph_drawing(navgrid), "completed")


func _on_bake_progressed(fraction):
	fractions.append(fraction)


func _on_bake_finished(graph_file, message):
	finished.append([graph_file, message])


func _observe_graph_drawing(navgrid):
	# The draw signal follows the node's _draw(). Outside a draw, the engine refuses each draw_* call with an
	# error naming it: calling _draw() directly shows the calls it makes (on stderr).
	navgrid.connect("draw", self, "_on_draw")
	for shown in [true, false]:
		draws = 0
		navgrid.show_graph = shown
		yield(_frames(5), "completed")
		_report({"show_graph": shown, "draws": draws})
		navgrid.call("_draw")


func _on_draw():
	draws += 1


func _bounds_outline():
	# The demo's NavGrid given bounds, none, then bad ones: each redraws; _draw() called directly shows the calls
	# it makes (refused on stderr, as in _observe_graph_drawing), and the configuration warning says what is wrong.
	get_editor_interface().open_scene_from_path(DEMO_SCENE)
	yield(_frames(5), "completed")
	var navgrid = _nodes_of_ours(get_editor_interface().get_edited_scene_root())[0]
	navgrid.show_graph = false
	_select(navgrid)
	navgrid.connect("draw", self, "_on_draw")
	for bounds in [Rect2(-4, -3, 48, 32), Rect2(0, 0, 0, 0), Rect2(0, 0, 2.5, 3)]:
		draws = 0
		navgrid.bounds = bounds
		yield(_frames(5), "completed")
		var rect = navgrid.bounds
		_report({"bounds": [rect.position.x, rect.position.y, rect.size.x, rect.size.y], "draws": draws,
			"warning": navgrid.call("_get_configuration_warning")})
		navgrid.call("_draw")


func _group_manager(scene_path):
	# The scene's GroupManager selected (the inspector reads its properties, the Scene dock shows its icon), then its
	# configuration warning for each [cohesion, nav_grid_path] set in turn.
	get_editor_interface().open_scene_from_path(scene_path)
	yield(_frames(5), "completed")
	var scene = get_editor_interface().get_edited_scene_root()
	var manager = scene.get_node("GroupManager")
	_select(manager)
	yield(_frames(5), "completed")
	_report({"selected": str(scene.get_path_to(manager)), "script": manager.get_script().resource_path,
		"inspected": _inspected_properties(manager), "icon": _scene_dock_icon(manager),
		"toolbar_visible": _bake_button().is_visible_in_tree()})
	for settings in [["arrival", "../Demo/NavGrid"], ["fast", "../Demo/NavGrid"], ["speed", "../Demo/TileMap"],
			["route", "../Nothing"], ["route", ""]]:
		manager.cohesion = settings[0]
		manager.nav_grid_path = NodePath(settings[1])
		_report({"settings": settings, "warning": manager.call("_get_configuration_warning")})
