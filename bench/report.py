"""What every benchmark shares that needs neither tcod nor pathfinding: the length tolerance and the tables.

``harness.py`` re-exports these for the benchmarks against those peers;
``bench_engine.py``, whose peer runs inside Godot, imports them from here.
"""

import shlex
import sys
from pathlib import Path
from typing import Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent

TOLERANCE = 0.006  # the scenario files round lengths to 2 decimals at worst


def render(
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    markdown: bool,
    markdown_columns: Optional[Sequence[str]] = None,
) -> str:
    """A table as aligned text or as Markdown; columns are right-aligned except the first (the map name).

    Markdown is what docs/benchmarks.md shows (bench/readme_tables.py copies it there): only ``markdown_columns``,
    by name and in that order, when the full table is too wide for it.
    """
    if markdown:
        if markdown_columns is not None:
            kept = [list(columns).index(name) for name in markdown_columns]
            columns, rows = markdown_columns, [[row[i] for i in kept] for row in rows]
        lines = ["| " + " | ".join(columns) + " |", "|" + "|".join(["---"] + ["---:"] * (len(columns) - 1)) + "|"]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(columns)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return "\n".join([line(columns), line(["-" * w for w in widths])] + [line(row) for row in rows])


def command_line(script: str, argv: Optional[Sequence[str]]) -> str:
    """The command that produced a table, for its footnote, as a shell takes it (an empty option quoted)."""
    return " ".join(
        [f"python3 -m bench.{Path(script).stem}"]
        + [shlex.quote(word) for word in (sys.argv[1:] if argv is None else argv)]
    )


def pythonscript_python() -> Path:
    """pythonscript 0.50's embedded interpreter (CPython 3.8, with numpy 1.24), run as a program outside the engine:
    what ``--pythonscript`` benchmarks run on (see tools/godot_python.py for where pythonscript comes from)."""
    from tools.godot_python import find_pythonscript

    dist = find_pythonscript()
    if dist is None:
        sys.exit("--pythonscript needs pythonscript 0.50 (bash ../shared/pythonscript/build.sh, or $PYTHONSCRIPT_DIST)")
    return dist / "addons" / "pythonscript" / "x11-64" / "bin" / "python3"
