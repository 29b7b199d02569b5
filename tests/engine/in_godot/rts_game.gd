extends SceneTree
# The RTS demo (scenes/rts_demo.tscn) played through its controls, as a player plays it. Mouse and key events go
# through Input.parse_input_event: the engine's path from the OS to the scene's _unhandled_input, which also sets
# the mouse position that the controller reads with get_global_mouse_position(), as in a real game (calling the
# handler with made-up events would skip both). One scenario a run:
#
#   godot3-server --no-window --path COPY --fixed-fps 60 -s res://tests/engine/in_godot/rts_game.gd --scenario=play
#   xvfb-run -s '-screen 0 1280x720x24' godot3-runner --path COPY --fixed-fps 60 -s res://tests/engine/in_godot/rts_game.gd \
#       --scenario=screenshot --out=/abs/path/rts_demo.png
#
# play: a wall refused on a unit and an order refused with nothing selected; a box dragged over the blue squad;
# debug drawing on (D); a right-click across the river; once the squad has formed and marches, a wall (W) on its
# route; the formations cycled (F); debug drawing off; after the group has arrived, the gates shut and opened (G).
# screenshot: the same up to the wall, then the viewport saved as a PNG 60 frames later (needs a display).
# Prints one JSON object a line: {"step": name, ...} as each step is done, {"group_signal": name, ...} for each
# GroupManager signal, {"end": unit, ...} per blue unit, then {"done": frame}. Cells are TileMap cells.

const SCENE = "res://scenes/rts_demo.tscn"
#: Where the blue squad is sent: open ground across the river from its base.
const TARGET = Vector2(20, 12)
#: Frames after which the run stops even if the squad is still under way (50 s of game time).
const LAST_FRAME = 3000
#: Frames of debug drawing counted, on and then off.
const DRAW_FRAMES = 30
#: Frames after the wall that the screenshot is taken.
const SHOT_FRAMES = 150

var options = {}
var frame = 0
var demo = null
var navgrid = null
var tilemap = null
var manager = null
var draws = 0  # "draw" signals of the NavGrid
var marks = {}  # step or signal name -> the frame it happened


func _init():
	for argument in OS.get_cmdline_args():
		if argument.begins_with("--") and "=" in argument:
			options[argument.substr(2, argument.find("=") - 2)] = argument.substr(argument.find("=") + 1, len(argument))
	demo = load(SCENE).instance()
	root.add_child(demo)
	current_scene = demo
	navgrid = demo.get_node("Demo/NavGrid")
	tilemap = demo.get_node("Demo/TileMap")
	manager = demo.get_node("GroupManager")
	navgrid.connect("draw", self, "_on_navgrid_draw")
	for name in ["group_ordered", "group_arrived"]:
		manager.connect(name, self, "_on_group_signal", [name])
	for name in ["formation_forming", "formation_formed", "formation_scaled", "formation_halved", "formation_broken"]:
		manager.connect(name, self, "_on_formation_signal", [name])


func _iteration(_delta):
	# Runs before the nodes' physics frame: this frame's input first, as the OS would deliver it.
	var done = _play()
	if done or frame >= LAST_FRAME:
		_finish()
		return true
	frame += 1
	return false


# -- the scenario ---------------------------------------------------------------------------------------------

func _play():
	if frame == 2:  # the camera has placed the canvas
		var red = demo.get_node("Units/Red1")
		move_mouse(red.global_position)
		press_key(KEY_W)
		_step("wall_on_unit", {"cell": pair(cell_at(red.global_position)), "blocked": navgrid.is_cell_blocked(cell_at(red.global_position))})
		click(BUTTON_RIGHT, centre_of(TARGET))
		_step("order_nothing", {"status": manager.get_last_status()})
	elif frame == 3:
		drag(corner_of(Vector2(-6, -2)), corner_of(Vector2(3, 3)))
		_step("selected", {"units": names(demo.selected)})
	elif frame == 4:
		press_key(KEY_D)
		_step("debug_on", {"debug_draw": navgrid.debug_draw})
		draws = 0
	elif frame == 5:
		click(BUTTON_RIGHT, centre_of(TARGET))
		_step("ordered", {"status": manager.get_last_status(), "formation": manager.formation,
			"target": pair(TARGET)})
	elif _since("formation_formed") == 20 and not marks.has("wall"):
		_drop_wall_on_route()
	elif options["scenario"] == "screenshot":
		if _since("wall") == SHOT_FRAMES:
			_screenshot(options["out"])
			return true
	elif _since("wall") == DRAW_FRAMES:
		_step("debug_counted", {"draws": draws, "frames": frame - marks["debug_on"]})
		navgrid._draw()  # outside a draw: the engine names each draw call it refuses (the test counts them)
		_step("direct_draw", {})
		press_key(KEY_D)
		draws = 0
		_step("debug_off", {"debug_draw": navgrid.debug_draw})
	elif _since("debug_off") == DRAW_FRAMES:
		_step("debug_off_counted", {"draws": draws})
		var formations = []
		for _i in range(4):
			press_key(KEY_F)
			formations.append(manager.formation)
		_step("formations", {"cycle": formations})
	elif _since("group_arrived") == 1:
		press_key(KEY_G)
		_step("gates_shut", {"gates": _gates()})
		press_key(KEY_G)
		_step("gates_open", {"gates": _gates()})
	elif _since("gates_open") == 1:
		return true
	return false


func _drop_wall_on_route():
	# The first free cell half way or more along a blue unit's way to the target: where the squad is headed.
	var unit = demo.selected[0]
	var way = navgrid.find_path(tilemap.to_local(unit.global_position), tilemap.to_local(centre_of(TARGET)))
	for index in range(way.size() / 2, way.size() - 3):
		var cell = tilemap.world_to_map(way[index])
		move_mouse(centre_of(cell))
		press_key(KEY_W)
		if navgrid.get_last_status() == "OK":
			_step("wall", {"cell": pair(cell), "blocked": navgrid.is_cell_blocked(cell), "index": index,
				"way": way.size(), "hud": demo.message})
			return
	_step("wall", {"cell": null, "status": navgrid.get_last_status()})


func _gates():
	var gates = []
	for cell in demo.gate_cells:
		gates.append([pair(cell), navgrid.is_cell_blocked(cell), tilemap.tile_set.tile_get_name(tilemap.get_cellv(cell))])
	return gates


func _screenshot(path):
	var image = root.get_texture().get_data()
	image.flip_y()  # viewport textures read back upside down in Godot 3
	_step("screenshot", {"path": path, "error": image.save_png(path), "size": pair(image.get_size())})


# -- input, as the OS hands it to the engine ------------------------------------------------------------------

func move_mouse(world, button_mask = 0):
	var event = InputEventMouseMotion.new()
	event.button_mask = button_mask
	_place(event, world)
	Input.parse_input_event(event)


func mouse_button(world, button, pressed):
	var event = InputEventMouseButton.new()
	event.button_index = button
	event.pressed = pressed
	_place(event, world)
	Input.parse_input_event(event)


func click(button, world):
	mouse_button(world, button, true)
	mouse_button(world, button, false)


func drag(from, to):
	mouse_button(from, BUTTON_LEFT, true)
	move_mouse(from.linear_interpolate(to, 0.5), BUTTON_MASK_LEFT)
	move_mouse(to, BUTTON_MASK_LEFT)
	mouse_button(to, BUTTON_LEFT, false)


func press_key(scancode):
	for pressed in [true, false]:
		var event = InputEventKey.new()
		event.scancode = scancode
		event.pressed = pressed
		Input.parse_input_event(event)


func _place(event, world):
	# Events carry viewport (screen) positions: the canvas transform of the camera takes world positions there.
	event.position = demo.get_viewport_transform().xform(world)
	event.global_position = event.position


# -- what the game sees --------------------------------------------------------------------------------------

func centre_of(cell):
	return tilemap.to_global(tilemap.map_to_world(cell) + tilemap.cell_size / 2)


func corner_of(cell):
	return tilemap.to_global(tilemap.map_to_world(cell))


func cell_at(world):
	return tilemap.world_to_map(tilemap.to_local(world))


func names(nodes):
	var found = []
	for node in nodes:
		found.append(node.name)
	return found


func pair(vector):
	return [vector.x, vector.y]


func _step(name, facts):
	marks[name] = frame
	facts["step"] = name
	facts["frame"] = frame
	facts["hud"] = facts.get("hud", demo.message)
	print(to_json(facts))


func _since(name):
	return frame - marks[name] if marks.has(name) else -1


func _on_navgrid_draw():
	draws += 1


func _on_group_signal(group_id, first, second, name):
	var line = {"group_signal": name, "frame": frame, "group_id": group_id}
	if name == "group_ordered":
		line["cell"] = pair(first)
	else:
		line["arrived"] = first
		line["members"] = second
	marks[name] = frame
	print(to_json(line))


func _on_formation_signal(group_id, detail, name):
	marks[name] = frame
	print(to_json({"group_signal": name, "frame": frame, "group_id": group_id, "detail": detail}))


func _finish():
	for unit in demo.get_node("Units").get_children():
		if unit.name.begins_with("Blue"):
			print(to_json({"end": unit.name, "state": unit.get_state(), "cell": pair(cell_at(unit.global_position))}))
	print(to_json({"done": frame}))
	quit(0)
