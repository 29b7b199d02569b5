"""bench/bench_engine.py on a tiny setting, in the real engine: every table complete, every path right.

A benchmark, not a timed test: no figure is checked but the paths' lengths.
"""

from bench import bench_engine

TINY = [
    "--maps",
    "den520d",
    "--per-map",
    "2",
    "--repeat",
    "1",
    "--units",
    "5",
    "--units-map",
    "den520d",
    "--frames",
    "3",
    "--groups",
    "2",
    "--group-size",
    "4",
    "--groups-map",
    "den520d",
    "--group-frames",
    "5",
]


def test_the_engine_benchmark_prints_every_table_complete(godot_python, movingai_dir):
    args = bench_engine.parse_arguments(TINY)
    results = bench_engine.run_in_engine(godot_python, args)
    text = bench_engine.report(results, args, TINY)

    assert [record["map"] for record in results.maps] == ["den520d"]
    queries = results.maps[0]["queries"]
    assert len(queries) == 2
    assert not [
        (solver, query) for query in queries for solver in bench_engine.SOLVERS if bench_engine.wrong(solver, query)
    ]
    assert [(run["units"], run["search"], run["frames"]) for run in results.units] == [(5, "exact", 3), (5, "graph", 3)]
    assert all(run["planning_frames"] >= 1 and run["planning_ms_per_order"] > 0 for run in results.units)
    [groups] = results.groups  # 5 frames: too few for an order to end (members stand in their slots as they form)
    assert (groups["groups"], groups["members"], groups["frames"], groups["ended"]) == (2, 4, 5, False)
    assert sum(groups["states"].values()) == 8 and groups["median_ms"] > 0
    for run in (*results.units, groups):  # the frame's parts: navigation, node sync, signals
        assert run["navigation_ms"] > 0 and run["sync_ms"] >= 0 and run["signals_ms"] >= 0
        assert run["navigation_ms"] + run["sync_ms"] <= run["max_ms"]
    assert "node sync ms" in text
    assert "nan" not in text
    for heading in (
        "Queries",
        "Build and memory",
        "PathUnits",
        "Groups",
        "Targets (issue 8)",
        "Target (issue 10)",
        "Command: ",
    ):
        assert heading in text
    assert text.count("den520d ") >= 5  # a row in each table (two unit runs, the groups)
