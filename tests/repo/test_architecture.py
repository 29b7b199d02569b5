"""tools/import_graph.py: docs/architecture.md's import graph is what the code gives, and the script reads imports
as Python does (relative, deferred, under TYPE_CHECKING), so that a graph edited by hand, or left behind by a
change to the imports, fails the suite."""

from pathlib import Path

import pytest

from tools import import_graph

ROOT = Path(__file__).resolve().parents[2]


def test_the_architecture_page_holds_the_current_graph(capsys):
    assert import_graph.main(["--check"]) == 0, capsys.readouterr().err


def test_every_part_of_the_code_has_a_layer():
    parts = {import_graph.part_of(import_graph.module_name(path)) for path in import_graph.source_files()}
    assert [part for part in sorted(parts) if import_graph.layer_of(part) is None] == []


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_imports_are_resolved_and_deferred_ones_marked(tmp_path, monkeypatch):
    monkeypatch.setattr(import_graph, "ROOT", tmp_path)
    files = [
        write(tmp_path, "pathing_py/__init__.py", "from .grid import Grid\n"),
        write(tmp_path, "pathing_py/grid.py", '"""The grid."""\ndef f():\n    from .godot import scene_files\n'),
        write(tmp_path, "pathing_py/godot/__init__.py", ""),
        write(tmp_path, "pathing_py/godot/scene_files.py", "from ..grid import Grid\nimport numpy\n"),
        write(
            tmp_path,
            "pathing_py/units/unit.py",
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from ..groups import group\n"
            "from . import path_stack\n",
        ),
        write(tmp_path, "pathing_py/units/path_stack.py", "import pathing_py.grid\n"),
        write(tmp_path, "pathing_py/groups/group.py", "from pathing_py.units.unit import Unit\n"),
    ]
    known = {import_graph.module_name(path) for path in files}
    found = {found for path in files for found in import_graph.imports_of(path, known)}
    Import = import_graph.Import
    assert found == {
        Import("pathing_py", "pathing_py.grid", False),
        Import("pathing_py.grid", "pathing_py.godot.scene_files", True, True),  # (in a function)
        Import("pathing_py.godot.scene_files", "pathing_py.grid", False),
        Import("pathing_py.units.unit", "pathing_py.groups.group", True),
        Import("pathing_py.units.unit", "pathing_py.units.path_stack", False),
        Import("pathing_py.units.path_stack", "pathing_py.grid", False),
        Import("pathing_py.groups.group", "pathing_py.units.unit", False),
    }
    text = import_graph.generated(files)
    assert "  grid -.-> godot\n" in text and "  godot --> grid\n" in text
    assert "- `grid` → `godot`, and back: `godot` → `grid`" in text
    assert "- `units` imports `groups` (inside a function)" not in text  # movement to movement: not up a layer
    assert "| `pathing_py/grid.py` | The grid. |" in text


def test_cycles_are_the_sets_of_parts_that_reach_each_other():
    edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "d")]
    assert import_graph.cycles(edges) == [["a", "b", "c"], ["d", "e"]]
    assert import_graph.cycles([("a", "b")]) == []


def test_a_page_without_its_markers_is_refused():
    with pytest.raises(ValueError, match="must hold one"):
        import_graph.replaced("# Architecture\n", "graph")
    document = f"head\n{import_graph.START}\n\nold\n\n{import_graph.END}\ntail\n"
    assert import_graph.replaced(document, "new") == f"head\n{import_graph.START}\n\nnew\n\n{import_graph.END}\ntail\n"
