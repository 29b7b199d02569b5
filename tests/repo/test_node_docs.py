"""docs/nodes.md (issue 43): its tables are what the node scripts declare, and each signal's arguments are those
the node really emits, so that a scene written from the page works."""

import ast
from pathlib import Path

import pytest

from pathing_py.godot.groups import GROUP_SIGNALS
from pathing_py.godot.units import REASON_SIGNALS, UNIT_SIGNALS
from tools import node_docs

ROOT = Path(__file__).resolve().parents[2]


def scripts():
    return {script.node: script for script in node_docs.read_all()}


def test_the_page_is_what_the_node_scripts_give():
    assert node_docs.main(["--check"]) == 0, "run python3 tools/node_docs.py"


def test_a_path_units_signals_carry_what_the_driver_emits():
    signals = {signal.name: signal.arguments for signal in scripts()["PathUnit"].signals}
    assert set(signals) == set(UNIT_SIGNALS)
    for name, arguments in signals.items():
        assert arguments == ("cell", "position") + (("reason",) if name in REASON_SIGNALS else ()), name


def test_a_group_managers_signals_carry_the_group_id_and_the_fields_the_groups_emit():
    signals = {signal.name: signal.arguments for signal in scripts()["GroupManager"].signals}
    assert set(signals) == set(GROUP_SIGNALS)
    for name, arguments in signals.items():
        assert arguments[0] == "group_id" and len(arguments) == 1 + len(GROUP_SIGNALS[name]), name


def test_a_navgrids_signals_carry_what_its_script_emits():
    """Its own emit_signal calls: ``self.call("emit_signal", name, *arguments)``."""
    source = (ROOT / "addons" / "pathing_py" / "nav_grid.py").read_text(encoding="utf-8")
    emitted = {}
    for call in ast.walk(ast.parse(source)):
        if isinstance(call, ast.Call) and [
            ast.literal_eval(arg) for arg in call.args[:1] if isinstance(arg, ast.Constant)
        ] == ["emit_signal"]:
            name = call.args[1]
            if isinstance(name, ast.Constant):
                emitted[name.value] = len(call.args) - 2
    signals = {signal.name: signal.arguments for signal in scripts()["NavGrid"].signals}
    assert emitted == {name: len(arguments) for name, arguments in signals.items()}


def test_every_export_is_listed_with_its_type_and_default():
    navgrid = {item.name: item for item in scripts()["NavGrid"].properties}
    assert navgrid["wall_tile"][1:3] == ("String", '""') and navgrid["bounds"][1:3] == ("Rect2", "Rect2(0, 0, 0, 0)")
    assert navgrid["empty_cells_passable"][1:3] == ("bool", "true")
    unit = {item.name: item for item in scripts()["PathUnit"].properties}
    assert set(unit) == {"nav_grid_path", "speed", "radius", "priority"} and unit["speed"][1:3] == ("float", "4.0")


def test_a_signal_without_its_arguments_is_refused(tmp_path):
    script = tmp_path / "node.py"
    script.write_text('class Node:\n    #: emitted now and then\n    ping = signal("ping")\n', encoding="utf-8")
    with pytest.raises(ValueError, match="the #: comment of signal ping must start with its \\(arguments\\)"):
        node_docs.read_script("Node", script)
    script.write_text("class Node:\n    speed = export(float, default=1.0)\n", encoding="utf-8")
    with pytest.raises(ValueError, match="speed has no #: comment"):
        node_docs.read_script("Node", script)
