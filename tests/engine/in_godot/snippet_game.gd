extends SceneTree
# Loads the .tscn snippet of docs/nodes.md (written into the project copy by tests/engine/test_node_docs.py) and
# plays it as a game would: prints its nodes' settings, orders the Tank through the Squad to a cell, puts a wall
# up, and prints the signals and how the Tank ended, as JSON lines; then {"done": frames}.
#
#   godot3-server --no-window --path COPY --fixed-fps 60 -s res://tests/engine/in_godot/snippet_game.gd --scene=res://snippet.tscn

const GOAL = Vector2(30, 20)
const WALL = Vector2(20, 12)

var scene = null
var frame = 0


func _init():
	var options = {}
	for argument in OS.get_cmdline_args():
		if argument.begins_with("--") and "=" in argument:
			options[argument.substr(2, argument.find("=") - 2)] = argument.substr(argument.find("=") + 1, argument.length())
	scene = load(options["scene"]).instance()
	root.add_child(scene)
	current_scene = scene
	var navgrid = scene.get_node("NavGrid")
	var tank = scene.get_node("Tank")
	var squad = scene.get_node("Squad")
	print(to_json({"navgrid": navgrid.get_last_status(), "bounds": [navgrid.bounds.position.x, navgrid.bounds.position.y,
		navgrid.bounds.size.x, navgrid.bounds.size.y], "wall_tile": navgrid.wall_tile, "tank": [tank.speed, tank.priority,
		tank.radius, tank.get_last_status()], "squad": [squad.formation, squad.spacing, squad.cohesion]}))
	tank.connect("arrived", self, "_on_arrived")
	squad.connect("group_ordered", self, "_on_group_ordered")
	var tilemap = scene.get_node("TileMap")
	var target = tilemap.to_global(tilemap.map_to_world(GOAL) + tilemap.cell_size / 2)
	print(to_json({"order": squad.order_move([tank], target)}))
	print(to_json({"wall": navgrid.set_cell_blocked(WALL, true), "tile": tilemap.tile_set.tile_get_name(tilemap.get_cellv(WALL))}))


func _on_arrived(cell, _position):
	print(to_json({"arrived": [cell.x, cell.y], "frame": frame}))


func _on_group_ordered(group_id, cell, _position):
	print(to_json({"group_ordered": group_id, "cell": [cell.x, cell.y]}))


func _iteration(_delta):
	frame += 1
	var tank = scene.get_node("Tank")
	if tank.get_state() == "ARRIVED" or frame > 1200:
		print(to_json({"end": tank.get_state(), "done": frame}))
		quit(0)
		return true
	return false
