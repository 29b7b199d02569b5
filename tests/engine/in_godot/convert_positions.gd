# Converts positions and cells with every TileMap of a scene, as the engine itself does:
#   godot3-server --no-window --path PROJECT -s convert_positions.gd res://a.tscn IN.samples OUT.answers
# IN (little-endian): int32 count, then count (x, y) float32 positions; int32 count, then count (x, y)
# float32 cells. Floats go through files, not text, so that every bit of a position reaches Vector2.
# OUT, per TileMap of the scene that the scene itself owns, in tree order: its node path from the
# root's name (a Pascal string), then world_to_map of every position and map_to_world of every
# cell, as float32 pairs. Last line printed: "<N> passed, <M> failed" (N TileMaps converted).
extends SceneTree


func _init():
	var scene_path = ""
	var samples_path = ""
	var answers_path = ""
	for argument in OS.get_cmdline_args():
		if argument.ends_with(".tscn"):
			scene_path = argument
		elif argument.ends_with(".samples"):
			samples_path = argument
		elif argument.ends_with(".answers"):
			answers_path = argument
	var samples = File.new()
	var answers = File.new()
	if samples.open(samples_path, File.READ) != OK or answers.open(answers_path, File.WRITE) != OK:
		print("FAIL\tcannot open %s or %s" % [samples_path, answers_path])
		print("0 passed, 1 failed")
		quit(1)
		return
	var positions = _pairs(samples)
	var cells = _pairs(samples)
	samples.close()
	var packed = load(scene_path)
	if not packed is PackedScene:
		print("FAIL\t%s\tcannot load the scene" % scene_path)
		print("0 passed, 1 failed")
		quit(1)
		return
	var root = packed.instance()
	var converted = _convert_node(root, root, positions, cells, answers)
	answers.close()
	root.free()
	print("%d passed, 0 failed" % converted)
	quit(0 if converted > 0 else 1)


func _pairs(file):
	var pairs = []
	var count = file.get_32()
	for i in range(count):
		var x = file.get_float()
		var y = file.get_float()
		pairs.append(Vector2(x, y))
	return pairs


func _convert_node(root, node, positions, cells, answers):
	var converted = 0
	if node is TileMap and (node == root or node.owner == root):
		var node_path = root.name
		if node != root:
			node_path += "/" + str(root.get_path_to(node))
		answers.store_pascal_string(node_path)
		for position in positions:
			var cell = node.world_to_map(position)
			answers.store_float(cell.x)
			answers.store_float(cell.y)
		for cell in cells:
			var corner = node.map_to_world(cell)
			answers.store_float(corner.x)
			answers.store_float(corner.y)
		converted += 1
	for child in node.get_children():
		converted += _convert_node(root, child, positions, cells, answers)
	return converted
