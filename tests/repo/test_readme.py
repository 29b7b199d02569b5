"""The README's promises: its two commands, its quick start runs as printed, and its table of signals is the nodes'."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def first_commands():
    """The indented command lines at the top of the README, in order."""
    top = README.split("---", 1)[0]
    return [line.strip() for line in top.splitlines() if line.startswith("    ")]


def test_readme_starts_with_the_demo_and_test_commands():
    demo, tests = first_commands()
    assert "pathing-py demo" in demo
    assert "pytest" in tests
    assert "ruff check" in tests  # the lint, configured in pyproject.toml
    assert "ruff format --check" in tests  # the code as ruff formats it


def test_ci_runs_exactly_the_readme_test_command():
    _, tests = first_commands()
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert tests in ci_lines


@pytest.mark.parametrize("number", range(len(re.findall(r"```python\n", README))))
def test_python_examples_run(number, monkeypatch, capsys, tmp_path):
    code = re.findall(r"```python\n(.*?)```", README, re.S)[number]
    monkeypatch.chdir(ROOT)
    code = code.replace('"/tmp/', f'"{tmp_path}/')  # examples may write files: keep them out of /tmp
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out.strip(), "the example printed nothing"


def test_the_node_page_lists_every_signal_of_the_nodes_by_its_node():
    declared = {
        (path.stem, name)
        for path in (ROOT / "addons" / "pathing_py").glob("*.py")
        for name in re.findall(r'^\s+(\w+) = signal\("\1"\)', path.read_text(encoding="utf-8"), re.M)
    }
    section = README.split("\n## Signals\n", 1)[1].split("\n## ", 1)[0]
    assert "[docs/nodes.md](docs/nodes.md)" in section
    page = (ROOT / "docs" / "nodes.md").read_text(encoding="utf-8")
    listed = set()
    for node, table in re.findall(r"^### (\w+)\n(.*?)(?=^### |\Z)", page, re.M | re.S):
        for name in re.findall(r"^\| `(\w+)\(", table, re.M):
            listed.add((re.sub(r"(?<!^)([A-Z])", r"_\1", node).lower(), name))  # PathUnit -> path_unit.py
    assert len(declared) == 17
    assert listed == declared
