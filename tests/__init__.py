"""pathing_py's tests, laid out as the code is.

tests/test_<module>.py mirrors pathing_py/<module>.py, tests/<sub>/test_<module>.py pathing_py/<sub>/<module>.py
(units, groups, hierarchy, godot: the node scripts' plain side, tools: the CLI, pictures and scenarios);
tests/bench/ tests the benchmarks, tests/repo/ the repository (README, docs, release, import graph, types);
tests/engine/ drives the real engine headless, and tests/engine/in_godot/ runs inside it. What tests share is
in tests/support/, the maps and scenes they read in tests/support/fixtures/.
"""
