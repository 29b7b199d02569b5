"""RVO2 (github.com/snape/RVO2, Apache-2.0), the C++ reference for crowd avoidance, as a peer of bench_crowd.py.

Its sources come from ``$RVO2_SOURCE`` (a folder holding RVO2's ``src/``),
else from an earlier clone in the cache, else from ``git clone`` when the
network allows. They are built at bench time with ``g++ -O2``, one thread,
together with our driver (``rvo2_driver.cpp``), into
``~/.cache/pathing_py/rvo2/`` (one build per version of the sources and the
driver; nothing of RVO2 lands in the repository).

RVO2 avoids, it does not plan: each agent is handed its route before the
clock starts (the cells of ``find_path``, through cells where it fits) and
steers for the farthest cell of it that it can see, as RVO2's Roadmap
example steers along a roadmap; in the open that is its goal. Blocked cells and the map's
outside become RVO2 obstacles, as rectangles of blocked cells merged row by
row (counter-clockwise, as RVO2 wants them).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

SOURCE_VARIABLE = "RVO2_SOURCE"
REPOSITORY = "https://github.com/snape/RVO2"
CACHE = Path.home() / ".cache" / "pathing_py" / "rvo2"
DRIVER = Path(__file__).resolve().parent / "rvo2_driver.cpp"
COMPILE_FLAGS = ("-O2", "-std=c++11", "-DNDEBUG")

#: RVO2's agent settings. Neighbours within 5 cells, 10 at most, as RVO2's examples (10 radii); collisions
#: avoided 2 s ahead with agents and 0.5 s ahead with walls (agents here walk 4 cells a second).
NEIGHBOR_DISTANCE = 5.0
MAX_NEIGHBORS = 10
TIME_HORIZON = 2.0
TIME_HORIZON_OBSTACLES = 0.5
#: An agent takes its next waypoint once this close to the current one, even if it cannot see the one after (cells).
WAYPOINT_REACH = 1.0
#: Seconds without any agent coming closer to its waypoint after which agents still under way are stuck for good.
STALL_SECONDS = 10.0


class Peer(NamedTuple):
    """A built driver, or why there is none."""

    binary: Optional[Path]
    problem: str = ""


class Run(NamedTuple):
    """What the driver printed."""

    step_ms: np.ndarray
    all_arrived_step: Optional[int]
    arrived: int
    stuck: bool


def build() -> Peer:
    """The driver built against RVO2's sources (built once per version), or the reason it cannot be."""
    compiler = shutil.which("g++")
    if compiler is None:
        return Peer(None, "no g++ on this machine")
    source, problem = find_sources()
    if source is None:
        return Peer(None, problem)
    files = sorted((source / "src").glob("*.cc"))
    digest = hashlib.sha1(" ".join(COMPILE_FLAGS).encode())
    for path in [DRIVER, *files, *sorted((source / "src").glob("*.h"))]:
        digest.update(path.name.encode() + path.read_bytes())
    binary = CACHE / f"driver-{digest.hexdigest()[:16]}" / "rvo2_driver"
    if binary.is_file():
        return Peer(binary)
    binary.parent.mkdir(parents=True, exist_ok=True)
    command = [compiler, *COMPILE_FLAGS, "-I", str(source / "src"), str(DRIVER), *map(str, files), "-o", str(binary)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return Peer(None, f"building RVO2 failed: {' '.join(command)}\n{done.stderr[-2000:]}")
    return Peer(binary)


def find_sources() -> Tuple[Optional[Path], str]:
    """RVO2's source folder: ``$RVO2_SOURCE``, else a clone in the cache (made now if git and the network allow)."""
    named = os.environ.get(SOURCE_VARIABLE)
    if named:
        folder = Path(named)
        if not (folder / "src" / "RVOSimulator.cc").is_file():
            return None, f"${SOURCE_VARIABLE} is {folder}, which has no src/RVOSimulator.cc"
        return folder, ""
    clone = CACHE / "source"
    if (clone / "src" / "RVOSimulator.cc").is_file():
        return clone, ""
    if shutil.which("git") is None:
        return None, f"no RVO2 sources: set ${SOURCE_VARIABLE} to a copy of {REPOSITORY} (no git to clone it)"
    shutil.rmtree(clone, ignore_errors=True)
    clone.parent.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            ["git", "clone", "--depth", "1", REPOSITORY, str(clone)], capture_output=True, text=True, timeout=120
        )
    except subprocess.TimeoutExpired:
        done = None
    if done is None or done.returncode != 0:
        shutil.rmtree(clone, ignore_errors=True)
        return None, f"no RVO2 sources: cloning {REPOSITORY} failed (offline?); set ${SOURCE_VARIABLE} to a copy of it"
    return clone, ""


def blocked_rectangles(passable: np.ndarray) -> np.ndarray:
    """The blocked cells as rectangles (x0, y0, x1, y1), each row's runs merged with the same runs of the rows
    below, plus four around the map so that nobody walks off it."""
    height, width = passable.shape
    rectangles: List[Tuple[int, int, int, int]] = []
    open_runs: Dict[Tuple[int, int], int] = {}  # (x0, x1) -> first row of a rectangle still growing
    for y in range(height + 1):
        runs = set()
        if y < height:
            row = np.concatenate([[False], ~passable[y], [False]]).astype(np.int8)
            edges = np.flatnonzero(np.diff(row))
            runs = set(zip(edges[0::2].tolist(), edges[1::2].tolist()))
        for run in set(open_runs) - runs:
            rectangles.append((run[0], open_runs.pop(run), run[1], y))
        for run in runs - set(open_runs):
            open_runs[run] = y
    rectangles += [
        (-1, -1, width + 1, 0),
        (-1, height, width + 1, height + 1),
        (-1, 0, 0, height),
        (width, 0, width + 1, height),
    ]
    return np.array(sorted(rectangles), dtype=np.int64)


def scenario_text(
    starts: np.ndarray,
    radii: np.ndarray,
    speeds: np.ndarray,
    idle: np.ndarray,
    routes: Sequence[np.ndarray],
    passable: np.ndarray,
    *,
    delta: float,
    max_steps: int,
    arrival: float,
    settle_seconds: float,
) -> str:
    """The driver's input (see rvo2_driver.cpp): settings, agents with their waypoints, obstacles."""
    settings = [
        delta,
        NEIGHBOR_DISTANCE,
        MAX_NEIGHBORS,
        TIME_HORIZON,
        TIME_HORIZON_OBSTACLES,
        max_steps,
        arrival,
        WAYPOINT_REACH,
        STALL_SECONDS,
        settle_seconds,
    ]
    lines = [" ".join(map(str, settings)), f"agents {len(starts)}"]
    for (x, y), radius, speed, standing, route in zip(
        starts.tolist(), radii.tolist(), speeds.tolist(), idle.tolist(), routes
    ):
        lines.append(
            f"{x!r} {y!r} {radius!r} {speed!r} {int(standing)} {len(route)} "
            + " ".join(f"{v!r}" for v in route.ravel().tolist())
        )
    rectangles = blocked_rectangles(passable)
    lines.append(f"obstacles {len(rectangles)}")
    lines += [f"4 {x0} {y0} {x1} {y0} {x1} {y1} {x0} {y1}" for x0, y0, x1, y1 in rectangles.tolist()]
    return "\n".join(lines) + "\n"


def run(binary: Path, text: str, positions: Path, timeout: float) -> Run:
    """Run the driver on a scenario's text; the positions go to ``positions``."""
    done = subprocess.run([str(binary), str(positions)], input=text, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"rvo2_driver failed ({done.returncode}): {done.stderr[-2000:]}")
    fields = {line.split(" ", 1)[0]: line.split(" ", 1)[1:] for line in done.stdout.splitlines()}
    step_ns = np.array(fields["step_ns"][0].split() if fields["step_ns"] else [], dtype=np.float64)
    all_arrived = int(fields["all_arrived_step"][0])
    return Run(
        step_ns / 1e6, None if all_arrived < 0 else all_arrived, int(fields["arrived"][0]), fields["stuck"][0] == "1"
    )
