"""Where the Moving AI maps are looked for: the environment variable, else ``shared/`` beside the checkout."""

from pathing_py.tools.movingai import BENCHMARKS_VARIABLE, find_benchmarks


def maps_folder(root):
    folder = root / "shared" / "benchmarks" / "movingai"
    folder.mkdir(parents=True)
    return folder


def test_the_shared_folder_beside_the_checkout_is_found(tmp_path, monkeypatch):
    monkeypatch.delenv(BENCHMARKS_VARIABLE, raising=False)
    maps = maps_folder(tmp_path)
    checkout = tmp_path / "work" / "checkout"
    (checkout / "tests").mkdir(parents=True)
    assert find_benchmarks(checkout / "tests" / "conftest.py") == maps


def test_the_variable_wins(tmp_path, monkeypatch):
    maps_folder(tmp_path)
    named = tmp_path / "elsewhere"
    monkeypatch.setenv(BENCHMARKS_VARIABLE, str(named))
    assert find_benchmarks(tmp_path / "checkout") == named


def test_no_folder_of_this_machine_is_assumed(tmp_path, monkeypatch):
    monkeypatch.delenv(BENCHMARKS_VARIABLE, raising=False)
    assert not any((folder / "shared" / "benchmarks" / "movingai").is_dir() for folder in tmp_path.parents)
    assert find_benchmarks(tmp_path / "checkout") is None
