"""PathUnits in the real engine with pythonscript, ordered and heard by a GDScript game, frame by frame.

``tests/engine/in_godot/unit_game.gd`` plays one scenario a run on the demo map at
``--fixed-fps 60`` (tools/engine_runs.py): it adds PathUnits (instances of
``tests/engine/in_godot/path_unit.tscn``), orders them with ``move_to``, edits the map,
frees and re-adds units, and prints every signal with its arguments, every
state change, each cell a unit entered and how each unit ended; ``play_four``
runs scenarios with the NavGrid's ``connectivity = 4``. Cells are
TileMap cells, positions global pixels; a signal's ``centre`` is the
engine's own centre of its cell (``map_to_world``).
"""

from typing import Dict

import pytest

from tests.support.engine_units import CELL_PIXELS, Cell, Game, assert_moved_frame_by_frame, cell, chebyshev
from tools.engine_runs import FPS, run_game

#: Where the scenarios send units: open ground south-east of the demo's western base.
GOAL = (10, 9)
#: The crowd scenario's files, as unit_game.gd places them: six inside the western base, six outside its east gate.
CROWD_INSIDE = [(x, y) for y in (0, 1, 2) for x in (-5, -4)]
CROWD_OUTSIDE = [(x, y + 2) for y in (0, 1, 2) for x in (8, 9)]
#: Unit name -> goal: each file goes to the other's places.
CROWD_GOALS = {**{f"In{n}": CROWD_OUTSIDE[n] for n in range(6)}, **{f"Out{n}": CROWD_INSIDE[n] for n in range(6)}}


@pytest.fixture(scope="module")
def play(godot_python):
    """One engine run per scenario, shared by the tests that read it."""
    games: Dict[str, Game] = {}

    def game(scenario: str) -> Game:
        if scenario not in games:
            games[scenario] = Game(run_game(godot_python, "unit_game.gd", scenario=scenario))
        return games[scenario]

    return game


def assert_walked(game: Game, unit: str, final_state: str, final_cell: Cell, stops: int = 1) -> None:
    """The unit moved frame by frame (:func:`assert_moved_frame_by_frame`) to the final cell, where it stands,
    having stopped (arrived, held_up, unreachable) ``stops`` times: once per order, and again after going on.
    ``final_state`` is the unit's state name; its signal is that name in lower case."""
    end = game.ends[unit]
    assert end["state"] == final_state and cell(end["cell"]) == final_cell, (unit, end, game.signals[unit])
    assert_moved_frame_by_frame(game, unit)
    signals = game.signals[unit]
    assert signals[-1]["signal"] == final_state.lower() and cell(signals[-1]["cell"]) == final_cell, signals
    assert signals[-1]["at"] == pytest.approx(signals[-1]["centre"]) and signals[-1]["reason"] == end["reason"]
    assert sum(signal["signal"] in ("arrived", "held_up", "unreachable") for signal in signals) == stops, signals


def test_a_trip_finds_its_path_passes_waypoints_and_arrives(play):
    game = play("trip")
    [order] = game.orders["Scout"]
    assert order["accepted"] is True and order["status"] == "OK" and order["state"] == "FIND_PATH"
    signals = game.signals["Scout"]
    names = [signal["signal"] for signal in signals]
    assert names[0] == "path_found" and cell(signals[0]["cell"]) == GOAL, signals
    assert names[1:-1] and set(names[1:-1]) == {"waypoint_reached"}, names
    assert names[-1] == "arrived" and cell(signals[-2]["cell"]) == GOAL  # the goal is the last waypoint
    assert_walked(game, "Scout", "ARRIVED", GOAL)
    end = game.ends["Scout"]
    assert end["reason"] == "" and end["status"] == "OK"
    travel = signals[-1]["frame"] - signals[0]["frame"]
    assert end["moved_frames"] >= travel, (end, travel)  # a step every frame, none skipped
    states = game.states["Scout"]
    assert states[0] == "FIND_PATH" and "MOVING" in states and states[-1] == "ARRIVED", states


def test_once_its_units_stand_the_navgrid_rests_and_an_order_wakes_it(play):
    game = play("rest")
    [rest], [woken] = game.named("rest"), game.named("woken")
    assert rest["at_rest"] is True and woken["at_rest"] is False
    assert_walked(game, "Scout", "ARRIVED", (-5, -1), stops=2)  # there and back, frame by frame
    arrivals = [signal for signal in game.signals["Scout"] if signal["signal"] == "arrived"]
    assert cell(arrivals[0]["cell"]) == GOAL and arrivals[0]["frame"] < rest["rest"] < arrivals[1]["frame"]


def test_a_goal_walled_in_mid_trip_is_unreachable(play):
    game = play("walled_in")
    blocks = game.named("block")
    assert len(blocks) == 8 and all(block["done"] and block["status"] == "OK" for block in blocks), blocks
    walled_at = blocks[0]["frame"]
    signals = game.signals["Scout"]
    assert signals[0]["signal"] == "path_found" and cell(signals[0]["cell"]) == GOAL
    replans = [s for s in signals if s["signal"] == "path_found" and s["frame"] > walled_at]
    assert replans, signals  # planned anew once the walls were up: to the reachable cell nearest the goal
    nearest = cell(replans[0]["cell"])
    assert chebyshev(nearest, GOAL) == 2, replans
    stop = signals[-1]
    assert stop["signal"] == "unreachable" and stop["reason"].startswith("goal (10, 9) cannot be reached from ("), stop
    assert_walked(game, "Scout", "UNREACHABLE", nearest)
    assert game.ends["Scout"]["reason"] == stop["reason"]


def test_a_unit_walled_off_its_goal_goes_on_when_the_game_opens_a_door(play):
    game = play("door_opens")
    opened = game.named("unblock")
    assert len(opened) == 1 and opened[0]["done"] and opened[0]["status"] == "OK", opened
    door, opened_at = cell(opened[0]["unblock"]), opened[0]["frame"]
    assert chebyshev(door, GOAL) == 1
    signals = game.signals["Scout"]
    before = [s["signal"] for s in signals if s["frame"] <= opened_at and s["signal"] != "waypoint_reached"]
    after = [s for s in signals if s["frame"] > opened_at and s["signal"] != "waypoint_reached"]
    assert before[-1] == "unreachable" and before.count("unreachable") == 1, before
    assert [s["signal"] for s in after] == ["path_found", "arrived"], after
    assert cell(after[0]["cell"]) == GOAL and after[-1]["reason"] == ""
    assert_walked(game, "Scout", "ARRIVED", GOAL, stops=2)
    assert door in [cell(entry) for entry in game.ends["Scout"]["visited"]]


def test_a_unit_ordered_onto_an_idle_unit_gets_the_cell_and_the_idle_unit_makes_way(play):
    game = play("blocked")
    assert_walked(game, "Walker", "ARRIVED", GOAL)
    holder = game.ends["Holder"]  # pushed aside (SPEC U7): it moves silently and stays beside the goal
    assert holder["state"] == "IDLE" and holder["moved_frames"] > 0 and not game.signals["Holder"], holder
    assert cell(holder["cell"]) != GOAL and holder["position"] == pytest.approx(holder["centre"]), holder


def test_bad_orders_get_a_status_and_one_error_line(play):
    game = play("bad_orders")
    nan_order, good_order = game.orders["NanOrder"]
    assert (nan_order["accepted"], nan_order["status"], nan_order["state"]) == (False, "INVALID_POSITION", "IDLE")
    [off_map] = game.orders["OffMap"]
    assert (off_map["accepted"], off_map["status"], off_map["state"]) == (False, "OUT_OF_BOUNDS", "IDLE")
    [lost] = game.orders["NoNavGrid"]
    assert (lost["accepted"], lost["status"], lost["state"]) == (False, "NOT_DRIVEN", "")
    assert game.joined["NoNavGrid"]["status"] == "NOT_DRIVEN"
    for unit in ("Wide", "Point", "Backwards", "Frozen"):
        assert (game.joined[unit]["status"], game.joined[unit]["state"]) == ("INVALID_SETTINGS", ""), unit
        assert game.ends[unit]["moved_frames"] == 0
    expected = {  # unit -> what its error lines say, one line per refusal
        "NanOrder": ["not finite"],
        "OffMap": ["outside the map"],
        "NoNavGrid": ["does not point at a node", "move_to: nav_grid_path '../Nothing' does not point at a node"],
        "Wide": ["radius must be in (0, 4]"],
        "Point": ["radius must be in (0, 4]"],
        "Backwards": ["speed must be a positive number"],
        "Frozen": ["speed must be a positive number"],
    }
    for unit, texts in expected.items():
        lines = game.error_lines(unit)
        assert len(lines) == len(texts) and all(text in line for text, line in zip(texts, lines)), (unit, lines)
    assert good_order["accepted"] and good_order["status"] == "OK"  # a refused order leaves the unit usable
    assert_walked(game, "NanOrder", "ARRIVED", (0, 3))
    assert game.ends["OffMap"]["state"] == "IDLE" and game.ends["OffMap"]["moved_frames"] == 0


def test_units_join_leave_and_come_back_at_run_time(play):
    game = play("join_leave")
    for unit in ("Stayer", "Leaver", "Returner", "Follower"):
        assert game.joined[unit]["frame"] > 0 and game.joined[unit]["status"] == "OK", game.joined[unit]
    [freed] = game.named("queue_free")
    assert game.ends["Leaver"] == {"end": "Leaver", "freed": True}
    assert all(signal["frame"] <= freed["frame"] for signal in game.signals["Leaver"]), game.signals["Leaver"]
    # The freed unit's cell is free at once: another unit is sent there and stands in it.
    assert_walked(game, "Follower", "ARRIVED", cell(freed["cell"]))
    [rejoined] = game.named("rejoined")
    assert (rejoined["status"], rejoined["state"]) == ("OK", "IDLE"), rejoined  # joins again from where it stands
    before = [entry for entry in game.ends["Returner"]["visited"] if entry[2] <= rejoined["frame"]]
    assert cell(rejoined["cell"]) == cell(before[-1]), (rejoined, before)
    assert_walked(game, "Returner", "ARRIVED", (12, 9))
    assert_walked(game, "Stayer", "ARRIVED", GOAL)


def test_units_follow_a_rebuild_while_they_move(play):
    game = play("rebuild")
    first, second = game.named("rebuilt")
    assert first["rebuilt"] is True and second["rebuilt"] is True and first["status"] == second["status"] == "BUILT"
    gate = {(3, 0), (3, 1), (3, 2)}  # the walls the game painted before the first rebuild
    for unit, goal in (("North", GOAL), ("Middle", (10, 11)), ("South", (12, 9))):
        assert_walked(game, unit, "ARRIVED", goal)
        after = {cell(entry) for entry in game.ends[unit]["visited"] if entry[2] >= first["frame"]}
        assert not after & gate, (unit, after & gate)
    trip = play("trip").ends["Scout"]["visited"]
    assert gate & {cell(entry) for entry in trip}, "the way to the goal no longer passes the gate: wall another"


def test_two_files_cross_through_a_gate_with_debug_drawing_on_and_never_overlap(play):
    """Issue 12 item 9: a crowd in the real engine. Six PathUnits inside the western base and six outside swap
    places through its east gate while the NavGrid draws paths, held cells and collision states; every unit
    arrives on its goal frame by frame, the game saw no two units overlap in any frame, and nothing failed."""
    game = play("crowd")
    assert sorted(game.ends) == sorted(CROWD_GOALS)
    for name, goal in CROWD_GOALS.items():
        assert game.ends[name]["state"] == "ARRIVED" and cell(game.ends[name]["cell"]) == goal, game.ends[name]
        assert [line["signal"] for line in game.signals[name]][-1] == "arrived"
        assert_moved_frame_by_frame(game, name)
    assert game.named("overlap") == []
    assert "pathing_py:" not in game.output and "ERROR" not in game.output


def test_a_tank_two_cells_wide_leaves_through_a_gate_as_soldiers_come_in(play):
    """SPEC G4 in the real engine: a PathUnit of radius 1 stands on a 2x2 block of cells, walks to the block
    it was sent to (its centre nearest the ordered point) through the three-cell gate while two soldiers come
    in, and its signals give its block's centre; no two units ever overlapped."""
    game = play("tank")
    assert game.joined["Tank"]["status"] == "OK", game.joined["Tank"]
    [order] = game.orders["Tank"]
    assert order["accepted"] and order["status"] == "OK", order
    for name, goal in (("In0", (-5, 2)), ("In1", (-4, 2))):
        assert_walked(game, name, "ARRIVED", goal)
    tank, signals = game.ends["Tank"], game.signals["Tank"]
    arrived = signals[-1]
    assert arrived["signal"] == "arrived" and cell(arrived["cell"]) == (8, 2), signals  # its block's top-left cell
    corner = [arrived["centre"][0] + CELL_PIXELS / 2, arrived["centre"][1] + CELL_PIXELS / 2]  # the block's centre
    assert arrived["position"] == pytest.approx(corner) and tank["position"] == pytest.approx(corner), (arrived, tank)
    assert tank["state"] == "ARRIVED" and cell(tank["cell"]) == (9, 3), tank  # the engine's cell of that point
    assert 0 < tank["longest_step"] <= game.joined["Tank"]["speed"] * CELL_PIXELS / FPS * 1.001, tank
    assert game.named("overlap") == []
    assert "pathing_py:" not in game.output and "ERROR" not in game.output


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def assert_walked_straight(game: Game, unit: str) -> None:
    """On a 4-connected NavGrid: in every frame the unit's node stood on a straight line between two points it
    stands on (cell centres, or corners for a unit two cells wide), and each cell it entered is beside the last
    one (no diagonal step)."""
    end = game.ends[unit]
    assert end["off_lines"] == [], (unit, end["off_lines"])
    if game.joined[unit]["radius"] == 0.5:  # a wider unit's cell is the one under its centre, a corner
        visited = [cell(entry) for entry in end["visited"]]
        assert all(manhattan(a, b) == 1 for a, b in zip(visited, visited[1:])), (unit, visited)


def assert_clean_but_the_graph_rebaked(game: Game) -> None:
    """Nothing failed; the one line of the NavGrid's is that the demo's graph, baked 8-connected, was baked anew."""
    lines = [line for line in game.output.splitlines() if "pathing_py:" in line]
    assert len(lines) == 1 and "baked for 8-connected movement, the grid is 4-connected" in lines[0], lines
    assert "ERROR" not in game.output


@pytest.fixture(scope="module")
def play_four(godot_python):
    """Like ``play``, on the demo map's NavGrid set to ``connectivity = 4`` before it is ready."""
    games: Dict[str, Game] = {}

    def game(scenario: str) -> Game:
        if scenario not in games:
            games[scenario] = Game(run_game(godot_python, "unit_game.gd", scenario=scenario, connectivity=4))
        return games[scenario]

    return game


def test_on_a_four_connected_navgrid_a_unit_walks_around_walls_in_straight_steps(play_four):
    """Issue 40 item 5: the trip out of the western base through its east gate, in straight steps only."""
    game = play_four("trip")
    signals = game.signals["Scout"]
    assert signals[0]["signal"] == "path_found" and cell(signals[0]["cell"]) == GOAL, signals
    assert_walked(game, "Scout", "ARRIVED", GOAL)
    assert_walked_straight(game, "Scout")
    visited = {cell(entry) for entry in game.ends["Scout"]["visited"]}
    # Out of the base around its walls, through the east gate or the south gap: on a 4-connected grid
    # both ways are shortest (25 straight steps), and which one the search takes is its tie-break.
    assert visited & {(3, 0), (3, 1), (3, 2), (-3, 5), (-2, 5), (-1, 5)}, visited
    assert_clean_but_the_graph_rebaked(game)


def test_on_a_four_connected_navgrid_two_units_cross_head_on_in_straight_steps(play_four):
    """Two units swap places along one row: one steps aside, in straight steps, and they never overlap."""
    game = play_four("cross")
    for name, goal in (("East", (8, 6)), ("West", (0, 6))):
        assert_walked(game, name, "ARRIVED", goal)
        assert_walked_straight(game, name)
    rows = {cell(entry)[1] for name in ("East", "West") for entry in game.ends[name]["visited"]}
    assert rows != {6}, rows  # they met on the row, and one stepped aside to let the other pass
    assert game.named("overlap") == []
    assert_clean_but_the_graph_rebaked(game)


def test_on_a_four_connected_navgrid_two_files_cross_through_a_gate(play_four):
    """The crowd of six and six through the western base's three-cell gate, in straight steps only."""
    game = play_four("crowd")
    assert sorted(game.ends) == sorted(CROWD_GOALS)
    for name, goal in CROWD_GOALS.items():
        assert game.ends[name]["state"] == "ARRIVED" and cell(game.ends[name]["cell"]) == goal, game.ends[name]
        assert_moved_frame_by_frame(game, name)
        assert_walked_straight(game, name)
    assert game.named("overlap") == []
    assert_clean_but_the_graph_rebaked(game)


def test_on_a_four_connected_navgrid_a_tank_two_cells_wide_leaves_through_a_gate_in_straight_steps(play_four):
    """SPEC G4 on a 4-connected grid: the tank of radius 1 leaves the base as two soldiers come in."""
    game = play_four("tank")
    for name, goal in (("In0", (-5, 2)), ("In1", (-4, 2))):
        assert_walked(game, name, "ARRIVED", goal)
    tank = game.ends["Tank"]
    assert tank["state"] == "ARRIVED" and cell(tank["cell"]) == (9, 3), tank  # the engine's cell of its centre
    for name in ("Tank", "In0", "In1"):
        assert_walked_straight(game, name)
    assert game.named("overlap") == []
    assert_clean_but_the_graph_rebaked(game)
