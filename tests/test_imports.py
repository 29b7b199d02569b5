"""No import cycle between our modules: each stands on the ones below it, type hints included (imports under
TYPE_CHECKING count; only imports inside functions, which run when called, do not)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import import_graph  # noqa: E402


def test_the_modules_import_one_another_without_a_cycle():
    files = import_graph.source_files()
    known = {import_graph.module_name(path) for path in files}
    edges = {(found.source, found.target) for path in files for found in import_graph.imports_of(path, known) if not found.in_function}
    assert import_graph.cycles(edges) == []
