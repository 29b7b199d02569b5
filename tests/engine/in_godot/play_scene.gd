extends SceneTree
# Plays a scene for some seconds of game time, as a game would, and prints what its PathUnits did as JSON lines.
#
#   godot3-server --no-window --path COPY --fixed-fps 60 -s res://tests/engine/in_godot/play_scene.gd --scene=res://scenes/x.tscn --seconds=30
#
# (Options, not bare paths: the engine runs a bare *.tscn argument as its main scene, even after "--".)
# Lines (one JSON object each): {"start": unit} when the scene is ready, {"navgrid": path} with its graph_path
# and configuration warning, {"signal": name, ...} for every PathUnit signal as the game sees it, {"end": unit}
# after the last frame with the unit's state and how it moved, {"tile": ...} for every TileMap cell of a
# NavGrid whose tile changed, then {"done": frames}.
# Cells are TileMap cells; positions are global pixels.

const PATH_UNIT_SCRIPT = "res://addons/pathing_py/path_unit.py"
const NAV_GRID_SCRIPT = "res://addons/pathing_py/nav_grid.py"

var frames_left = 0
var frame = 0
var scene = null
var units = []  # PathUnit nodes
var last_positions = {}  # unit -> global position at the last frame
var moved_frames = {}  # unit -> physics frames its position changed in
var longest_steps = {}  # unit -> the longest move in one physics frame, pixels
var tiles_before = {}  # NavGrid TileMap -> {cell: tile name}


func _init():
	var options = {}
	for argument in OS.get_cmdline_args():
		if argument.begins_with("--") and "=" in argument:
			options[argument.substr(2, argument.find("=") - 2)] = argument.substr(argument.find("=") + 1, argument.length())
	frames_left = int(round(float(options["seconds"]) * Engine.iterations_per_second))
	scene = load(options["scene"]).instance()
	root.add_child(scene)  # its scripts' _ready run now: units join their NavGrid, orders are given
	current_scene = scene
	for node in _nodes_with_script(scene, PATH_UNIT_SCRIPT):
		units.append(node)
		for name in ["path_found", "waypoint_reached", "arrived"]:
			node.connect(name, self, "_on_unit_signal", [node, name])
		for name in ["held_up", "unreachable"]:
			node.connect(name, self, "_on_unit_stopped", [node, name])
		last_positions[node] = node.global_position
		moved_frames[node] = 0
		longest_steps[node] = 0.0
		var tilemap = _tilemap_of(node)
		print(to_json({"start": str(scene.get_path_to(node)), "cell": _pair(_cell_of(tilemap, node.global_position)),
			"position": _pair(node.global_position), "speed": node.speed, "cell_size": _pair(tilemap.cell_size),
			"state": node.get_state(), "status": node.get_last_status()}))
	for navgrid in _nodes_with_script(scene, NAV_GRID_SCRIPT):
		# "warning": what the editor shows (Node has no public getter); a graph re-baked in memory shows there.
		print(to_json({"navgrid": str(scene.get_path_to(navgrid)), "graph_path": navgrid.graph_path,
			"warning": navgrid._get_configuration_warning()}))
		var tilemap = navgrid.get_node(navgrid.tilemap_path)
		tiles_before[tilemap] = _tiles(tilemap)


func _iteration(_delta):
	# Called before the nodes' own physics frame: sees the positions the last frame left.
	_watch_units()
	if frames_left == 0:
		_finish()
		return true
	frames_left -= 1
	frame += 1
	return false


func _watch_units():
	for unit in units:
		var position = unit.global_position
		var step = position.distance_to(last_positions[unit])
		if step > 0.0:
			moved_frames[unit] += 1
			longest_steps[unit] = max(longest_steps[unit], step)
		last_positions[unit] = position


func _on_unit_signal(cell, position, unit, name):
	_on_unit_stopped(cell, position, "", unit, name)


func _on_unit_stopped(cell, position, reason, unit, name):
	# "centre": the engine's own centre of the signal's cell; "at": where the unit's node is.
	print(to_json({"signal": name, "unit": str(scene.get_path_to(unit)), "frame": frame, "cell": _pair(cell),
		"position": _pair(position), "centre": _pair(_centre_of(_tilemap_of(unit), cell)),
		"at": _pair(unit.global_position), "reason": reason}))


func _finish():
	for unit in units:
		var tilemap = _tilemap_of(unit)
		var cell = _cell_of(tilemap, unit.global_position)
		print(to_json({"end": str(scene.get_path_to(unit)), "state": unit.get_state(), "reason": unit.get_reason(),
			"status": unit.get_last_status(), "cell": _pair(cell), "position": _pair(unit.global_position),
			"centre": _pair(_centre_of(tilemap, cell)), "moved_frames": moved_frames[unit], "longest_step": longest_steps[unit]}))
	for tilemap in tiles_before:
		var before = tiles_before[tilemap]
		var after = _tiles(tilemap)
		var cells = before.duplicate()
		for cell in after:
			cells[cell] = true
		for cell in cells:
			if before.get(cell, "") != after.get(cell, ""):
				print(to_json({"tile": _pair(cell), "before": before.get(cell, ""), "after": after.get(cell, "")}))
	print(to_json({"done": frame}))
	quit(0)


func _nodes_with_script(node, script_path):
	var found = []
	var script = node.get_script()
	if script != null and script.resource_path == script_path:
		found.append(node)
	for child in node.get_children():
		found += _nodes_with_script(child, script_path)
	return found


func _tilemap_of(unit):
	var navgrid = unit.get_node(unit.nav_grid_path)
	return navgrid.get_node(navgrid.tilemap_path)


func _cell_of(tilemap, global_position):
	return tilemap.world_to_map(tilemap.to_local(global_position))


func _centre_of(tilemap, cell):
	return tilemap.to_global(tilemap.map_to_world(cell) + tilemap.cell_size / 2)


func _tiles(tilemap):
	var names = {}
	for cell in tilemap.get_used_cells():
		names[cell] = tilemap.tile_set.tile_get_name(tilemap.get_cellv(cell))
	return names


func _pair(vector):
	return [vector.x, vector.y]
