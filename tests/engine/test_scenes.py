"""Every scene under scenes/ played for 30 s of game time by the real engine with pythonscript, as a player runs it.

``tests/engine/in_godot/play_scene.gd`` instances the scene, watches its PathUnits
frame by frame and prints what they did (tools/engine_runs.py). Each scene
must run clean (no crash, traceback or engine error), and its units must end
as the scene intends: a scene listed in ``INTENTS`` says what that is; any
other unit must end where it stood (never ordered) or arrived. Every example
scene the README or docs/ name is one of them (issue 40 item 5).
"""

import re
from typing import Callable, Dict, Set, Tuple

import pytest

from tests.support.engine_scenes import ROOT, Play, cell, units_demo_intent
from tools.engine_runs import FPS, run_game

SECONDS = 30
SCENES = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "scenes").rglob("*.tscn"))


@pytest.fixture(scope="module", params=SCENES)
def played(request, godot_python) -> Tuple[str, Play]:
    scene = request.param
    return scene, Play(run_game(godot_python, "play_scene.gd", scene=f"res://{scene}", seconds=SECONDS))


def test_there_are_scenes_with_units():
    assert "scenes/demo.tscn" in SCENES and "scenes/units_demo.tscn" in SCENES


#: A path to an example scene in a text: ``scenes/….tscn`` alone or after ``res://``, not inside another folder.
SCENE_NAME = re.compile(r"(?:res://|(?<![\w./-]))(scenes/[\w./-]+?\.tscn)\b")


def documented_scenes() -> Set[str]:
    """The example scenes README.md and docs/*.md name: ``scenes/….tscn`` (``res://`` or not), from the project
    root. (Test fixtures they cite as evidence are not examples; docs/nodes.md's snippet is played by
    tests/engine/test_node_docs.py.)"""
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return {name for path in texts for name in SCENE_NAME.findall(path.read_text(encoding="utf-8"))}


def test_every_example_scene_the_readme_and_docs_name_is_played_here():
    """A scene a reader is told to open exists, and is one this module plays in the engine (issue 40 item 5)."""
    named = documented_scenes()
    assert {"scenes/demo.tscn", "scenes/units_demo.tscn", "scenes/rts_demo.tscn"} <= named, named
    assert named <= set(SCENES), sorted(named - set(SCENES))


def test_the_scene_runs_its_seconds_clean(played):
    """run_game fails on any crash, traceback or engine error; every frame must have run."""
    _, play = played
    assert play.frames == SECONDS * FPS


def test_units_move_frame_by_frame_and_stop_on_cell_centres(played):
    _, play = played
    for unit, end in play.ends.items():
        start = play.starts[unit]
        if end["state"] == "IDLE":
            assert end["position"] == start["position"] and not play.signals[unit], unit
            continue
        pixels_per_frame = start["speed"] * max(start["cell_size"]) / FPS
        assert 0 < end["longest_step"] <= pixels_per_frame * 1.001, (unit, end, pixels_per_frame)
        assert end["moved_frames"] >= 1, unit
        assert end["position"] == pytest.approx(end["centre"]), (unit, end)  # stopped units stand on a centre
        events = play.signals[unit]
        assert events[0]["signal"] == "path_found", (unit, events)
        final = events[-1]
        assert final["signal"] == end["state"].lower() and cell(final["cell"]) == cell(end["cell"]), (unit, final, end)
        assert sum(event["signal"] in ("arrived", "held_up", "unreachable") for event in events) == 1, events
        for event in events:  # a signal's position is the centre of its cell
            assert event["position"] == pytest.approx(event["centre"]), (unit, event)


def test_units_end_as_the_scene_intends(played):
    scene, play = played
    intent = INTENTS.get(scene, any_unit_arrives_or_stays)
    intent(play)


def any_unit_arrives_or_stays(play: Play) -> None:
    for unit, end in play.ends.items():
        assert end["state"] in ("IDLE", "ARRIVED"), (unit, end, play.signals[unit])


INTENTS: Dict[str, Callable[[Play], None]] = {"scenes/units_demo.tscn": units_demo_intent}
