"""tools/release.py: one version for plugin.cfg, pyproject.toml, CHANGELOG.md and the zip's name; the zip laid out as
Godot's asset installer installs it; a dirty tree or mismatched versions stop the release with a clear message."""

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from tools import release
from tools.release import ReleaseError

ROOT = Path(__file__).resolve().parents[2]

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_plugin_cfg_pyproject_and_the_changelog_give_one_version():
    version = release.release_version()
    assert release.plugin_version((ROOT / release.PLUGIN_CFG).read_text(encoding="utf-8")) == version
    assert release.project_version((ROOT / release.PYPROJECT).read_text(encoding="utf-8")) == version
    assert release.changelog_versions((ROOT / release.CHANGELOG).read_text(encoding="utf-8"))[0] == version


def repository(tmp_path: Path, plugin: str = "0.2.0", project: str = "0.2.0", changelog: str = "0.2.0") -> Path:
    """A small committed repository with what a release needs."""
    root = tmp_path / "repo"
    files = {
        "addons/pathing_py/plugin.cfg": f'[plugin]\n\nname="pathing_py"\nversion="{plugin}"\nscript="plugin.py"\n',
        "addons/pathing_py/plugin.py": "# the plugin\n",
        "addons/pathing_py/LICENSE": "MIT\n",
        "addons/pathing_py/README.md": "# pathing_py\n",
        "addons/pathing_py/icons/unit.svg": "<svg/>\n",
        "pathing_py/.gdignore": "",
        "pathing_py/__init__.py": "",
        "pathing_py/units/unit.py": "",
        "pyproject.toml": f'[build-system]\nrequires = []\n\n[project]\nname = "pathing_py"\nversion = "{project}"\n',
        "CHANGELOG.md": f"# Changelog\n\n## {changelog} (a release)\n\n- things\n\n## 0.1.0\n",
        "tests/test_x.py": "",
        ".gitignore": "/dist/\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    for command in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x"],
    ):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)
    return root


@needs_git
def test_the_zip_holds_the_two_folders_under_one_top_folder_as_the_asset_installer_wants(tmp_path):
    root = repository(tmp_path)
    (root / "pathing_py" / "__pycache__").mkdir()
    (root / "pathing_py" / "__pycache__" / "unit.pyc").write_bytes(b"ignored")
    (root / ".gitignore").write_text("/dist/\n__pycache__/\n", encoding="utf-8")
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "ignore"], cwd=root, check=True
    )
    target = release.build(root / "dist", root)
    assert target == root / "dist" / "pathing_py-0.2.0.zip"
    with zipfile.ZipFile(target) as archive:
        names = archive.namelist()
    top = "pathing_py-0.2.0/"
    assert names == [
        top,
        f"{top}addons/",
        f"{top}addons/pathing_py/",
        f"{top}addons/pathing_py/icons/",
        f"{top}pathing_py/",
        f"{top}pathing_py/units/",
        f"{top}addons/pathing_py/LICENSE",
        f"{top}addons/pathing_py/README.md",
        f"{top}addons/pathing_py/icons/unit.svg",
        f"{top}addons/pathing_py/plugin.cfg",
        f"{top}addons/pathing_py/plugin.py",
        f"{top}pathing_py/.gdignore",
        f"{top}pathing_py/__init__.py",
        f"{top}pathing_py/units/unit.py",
    ]
    first = target.read_bytes()
    assert release.build(root / "dist", root).read_bytes() == first  # one commit, one zip


@needs_git
@pytest.mark.parametrize(
    "versions, message",
    [
        (
            {"plugin": "0.2.1"},
            "the versions differ: addons/pathing_py/plugin.cfg says 0.2.1, pyproject.toml says 0.2.0",
        ),
        (
            {"project": "0.3.0"},
            "the versions differ: addons/pathing_py/plugin.cfg says 0.2.0, pyproject.toml says 0.3.0",
        ),
        ({"changelog": "0.1.9"}, "CHANGELOG.md has no '## 0.2.0' section"),
        ({"plugin": "next", "project": "next"}, "the version 'next' is not MAJOR.MINOR.PATCH"),
    ],
)
def test_mismatched_versions_stop_the_release_before_it_writes_anything(
    tmp_path, versions, message, monkeypatch, capsys
):
    root = repository(tmp_path, **versions)
    with pytest.raises(ReleaseError, match=message):
        release.build(root / "dist", root)
    monkeypatch.setattr(release, "ROOT", root)
    assert release.main(["--out", str(root / "dist")]) == 1
    assert message in capsys.readouterr().err
    assert not (root / "dist").exists()


@needs_git
@pytest.mark.parametrize("change", ["edit", "new file"])
def test_a_dirty_tree_stops_the_release(tmp_path, change):
    root = repository(tmp_path)
    if change == "edit":
        (root / "pathing_py" / "units" / "unit.py").write_text("x = 1\n", encoding="utf-8")
    else:
        (root / "pathing_py" / "new.py").write_text("", encoding="utf-8")
    with pytest.raises(
        ReleaseError, match="the working tree has changes not committed .*pathing_py/.*: commit or stash"
    ):
        release.build(root / "dist", root)
    assert not (root / "dist").exists()
    release.build(root / "dist", root, check_tree=False)  # what the engine test builds from a checkout in work


@needs_git
def test_a_release_without_a_required_file_is_refused(tmp_path):
    root = repository(tmp_path)
    subprocess.run(["git", "rm", "-q", "pathing_py/.gdignore"], cwd=root, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"], cwd=root, check=True)
    with pytest.raises(ReleaseError, match="the release needs pathing_py/.gdignore, which git does not track"):
        release.build(root / "dist", root)


def test_the_versions_are_read_from_their_own_sections():
    assert release.plugin_version('[plugin]\nname="x"\nversion="1.2.3"\n[other]\nversion="9"\n') == "1.2.3"
    with pytest.raises(ReleaseError, match=r'plugin.cfg has no version="..." in its \[plugin\] section'):
        release.plugin_version('[other]\nversion="1.2.3"\n')
    assert release.project_version('[tool.x]\nversion = "0"\n[project]\nname = "p"\nversion = "2.0.0"\n') == "2.0.0"
    with pytest.raises(ReleaseError, match=r"pyproject.toml has no version"):
        release.project_version('[tool.x]\nversion = "0"\n')
    assert release.changelog_versions("# C\n\n## 0.2.0 (x)\n\n## [0.1.0]\n") == ["0.2.0", "0.1.0"]
