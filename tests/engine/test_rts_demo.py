"""The RTS demo (scenes/rts_demo.tscn) played through its controls in the real engine with pythonscript.

``tests/engine/in_godot/rts_game.gd`` plays it headless at ``--fixed-fps 60``, feeding
mouse and key events to ``Input.parse_input_event`` as the OS would, and
prints each step as a JSON line (tools/engine_runs.py): a wall refused on a
unit, an order refused with nothing selected, a box dragged over the blue
squad, debug drawing on, a right-click across the river, a wall on the
squad's route once it marches, debug drawing off, the formations cycled, the
gates shut and opened. The run fails on any traceback, script or engine error
but the draw calls the game makes outside a draw on purpose.
"""

from pathlib import Path
from typing import Dict, List

import pytest

from pathing_py.godot.text import parse_file
from tests.support.engine_editor import DRAW_REFUSED, refused_draw_calls
from tests.support.engine_units import cell, chebyshev
from tools.engine_runs import run_game

ROOT = Path(__file__).resolve().parents[2]
SCENE = ROOT / "scenes" / "rts_demo.tscn"
#: Where rts_game.gd sends the blue squad (its TARGET).
TARGET = (20, 12)


class Play:
    """What rts_game.gd printed: its steps by name, the GroupManager's signals, the blue units' ends."""

    def __init__(self, output: str, lines: List[dict]):
        self.output = output
        self.steps: Dict[str, dict] = {line["step"]: line for line in lines if "step" in line}
        self.signals = [line for line in lines if "group_signal" in line]
        self.ends = {line["end"]: line for line in lines if "end" in line}


@pytest.fixture(scope="module")
def play(godot_python) -> Play:
    run = run_game(godot_python, "rts_game.gd", scenario="play", allowed=(DRAW_REFUSED,))
    return Play(run.output, run.lines)


def scene_nodes(parent: str) -> List[str]:
    return [
        section.attributes["name"]
        for section in parse_file(SCENE).sections
        if section.tag == "node" and section.attributes.get("parent") == parent
    ]


def test_the_scene_has_two_squads_a_box_formation_and_gates():
    sections = parse_file(SCENE).sections
    units = scene_nodes("Units")
    assert sum(name.startswith("Blue") for name in units) == 8 and sum(name.startswith("Red") for name in units) == 12
    [manager] = [s for s in sections if s.tag == "node" and s.attributes["name"] == "GroupManager"]
    assert (manager.properties["formation"], manager.properties["spacing"]) == ("box", 2.0)
    root = next(s for s in sections if s.tag == "node" and "parent" not in s.attributes)
    assert len(root.properties["gate_cells"]) == 2 * 12


def test_a_wall_on_a_unit_and_an_order_for_no_unit_are_refused_with_their_status(play):
    wall, order = play.steps["wall_on_unit"], play.steps["order_nothing"]
    assert not wall["blocked"] and wall["hud"] == f"No wall at cell ({wall['cell'][0]}, {wall['cell'][1]}): CELL_HELD."
    assert order["status"] == "EMPTY_SELECTION" and order["hud"] == "Order refused: EMPTY_SELECTION."
    errors = [line for line in play.output.splitlines() if line.startswith("pathing_py: ")]
    assert errors == ["pathing_py: GroupManager: order_move: the selection is empty"]  # a unit's cell is routine


def test_a_box_dragged_over_the_blue_squad_selects_exactly_it(play):
    selected = play.steps["selected"]
    blue = [name for name in scene_nodes("Units") if name.startswith("Blue")]
    assert selected["units"] == blue and selected["hud"] == "8 units selected."


def test_a_right_click_forms_the_selection_up_and_marches_it_to_the_target(play):
    ordered = play.steps["ordered"]
    assert (ordered["status"], ordered["formation"]) == ("OK", "box")
    names = [signal["group_signal"] for signal in play.signals]
    assert names[:3] == ["group_ordered", "formation_forming", "formation_formed"] and names[-1] == "group_arrived"
    assert all(name.startswith("formation_") for name in names[1:-1]), names
    assert cell(play.signals[0]["cell"]) == TARGET and play.signals[1]["detail"] == "box"
    arrived = play.signals[-1]
    assert (arrived["arrived"], arrived["members"]) == (8, 8)
    ends = {unit: cell(end["cell"]) for unit, end in play.ends.items()}
    assert len(ends) == 8 and len(set(ends.values())) == 8, ends
    assert all(end["state"] == "ARRIVED" for end in play.ends.values())
    assert all(chebyshev(end, TARGET) <= 3 for end in ends.values()), ends


def test_w_over_the_squads_route_walls_the_cell_and_the_squad_still_arrives(play):
    wall = play.steps["wall"]
    formed = next(s["frame"] for s in play.signals if s["group_signal"] == "formation_formed")
    arrived = play.signals[-1]["frame"]
    assert wall["cell"] is not None, wall
    assert wall["blocked"] and wall["hud"] == f"Wall at cell ({wall['cell'][0]}, {wall['cell'][1]})."
    assert formed < wall["frame"] < arrived  # on the march
    assert wall["index"] >= wall["way"] // 2  # ahead on a blue unit's way to the target
    assert cell(wall["cell"]) not in {cell(end["cell"]) for end in play.ends.values()}


def test_d_turns_debug_drawing_on_redrawn_every_frame_then_off(play):
    on, counted, off = play.steps["debug_on"], play.steps["debug_counted"], play.steps["debug_off"]
    assert on["debug_draw"] and on["hud"] == "Debug drawing on." and not off["debug_draw"]
    assert counted["frames"] - 1 <= counted["draws"] <= counted["frames"] + 1  # one redraw per physics frame
    assert play.steps["debug_off_counted"]["draws"] <= 1  # the one that clears it, then none
    # _draw called outside a draw on the march: the engine names each draw call: key points, routes, held and
    # next cells, slots at the target, ... at least five layers.
    calls = refused_draw_calls(play.output)
    assert calls[0] == "draw_set_transform_matrix" and set(calls[1:]) == {"draw_multiline"} and len(calls) >= 6, calls


def test_f_cycles_the_managers_formation(play):
    formations = play.steps["formations"]
    assert formations["cycle"] == ["wedge", "none", "line", "box"]
    assert formations["hud"] == "Formation box for the next order."


def test_g_shuts_the_gates_with_wall_tiles_and_opens_them_again(play):
    shut, opened = play.steps["gates_shut"]["gates"], play.steps["gates_open"]["gates"]
    assert len(shut) == 12 and [gate[0] for gate in shut] == [gate[0] for gate in opened]
    assert all(blocked and tile == "wall" for _cell, blocked, tile in shut), shut
    assert all(not blocked and tile == "ground" for _cell, blocked, tile in opened), opened
    assert play.steps["gates_open"]["hud"] == "Gates open."
