extends Node2D
# The RTS demo's game code (scenes/rts_demo.tscn), as a game developer writes it over the pathing_py nodes:
# two squads on the demo map, a GroupManager that orders the player's selection, and these controls:
#
#   left-drag    select the units inside the box (a click selects the unit under the mouse, or none)
#   right-click  send the selection there as one group: GroupManager.order_move (it forms up, then marches)
#   W            drop a wall on the cell under the mouse: NavGrid.set_cell_blocked (refused where a unit stands)
#   G            shut (or open) the bases' gates, each as soon as no unit stands in it
#   F            the next formation for the next order: none, line, box, wedge
#   D            the NavGrid's debug drawing on or off
#
# Input comes through _unhandled_input, after any GUI control has had its chance. The HUD line says what the
# last input did, or why it was refused (the status the node returned).

const FORMATIONS = ["none", "line", "box", "wedge"]
#: Pixels around a click (or a short drag) that still select the unit under the mouse.
const CLICK_SLOP = 6.0
const SELECTED_RING = Color(1.0, 1.0, 1.0)
const SELECTION_FILL = Color(0.4, 0.8, 1.0, 0.15)
const SELECTION_EDGE = Color(0.4, 0.8, 1.0, 0.9)
const GATE_OPEN = Color(0.2, 0.9, 0.8, 0.9)
const GATE_SHUT = Color(0.9, 0.3, 0.2, 0.9)

#: TileMap cells of the bases' gates: openings in their walls that G shuts with wall tiles.
export(PoolVector2Array) var gate_cells = PoolVector2Array()

onready var navgrid = $Demo/NavGrid
onready var tilemap = $Demo/TileMap
onready var manager = $GroupManager
onready var overlay = $Overlay
onready var hud = $Hud/Help

var selected = []  # the PathUnits selected, in scene order
var drag_start = null  # where the left button went down (global position); null while not dragging
var gates_shut = false
var gates_left = []  # gate cells not switched yet: a unit stood in them
var message = ""  # what the last input did


func _ready():
	overlay.connect("draw", self, "_draw_overlay")
	manager.connect("group_arrived", self, "_on_group_arrived")
	_say("Drag a box around units, then right-click where they should go.")


func _unhandled_input(event):
	if event is InputEventMouseButton and event.button_index == BUTTON_LEFT:
		if event.pressed:
			drag_start = get_global_mouse_position()
		elif drag_start != null:
			_select(Rect2(drag_start, Vector2.ZERO).expand(get_global_mouse_position()).grow(CLICK_SLOP))
			drag_start = null
		overlay.update()
	elif event is InputEventMouseButton and event.button_index == BUTTON_RIGHT and event.pressed:
		_order(get_global_mouse_position())
	elif event is InputEventMouseMotion and drag_start != null:
		overlay.update()
	elif event is InputEventKey and event.pressed and not event.echo:
		if event.scancode == KEY_W:
			_drop_wall(get_global_mouse_position())
		elif event.scancode == KEY_G:
			_switch_gates()
		elif event.scancode == KEY_F:
			manager.formation = FORMATIONS[(FORMATIONS.find(manager.formation) + 1) % FORMATIONS.size()]
			_say("Formation %s for the next order." % manager.formation)
		elif event.scancode == KEY_D:
			navgrid.debug_draw = not navgrid.debug_draw
			_say("Debug drawing %s." % _on_off(navgrid.debug_draw))


func _physics_process(_delta):
	if gates_left:
		gates_left = _switched(gates_left)
		overlay.update()
	if selected:
		overlay.update()  # the rings follow the units


func _select(rect):
	selected = []
	for unit in $Units.get_children():
		if rect.has_point(unit.global_position):
			selected.append(unit)
	_say("%d units selected." % selected.size())


func _order(target):
	var status = manager.order_move(selected, target)
	if status == "OK":
		_say("%d units sent to cell %s in formation %s." % [selected.size(), _cell_at(target), manager.formation])
	else:
		_say("Order refused: %s." % status)


func _drop_wall(at):
	var cell = _cell_at(at)
	if navgrid.set_cell_blocked(cell, true):
		_say("Wall at cell %s." % cell)
	else:
		_say("No wall at cell %s: %s." % [cell, navgrid.get_last_status()])


func _switch_gates():
	gates_shut = not gates_shut
	gates_left = _switched(Array(gate_cells))
	var waiting = " (%d wait for units to leave them)" % gates_left.size() if gates_left else ""
	_say("Gates %s%s." % ["shut" if gates_shut else "open", waiting])
	overlay.update()


func _switched(cells):
	# Shuts (or opens) the gate cells; the cells left to do later: those a unit stands in.
	var left = []
	for cell in cells:
		if not navgrid.set_cell_blocked(cell, gates_shut) and navgrid.get_last_status() == "CELL_HELD":
			left.append(cell)
	return left


func _cell_at(at):
	return tilemap.world_to_map(tilemap.to_local(at))


func _on_group_arrived(group_id, arrived, members):
	_say("Group %d: %d of %d units arrived." % [group_id, arrived, members])


func _say(text):
	message = text
	hud.text = "Drag: select   Right-click: move   W: wall   G: gates   F: formation (%s)   D: debug (%s)\n%s" % [
		manager.formation, _on_off(navgrid.debug_draw), message]


func _on_off(flag):
	return "on" if flag else "off"


func _draw_overlay():
	var corner_to_overlay = overlay.get_global_transform().affine_inverse() * tilemap.get_global_transform()
	for cell in gate_cells:
		var rect = Rect2(corner_to_overlay.xform(tilemap.map_to_world(cell)), tilemap.cell_size)
		overlay.draw_rect(rect, GATE_SHUT if gates_shut else GATE_OPEN, false, 1.0)
	for unit in selected:
		overlay.draw_arc(overlay.to_local(unit.global_position), 9.0, 0.0, TAU, 20, SELECTED_RING, 2.0)
	if drag_start != null:
		var box = Rect2(overlay.to_local(drag_start), Vector2.ZERO).expand(overlay.get_local_mouse_position())
		overlay.draw_rect(box, SELECTION_FILL)
		overlay.draw_rect(box, SELECTION_EDGE, false, 1.0)
