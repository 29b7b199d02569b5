"""A GroupManager in the real engine with pythonscript, ordering six PathUnits as one group for a GDScript game.

``tests/engine/in_godot/group_game.gd`` (unit_game.gd's game, with scenarios of its
own) adds a GroupManager and six PathUnits to the demo map at ``--fixed-fps
60``, orders them with ``order_move`` and prints the manager's signals besides
what unit_game.gd prints of each unit (tests/engine/test_units.py reads it).
"""

import ast
import functools
import math
from typing import List

import pytest

from tests.support.engine_units import CELL_PIXELS, Game, assert_moved_frame_by_frame, cell, chebyshev
from tools.engine_runs import FPS, run_game

#: Where group_game.gd sends the squad, and the squad's units.
TARGET = (10, 9)
SQUAD = [f"Unit{index}" for index in range(6)]


@pytest.fixture(scope="module")
def play(godot_python):
    """One engine run per scenario, shared by the tests that read it."""
    return functools.lru_cache(maxsize=None)(
        lambda scenario: Game(run_game(godot_python, "group_game.gd", scenario=scenario))
    )


def group_signals(game: Game) -> List[dict]:
    return game.named("group_signal")


def assert_squad_arrived(game: Game, squad: List[str], reach: int = 2, jump: float = 0.0) -> None:
    """Every unit arrived once and walked frame by frame (``jump``: see :func:`assert_moved_frame_by_frame`) to
    a cell of its own within ``reach`` cells of the target (a member that arrived first may have made way for
    the others since: it need not stand where it arrived)."""
    ends = {unit: cell(game.ends[unit]["cell"]) for unit in squad}
    assert len(set(ends.values())) == len(squad), ends
    assert all(chebyshev(end, TARGET) <= reach for end in ends.values()), sorted(ends.items())
    for unit in squad:
        assert_moved_frame_by_frame(game, unit, jump)
        names = [signal["signal"] for signal in game.signals[unit]]
        assert names[-1] == "arrived" and names.count("arrived") == 1 and game.ends[unit]["state"] == "ARRIVED", names


def test_a_group_order_brings_six_units_to_cells_by_the_target_with_one_signal_each_way(play):
    game = play("group")
    [order] = game.named("group_order")
    assert (order["status"], order["last_status"]) == ("OK", "OK")
    assert set(order["states"].values()) == {"FIND_PATH"}, order  # every unit ordered at once
    ordered, arrived = group_signals(game)
    assert (ordered["group_signal"], ordered["group_id"], cell(ordered["cell"])) == ("group_ordered", 1, TARGET)
    assert ordered["position"] == pytest.approx(ordered["centre"])
    assert ordered["frame"] == order["frame"] + 1  # emitted in the manager's first physics frame after the order
    assert (arrived["group_signal"], arrived["group_id"], arrived["arrived"], arrived["members"]) == (
        "group_arrived",
        1,
        6,
        6,
    )
    assert_squad_arrived(game, SQUAD)
    assert arrived["frame"] >= max(game.signals[unit][-1]["frame"] for unit in SQUAD)  # after the last one stood
    assert game.error_lines("Squad") == []


def test_a_tank_in_the_selection_marches_with_the_squad_to_a_square_of_its_own(play):
    """Groups with members wider than a cell in the real engine: the order is taken, every member arrives on
    cells of its own (the tank on its square, which no soldier stands on), and no two units ever overlapped."""
    game = play("group_tank")
    [order] = game.named("group_order")
    assert order["status"] == "OK", order
    ordered, arrived = group_signals(game)
    assert (ordered["group_signal"], cell(ordered["cell"])) == ("group_ordered", TARGET)
    assert (arrived["group_signal"], arrived["arrived"], arrived["members"]) == ("group_arrived", 6, 6), arrived
    assert_squad_arrived(game, SQUAD[1:], reach=5)  # a squad with a tank gathers in squares of the tank's size
    tank = game.ends["Tank"]
    assert tank["state"] == "ARRIVED" and chebyshev(cell(tank["cell"]), TARGET) <= 3, tank
    assert 0 < tank["longest_step"] <= game.joined["Tank"]["speed"] * CELL_PIXELS / FPS * 1.001, tank
    soldiers = {cell(game.ends[unit]["cell"]) for unit in SQUAD[1:]}
    arrived_at = game.signals["Tank"][-1]
    assert arrived_at["signal"] == "arrived", game.signals["Tank"]
    x, y = cell(arrived_at["cell"])  # its square's top-left cell
    assert soldiers.isdisjoint({(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)})  # the tank's square is its own
    assert game.named("overlap") == []
    assert "pathing_py:" not in game.output and "ERROR" not in game.output


def test_bad_orders_get_a_status_and_one_error_line_and_move_no_unit(play):
    game = play("group_bad_orders")
    orders = game.named("group_order")
    assert [(order["group_order"], order["status"]) for order in orders] == [
        ("Squad", "EMPTY_SELECTION"),
        ("Squad", "NOT_DRIVEN"),
        ("Squad", "INVALID_POSITION"),
        ("Squad", "OUT_OF_BOUNDS"),
        ("Squad", "INVALID_SETTINGS"),
        ("LostManager", "NOT_DRIVEN"),
        ("Squad", "OK"),
    ]
    assert all(order["last_status"] == order["status"] for order in orders)
    assert all(set(order["states"].values()) == {"IDLE"} for order in orders[:-1]), orders
    expected = [
        "order_move: the selection is empty",
        "order_move: units[1] (instance ",
        "order_move: position",
        "order_move: TileMap cell (500, 500) is outside the map",
        "order_move: cohesion 'fast' is not one of 'speed', 'route', 'arrival'",
    ]
    lines = game.error_lines("Squad")
    assert len(lines) == len(expected) and all(text in line for text, line in zip(expected, lines)), lines
    assert "is not a PathUnit of this NavGrid: nothing was ordered" in lines[1] and "not finite" in lines[2]
    [lost] = game.error_lines("LostManager")
    assert "order_move: nav_grid_path '../Nothing' does not point at a node." in lost
    ordered, arrived = group_signals(game)  # the refused orders took no group id
    assert (ordered["group_id"], cell(ordered["cell"])) == (1, TARGET)
    assert (arrived["group_id"], arrived["arrived"], arrived["members"]) == (1, 6, 6)
    assert_squad_arrived(game, SQUAD)


def test_a_group_loses_a_freed_member_and_goes_on_over_a_rebuilt_grid(play):
    game = play("group_changes")
    [freed] = game.named("queue_free")
    [rebuilt] = game.named("rebuilt")
    assert (rebuilt["rebuilt"], rebuilt["status"]) == (True, "BUILT")
    assert rebuilt["used_after"] != rebuilt["used_before"], rebuilt  # a new grid: units and groups handed over
    signals = group_signals(game)
    assert [(signal["group_signal"], signal["group_id"]) for signal in signals] == [
        ("group_ordered", 1),
        ("member_lost", 1),
        ("group_arrived", 1),
    ]
    lost, arrived = signals[1], signals[2]
    assert lost["reason"] == f"unit {freed['id']} was removed" and lost["frame"] <= freed["frame"] + 2, lost
    assert (arrived["arrived"], arrived["members"]) == (5, 5) and arrived["frame"] > rebuilt["frame"]
    assert game.ends["Unit2"] == {"end": "Unit2", "freed": True}
    # The new grid stands each unit on its cell's centre: a unit caught between two cells moves half a cell at most.
    assert_squad_arrived(game, [unit for unit in SQUAD if unit != "Unit2"], jump=CELL_PIXELS * math.sqrt(0.5))


def test_a_formation_order_forms_the_squad_then_marches_it_and_says_so(play):
    """formation = "box", spacing = 2 on the manager: the squad forms where it stands, then marches; the
    manager's signals follow the group's states in order, one per frame's events."""
    game = play("group_formation")
    signals = group_signals(game)
    names = [signal["group_signal"] for signal in signals]
    assert names[:3] == ["group_ordered", "formation_forming", "formation_formed"] and "group_arrived" in names, names
    arrival = names.index("group_arrived")
    assert signals[1]["detail"] == "box" and all(name.startswith("formation_") for name in names[3:arrival]), names
    assert (signals[arrival]["arrived"], signals[arrival]["members"]) == (6, 6)
    # Then order_formation("line"): the squad forms a line where it stands (a ring is refused, the line kept).
    [line] = game.named("formation_order")
    assert (line["status"], line["refused"], line["formation"]) == ("OK", "INVALID_SETTINGS", "line"), line
    assert [(s["group_signal"], s.get("detail")) for s in signals[arrival + 1 :]] == [
        ("formation_forming", "line"),
        ("formation_formed", "line"),
    ]
    assert [signal["frame"] for signal in signals] == sorted(signal["frame"] for signal in signals)
    ends = {unit: cell(game.ends[unit]["cell"]) for unit in SQUAD}
    assert len(set(ends.values())) == 6 and all(chebyshev(end, TARGET) <= 6 for end in ends.values()), (
        ends
    )  # a line 11 wide
    for unit in SQUAD:
        assert_moved_frame_by_frame(game, unit)
        assert game.ends[unit]["state"] == "ARRIVED"
    [refusal] = game.error_lines("Squad")
    assert "order_formation: formation 'ring' is not one of" in refusal


def test_two_squads_ordered_head_on_over_a_river_crossing_take_turns_on_it_and_both_arrive(play):
    """units.narrows in the engine: the demo's river crossings (two cells wide, three long) are narrow
    passages, and two GroupManagers' squads sent over the same one from either side are never on it at once."""
    game = play("group_bridge")
    arrived = [signal for signal in group_signals(game) if signal["group_signal"] == "group_arrived"]
    assert sorted((signal["manager"], signal["arrived"], signal["members"]) for signal in arrived) == [
        ("EastSquad", 6, 6),
        ("WestSquad", 6, 6),
    ]
    [done] = game.named("done")
    bridge = {(x, y) for x in range(14, 17) for y in (9, 10)}
    on_bridge = {side: set() for side in ("West", "East")}  # frames a unit of each squad stood on the bridge
    for side in on_bridge:
        for unit in (f"{side}{index}" for index in range(6)):
            assert game.ends[unit]["state"] == "ARRIVED", game.ends[unit]
            assert_moved_frame_by_frame(game, unit)
            entries = game.ends[unit]["visited"] + [[None, None, done["done"] + 1]]
            for (x, y, since), (_, _, until) in zip(entries, entries[1:]):
                if (x, y) in bridge:
                    on_bridge[side].update(range(int(since), int(until)))
    assert on_bridge["West"] and on_bridge["East"]  # both crossed it
    waited = [
        signal
        for side in on_bridge
        for index in range(6)
        for signal in game.signals[f"{side}{index}"]
        if signal["signal"] == "waiting_for_turn"
    ]
    assert waited and not any(cell(signal["cell"]) in bridge for signal in waited)  # the squad that waited said so
    held = {side for side in on_bridge for index in range(6)
            if any(signal["signal"] == "waiting_for_turn" for signal in game.signals[f"{side}{index}"])}  # fmt: skip
    told = [signal for signal in group_signals(game) if signal["group_signal"] == "waiting_for_turn"]
    assert sorted(signal["manager"] for signal in told) == sorted(
        f"{side}Squad" for side in held
    )  # its manager too, once
    assert not any(ast.literal_eval(signal["detail"]) in bridge for signal in told)
    assert not on_bridge["West"] & on_bridge["East"], sorted(on_bridge["West"] & on_bridge["East"])[:10]
