#!/usr/bin/env python3
"""Build the release a Godot user installs: ``dist/pathing_py-VERSION.zip``, laid out as the Asset Library installs it.

Usage::

    python3 tools/release.py              # from a clean working tree: dist/pathing_py-0.1.0.zip
    python3 tools/release.py --out DIR    # somewhere else

The zip holds one top folder, ``pathing_py-VERSION/``, which Godot's asset installer strips (it installs what is
under the zip's first folder into ``res://``): under it ``addons/pathing_py/`` (the node scripts, the plugin, the
icons, the licence and a short README) and ``pathing_py/`` (the package, with the ``.gdignore`` that keeps the
editor from loading its modules as scripts), as git tracks them. Tests, benchmarks, scenes and docs stay out.

The release stops, saying why, before it writes anything: on a working tree with changes not committed (the zip
must be what a commit holds), when ``addons/pathing_py/plugin.cfg`` and ``pyproject.toml`` give different
versions, and when CHANGELOG.md has no section for the version.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import List, Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent
PLUGIN_CFG = Path("addons/pathing_py/plugin.cfg")
PYPROJECT = Path("pyproject.toml")
CHANGELOG = Path("CHANGELOG.md")
#: What the zip installs, as paths in the repository and in the project alike.
FOLDERS = ("addons/pathing_py", "pathing_py")
#: A file every release must hold (the folder's .gdignore; the licence and README of the addon).
REQUIRED = (
    "pathing_py/.gdignore",
    "addons/pathing_py/LICENSE",
    "addons/pathing_py/README.md",
    "addons/pathing_py/plugin.cfg",
)
#: Zip entries get this date, so that one commit always gives the same bytes.
ENTRY_DATE = (2020, 1, 1, 0, 0, 0)


class ReleaseError(Exception):
    """Why the release cannot be built; the message says what to do."""


def plugin_version(text: str) -> str:
    """The ``version="..."`` of plugin.cfg's ``[plugin]`` section."""
    match = re.search(r'^\[plugin\][^\[]*?^version="([^"\n]*)"', text, re.M | re.S)
    if not match:
        raise ReleaseError(f'{PLUGIN_CFG} has no version="..." in its [plugin] section')
    return match.group(1)


def project_version(text: str) -> str:
    """The ``version = "..."`` of pyproject.toml's ``[project]`` table."""
    match = re.search(r'^\[project\][^\[]*?^version\s*=\s*"([^"\n]*)"', text, re.M | re.S)
    if not match:
        raise ReleaseError(f'{PYPROJECT} has no version = "..." in its [project] table')
    return match.group(1)


def changelog_versions(text: str) -> List[str]:
    """The versions CHANGELOG.md has sections for (``## 0.1.0 ...`` headings), newest first."""
    return re.findall(r"^## \[?(\d+\.\d+\.\d+[^\]\s]*)\]?", text, re.M)


def release_version(root: Path = ROOT) -> str:
    """The one version plugin.cfg, pyproject.toml and CHANGELOG.md agree on."""
    plugin = plugin_version((root / PLUGIN_CFG).read_text(encoding="utf-8"))
    project = project_version((root / PYPROJECT).read_text(encoding="utf-8"))
    if plugin != project:
        raise ReleaseError(
            f"the versions differ: {PLUGIN_CFG} says {plugin}, {PYPROJECT} says {project}; give both the same version"
        )
    if not re.fullmatch(r"\d+\.\d+\.\d+", plugin):
        raise ReleaseError(f"the version {plugin!r} is not MAJOR.MINOR.PATCH")
    changelog = root / CHANGELOG
    if not changelog.is_file() or plugin not in changelog_versions(changelog.read_text(encoding="utf-8")):
        raise ReleaseError(f"{CHANGELOG} has no '## {plugin}' section: say what this release changes")
    return plugin


def git(root: Path, *arguments: str) -> str:
    done = subprocess.run(["git", *arguments], cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise ReleaseError(f"git {' '.join(arguments)} failed: {done.stderr.strip() or done.returncode}")
    return done.stdout


def check_clean(root: Path = ROOT) -> None:
    """Nothing changed or added that is not committed (files git ignores do not count)."""
    changed = [line[3:] for line in git(root, "status", "--porcelain").splitlines() if line.strip()]
    if changed:
        shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
        raise ReleaseError(f"the working tree has changes not committed ({shown}): commit or stash them first")


def shipped_files(root: Path = ROOT) -> List[str]:
    """The files of ``FOLDERS`` that git tracks, sorted, as repository paths."""
    files = sorted(git(root, "ls-files", "-z", "--", *FOLDERS).split("\0")[:-1])
    missing = [path for path in REQUIRED if path not in files]
    if missing:
        raise ReleaseError(f"the release needs {', '.join(missing)}, which git does not track")
    return files


def folders_of(files: Sequence[str]) -> List[str]:
    """Every folder the files lie in, parents included, each once, sorted (so that a parent comes first)."""
    found = set()
    for path in files:
        parts = path.split("/")[:-1]
        found |= {"/".join(parts[: end + 1]) for end in range(len(parts))}
    return sorted(found)


def build(out: Path, root: Path = ROOT, check_tree: bool = True) -> Path:
    """Write the release zip into ``out`` and return its path; ``check_tree`` False skips the clean-tree check
    (for tests that build from a checkout being worked on)."""
    version = release_version(root)
    if check_tree:
        check_clean(root)
    files = shipped_files(root)
    top = f"pathing_py-{version}"
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{top}.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        # Folder entries first: Godot's installer makes each folder from its entry before it writes the files in it.
        for folder in [top] + [f"{top}/{folder}" for folder in folders_of(files)]:
            archive.writestr(zipfile.ZipInfo(f"{folder}/", ENTRY_DATE), b"")
        for path in files:
            entry = zipfile.ZipInfo(f"{top}/{path}", ENTRY_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, (root / path).read_bytes())
    return target


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, default=ROOT / "dist", help="the folder to write the zip into (default dist/)"
    )
    args = parser.parse_args(argv)
    try:
        target = build(args.out, ROOT)
    except (ReleaseError, OSError) as error:
        print(f"release.py: {error}", file=sys.stderr)
        return 1
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
