"""No import cycle between the package's modules: each stands on the ones below it, type hints included
(imports under TYPE_CHECKING count; only imports inside functions, which run when called, do not)."""

import ast
from pathlib import Path
from typing import Dict, List, Set

PACKAGE = Path(__file__).resolve().parent.parent / "pathing_py"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: Set[str]) -> Set[str]:
    """The package's modules ``path`` imports outside functions (at the top, or under TYPE_CHECKING)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: Set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.ImportFrom):
                base = package.split(".")
                base = base[: len(base) - child.level + 1] if child.level else []
                target = ".".join(base + ([child.module] if child.module else []))
                for alias in child.names:  # (a name may be a module of the package, or a name in one)
                    candidate = f"{target}.{alias.name}"
                    found.add(candidate if candidate in modules else target)
            elif isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text()))
    return {module for module in found if module in modules and module != name}


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """One cycle through each strongly connected group of modules (Tarjan's algorithm)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    found: List[List[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def package_graph() -> Dict[str, Set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): imported(path, modules) for path in paths}


def test_the_modules_import_one_another_without_a_cycle():
    graph = package_graph()
    assert cycles(graph) == []


def test_a_cycle_is_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
