"""Exported games with Python: the presets' packs, and the Linux pack run as a player runs a shipped game.

pythonscript 0.50 cannot run from inside a pack. Godot opens a GDNative
library only from disk, and when ``res://`` is a pack it looks for
``addons/pythonscript/x11-64/libpythonscript.so`` relative to the working
directory; pythonscript puts Python's home (the standard library) beside that
library and imports every ``.py`` script with Python's own import system,
whose ``sys.path`` entry for ``res://`` is then the working directory too. So
a shipped game is a folder: the pack, pythonscript's platform folder and the
game's Python modules at their ``res://`` paths, started from that folder
(README, "Exported games"; docs/design.md, E5). The packs carry our scripts (the scenes name them as
resources) and graphs, not pythonscript's runtime: it would not be used from
there, it is 143 MB, and Godot 3.2.3 reports an error for each of its empty
files (``store_buffer: Condition "!p_src" is true``) while packing it.
"""

import configparser
import shutil
import struct
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from tests.support.engine_scenes import Play, units_demo_intent
from tools.engine_runs import FPS, GameRun, json_lines
from tools.godot_python import IGNORED, GodotPython, failures

ROOT = Path(__file__).resolve().parents[2]
#: The presets, with the feature naming their platform's library in pythonscript.gdnlib.
PRESETS = {"Linux/X11": "X11.64", "Windows Desktop": "Windows.64"}
#: Python code a game imports, shipped beside the pack at its ``res://`` path: the addon, our package, the
#: demo's own scripts.
PYTHON_FOLDERS = ("addons/pathing_py", "pathing_py")
GAME_SCRIPTS = "scenes/*.py"
SCENE = "scenes/units_demo.tscn"
GRAPH = "scenes/demo.kpg"
SECONDS = 30

PCK_MAGIC = b"GDPC"
PCK_HEADER = struct.Struct("<4s4I64xI")  # magic, pack format, engine major/minor/patch, 16 reserved words, files


def pack_index(path: Path) -> Dict[str, Tuple[int, int]]:
    """Where each file of a Godot 3 ``.pck`` lies: path without ``res://`` -> (offset, size).

    Layout (editor_export.cpp, ``save_pack``): the header, then per file the
    path's padded length and bytes, its offset and size (64-bit) and an MD5.
    """
    with path.open("rb") as pack:
        magic, _, major, _, _, count = PCK_HEADER.unpack(pack.read(PCK_HEADER.size))
        if magic != PCK_MAGIC or major != 3:
            raise ValueError(f"{path} is not a Godot 3 pack")
        index = {}
        for _ in range(count):
            (length,) = struct.unpack("<I", pack.read(4))
            name = pack.read(length).rstrip(b"\0").decode("utf-8")
            offset, size = struct.unpack("<QQ16x", pack.read(32))
            index[name.replace("res://", "", 1)] = (offset, size)
    return index


def read_packed(path: Path, place: Tuple[int, int]) -> bytes:
    """The bytes of one file of a pack, at ``place`` from ``pack_index``."""
    offset, size = place
    with path.open("rb") as pack:
        pack.seek(offset)
        return pack.read(size)


def python_files() -> List[str]:
    """Every Python file a game may import, as the checkout holds them (paths relative to res://)."""
    found = [path for folder in PYTHON_FOLDERS for path in (ROOT / folder).rglob("*.py")]
    found += ROOT.glob(GAME_SCRIPTS)
    return sorted(path.relative_to(ROOT).as_posix() for path in found)


@pytest.fixture(scope="module")
def packs(godot_python: GodotPython, tmp_path_factory) -> Dict[str, Path]:
    """``--export-pack`` with each preset of the project copy (pythonscript in it)."""
    folder = tmp_path_factory.mktemp("packs")
    made = {}
    for preset in PRESETS:
        made[preset] = folder / f"{preset.split('/')[0].split()[0].lower()}.pck"
        godot_python.run(["--export-pack", preset, str(made[preset])], timeout=300)
        assert made[preset].is_file(), f"no pack for {preset}"
    return made


def runtime_folder(pythonscript: Path, preset: str) -> str:
    """pythonscript's folder for a preset's platform (``addons/pythonscript/x11-64``), from ``pythonscript.gdnlib``."""
    gdnlib = configparser.ConfigParser(interpolation=None)
    gdnlib.read(pythonscript / "pythonscript.gdnlib", encoding="utf-8")
    library = gdnlib["entry"][PRESETS[preset]].strip('"')
    return library.replace("res://", "", 1).rsplit("/", 1)[0]


def ship(godot_python: GodotPython, pack: Path, folder: Path) -> Path:
    """A shipped game's folder, as the README's export paragraph says: the pack, the runtime, the Python code."""
    folder.mkdir()
    shutil.copy(pack, folder / "game.pck")
    runtime = runtime_folder(godot_python.pythonscript, "Linux/X11")
    (folder / runtime).parent.mkdir(parents=True)
    (folder / runtime).symlink_to(godot_python.pythonscript / runtime)  # large and read-only: a link serves
    for name in PYTHON_FOLDERS:
        shutil.copytree(godot_python.project / name, folder / name, ignore=IGNORED)
    for script in godot_python.project.glob(GAME_SCRIPTS):
        shipped = folder / script.relative_to(godot_python.project)
        shipped.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(script, shipped)
    return folder


def run_shipped(godot_python: GodotPython, folder: Path, args: List[str], timeout: float = 180) -> str:
    """The engine started in the shipped folder on its pack (``--main-pack``), as a player starts the game."""
    return godot_python.godot.run(
        ["--no-window", "--main-pack", "game.pck", *args], cwd=folder, timeout=timeout, check_markers=False
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_the_pack_holds_the_scripts_scenes_and_graphs_but_not_the_runtime(packs, preset):
    index = pack_index(packs[preset])
    assert set(python_files()) <= set(index), sorted(set(python_files()) - set(index))
    assert {"pythonscript.gdnlib", SCENE, "scenes/demo.tscn", "scenes/demo_tileset.tres"} <= set(index)
    assert read_packed(packs[preset], index[GRAPH]) == (ROOT / GRAPH).read_bytes()
    assert not any(name.startswith(("addons/pythonscript/", "tests/", "bench/")) for name in index), preset


def test_python_does_not_start_from_the_pack_alone(godot_python, packs, tmp_path):
    """What the README's export paragraph answers: without the runtime beside it, the pack has no Python."""
    folder = tmp_path / "game"
    folder.mkdir()
    shutil.copy(packs["Linux/X11"], folder / "game.pck")
    output = run_shipped(godot_python, folder, ["--quit"])
    runtime = runtime_folder(godot_python.pythonscript, "Linux/X11")
    assert f"Can't open dynamic library: {runtime}/libpythonscript.so" in output, output


def test_the_shipped_linux_game_plays_the_units_demo_with_the_packed_graph(godot_python, packs, tmp_path):
    """The units demo for 30 s from the pack: clean, the NavGrid on the pack's graph (no re-bake), units arrive."""
    folder = ship(godot_python, packs["Linux/X11"], tmp_path / "game")
    watcher = godot_python.project / "tests" / "engine" / "in_godot" / "play_scene.gd"  # tests/ is not in the pack
    output = run_shipped(
        godot_python,
        folder,
        ["--fixed-fps", str(FPS), "-s", str(watcher), f"--scene=res://{SCENE}", f"--seconds={SECONDS}"],
    )
    found = failures(output) + [line for line in output.splitlines() if line.startswith("pathing_py:")]
    assert not found, "\n".join(found[:20]) + f"\n\n{output[-8000:]}"
    lines = json_lines(output)
    assert lines and "done" in lines[-1], output[-6000:]
    navgrids = [line for line in lines if "navgrid" in line]
    assert [(line["graph_path"], line["warning"]) for line in navgrids] == [(f"res://{GRAPH}", "")], navgrids
    play = Play(GameRun(lines, output))
    assert play.frames == SECONDS * FPS
    units_demo_intent(play)
    assert play.ends and all(end["state"] == "ARRIVED" for end in play.ends.values()), play.ends
