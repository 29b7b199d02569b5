extends "res://tests/engine/in_godot/unit_game.gd"
# PathUnits ordered as one group by a GroupManager on the demo map: unit_game.gd's game, means and JSON lines,
# with scenarios of its own (one a run):
#
#   godot3-server --no-window --path COPY --fixed-fps 60 -s res://tests/engine/in_godot/group_game.gd --scenario=group
#
# Scenarios: group, group_bad_orders, group_bridge, group_changes, group_formation, group_tank (the _start_* and
# _frame_* functions).
# Prints, besides unit_game.gd's lines, {"group_order"} for each order_move (with every unit's state just after
# it) and {"group_signal"} for each GroupManager signal with its arguments. The run goes on until every group
# ordered has said it arrived.

const MANAGER_SCENE = "res://tests/engine/in_godot/group_manager.tscn"
#: Where the squad stands: TileMap cells west of the demo's western base.
const SQUAD = [Vector2(-5, -1), Vector2(-5, 1), Vector2(-5, 3), Vector2(-3, -1), Vector2(-3, 1), Vector2(-3, 3)]
#: Where the squad is sent: open ground south-east of the base.
const TARGET = Vector2(10, 9)

# Accepted orders whose group_arrived has not come yet are counted in remembered["groups_under_way"]: the
# scenarios start in unit_game.gd's _init, which runs before this script's own variables are set.


# -- scenarios ----------------------------------------------------------------------------------------------

func _start_group():
	order_group(add_manager("Squad"), add_squad(), centre_of(TARGET))


func _start_group_formation():
	order_group(add_manager("Squad", {"formation": "box", "spacing": 2.0}), add_squad(), centre_of(TARGET))


func _frame_group_formation():
	# Once the squad has arrived, the player asks for a line: it forms where it stands.
	if remembered.get("groups_under_way", 0) == 0 and not remembered.has("line_ordered"):
		var manager = demo.get_node("Squad")
		remembered["line_ordered"] = manager.order_formation("line")
		var refused = manager.order_formation("ring")
		print(to_json({"formation_order": "line", "frame": frame, "status": remembered["line_ordered"],
			"refused": refused, "formation": manager.formation}))
	if remembered.has("line_ordered") and not remembered.has("line_formed") and frame < LAST_FRAME - 2:
		busy_until = frame + 2  # the run ends once the line has formed and its signal came


func _start_group_tank():
	# A tank two cells wide (radius 1) in the squad, standing where Unit0 stood: the group takes a route the tank
	# fits and gives it a square of its own by the target; every frame the game checks that no two units overlap.
	var corner = demo.to_local(corner_of(Vector2(-5, -1)))  # on the cells (-5, -1) to (-4, 0)
	var selection = [add_unit("Tank", Vector2(-5, -1), {"radius": 1.0, "position": corner})]
	for index in range(1, SQUAD.size()):
		selection.append(add_unit("Unit%d" % index, SQUAD[index]))
	order_group(add_manager("Squad"), selection, centre_of(TARGET))


func _frame_group_tank():
	_frame_crowd()


func _start_group_bridge():
	# Two squads of six, each on its side of the river, ordered head-on over the same crossing (two cells wide,
	# three long: TileMap cells (14, 9) to (16, 10)), each by a GroupManager of its own on the one NavGrid.
	var west = []
	var east = []
	for index in range(6):
		west.append(add_unit("West%d" % index, Vector2(4 + index % 3, 6 + index / 3)))
		east.append(add_unit("East%d" % index, Vector2(27 + index % 3, 9 + index / 3)))
	order_group(add_manager("WestSquad"), west, centre_of(Vector2(28, 9)))
	order_group(add_manager("EastSquad"), east, centre_of(Vector2(5, 6)))


func _start_group_bad_orders():
	var manager = add_manager("Squad", {"cohesion": "arrival"})
	var squad = add_squad()
	order_group(manager, [], centre_of(TARGET))
	order_group(manager, [squad[0], tilemap], centre_of(TARGET))  # a TileMap is no PathUnit
	order_group(manager, squad, Vector2(NAN, NAN))
	order_group(manager, squad, centre_of(Vector2(500, 500)))
	manager.cohesion = "fast"
	order_group(manager, squad, centre_of(TARGET))
	manager.cohesion = "arrival"
	order_group(add_manager("LostManager", {"nav_grid_path": NodePath("../Nothing")}), squad, centre_of(TARGET))
	order_group(manager, squad, centre_of(TARGET))  # after the bad orders, a good one still moves the squad


func _start_group_changes():
	order_group(add_manager("Squad"), add_squad(), centre_of(TARGET))
	busy_until = 61


func _frame_group_changes():
	if frame == 30:  # a member is freed mid-trip
		var leaver = units["Unit2"]
		print(to_json({"queue_free": "Unit2", "frame": frame, "id": leaver.get_instance_id()}))
		leaver.queue_free()
	elif frame == 60:  # the map grows by a column: the NavGrid reads a new grid and hands units and groups over
		var before = tilemap.get_used_rect()
		tilemap.set_cell(before.position.x - 1, before.position.y, tilemap.tile_set.find_tile_by_name("ground"))
		var rebuilt = navgrid.rebuild()
		var after = tilemap.get_used_rect()
		print(to_json({"rebuilt": rebuilt, "frame": frame, "status": navgrid.get_last_status(),
			"used_before": [before.position.x, before.size.x], "used_after": [after.position.x, after.size.x]}))


# -- the game's means -------------------------------------------------------------------------------------

func add_manager(name, settings = {}):
	var manager = load(MANAGER_SCENE).instance()
	manager.name = name
	for key in settings:
		manager.set(key, settings[key])
	demo.add_child(manager)
	for signal_name in ["group_ordered", "group_arrived"]:
		manager.connect(signal_name, self, "_on_group_signal", [name, signal_name])
	manager.connect("member_lost", self, "_on_member_lost", [name])
	for signal_name in ["formation_forming", "formation_formed", "formation_scaled", "formation_halved", "formation_broken", "waiting_for_turn"]:
		manager.connect(signal_name, self, "_on_formation_signal", [name, signal_name])
	return manager


func add_squad():
	var squad = []
	for index in range(SQUAD.size()):
		squad.append(add_unit("Unit%d" % index, SQUAD[index]))
	return squad


func order_group(manager, selection, position):
	var status = manager.order_move(selection, position)
	var states = {}
	for name in _live_units():
		states[name] = units[name].get_state()
	# "to" as text: JSON has no NaN
	print(to_json({"group_order": manager.name, "frame": frame, "to": str(position), "status": status,
		"last_status": manager.get_last_status(), "states": states}))
	if status == "OK":
		remembered["groups_under_way"] = remembered.get("groups_under_way", 0) + 1


func _all_standing():
	return remembered.get("groups_under_way", 0) == 0 and ._all_standing()


func _on_group_signal(group_id, first, second, manager, signal_name):
	var line = {"group_signal": signal_name, "manager": manager, "frame": frame, "group_id": group_id}
	if signal_name == "group_ordered":
		line["cell"] = pair(first)
		line["position"] = pair(second)
		line["centre"] = pair(centre_of(first))
	else:
		line["arrived"] = first
		line["members"] = second
		remembered["groups_under_way"] -= 1
	print(to_json(line))


func _on_formation_signal(group_id, detail, manager, signal_name):
	if signal_name == "formation_formed" and detail == "line":
		remembered["line_formed"] = frame
	print(to_json({"group_signal": signal_name, "manager": manager, "frame": frame, "group_id": group_id,
		"detail": detail}))


func _on_member_lost(group_id, reason, manager):
	print(to_json({"group_signal": "member_lost", "manager": manager, "frame": frame, "group_id": group_id,
		"reason": reason}))
