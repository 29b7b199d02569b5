extends SceneTree
# A GDScript game on the demo map that orders PathUnits about and listens to their signals, as our users write
# games; one scenario a run, driven by the engine's own physics frames:
#
#   godot3-server --no-window --path COPY --fixed-fps 60 -s res://tests/engine/in_godot/unit_game.gd --scenario=trip
#
# Scenarios: trip, rest, walled_in, door_opens, blocked, bad_orders, join_leave, rebuild, crowd, tank, cross (the
# _start_* and _frame_* functions). --connectivity=4 sets the NavGrid's connectivity before it is ready (else 8).
# Prints JSON lines: {"joined"}, {"order"}, {"signal"} and {"state"} as they happen, {"end"} per unit, then
# {"done": frame}. Cells are TileMap cells, positions global pixels.

const UNIT_SCENE = "res://tests/engine/in_godot/path_unit.tscn"
#: Frames after which a scenario stops even if units still move (20 s of game time).
const LAST_FRAME = 1200

var scenario = ""
var frame = 0
var busy_until = 0  # the scenario has steps to do until this frame
var demo = null
var navgrid = null
var tilemap = null
var units = {}  # name -> PathUnit, every unit the game made
var last_positions = {}  # name -> global position at the last frame
var moved_frames = {}  # name -> frames its position changed in
var longest_steps = {}  # name -> longest move in one frame, pixels
var off_lines = {}  # name -> [[frame, x, y], ...]: where it stood off every straight line between its stands
var states = {}  # name -> get_state() at the last frame
var visited = {}  # name -> [[x, y, frame], ...]: each cell the unit entered, with the frame
var remembered = {}  # what a scenario keeps between frames


func _init():
	var connectivity = 8
	for argument in OS.get_cmdline_args():
		if argument.begins_with("--scenario="):
			scenario = argument.substr(len("--scenario="), argument.length())
		elif argument.begins_with("--connectivity="):
			connectivity = int(argument.substr(len("--connectivity="), argument.length()))
	demo = load("res://scenes/demo.tscn").instance()
	navgrid = demo.get_node("NavGrid")
	tilemap = demo.get_node("TileMap")
	navgrid.wall_tile = "wall"  # set_cell_blocked paints this tile
	navgrid.connectivity = connectivity
	root.add_child(demo)
	call("_start_" + scenario)


func _iteration(_delta):
	# Runs before the nodes' physics frame: sees what the last frame did, then does this frame's steps.
	_watch()
	var method = "_frame_" + scenario
	if has_method(method):
		call(method)
	if frame >= LAST_FRAME or (frame >= busy_until and _all_standing()):
		_finish()
		return true
	frame += 1
	return false


# -- scenarios ----------------------------------------------------------------------------------------------

func _start_trip():
	var unit = add_unit("Scout", Vector2(-5, -1))
	order(unit, Vector2(10, 9))


func _start_walled_in():
	order(add_unit("Scout", Vector2(-5, -1)), Vector2(10, 9))
	busy_until = 30


func _frame_walled_in():
	if frame == 30:  # the goal is walled in while the unit is on its way
		for dx in [-1, 0, 1]:
			for dy in [-1, 0, 1]:
				if dx != 0 or dy != 0:
					block(Vector2(10 + dx, 9 + dy))


func _start_door_opens():
	_start_walled_in()


func _frame_door_opens():
	_frame_walled_in()
	if frame > 30 and states["Scout"] == "UNREACHABLE" and not remembered.has("door"):
		# the scout stopped at the nearest cell it could reach: open the wall cell between it and the goal
		var away = cell_of(units["Scout"]) - Vector2(10, 9)
		var door = Vector2(sign(away.x), 0) if abs(away.x) >= abs(away.y) else Vector2(0, sign(away.y))
		remembered["door"] = Vector2(10, 9) + door
		block(remembered["door"], false)
		busy_until = frame + 10


func _start_rest():
	order(add_unit("Scout", Vector2(-5, -1)), Vector2(10, 9))
	busy_until = LAST_FRAME  # until _frame_rest has seen the world rest and woken it


func _frame_rest():
	# Once the scout has stood ARRIVED for 30 frames: the NavGrid's world is at rest; an order wakes it.
	if states["Scout"] != "ARRIVED" or remembered.has("woken"):
		return
	if not remembered.has("arrived"):
		remembered["arrived"] = frame
	elif frame == remembered["arrived"] + 30:
		remembered["woken"] = frame
		print(to_json({"rest": frame, "at_rest": navgrid.is_at_rest()}))
		order(units["Scout"], Vector2(-5, -1))
		print(to_json({"woken": frame, "at_rest": navgrid.is_at_rest()}))
		busy_until = frame + 2


func _start_blocked():
	add_unit("Holder", Vector2(10, 9))  # never ordered: it makes way for the walker
	order(add_unit("Walker", Vector2(-5, -1)), Vector2(10, 9))


func _start_bad_orders():
	var unit = add_unit("NanOrder", Vector2(-5, -1))
	order_position(unit, Vector2(NAN, NAN))
	order_position(add_unit("OffMap", Vector2(-5, 1)), tilemap.to_global(tilemap.map_to_world(Vector2(500, 500))))
	var lost = add_unit("NoNavGrid", Vector2(-5, 3), {"nav_grid_path": NodePath("../Nothing")})
	order(lost, Vector2(0, 0))
	add_unit("Wide", Vector2(-3, -1), {"radius": 4.5})
	add_unit("Point", Vector2(-3, 1), {"radius": 0.0})
	add_unit("Backwards", Vector2(-3, 3), {"speed": -1.0})
	add_unit("Frozen", Vector2(-1, -1), {"speed": 0.0})
	order(unit, Vector2(0, 3))  # after a bad order, a good one still moves the unit


func _start_join_leave():
	busy_until = 150


func _frame_join_leave():
	if frame == 10:  # units join a NavGrid that has been running for a while
		order(add_unit("Stayer", Vector2(-5, -1)), Vector2(10, 9))
		order(add_unit("Leaver", Vector2(-5, 1)), Vector2(10, 11))
		order(add_unit("Returner", Vector2(-5, 3)), Vector2(12, 9))
		add_unit("Follower", Vector2(0, 3))
	elif frame == 60:  # freed mid-trip: its cells are free at once
		var leaver = units["Leaver"]
		remembered["left_cell"] = cell_of(leaver)
		print(to_json({"queue_free": "Leaver", "frame": frame, "cell": pair(remembered["left_cell"])}))
		leaver.queue_free()
	elif frame == 61:
		order(units["Follower"], remembered["left_cell"])
	elif frame == 90:  # out of the tree mid-trip ...
		demo.remove_child(units["Returner"])
	elif frame == 120:  # ... and back: it joins again from where it stands, and is sent on
		var returner = units["Returner"]
		demo.add_child(returner)
		print(to_json({"rejoined": "Returner", "frame": frame, "cell": pair(cell_of(returner)),
			"status": returner.get_last_status(), "state": returner.get_state()}))
		order(units["Returner"], Vector2(12, 9))


func _start_rebuild():
	order(add_unit("North", Vector2(-5, -1)), Vector2(10, 9))
	order(add_unit("Middle", Vector2(-5, 1)), Vector2(10, 11))
	order(add_unit("South", Vector2(-5, 3)), Vector2(12, 9))
	busy_until = 120


func _frame_rebuild():
	if frame == 60:  # the game paints walls over the base's east gate itself, then tells the NavGrid
		var wall = tilemap.tile_set.find_tile_by_name("wall")
		for y in [0, 1, 2]:
			tilemap.set_cell(3, y, wall)
		print(to_json({"rebuilt": navgrid.rebuild(), "frame": frame, "status": navgrid.get_last_status()}))
	elif frame == 120:  # and once more with nothing changed
		print(to_json({"rebuilt": navgrid.rebuild(), "frame": frame, "status": navgrid.get_last_status()}))


func _start_crowd():
	# Two files of six cross each other through the western base's east gate (three cells wide), with the
	# NavGrid drawing its debug layer; every frame the game checks that no two units overlap.
	navgrid.debug_draw = true
	var inside = []
	var outside = []
	for y in [0, 1, 2]:
		inside += [Vector2(-5, y), Vector2(-4, y)]
		outside += [Vector2(8, y + 2), Vector2(9, y + 2)]
	for number in range(6):
		order(add_unit("In%d" % number, inside[number]), outside[number])
	for number in range(6):
		order(add_unit("Out%d" % number, outside[number]), inside[number])


func _frame_crowd():
	var live = _live_units()
	for i in range(live.size()):
		for j in range(i + 1, live.size()):
			var a = units[live[i]]
			var b = units[live[j]]
			var reach = (a.radius + b.radius) * tilemap.cell_size.x * 0.99
			if a.global_position.distance_to(b.global_position) < reach:
				print(to_json({"overlap": [live[i], live[j]], "frame": frame}))


func _start_tank():
	# A tank two cells wide (radius 1) leaves the western base through its east gate (three cells wide) as two
	# soldiers come in through it; every frame the game checks that no two units overlap.
	var tank = add_unit("Tank", Vector2(-5, 0), {"radius": 1.0, "position": demo.to_local(corner_of(Vector2(-5, 0)))})
	order_position(tank, corner_of(Vector2(8, 2)))
	order(add_unit("In0", Vector2(9, 4)), Vector2(-5, 2))
	order(add_unit("In1", Vector2(8, 4)), Vector2(-4, 2))


func _frame_tank():
	_frame_crowd()


func _start_cross():
	# Two units swap places head-on along an open row; every frame the game checks that they never overlap.
	order(add_unit("East", Vector2(0, 6)), Vector2(8, 6))
	order(add_unit("West", Vector2(8, 6)), Vector2(0, 6))


func _frame_cross():
	_frame_crowd()


# -- the game's means -------------------------------------------------------------------------------------

func add_unit(name, cell, settings = {}):
	var unit = load(UNIT_SCENE).instance()
	unit.name = name
	unit.position = demo.to_local(centre_of(cell))
	unit.nav_grid_path = NodePath("../NavGrid")
	for key in settings:
		unit.set(key, settings[key])
	demo.add_child(unit)  # the unit joins its NavGrid in _ready
	for signal_name in ["path_found", "waypoint_reached", "waiting_for_turn", "arrived"]:
		unit.connect(signal_name, self, "_on_unit_signal", [name, signal_name])
	for signal_name in ["held_up", "unreachable"]:
		unit.connect(signal_name, self, "_on_unit_stopped", [name, signal_name])
	units[name] = unit
	last_positions[name] = unit.global_position
	moved_frames[name] = 0
	longest_steps[name] = 0.0
	off_lines[name] = []
	states[name] = unit.get_state()
	visited[name] = [pair(cell) + [frame]]
	print(to_json({"joined": name, "frame": frame, "cell": pair(cell), "position": pair(unit.global_position),
		"status": unit.get_last_status(), "state": states[name], "speed": unit.speed, "radius": unit.radius,
		"id": unit.get_instance_id()}))
	return unit


func order(unit, cell):
	order_position(unit, centre_of(cell))


func order_position(unit, position):
	var accepted = unit.move_to(position)
	# "to" as text: JSON has no NaN
	print(to_json({"order": unit.name, "frame": frame, "to": str(position), "accepted": accepted,
		"status": unit.get_last_status(), "state": unit.get_state()}))


func block(cell, blocked = true):
	var done = navgrid.set_cell_blocked(cell, blocked)
	print(to_json({"block" if blocked else "unblock": pair(cell), "frame": frame, "done": done,
		"status": navgrid.get_last_status()}))


func centre_of(cell):
	return tilemap.to_global(tilemap.map_to_world(cell) + tilemap.cell_size / 2)


func corner_of(cell):
	# Where a unit two cells wide stands on the block whose top-left cell is `cell`: that block's centre.
	return tilemap.to_global(tilemap.map_to_world(cell) + tilemap.cell_size)


func cell_of(unit):
	return tilemap.world_to_map(tilemap.to_local(unit.global_position))


func pair(vector):
	return [vector.x, vector.y]


# -- watching the units -----------------------------------------------------------------------------------

func _live_units():
	var live = []
	for name in units:
		if is_instance_valid(units[name]) and units[name].is_inside_tree():
			live.append(name)
	return live


func _watch():
	for name in _live_units():
		var unit = units[name]
		var step = unit.global_position.distance_to(last_positions[name])
		if step > 0.0:
			moved_frames[name] += 1
			longest_steps[name] = max(longest_steps[name], step)
			if _off_lines(unit):
				off_lines[name].append([frame] + pair(unit.global_position))
		last_positions[name] = unit.global_position
		var cell = pair(cell_of(unit))
		if cell != visited[name][-1].slice(0, 1):
			visited[name].append(cell + [frame])
		var state = unit.get_state()
		if state != states[name]:
			states[name] = state
			print(to_json({"state": state, "unit": name, "frame": frame}))


func _off_lines(unit):
	# Whether the unit is off both axes through the points it stands on: cell centres for a unit an odd number of
	# cells wide, cell corners for an even one; a straight step from one stand to the next never is.
	var size = tilemap.cell_size
	var local = tilemap.to_local(unit.global_position)
	if int(round(unit.radius * 2)) % 2 == 1:
		local -= size / 2
	var off = Vector2(fposmod(local.x, size.x), fposmod(local.y, size.y))
	return min(off.x, size.x - off.x) > 1e-3 and min(off.y, size.y - off.y) > 1e-3


func _all_standing():
	for name in _live_units():
		if not states[name] in ["", "IDLE", "ARRIVED", "HELD_UP", "UNREACHABLE"]:
			return false
	return true


func _on_unit_signal(cell, position, name, signal_name):
	_on_unit_stopped(cell, position, "", name, signal_name)


func _on_unit_stopped(cell, position, reason, name, signal_name):
	var unit = units[name]
	print(to_json({"signal": signal_name, "unit": name, "frame": frame, "cell": pair(cell),
		"position": pair(position), "centre": pair(centre_of(cell)), "at": pair(unit.global_position),
		"state": unit.get_state(), "reason": reason}))


func _finish():
	for name in units:
		if not is_instance_valid(units[name]):
			print(to_json({"end": name, "freed": true}))
			continue
		var unit = units[name]
		print(to_json({"end": name, "state": unit.get_state(), "reason": unit.get_reason(),
			"status": unit.get_last_status(), "cell": pair(cell_of(unit)), "position": pair(unit.global_position),
			"centre": pair(centre_of(cell_of(unit))), "moved_frames": moved_frames[name],
			"longest_step": longest_steps[name], "off_lines": off_lines[name], "visited": visited[name]}))
	print(to_json({"done": frame}))
	quit(0)
