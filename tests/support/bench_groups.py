"""What other tests take from tests/bench/test_bench_groups.py: its helpers, moved here."""

from pathlib import Path

import pytest

#: 64 x 40 cells, open but for a wall down the middle with a gap 8 cells wide.
WIDTH, HEIGHT, GAP = 64, 40, range(16, 24)


@pytest.fixture
def tiny_map(tmp_path) -> Path:
    rows = ["".join("@" if x == WIDTH // 2 and y not in GAP else "." for x in range(WIDTH)) for y in range(HEIGHT)]
    path = tmp_path / "tiny.map"
    path.write_text(f"type octile\nheight {HEIGHT}\nwidth {WIDTH}\nmap\n" + "\n".join(rows) + "\n")
    return path
