import io
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pathing_py import GraphFileError, Grid, KeyPointGraph, Navigator, StaleGraphError, UnitState, find_path
from pathing_py.debug import (
    CLUSTER_BORDER,
    KEY_POINT,
    NEW_WALL,
    STOPPED_CROSS,
    draw_cells,
    draw_grid,
    draw_units,
    paths_picture,
    unit_colour,
    write_png,
)
from pathing_py.godot.scene_files import grid_from_tscn, read_tilemap
from pathing_py.hierarchy import HexKeyPointGraph
from pathing_py.tools.cli import DEMO_SCENE, ProgressBar, demo_frames_at_most, load_map, main
from pathing_py.units.prediction import route_cells
from tests.support.animation import decode_gif


def read_png(path):
    """The RGB pixels of a PNG file, as Pillow reads them."""
    with Image.open(path) as picture:
        assert picture.format == "PNG" and picture.mode == "RGB"
        return np.asarray(picture)


def test_png_round_trip(tmp_path):
    image = np.random.default_rng(3).integers(0, 256, (5, 7, 3), dtype=np.uint8)
    write_png(tmp_path / "x.png", image)
    assert (read_png(tmp_path / "x.png") == image).all()


def test_picture_marks_paths():
    grid = Grid.from_ascii("....\n....")
    image = paths_picture(grid, [[(0, 0), (1, 0)]], scale=4)
    assert image.shape == (8, 16, 3)
    assert tuple(image[2, 2]) != tuple(image[6, 14])


def test_paths_on_an_ascii_map(tmp_path, capsys):
    level = tmp_path / "level.txt"
    level.write_text("......\n.####.\n......\n###...\n")
    out = tmp_path / "paths.png"
    assert main(["paths", str(level), "--orders", "5", "--out", str(out), "--scale", "3"]) == 0
    printed = capsys.readouterr().out
    assert "6x4 cells, 17 passable" in printed
    assert printed.count("FOUND") == 5 and "5 of 5 orders found" in printed
    assert read_png(out).shape == (12, 18, 3)


def test_paths_are_deterministic(tmp_path, capsys, movingai_dir):
    runs = []
    for name in ("a.png", "b.png"):
        main(["paths", str(movingai_dir / "den520d.map"), "--orders", "4", "--out", str(tmp_path / name)])
        runs.append([line.split()[:6] for line in capsys.readouterr().out.splitlines() if "FOUND" in line])
    assert runs[0] == runs[1] and len(runs[0]) == 4
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


@pytest.mark.parametrize("command", ["demo", "paths"])
@pytest.mark.parametrize(
    "name, text, message",
    [
        ("bad.txt", "..\n.", "row is 1 wide"),
        ("level.xyz", "..", "unknown map type '.xyz'"),
        ("missing.map", None, "cannot read"),
    ],
)
def test_demo_and_paths_report_bad_maps(tmp_path, capsys, command, name, text, message):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    assert main([command, str(path), "--out", str(tmp_path / "x.png")]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["paths", "--orders", "0"], "must be at least 1"),
        (["demo", "--units", "0"], "must be at least 1"),
        (["demo", "--speed", "-1"], "must be a number above 0"),
        (["demo", "--out", "demo.mp4"], "must end in .gif or .png"),
    ],
)
def test_bad_options_are_refused(capsys, args, message):
    with pytest.raises(SystemExit):
        main(args)
    assert message in capsys.readouterr().err


# -- the units demo -----------------------------------------------------------------

ISLANDS = """\
..........
..........
......####
......#...
......#...
"""


def unit_rows(printed):
    """The demo's per-unit lines as {unit id: (state, walked, optimal, plans, why not arrived)}."""
    rows = {}
    for line in printed.split("why not arrived\n", 1)[1].splitlines():
        if not line[:4].strip().isdigit():
            break
        unit, _, _, _, _, state, walked, optimal, _, plans, _, _, _, *why = line.split(None, 13)
        rows[int(unit)] = (state, float(walked), None if optimal == "-" else float(optimal), int(plans), "".join(why))
    return rows


def printed_cells(text):
    """The cells ``(x, y)`` written in ``text``, in order."""
    return [(int(x), int(y)) for x, y in re.findall(r"\((-?\d+), (-?\d+)\)", text)]


def unit_orders(printed):
    """The demo's per-unit lines as {unit id: (start, goal)}."""
    table = printed.split("why not arrived\n", 1)[1].splitlines()
    return {int(line.split()[0]): tuple(printed_cells(line)[:2]) for line in table if line[:4].strip().isdigit()}


def test_demo_runs_units_and_says_why_one_cannot_arrive(tmp_path, capsys):
    level = tmp_path / "islands.txt"
    level.write_text(ISLANDS)
    out = tmp_path / "run.gif"
    assert (
        main(["demo", str(level), "--units", "4", "--walls", "1", "--seed", "3", "--scale", "4", "--out", str(out)])
        == 0
    )
    printed = capsys.readouterr().out
    assert "no islands.kpg beside the map: units plan with find_path alone" in printed
    rows = unit_rows(printed)
    assert rows[3] == ("UNREACHABLE", 2.0, None, 1, "goal (4, 3) cannot be reached from (9, 3) (no path at order time)")
    assert [rows[unit][:4] for unit in (1, 2, 4)] == [
        ("ARRIVED", 2.41, 2.41, 1),
        ("ARRIVED", 1.0, 1.0, 1),
        ("ARRIVED", 4.0, 4.0, 1),
    ]
    assert "4 units: 3 ARRIVED, 0 HELD_UP, 1 UNREACHABLE; 1.00 s simulated in 20 updates of 0.05 s" in printed
    assert "update: mean " in printed and "queue: 4 requests, 4 served" in printed
    frames, _ = decode_gif(out.read_bytes())
    assert frames[0][0].shape == (20, 40, 3)
    assert f"animation: {out} ({len(frames)} frames of 40x20" in printed
    assert frames[-1][1] >= 200  # the last picture stays at least 2 s


def test_demo_on_the_scene_puts_walls_on_routes_and_writes_a_png_with_the_animation_beside_it(tmp_path, capsys):
    out = tmp_path / "demo.png"
    assert main(["demo", "--scale", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "read as NavGrid 'Demo/NavGrid' does" in printed and "demo.kpg: key-point graph of" in printed
    walls = [line for line in printed.splitlines() if "across unit" in line]
    assert len(walls) == 4 and walls[0].startswith("t=2.00 s: wall ")
    grid = load_map(DEMO_SCENE).grid
    (ox, oy) = grid.origin  # the demo prints TileMap cells

    def to_grid(cell):
        return cell[0] - ox, cell[1] - oy

    wall_cells = [to_grid(cell) for line in walls for cell in printed_cells(line.split(" across ")[0])]
    assert f"walls: 4 put up, {len(wall_cells)} cells blocked, 0 refused" in printed
    assert 4 <= len(wall_cells) <= 12 and all(
        grid.is_passable(cell) for cell in wall_cells
    )  # walls go up on open ground
    grid.set_blocked(wall_cells)
    orders = unit_orders(printed)
    assert len(orders) == 8
    assert all(grid.same_island(to_grid(start), to_grid(goal)) for start, goal in orders.values()), (
        "the walls cut routes, not goals off"
    )
    rows = unit_rows(printed)
    assert {unit: row[0] for unit, row in rows.items()} == {unit: "ARRIVED" for unit in orders}
    assert all(walked >= optimal - 1e-9 for _, walked, optimal, _, _ in rows.values())
    assert sum(plans for _, _, _, plans, _ in rows.values()) >= 8
    frames, _ = decode_gif(out.with_suffix(".gif").read_bytes())
    assert (read_png(out) == frames[-1][0]).all()
    assert f"last picture: {out}" in printed


def test_demo_is_deterministic(tmp_path, capsys):
    printed = []
    for name in ("a.gif", "b.gif"):
        assert main(["demo", "--scale", "2", "--units", "6", "--seed", "5", "--out", str(tmp_path / name)]) == 0
        printed.append(capsys.readouterr().out)
    assert unit_rows(printed[0]) == unit_rows(printed[1])
    assert (tmp_path / "a.gif").read_bytes() == (tmp_path / "b.gif").read_bytes()


def test_demo_shows_the_frames_drawn_on_stderr_and_ends_the_bar_full(tmp_path, capsys):
    level = tmp_path / "islands.txt"
    level.write_text(ISLANDS)
    arguments = [
        "demo",
        str(level),
        "--units",
        "4",
        "--walls",
        "1",
        "--seed",
        "3",
        "--max-time",
        "5",
        "--out",
        str(tmp_path / "run.gif"),
    ]
    assert main(arguments) == 0
    printed = capsys.readouterr()
    assert "1.00 s simulated in 20 updates" in printed.out
    drawn = 1 + 20 // 2 + 1  # the first picture, one every other update, the last
    lines = printed.err.splitlines()
    assert lines[-1] == "[" + "#" * ProgressBar.WIDTH + f"] {drawn}/{drawn} frames drawn"
    counts = [line.split("] ")[1].split()[0].split("/") for line in lines[:-1]]
    assert counts and {total for _, total in counts} == {str(demo_frames_at_most(5.0))}  # the most a 5 s run draws
    assert [int(done) for done, _ in counts] == sorted(int(done) for done, _ in counts)
    assert all(
        line.startswith("t=") for line in printed.out.splitlines() if "across unit" in line
    )  # walls: stdout only


#: Runs the command line where Pillow cannot be imported.
WITHOUT_PILLOW = (
    "import sys; sys.modules['PIL'] = None; from pathing_py.tools.cli import main; sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize("command", [["demo"], ["paths"], ["render", "--graph", "x.kpg", "--out", "x.png"]])
def test_pictures_without_pillow_stop_at_once_with_one_line(level, tmp_path, command):
    arguments = [command[0], str(level), *command[1:]]
    work = tmp_path / "work"  # where the pictures would go
    work.mkdir()
    done = subprocess.run([sys.executable, "-c", WITHOUT_PILLOW, *arguments], capture_output=True, text=True, cwd=work)
    assert done.returncode == 2 and done.stdout == ""  # nothing read nor run
    assert (
        done.stderr == "pathing-py: pictures need Pillow, which this Python lacks: pip install 'pathing_py[pictures]'\n"
    )
    assert list(work.iterdir()) == []


def test_bake_needs_no_pillow(level, tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_PILLOW, "bake", str(level), "--out", str(tmp_path / "x.kpg")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "x.kpg").is_file()


def test_demo_bakes_again_when_the_graph_beside_the_map_is_stale(tmp_path, capsys):
    level = tmp_path / "level.txt"
    level.write_text(LEVEL)
    bake(capsys, level, "--cluster-size", "6")
    level.write_text("#" + LEVEL[1:])
    assert main(["demo", str(level), "--units", "3", "--walls", "0", "--out", str(tmp_path / "x.gif")]) == 0
    printed = capsys.readouterr().out
    assert "(for this run, a graph baked in memory is used)" in printed
    assert len(unit_rows(printed)) == 3


def test_units_are_drawn_with_their_plans_goals_and_crosses_when_stopped_short():
    grid = Grid.from_ascii(".........\n.........\n.........")
    navigator = Navigator(grid)
    walker, stopped = navigator.add_unit((0.5, 1.5), speed=2.0), navigator.add_unit((8.5, 0.5), speed=2.0)
    walker.move_to((8, 2))
    stopped.move_to((8, 0))
    navigator.update(0.05)
    stopped.state = UnitState.HELD_UP
    scale = 10
    image = draw_grid(grid, scale)
    draw_units(image, navigator, scale, trails={walker.id: [(0.5, 1.5), walker.position]})
    x, y = (np.asarray(walker.position) * scale).astype(int)
    assert tuple(image[y, x]) == unit_colour(walker.id)
    assert tuple(image[5, 85]) == STOPPED_CROSS  # the centre of the stopped unit
    assert tuple(image[20, 85]) == unit_colour(walker.id)  # the goal's outline
    (x0, y0), (x1, y1) = route_cells(walker)[-2:]
    assert tuple(image[int((y0 + y1 + 1) * scale / 2), int((x0 + x1 + 1) * scale / 2)]) == unit_colour(
        walker.id
    )  # the plan
    draw_cells(image, [(4, 0)], NEW_WALL, scale)
    assert (image[0:10, 40:50] == NEW_WALL).all()


# -- bake and render ----------------------------------------------------------------

LEVEL = """\
........................
..######........####....
.......#........#.......
.......#....#####.......
..........#.............
..........#.......##....
.####.....#........#....
.......####........#....
...........##...........
........................
"""


@pytest.fixture
def level(tmp_path):
    path = tmp_path / "level.txt"
    path.write_text(LEVEL)
    return path


def bake(capsys, *args):
    """Run ``pathing-py bake``; (exit code, stdout, stderr)."""
    code = main(["bake", *map(str, args)])
    printed = capsys.readouterr()
    return code, printed.out, printed.err


def test_bake_writes_the_graph_beside_the_map_and_prints_its_figures(level, capsys):
    code, out, _ = bake(capsys, level, "--cluster-size", "6")
    assert code == 0
    graph = KeyPointGraph.load(level.with_suffix(".kpg"), Grid.from_ascii(LEVEL))
    pairs, _, inside = graph.edges()
    assert "24x10 cells" in out
    assert f"8 clusters of 6x6 cells, {len(graph.key_points())} key points, {len(pairs)} edges" in out
    assert f"({int(inside.sum())} inside clusters, {int((~inside).sum())} across borders)" in out
    assert f"({level.with_suffix('.kpg').stat().st_size} bytes)" in out


def test_bake_shows_progress_on_stderr(level, capsys):
    _, _, err = bake(capsys, level, "--cluster-size", "6", "--out", level.parent / "x.kpg")
    lines = err.splitlines()
    assert lines[-1] == "[" + "#" * ProgressBar.WIDTH + "] 8/8 clusters"
    done = [int(line.split("] ")[1].split("/")[0]) for line in lines]
    assert done == sorted(done) and len(lines) <= ProgressBar.WIDTH + 1


def test_progress_bar_redraws_in_place_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    bar = ProgressBar(stream, "clusters")
    for done in range(5):
        bar(done, 4)
    assert stream.getvalue() == (
        "\r[" + " " * 30 + "] 0/4 clusters"
        + "\r[" + "#" * 7 + " " * 23 + "] 1/4 clusters"
        + "\r[" + "#" * 15 + " " * 15 + "] 2/4 clusters"
        + "\r[" + "#" * 22 + " " * 8 + "] 3/4 clusters"
        + "\r[" + "#" * 30 + "] 4/4 clusters\n"
    )  # fmt: skip


def test_bake_then_render_draws_the_graph_and_paths(level, tmp_path, capsys):
    bake(capsys, level, "--cluster-size", "6")
    picture = tmp_path / "graph.png"
    assert (
        main(
            [
                "render",
                str(level),
                "--graph",
                str(level.with_suffix(".kpg")),
                "--out",
                str(picture),
                "--paths",
                "4",
                "--scale",
                "5",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "4 of 4 orders found" in out
    image = read_png(picture)
    assert image.shape == (50, 120, 3)
    grid = Grid.from_ascii(LEVEL)
    graph = KeyPointGraph.load(level.with_suffix(".kpg"), grid)
    without_paths = paths_picture(grid, [], 5, graph=graph)
    assert (without_paths[2::5, 2::5][tuple(graph.key_points()[:, ::-1].T)] == KEY_POINT).all()
    assert (without_paths == CLUSTER_BORDER).all(axis=2).any()
    assert (image != without_paths).any(axis=2).sum() > 100  # the paths


def test_bake_and_render_read_a_scene_as_its_nav_grid_does(tmp_path, capsys):
    graph_file = tmp_path / "demo.kpg"
    code, out, _ = bake(capsys, DEMO_SCENE, "--out", graph_file)
    assert code == 0 and "read as NavGrid 'Demo/NavGrid' does" in out
    assert main(["render", str(DEMO_SCENE), "--graph", str(graph_file), "--out", str(tmp_path / "demo.png")]) == 0
    assert "6 of 6 orders found" in capsys.readouterr().out


def render_error(level, graph_file, tmp_path, capsys):
    """The message ``pathing-py render`` prints for ``graph_file`` (it must exit with 2)."""
    assert main(["render", str(level), "--graph", str(graph_file), "--out", str(tmp_path / "x.png")]) == 2
    return capsys.readouterr().err


def test_render_refuses_a_graph_of_another_map(level, tmp_path, capsys):
    bake(capsys, level, "--cluster-size", "6")
    edited = tmp_path / "edited.txt"
    edited.write_text("#" + LEVEL[1:])
    graph_file = level.with_suffix(".kpg")
    with pytest.raises(StaleGraphError) as raised:
        KeyPointGraph.load(graph_file, Grid.from_ascii(edited.read_text()))
    assert str(graph_file) in str(raised.value)
    assert render_error(edited, graph_file, tmp_path, capsys) == f"pathing-py: {raised.value}\n"


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",
        lambda data: b"PK\x03\x04 a zip file",
        lambda data: data[: len(data) // 2],
        lambda data: data[:-9] + bytes([data[-9] ^ 0xFF]) + data[-8:],
    ],
    ids=["empty", "foreign", "truncated", "flipped byte"],
)
def test_render_reports_a_damaged_graph_file(level, tmp_path, capsys, damage):
    bake(capsys, level, "--cluster-size", "6")
    graph_file = level.with_suffix(".kpg")
    graph_file.write_bytes(damage(graph_file.read_bytes()))
    with pytest.raises(GraphFileError) as raised:
        KeyPointGraph.load(graph_file, Grid.from_ascii(LEVEL))
    assert str(graph_file) in str(raised.value)
    assert render_error(level, graph_file, tmp_path, capsys) == f"pathing-py: {raised.value}\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["bake", "{map}", "--out", "{tmp}/no/such/folder/x.kpg"], "No such file or directory"),
        (["bake", "{tmp}/missing.txt"], "missing.txt"),
        (["bake", "{map}", "--cluster-size", "1"], "cluster_size"),
        (["render", "{map}", "--graph", "{tmp}/missing.kpg", "--out", "{tmp}/x.png"], "missing.kpg"),
        (["render", "{tmp}/bad.txt", "--graph", "{tmp}/missing.kpg", "--out", "{tmp}/x.png"], "row is 1 wide"),
    ],
)
def test_bake_and_render_errors_exit_2_with_a_message(level, tmp_path, capsys, args, message):
    (tmp_path / "bad.txt").write_text("..\n.")
    assert main([arg.format(map=level, tmp=tmp_path) for arg in args]) == 2
    last_line = capsys.readouterr().err.splitlines()[-1]  # after the progress bar, if the bake ran
    assert last_line.startswith("pathing-py: ") and message in last_line


def test_bake_takes_the_cluster_size_of_the_scenes_nav_grid(tmp_path, capsys):
    assert main(["bake", str(demo_scene_copy(tmp_path, "cluster_size = 6"))]) == 0
    assert "clusters of 6x6 cells" in capsys.readouterr().out


def demo_scene_copy(tmp_path, navgrid_lines: str) -> Path:
    """The demo scene in a project of its own, with ``navgrid_lines`` added to its NavGrid's properties."""
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "project.godot").write_text("config_version=4\n")
    (tmp_path / "scenes").mkdir()
    shutil.copy(root / "scenes" / "demo_tileset.tres", tmp_path / "scenes")
    scene = (
        (root / "scenes" / "demo.tscn")
        .read_text()
        .replace('tilemap_path = NodePath("../TileMap")', 'tilemap_path = NodePath("../TileMap")\n' + navgrid_lines)
    )
    (tmp_path / "scenes" / "demo.tscn").write_text(scene)
    return tmp_path / "scenes" / "demo.tscn"


def order_costs(printed: str) -> list:
    """The cost column of the order lines ``answer_orders`` printed."""
    return [float(line.split()[-4]) for line in printed.splitlines() if " FOUND " in line]


def test_paths_take_straight_steps_with_connectivity_4(tmp_path, capsys):
    level = tmp_path / "open.txt"
    level.write_text("\n".join(["......"] * 6))
    args = ["paths", str(level), "--order", "0,0", "5,5", "--out", str(tmp_path / "p.png")]
    assert main(args) == 0
    eight = capsys.readouterr().out
    assert main(args + ["--connectivity", "4"]) == 0
    four = capsys.readouterr().out
    assert "8-connected" in eight and "4-connected" in four
    assert order_costs(eight) == [round(5 * math.sqrt(2), 2)] and order_costs(four) == [10.0]


def test_a_graph_baked_with_connectivity_4_is_refused_for_8(level, tmp_path, capsys):
    code, out, _ = bake(capsys, level, "--cluster-size", "6", "--connectivity", "4")
    assert code == 0 and "4-connected" in out
    graph_file = level.with_suffix(".kpg")
    assert "baked for 4-connected movement, the grid is 8-connected: bake again" in render_error(
        level, graph_file, tmp_path, capsys
    )
    render = ["render", str(level), "--graph", str(graph_file), "--out", str(tmp_path / "x.png"), "--connectivity", "4"]
    assert main(render) == 0


def test_bad_connectivity_options_are_refused(level, capsys):
    with pytest.raises(SystemExit):
        main(["paths", str(level), "--connectivity", "6"])
    assert "invalid choice: 6" in capsys.readouterr().err


def test_the_scenes_nav_grid_sets_the_connectivity_unless_the_option_does(tmp_path, capsys):
    scene = demo_scene_copy(tmp_path, "connectivity = 4")
    assert main(["bake", str(scene)]) == 0
    out = capsys.readouterr().out
    assert "4-connected, as NavGrid 'Demo/NavGrid' says" in out and ", 4-connected\n" in out
    assert main(["bake", str(scene), "--connectivity", "8"]) == 0
    assert "8-connected" in capsys.readouterr().out


def test_a_bad_connectivity_in_the_scene_is_named(tmp_path, capsys):
    scene = demo_scene_copy(tmp_path, "connectivity = 6")
    assert main(["bake", str(scene)]) == 2
    error = capsys.readouterr().err
    assert "demo.tscn:" in error and "NavGrid 'Demo/NavGrid': connectivity must be 8 or 4" in error


# -- TileMaps as games have them: bounds, TileMap cells, missing tiles, Godot 4, tiles without shapes ------

FIXTURES = Path(__file__).resolve().parent.parent / "support" / "fixtures"
ARENA = FIXTURES / "obstacles_only.tscn"
ARENA_BOUNDS = ["-6", "-4", "24", "14"]


def order_rows(printed):
    """The ``paths`` lines as [(start, goal, status, cost or None)], cells as printed."""
    rows = []
    for line in printed.splitlines():
        match = re.match(r"\s*\d+\s+\((-?\d+), (-?\d+)\)\s+\((-?\d+), (-?\d+)\)\s+(\w+)\s+(\S+)", line)
        if match:
            sx, sy, gx, gy = (int(value) for value in match.groups()[:4])
            cost = None if match.group(6) == "-" else float(match.group(6))
            rows.append(((sx, sy), (gx, gy), match.group(5), cost))
    return rows


def test_paths_take_and_print_tilemap_cells_inside_the_bounds(tmp_path, capsys):
    orders = [("(-5,-3)", "17,9"), ("(-6, 9)", "16,-4"), ("(-7,0)", "(0, 0)"), ("0,0", "0,10")]
    args = ["paths", str(ARENA), "--bounds", *ARENA_BOUNDS, "--out", str(tmp_path / "p.png")]
    for start, goal in orders:
        args += ["--order", start, goal]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "24x14 cells" in printed and "TileMap cells (-6, -4) to (17, 9)" in printed
    rows = order_rows(printed)
    grid = grid_from_tscn(ARENA, bounds=(-6, -4, 24, 14))
    assert [(start, goal) for start, goal, _, _ in rows] == [
        ((-5, -3), (17, 9)),
        ((-6, 9), (16, -4)),
        ((-7, 0), (0, 0)),
        ((0, 0), (0, 10)),
    ]
    for start, goal, status, cost in rows:
        found = find_path(grid, (start[0] + 6, start[1] + 4), (goal[0] + 6, goal[1] + 4))
        assert status == found.status.name and (cost is None or cost == pytest.approx(found.cost, abs=0.005))
    assert [status for _, _, status, _ in rows] == ["FOUND", "FOUND", "OUT_OF_BOUNDS", "OUT_OF_BOUNDS"]


def test_without_bounds_unpainted_cells_are_off_the_map(tmp_path, capsys):
    assert main(["paths", str(ARENA), "--order", "(-5, -3)", "17,9", "--out", str(tmp_path / "p.png")]) == 0
    assert [row[2] for row in order_rows(capsys.readouterr().out)] == ["OUT_OF_BOUNDS"]


def test_a_navgrids_bounds_are_read_with_its_scene(tmp_path, capsys):
    scene = (
        ARENA.read_text().replace(
            '[node name="Arena"',
            '[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=9]\n\n[node name="Arena"',
        )
        + '\n[node name="NavGrid" type="Node2D" parent="."]\nscript = ExtResource( 9 )\n'
        'tilemap_path = NodePath("../Obstacles")\nbounds = Rect2( -6, -4, 24, 14 )\n'
    )
    (tmp_path / "arena.tscn").write_text(scene)
    shutil.copytree(FIXTURES / "tilesets", tmp_path / "tilesets")  # res:// resolves from the scene's folder here
    assert (
        main(["paths", str(tmp_path / "arena.tscn"), "--order", "(-5, -3)", "17,9", "--out", str(tmp_path / "p.png")])
        == 0
    )
    printed = capsys.readouterr().out
    assert "bounds (-6, -4) to (17, 9)" in printed and [row[2] for row in order_rows(printed)] == ["FOUND"]


def test_demo_prints_tilemap_cells(tmp_path, capsys):
    assert (
        main(
            [
                "demo",
                str(FIXTURES / "levels" / "terrain_level.tscn"),
                "--units",
                "6",
                "--walls",
                "0",
                "--out",
                str(tmp_path / "d.gif"),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    grid = grid_from_tscn(FIXTURES / "levels" / "terrain_level.tscn")
    cells = [
        tuple(map(int, pair)) for pair in re.findall(r"\((-?\d+), (-?\d+)\)", printed.split("why not arrived\n", 1)[1])
    ]
    assert len(cells) >= 12 and any(x < 0 for x, _ in cells)
    assert all(grid.is_passable((x - grid.origin[0], y - grid.origin[1])) for x, y in cells)


@pytest.mark.parametrize(
    "args, message",
    [
        (["paths", "--bounds", "0", "0", "0", "4"], "--bounds must be at least one cell wide and high, got 0x4"),
        (["paths", "--bounds", "0", "0", "5000", "5000"], "--bounds of 5000x5000 cells is larger than"),
        (["paths", "--order", "1;2", "3,4"], "must be a cell X,Y or (X, Y) (two integers), got '1;2'"),
        (["paths", "--unknown-tiles", "skip"], "invalid choice: 'skip'"),
    ],
)
def test_bad_map_options_are_refused(capsys, args, message):
    with pytest.raises(SystemExit):
        main(args)
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "option", [["--bounds", "0", "0", "3", "3"], ["--layer", "Walls"], ["--empty-cells-passable", "no"]]
)
def test_bounds_and_layers_are_for_scenes_only(tmp_path, capsys, option):
    (tmp_path / "level.txt").write_text("...\n...\n")
    assert main(["paths", str(tmp_path / "level.txt"), *option, "--out", str(tmp_path / "p.png")]) == 2
    assert "bounds, layers, empty cells and unknown tiles apply to Godot scenes (.tscn) only" in capsys.readouterr().err


def test_missing_tile_ids_are_an_error_unless_read_as_the_engine_does(tmp_path, capsys):
    scene = FIXTURES / "missing_tiles.tscn"
    assert main(["paths", str(scene), "--out", str(tmp_path / "p.png")]) == 2
    assert "unknown tile id 0 at cell (4, 0); the TileSet has ids 1, 2" in capsys.readouterr().err
    assert (
        main(
            ["paths", str(scene), "--unknown-tiles", "open", "--order", "0,0", "8,0", "--out", str(tmp_path / "p.png")]
        )
        == 0
    )
    (row,) = order_rows(capsys.readouterr().out)
    assert row[2] == "FOUND"  # through the doorway whose tile is missing


def test_a_godot_4_scene_is_named_as_such(tmp_path, capsys):
    assert main(["paths", str(FIXTURES / "bad" / "godot4.tscn"), "--out", str(tmp_path / "p.png")]) == 2
    err = capsys.readouterr().err
    assert "godot4.tscn:1: this is a Godot 4 scene (format=3); pathing_py reads Godot 3 scenes (format=2)" in err


NO_SHAPES = """[gd_scene load_steps=2 format=2]

[sub_resource type="TileSet" id=1]
0/name = "floor"
1/name = "rock"

[node name="Cave" type="TileMap"]
tile_set = SubResource( 1 )
format = 1
tile_data = PoolIntArray( 0, 0, 0, 1, 1, 0, 2, 0, 0, 65536, 1, 0, 65537, 0, 0, 65538, 1, 0 )
"""


def test_tiles_taken_as_blocking_are_named_and_a_tileset_without_shapes_is_warned_of(tmp_path, capsys):
    (tmp_path / "cave.tscn").write_text(NO_SHAPES)
    out = str(tmp_path / "p.png")
    assert main(["paths", str(tmp_path / "cave.tscn"), "--out", out]) == 0
    printed = capsys.readouterr()
    assert "blocking (drawn as blocked cells): no tile" in printed.out
    assert (
        "warning: the TileSet has no collision shapes, so no tile blocks; "
        "name the obstacle tiles with --blocking (tiles: 'floor', 'rock')" in printed.err
    )
    assert main(["paths", str(tmp_path / "cave.tscn"), "--blocking", "rock", "--out", out]) == 0
    printed = capsys.readouterr()
    assert "blocking (drawn as blocked cells): 'rock' (3 cells, listed in blocking)" in printed.out
    assert "warning" not in printed.err


def test_the_demo_scene_says_which_tiles_block(tmp_path, capsys):
    assert main(["paths", "--orders", "1", "--out", str(tmp_path / "p.png")]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("blocking"))
    data = read_tilemap(DEMO_SCENE, blocking=["forest"])
    for tile in set(data.cells.tile[data.blocked].tolist()):
        count = int((data.cells.tile[data.blocked] == tile).sum())
        reason = "listed in blocking" if data.names[tile] == "forest" else "collision shape"
        assert f"{data.names[tile]!r} ({count} cells, {reason})" in line


# -- TileMap modes: isometric and custom navigated, half offsets refused by the units' demo ------------------------


@pytest.mark.parametrize("name", ["Diamonds", "Skewed"])
def test_paths_on_isometric_and_custom_tilemaps(tmp_path, capsys, name):
    scene = FIXTURES / "geometry" / "isometric.tscn"
    assert main(["paths", str(scene), "--tilemap", name, "--orders", "4", "--out", str(tmp_path / "p.png")]) == 0
    printed = capsys.readouterr().out
    geometry = read_tilemap(scene, tilemap=name).geometry
    assert f"TileMap 'Isometric/{name}': {geometry.describe()}" in printed
    assert ("isometric, cell_size (64, 32)" if name == "Diamonds" else "custom, cell_custom_transform") in printed
    assert "4 of 4 orders found" in printed


HEX_MAZE = FIXTURES / "geometry" / "hex_maze.tscn"


@pytest.mark.parametrize("name", ["OffsetX", "OffsetY", "OffsetNegativeX", "OffsetNegativeY"])
def test_half_offset_tilemaps_are_refused_with_one_line_by_the_units_demo(tmp_path, capsys, name):
    scene = FIXTURES / "geometry" / "half_offsets.tscn"
    assert main(["demo", str(scene), "--tilemap", name, "--out", str(tmp_path / "x.png")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("pathing-py: ") and error.count("\n") == 1
    assert (
        "the TileMap is half-offset (hexagonal): its cells have six neighbours" in error
        and "pathing-py paths, bake and render follow its six" in error
    )
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["Columns", "Rows", "BackRows", "Diamonds"])
def test_half_offset_tilemaps_bake_and_render_their_hex_graph(tmp_path, capsys, name):
    """``bake`` writes a hex graph of the TileMap (its file loads for the hex map only), and ``render`` answers
    orders through it, every one found, drawn in the cells' shape."""
    graph_file = tmp_path / "maze.kpg"
    assert main(["bake", str(HEX_MAZE), "--tilemap", name, "--cluster-size", "4", "--out", str(graph_file)]) == 0
    assert "six neighbours (half offset)" in capsys.readouterr().out
    hexes = read_tilemap(HEX_MAZE, tilemap=name).hex_map()
    graph = HexKeyPointGraph.load(graph_file, hexes.grid, hexes.layout)
    assert graph == HexKeyPointGraph.bake(hexes.grid, hexes.layout, cluster_size=4)
    with pytest.raises(StaleGraphError, match="baked for a half-offset"):
        KeyPointGraph.load(graph_file, hexes.grid)
    out = tmp_path / "maze.png"
    assert main(["render", str(HEX_MAZE), "--tilemap", name, "--graph", str(graph_file), "--out", str(out)]) == 0
    assert "6 of 6 orders found" in capsys.readouterr().out
    assert max(read_png(out).shape[:2]) >= 640


# -- half-offset maps, pictures in the map's own shape, empty cells ------------------------------------


@pytest.mark.parametrize("name", ["Columns", "Rows", "BackRows", "Diamonds"])
def test_paths_on_half_offset_tilemaps_follow_six_neighbours(tmp_path, capsys, name):
    from pathing_py.hex_grid import find_hex_path

    out = tmp_path / "p.png"
    assert main(["paths", str(HEX_MAZE), "--tilemap", name, "--order", "(-7, -5)", "9,8", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "six neighbours a cell, costs in pixels" in printed and "six neighbours (half offset)" in printed
    data = read_tilemap(HEX_MAZE, tilemap=name)
    hexes = data.hex_map()
    expected = find_hex_path(hexes.grid, hexes.layout, (0, 0), (16, 13))
    assert order_rows(printed) == [((-7, -5), (9, 8), "FOUND", round(expected.cost, 2))]
    image = read_png(out)
    assert image.shape[1] >= 640 or image.shape[0] >= 640


def test_pictures_draw_cells_in_their_shape_at_a_readable_size(tmp_path, capsys):
    from pathing_py.cell_layout import SQUARE_CELLS
    from pathing_py.map_pictures import MIN_CELL_EDGE, MIN_WIDTH, MapPicture

    scene = FIXTURES / "geometry" / "isometric.tscn"
    out = tmp_path / "iso.png"
    assert main(["paths", str(scene), "--tilemap", "Diamonds", "--orders", "2", "--out", str(out)]) == 0
    image = read_png(out)
    assert image.shape[1] >= MIN_WIDTH  # the map 640 pixels across (its cells are wide enough already)
    assert tuple(image[0, 0]) == (255, 255, 255) and tuple(image[-1, -1]) == (255, 255, 255)  # a diamond: corners empty
    data = read_tilemap(scene, tilemap="Diamonds")
    grid = data.grid()
    picture = MapPicture(
        grid,
        data.geometry.layout(),
        **{"tiles": data.cells.raster(data.cells.tile, -1, data.area()), "names": data.names},
    )
    assert (picture.image == image).all(axis=2).mean() > 0.95  # the same picture, but for the paths drawn on it
    for cell in [(0, 0), (3, 2), (grid.width - 1, grid.height - 1)]:
        assert picture.cell_at(picture.centres([cell])[0]) == cell
    # Square cells fill their picture; a small map gets cells of at least 16 pixels.
    small = MapPicture(Grid.from_ascii("...\n.#."), SQUARE_CELLS)
    assert small.image.shape == (427, MIN_WIDTH, 3) and MIN_WIDTH / 3 >= MIN_CELL_EDGE  # 640 / 3 pixels a cell
    assert (small.cells >= 0).all()
    assert "pixels)" in capsys.readouterr().out


def test_paths_pictures_keep_a_given_cell_size(tmp_path, capsys):
    level = tmp_path / "level.txt"
    level.write_text("......\n.####.\n")
    assert main(["paths", str(level), "--orders", "1", "--scale", "20", "--out", str(tmp_path / "p.png")]) == 0
    assert read_png(tmp_path / "p.png").shape == (40, 120, 3)
    assert main(["paths", str(level), "--orders", "1", "--out", str(tmp_path / "q.png")]) == 0
    assert read_png(tmp_path / "q.png").shape == (214, 640, 3)  # 640 across: 106.7 pixels a cell


def test_empty_cells_passable_is_an_option(tmp_path, capsys):
    args = ["paths", str(ARENA), "--orders", "1", "--out", str(tmp_path / "p.png")]
    assert main(args) == 0
    assert "35x8 cells, 265 passable" in capsys.readouterr().out
    assert main([*args, "--empty-cells-passable", "no"]) == 0
    printed = capsys.readouterr().out
    assert "35x8 cells, 3 passable" in printed and "cells without a tile (empty cells block)" in printed
    with pytest.raises(SystemExit):
        main([*args, "--empty-cells-passable", "maybe"])
    assert "--empty-cells-passable: must be yes or no, got 'maybe'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["paths", "--help"])
    assert "--empty-cells-passable yes|no" in capsys.readouterr().out


# -- random orders within one island -------------------------------------------------------------------

#: Two islands of many cells and one of a single cell.
SPLIT_MAP = "......#.....\n......#.....\n......#..#..\n......#.#.#.\n......#..#..\n"


@pytest.mark.parametrize(
    "map_name, options",
    [
        ("islands.txt", []),
        ("islands.txt", ["--connectivity", "4"]),
        (str(FIXTURES / "geometry" / "isometric.tscn"), ["--tilemap", "Diamonds"]),
        (str(FIXTURES / "geometry" / "isometric.tscn"), ["--tilemap", "Skewed"]),
        *[
            (str(HEX_MAZE), ["--tilemap", name, "--bounds", "-7", "-5", "17", "11"])
            for name in ("Columns", "Rows", "BackRows", "Diamonds")
        ],
    ],
)
def test_random_orders_are_drawn_within_one_island_on_every_kind_of_map(tmp_path, capsys, map_name, options):
    """The hex maze cut above the one gap of its wall (bounds), and the ASCII map, are two islands or more:
    drawn from all free cells, half the orders were UNREACHABLE."""
    (tmp_path / "islands.txt").write_text(SPLIT_MAP)
    path = map_name if "/" in map_name else str(tmp_path / map_name)
    assert main(["paths", path, *options, "--orders", "12", "--out", str(tmp_path / "p.png")]) == 0
    rows = order_rows(capsys.readouterr().out)
    assert len(rows) == 12 and all(status == "FOUND" for _, _, status, _ in rows), rows
    assert all(start != goal for start, goal, _, _ in rows)
    assert len({start for start, _, _, _ in rows}) > 6  # drawn, not one order over and over
