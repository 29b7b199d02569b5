# Prints what Godot itself sees in the TileMaps of the scenes named on the command line:
#   godot3-server --no-window --path PROJECT -s dump_tilemaps.gd res://a.tscn res://b.tscn
# One tab-separated line per TileMap and per used cell:
#   TILEMAP <scene> <node path> <own> <rect x> <rect y> <rect w> <rect h> <cells>
#   CELL <scene> <node path> <x> <y> <tile> <autotile x> <autotile y> <flip_h> <flip_v> <transpose> <collision>
# <node path> starts at the root's name ("World/Ground"); <own> is 0 for a TileMap
# from an instanced scene; flags are 0/1; <collision> is 1 if a shape of the tile
# applies to the cell (any shape for single tiles, shapes whose autotile_coord is
# the cell's for autotiles and atlases, as TileMap::update_dirty_quadrants does),
# 0 if not, -1 if the TileSet has no such tile.
# A scene that fails to load prints "FAIL <scene> <reason>". Last line:
# "<N> passed, <M> failed" (one per scene); the exit code is 1 on any failure.
extends SceneTree


func _init():
	var passed = 0
	var failed = 0
	for argument in OS.get_cmdline_args():
		if argument.ends_with(".tscn"):
			if _dump_scene(argument):
				passed += 1
			else:
				failed += 1
	print("%d passed, %d failed" % [passed, failed])
	quit(1 if failed > 0 or passed == 0 else 0)


func _dump_scene(path):
	var packed = load(path)
	if not packed is PackedScene:
		print("FAIL\t%s\tcannot load the scene" % path)
		return false
	var root = packed.instance()
	if root == null:
		print("FAIL\t%s\tcannot instance the scene" % path)
		return false
	_dump_node(path, root, root)
	root.free()
	return true


func _dump_node(path, root, node):
	if node is TileMap:
		_dump_tilemap(path, root, node)
	for child in node.get_children():
		_dump_node(path, root, child)


func _dump_tilemap(path, root, tilemap):
	var node_path = root.name
	if tilemap != root:
		node_path += "/" + str(root.get_path_to(tilemap))
	var own = tilemap == root or tilemap.owner == root
	var cells = tilemap.get_used_cells()
	var rect = tilemap.get_used_rect()
	var fields = [path, node_path, int(own), rect.position.x, rect.position.y, rect.size.x, rect.size.y, cells.size()]
	print(_line("TILEMAP", fields))
	for cell in cells:
		var x = int(cell.x)
		var y = int(cell.y)
		var tile = tilemap.get_cell(x, y)
		var coord = tilemap.get_cell_autotile_coord(x, y)
		var flags = [
			int(tilemap.is_cell_x_flipped(x, y)),
			int(tilemap.is_cell_y_flipped(x, y)),
			int(tilemap.is_cell_transposed(x, y)),
		]
		var collision = _collision(tilemap.tile_set, tile, coord)
		print(_line("CELL", [path, node_path, x, y, tile, coord.x, coord.y] + flags + [collision]))


func _collision(tile_set, tile, coord):
	if tile_set == null or not tile in tile_set.get_tiles_ids():
		return -1
	var single = tile_set.tile_get_tile_mode(tile) == TileSet.SINGLE_TILE
	for shape_data in tile_set.tile_get_shapes(tile):
		if shape_data["shape"] != null and (single or shape_data["autotile_coord"] == coord):
			return 1
	return 0


func _line(kind, fields):
	var text = kind
	for field in fields:
		text += "\t" + str(field)
	return text
