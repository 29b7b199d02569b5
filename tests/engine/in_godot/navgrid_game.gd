extends Node
# A GDScript game asking a NavGrid for paths, cells and map edits, with typed variables as a game
# would write them: a value of the wrong type from the Python side is a script error here.


func ask(navgrid: Node, start_cell: Vector2, goal_cell: Vector2, wall_cell: Vector2) -> Dictionary:
	var start: Vector2 = navgrid.cell_to_world(start_cell)
	var goal: Vector2 = navgrid.cell_to_world(goal_cell)
	var answers := {}
	answers["start_cell"] = navgrid.world_to_cell(start)
	var path: PoolVector2Array = navgrid.find_path(start, goal)
	answers["path"] = path
	answers["found_status"] = navgrid.get_last_status()
	var blocked: bool = navgrid.set_cell_blocked(wall_cell, true)
	answers["blocked"] = blocked
	answers["blocked_status"] = navgrid.get_last_status()
	answers["wall_blocks"] = navgrid.is_cell_blocked(wall_cell)
	var to_wall: PoolVector2Array = navgrid.find_path(start, navgrid.cell_to_world(wall_cell))
	answers["to_wall_size"] = to_wall.size()
	answers["to_wall_status"] = navgrid.get_last_status()
	answers["nan_cell"] = navgrid.world_to_cell(Vector2(NAN, 0))
	answers["nan_status"] = navgrid.get_last_status()
	var freed: bool = navgrid.set_cell_blocked(wall_cell, false)
	answers["freed"] = freed
	answers["wall_blocks_after"] = navgrid.is_cell_blocked(wall_cell)
	return answers
