"""What other tests take from tests/engine/test_editor.py: its helpers, moved here."""

import shutil
from pathlib import Path
from typing import Dict, List

from tools.engine_runs import json_lines
from tools.godot_python import GodotPython

ROOT = Path(__file__).resolve().parents[2]
CHECK_PLUGIN = "editor_check"
PLUGIN_CFG = """[plugin]

name="editor_check"
description="Drives the editor for tests/engine/test_editor.py"
author="pathing_py tests"
version="1"
script="editor_check.gd"
"""
#: What the engine prints for a draw call made outside a draw (see _observe_graph_drawing in editor_check.gd).
DRAW_REFUSED = "Drawing is only allowed inside NOTIFICATION_DRAW"


def with_check_plugin(copy: GodotPython) -> GodotPython:
    """Add the test plugin to a project copy and enable it after pathing_py."""
    copy.write(f"addons/{CHECK_PLUGIN}/plugin.cfg", PLUGIN_CFG)
    shutil.copy(ROOT / "tests" / "engine" / "in_godot" / "editor_check.gd", copy.project / "addons" / CHECK_PLUGIN)
    project = copy.project / "project.godot"
    text = project.read_text(encoding="utf-8")
    enabled = 'enabled=PoolStringArray( "pathing_py" )'
    assert enabled in text
    project.write_text(text.replace(enabled, f'enabled=PoolStringArray( "pathing_py", "{CHECK_PLUGIN}" )'))
    return copy


def run_check(copy: GodotPython, check: str, *options: str, allowed=()) -> List[Dict]:
    """One editor run of editor_check.gd; its JSON lines, which must end with {"done": true}."""
    output = copy.run_editor([f"--check={check}", *options], timeout=300, allowed=allowed)
    lines = json_lines(output)
    assert lines and lines[-1] == {"done": True}, output[-6000:]
    return lines


def refused_draw_calls(output: str) -> List[str]:
    """The draw calls the engine refused (made outside a draw), in order: stderr keeps their order, not stdout's."""
    return [line.split(":")[1].strip() for line in output.splitlines() if DRAW_REFUSED in line]
