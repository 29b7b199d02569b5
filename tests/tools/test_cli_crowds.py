"""``pathing-py demo --scenario armies|crossroads``: crowds of pathing_py.tools.scenarios run, checked, drawn and
printed (issue 12 item 10)."""

import re

import pytest

from pathing_py.tools.cli import CROWDS, UPDATE_SECONDS, main
from pathing_py.tools.crowd_runs import CrowdRun
from pathing_py.tools.scenarios import armies
from tests.support.animation import decode_gif

SCALE = 2


def run_demo(tmp_path, capsys, *options):
    assert main(["demo", *options, "--scale", str(SCALE), "--out", str(tmp_path / "crowd.gif")]) == 0
    return capsys.readouterr().out, decode_gif((tmp_path / "crowd.gif").read_bytes())[0]


@pytest.mark.parametrize("name", list(CROWDS))
def test_each_crowd_arrives_whole_without_overlaps_and_says_so(tmp_path, capsys, name):
    printed, frames = run_demo(tmp_path, capsys, "--scenario", name)
    expected = CrowdRun(CROWDS[name]())  # the same run, made here: the printed figures must be its
    while not expected.done:
        expected.update(UPDATE_SECONDS)
    count = len(expected.ordered)
    assert f"scenario {name}: {expected.scenario.description}" in printed
    assert (
        f"{count} of {count} units arrived ({count} ARRIVED, 0 HELD_UP, 0 UNREACHABLE); "
        f"all arrived at {expected.all_arrived_at:.2f} s" in printed
    )
    checks = re.search(
        r"overlaps: (\d+) \(pairs of units\), circles in walls: (\d+), checked after each of (\d+) updates", printed
    )
    assert checks is not None and checks.groups() == ("0", "0", str(len(expected.update_ms)))
    assert re.search(r"ms per update: median \d+\.\d\d, p99 \d+\.\d\d, max \d+\.\d\d \(\d+ units\)", printed)
    ended = expected.navigator.collisions.ended  # U5: every collision met ended, and resolved (all arrived)
    met = sum(ended.values())
    assert met > 0 and not expected.navigator.collisions.open()
    assert re.search(
        rf"^collisions: {met} met; resolved (\d+ by [a-z ]+)(, \d+ by [a-z ]+)*; 0 ended unresolved, 0 open$",
        printed,
        flags=re.M,
    )
    grid = expected.navigator.grid
    assert frames[0][0].shape == (grid.height * SCALE, grid.width * SCALE, 3)
    assert f"({len(frames)} frames of {grid.width * SCALE}x{grid.height * SCALE}" in printed


def test_a_crowd_cut_short_says_which_units_did_not_arrive_and_how_they_stand(tmp_path, capsys):
    printed, _ = run_demo(tmp_path, capsys, "--scenario", "armies", "--max-time", "3")
    summary = next(line for line in printed.splitlines() if "units arrived" in line)
    arrived, ordered = (int(n) for n in re.match(r"(\d+) of (\d+) units arrived", summary).groups())
    assert ordered == len(armies().starts) and arrived < ordered
    assert "still under way" in summary and re.search(r"not all arrived after 3\.\d\d s$", summary)
    assert (
        len(re.findall(r"^  unit \d+ at \(\d+, \d+\): (MOVING|WAITING|RUN|FIND_PATH)", printed, flags=re.M))
        == ordered - arrived
    )


def test_a_crowd_takes_no_options_of_the_units_demo(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--scenario", "armies", "--units", "5"])
    assert "--scenario armies runs on a map and with units of its own; leave out --units" in capsys.readouterr().err


@pytest.mark.parametrize("bad, message", [({"gates": 0}, "gates"), ({"units": 7}, "even"), ({"radius": 0.8}, "radius")])
def test_armies_refuse_bad_sizes(bad, message):
    with pytest.raises(ValueError, match=message):
        armies(**bad)
