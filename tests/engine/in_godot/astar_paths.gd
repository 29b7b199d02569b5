# Paths found by the engine's own AStar2D over a TileMap, with pathing_py's rule, for the tests to compare:
#   godot3-server --no-window --path PROJECT -s astar_paths.gd res://scene.tscn NODE X Y W H BLOCKING SX,SY,GX,GY ...
# NODE is the TileMap's path below the scene root ("." for the root); X Y W H the bounds in cells;
# BLOCKING the tile names that block whatever their shapes, comma-separated ("-" for none).
# A cell is open when it is empty or its tile has no collision shape there (any shape for single tiles,
# shapes whose autotile_coord is the cell's for autotiles and atlases; none for ids the TileSet lacks).
# Points are cells; neighbours are linked 8-ways, a diagonal only if both cells beside it are open
# (no corner cutting), so costs are 1 straight and sqrt(2) diagonal.
# Prints one "OPEN x y" line per open cell, then per pair "PATH sx sy gx gy cost n" or "NONE sx sy gx gy";
# last line "<N> passed, <M> failed".
extends SceneTree


func _init():
	var args = []
	for argument in OS.get_cmdline_args():
		args.append(argument)
	var at = args.find("-s") + 2
	var scene = load(args[at])
	if not scene is PackedScene:
		print("FAIL\tcannot load %s" % args[at])
		print("0 passed, 1 failed")
		quit(1)
		return
	var root = scene.instance()
	var tilemap = root if args[at + 1] == "." else root.get_node(args[at + 1])
	var bounds = Rect2(int(args[at + 2]), int(args[at + 3]), int(args[at + 4]), int(args[at + 5]))
	var blocking = [] if args[at + 6] == "-" else args[at + 6].split(",")
	var astar = AStar2D.new()
	var ids = {}
	for y in range(bounds.position.y, bounds.end.y):
		for x in range(bounds.position.x, bounds.end.x):
			if _open(tilemap, blocking, x, y):
				ids[Vector2(x, y)] = ids.size()
				astar.add_point(ids[Vector2(x, y)], Vector2(x, y))
				print("OPEN\t%d\t%d" % [x, y])
	for cell in ids:
		for dy in [-1, 0, 1]:
			for dx in [-1, 0, 1]:
				var other = cell + Vector2(dx, dy)
				if (dx == 0 and dy == 0) or not other in ids:
					continue
				if dx != 0 and dy != 0 and not (Vector2(cell.x + dx, cell.y) in ids and Vector2(cell.x, cell.y + dy) in ids):
					continue
				astar.connect_points(ids[cell], ids[other], false)
	for pair in args.slice(at + 7, args.size() - 1):
		var numbers = pair.split(",")
		var start = Vector2(int(numbers[0]), int(numbers[1]))
		var goal = Vector2(int(numbers[2]), int(numbers[3]))
		var points = PoolVector2Array()
		if start in ids and goal in ids:
			points = astar.get_point_path(ids[start], ids[goal])
		if points.size() == 0:
			print("NONE\t%d\t%d\t%d\t%d" % [start.x, start.y, goal.x, goal.y])
			continue
		var cost = 0.0
		for i in range(1, points.size()):
			cost += points[i].distance_to(points[i - 1])
		print("PATH\t%d\t%d\t%d\t%d\t%.9f\t%d" % [start.x, start.y, goal.x, goal.y, cost, points.size()])
	root.free()
	print("1 passed, 0 failed")
	quit(0)


func _open(tilemap, blocking, x, y):
	var tile = tilemap.get_cell(x, y)
	if tile == TileMap.INVALID_CELL:
		return true
	var tile_set = tilemap.tile_set
	if not tile in tile_set.get_tiles_ids():
		return true
	if tile_set.tile_get_name(tile) in blocking:
		return false
	var single = tile_set.tile_get_tile_mode(tile) == TileSet.SINGLE_TILE
	var coord = tilemap.get_cell_autotile_coord(x, y)
	for shape_data in tile_set.tile_get_shapes(tile):
		if shape_data["shape"] != null and (single or shape_data["autotile_coord"] == coord):
			return false
	return true
