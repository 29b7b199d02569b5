"""The README's promises: its two commands, and its quick start runs as printed."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def first_commands():
    """The indented command lines at the top of the README, in order."""
    top = README.split("---", 1)[0]
    return [line.strip() for line in top.splitlines() if line.startswith("    ")]


def test_readme_starts_with_the_demo_and_test_commands():
    demo, tests = first_commands()
    assert "pathing-py demo" in demo
    assert "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command():
    _, tests = first_commands()
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert tests in ci_lines


def test_python_quick_start_runs(monkeypatch, capsys):
    code = re.search(r"## Python quick start\n\n```python\n(.*?)```", README, re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.strip(), "the quick start printed nothing"
