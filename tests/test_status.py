"""One status vocabulary (issue 11): the table in pathing_py.status and the README's "Statuses" section agree,
every enum a game sees takes its names from it, every status string the nodes' code and the game scripts use is
in it, and every reason or message a game sees names TileMap cells, never the grid's own cells."""

import ast
import re
from pathlib import Path
from typing import List, Tuple

import pytest

from pathing_py import status
from pathing_py.godot.groups import GroupDriver
from pathing_py.groups import GroupState
from pathing_py.search import PathStatus
from pathing_py.status import Status
from pathing_py.units import Navigator, UnitState
from pathing_py.units.local import WalkStatus
from tests.support.godot_units import DEAD_END, FakeTileMap, add, make_driver, run, world_centre

ROOT = Path(__file__).resolve().parent.parent
#: A whole string that reads as a status name.
STATUS_LIKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")


def docstring_table() -> List[Tuple[str, str]]:
    """The (name, meaning) rows of the table in pathing_py.status's docstring."""
    lines = (status.__doc__ or "").splitlines()
    rules = [number for number, line in enumerate(lines) if line.startswith("====")]
    assert len(rules) == 3, "the table is one header between three rules"
    return [tuple(re.split(r"\s{2,}", line.strip(), maxsplit=1)) for line in lines[rules[1] + 1 : rules[2]]]


def readme_table() -> List[Tuple[str, str]]:
    """The (name, meaning) rows of the README's "Statuses" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Statuses\n", 1)[1].split("\n## ", 1)[0]
    return [(name, meaning) for name, meaning in re.findall(r"^\| `([A-Z_]+)` \| (.+?) \|$", section, re.M)]


def test_the_table_names_every_status_once_and_the_readme_shows_the_same_table():
    rows = docstring_table()
    assert [name for name, _ in rows] == [member.name for member in Status]
    assert all(member.value == member.name for member in Status)
    assert readme_table() == rows


@pytest.mark.parametrize("enum", [PathStatus, WalkStatus, UnitState, GroupState])
def test_every_enum_a_game_sees_takes_its_names_from_the_table(enum):
    for member in enum:
        assert member.value == member.name and member.name in Status.__members__, member


def status_like_strings_in_python(path: Path) -> List[str]:
    """Whole string constants of a module that read as status names (``__all__`` lists left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exported = {
        id(element)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        for element in ast.walk(node.value)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in exported
        and STATUS_LIKE.fullmatch(node.value)
    ]  # fmt: skip


def status_names_used_in_python(path: Path) -> List[str]:
    """The ``X`` of every ``Status.X`` in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Status"
    ]


NODE_CODE = sorted((ROOT / "addons" / "pathing_py").glob("*.py")) + sorted((ROOT / "pathing_py" / "godot").glob("*.py"))
GAME_SCRIPTS = sorted((ROOT / "scenes").glob("*.gd")) + sorted((ROOT / "tests" / "engine" / "in_godot").glob("*.gd"))


def test_every_status_string_the_nodes_and_the_game_scripts_use_is_in_the_table():
    """The node scripts and their plain-Python halves give statuses only through Status (a literal would be a second
    vocabulary); the GDScript of the demos and the engine tests compares against names of the table only."""
    literals = {str(path.relative_to(ROOT)): status_like_strings_in_python(path) for path in NODE_CODE}
    assert {path: found for path, found in literals.items() if found} == {}
    used = {name for path in NODE_CODE for name in status_names_used_in_python(path)}
    assert used and used <= set(Status.__members__)
    compared = {
        name: path.name
        for path in GAME_SCRIPTS
        for name in re.findall(r'"([^"\\]*)"', path.read_text(encoding="utf-8"))
        if STATUS_LIKE.fullmatch(name)
    }
    assert {"OK", "CELL_HELD", "UNREACHABLE", "HELD_UP"} <= set(compared), compared  # the scan sees the scripts
    assert {name: path for name, path in compared.items() if name not in Status.__members__} == {}


# -- reasons name TileMap cells -------------------------------------------------------------------

#: Far from the grid's own cells: a grid cell in a message (0 to 10 here) cannot pass for a TileMap cell.
FAR = (1000, 2000)
INTEGER_PAIR = re.compile(r"\((-?\d+), (-?\d+)\)")


def far_cell(x: int, y: int) -> Tuple[int, int]:
    """The TileMap cell of a map character at column x, row y of a map drawn at :data:`FAR`."""
    return FAR[0] + x, FAR[1] + y


def named_cells(texts: List[str]) -> List[Tuple[int, int]]:
    return [(int(x), int(y)) for text in texts for x, y in INTEGER_PAIR.findall(text)]


def test_every_reason_and_message_a_game_sees_names_tilemap_cells():
    """A TileMap drawn far from cell (0, 0): every cell named in a unit's reason, an answer's or edit's message, a
    path answer's message, a group signal's detail or the cells a repainted map could not block is a TileMap cell."""
    texts: List[str] = []
    driver = make_driver(FakeTileMap(DEAD_END, origin=FAR))
    add(driver, 10, far_cell(2, 1))
    add(driver, 20, far_cell(6, 1))  # pushed into the dead end, it has nowhere to make way
    add(driver, 30, far_cell(0, 1))
    driver.order(10, world_centre(far_cell(7, 1)))
    driver.order(30, world_centre(far_cell(4, 0)))  # the wall
    _, signals = run(driver, 40.0)
    reasons = [signal.reason for signal in signals if signal.reason]
    assert {signal.name for signal in signals if signal.reason} == {"held_up", "unreachable"}
    texts += reasons
    texts += [add(driver, 40, far_cell(3, 0))[1].message]  # CELL_BLOCKED
    texts += [add(driver, 41, far_cell(6, 1))[1].message]  # CELL_HELD
    texts += [driver.set_cell_blocked(far_cell(6, 1), True).message]  # CELL_HELD
    texts += [driver.order(10, world_centre(far_cell(12, 1))).message]  # OUT_OF_BOUNDS
    texts += [driver.set_cell_blocked(far_cell(12, 1), True).message]  # OUT_OF_BOUNDS
    tilemap = FakeTileMap(DEAD_END, origin=FAR).navigator()
    texts += [tilemap.find_path(tilemap.centre_of(far_cell(1, 1)), tilemap.centre_of(far_cell(4, 0))).message]
    repainted = FakeTileMap(DEAD_END, origin=FAR)
    repainted.set_cell(*far_cell(1, 1), 1)  # a wall where a unit stands
    current = FakeTileMap(DEAD_END, origin=FAR).navigator()
    units = Navigator(current.grid)
    units.add_unit((1.5, 1.5), speed=1.0)
    refused = current.follow(repainted.navigator(), units.set_blocked)
    assert refused == [far_cell(1, 1)]
    groups_driver = make_driver(FakeTileMap(["." * 10] * 4, origin=FAR))
    for key in (1, 2, 3):
        add(groups_driver, key, far_cell(0, key - 1))
    groups = GroupDriver(groups_driver)
    settings = {"cohesion": "route", "formation": "line", "spacing": 1.0}.get
    groups.order("manager", [1, 2, 3], world_centre(far_cell(8, 2)), settings)
    run(groups_driver, 0.5)
    groups_driver.remove(3)
    run(groups_driver, 10.0)
    details = [signal.detail for signal in groups.signals("manager") if signal.detail]
    assert any(detail.startswith("unit 3") for detail in details), details  # member_lost names the node's key
    texts += details
    cells = named_cells(texts) + [tuple(cell) for cell in refused]
    assert len(cells) >= 8, texts
    assert [cell for cell in cells if cell[0] < FAR[0] - 2 or cell[1] < FAR[1] - 2] == [], texts
