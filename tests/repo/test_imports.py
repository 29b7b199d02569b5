"""No import cycle between our modules: each stands on the ones below it, type hints and imports inside functions
included (such an import only defers the cycle it makes). The one exception is an import kept inside a function for
a deprecated name (tools/import_graph.py's ``DEPRECATED_IMPORTS``), until that name goes."""

from tools import import_graph


def all_imports():
    files = import_graph.source_files()
    known = {import_graph.module_name(path) for path in files}
    return [found for path in files for found in import_graph.imports_of(path, known)]


def test_the_modules_import_one_another_without_a_cycle():
    assert import_graph.module_cycles(all_imports()) == []


def test_an_import_inside_a_function_closes_a_cycle_too():
    imports = [
        import_graph.Import("pathing_py.a", "pathing_py.b", False),
        import_graph.Import("pathing_py.b", "pathing_py.a", True, True),
    ]
    assert import_graph.module_cycles(imports) == [["pathing_py.a", "pathing_py.b"]]


def test_the_imports_kept_for_deprecated_names_are_still_there_and_inside_functions():
    """An entry of DEPRECATED_IMPORTS whose import went (the name was removed) must go too."""
    in_functions = {(found.source, found.target) for found in all_imports() if found.in_function}
    assert set(import_graph.DEPRECATED_IMPORTS) <= in_functions
