"""A new, empty Godot project taken through the README's install steps: what tests/engine/test_install.py (our
folders copied from the checkout) and tests/engine/test_release.py (the release zip) share.

The steps are the README's "Use it in a Godot 3 project", 1-5: pythonscript as the Asset Library installs it (a
real copy, so that pip works on it and not on the shared build), the README's numpy commands run as printed, our
code added (the caller says how), the editor opened (which registers pythonscript's GDNative singleton) and
opened again (now with Python: it may crash as it quits, nothing lost), the plugin written into project.godot as
the Plugins tab does, and the editor opened twice more, each clean. Every other engine run must be clean too
(godot_python).
"""

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Callable, List

from tools.godot_headless import Godot, GodotRunError
from tools.godot_python import GodotPython

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: The README's install section, up to the next section.
INSTALL_SECTION = README.split("## Use it in a Godot 3 project\n", 1)[1].split("\n## ", 1)[0]

FRESH_PROJECT = """config_version=4

[application]

config/name="Fresh"
"""
#: What the Plugins tab writes into project.godot when pathing_py is enabled.
PLUGIN_ENABLED = '\n[editor_plugins]\n\nenabled=PoolStringArray( "pathing_py" )\n'
SINGLETON = 'singletons=[ "res://pythonscript.gdnlib" ]'
PYTHONSCRIPT = "addons/pythonscript"
#: run_editor calls per opening (each runs the editor twice if it crashes), and what an exit crash prints.
EDITOR_TRIES = 3
EXIT_CRASHES = ("Program crashed with signal", "Aborted")
#: How the editor's openings with Python end until the plugin is enabled: a crash in a worker thread as it quits,
#: its work done (Godot 3.2.3 + pythonscript 0.50, once a Python script imported numpy; issue 43). Allowed there only.
EXIT_CRASH = "handle_crash: Program crashed with signal 11"
#: Openings with the plugin enabled that must each run clean, with no second try (README step 5).
CLEAN_OPENINGS = 2
#: Files the editor imports into ``.import/`` (our node icons), which an exit crash must not lose.
ICONS = ("nav_grid.svg", "path_unit.svg", "group_manager.svg")


def readme_commands() -> List[str]:
    """The shell commands of the install section, as printed (indented code lines)."""
    return [line.strip() for line in INSTALL_SECTION.splitlines() if re.match(r"\s{4,}addons/pythonscript/", line)]


def open_editor(copy: GodotPython) -> str:
    """The headless editor opened and closed (``-e --quit``), clean; its output.

    Used for the first opening, before Python runs: Godot 3.2.3's headless
    editor now and then aborts in a worker thread as it quits, its work done
    (GODOT_NOTES.md). ``run_editor`` runs it again once; a new project takes
    ``EDITOR_TRIES``. (Openings with Python crash on exit until the plugin is
    enabled: ``EXIT_CRASH``, README step 5.)
    """
    for _ in range(EDITOR_TRIES - 1):
        try:
            return copy.run_editor(["--quit"])
        except GodotRunError as error:
            if not any(crash in str(error) for crash in EXIT_CRASHES):
                raise
    return copy.run_editor(["--quit"])


def fresh_project(
    godot: Godot, pythonscript_dist: Path, folder: Path, add_our_code: Callable[[Path], None]
) -> GodotPython:
    """A new project in ``folder`` taken through README steps 1-5, each checked as it goes; ``add_our_code(project)``
    is step 3. The editor's own settings and data start empty, as on a user's machine."""
    godot = Godot(godot.binary, folder / "home")
    godot.home.mkdir(parents=True, exist_ok=True)
    project = folder / "project"
    project.mkdir(parents=True)
    (project / "project.godot").write_text(FRESH_PROJECT, encoding="utf-8")
    # 1. pythonscript as the Asset Library installs it (its release holds these two, no pythonscript_repl)
    shutil.copytree(pythonscript_dist / PYTHONSCRIPT, project / PYTHONSCRIPT, symlinks=True)
    shutil.copy(pythonscript_dist / "pythonscript.gdnlib", project / "pythonscript.gdnlib")
    # 2. numpy into pythonscript's interpreter, the commands as printed
    environment = dict(os.environ, HOME=str(godot.home), PIP_DISABLE_PIP_VERSION_CHECK="1")
    commands = readme_commands()
    assert len(commands) == 2 and "numpy==1.24" in commands[-1], commands
    for command in commands:
        done = subprocess.run(shlex.split(command), cwd=project, env=environment, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    # 3. our code
    add_our_code(project)
    # 4. the first opening registers the singleton, Python runs from the second one on
    copy = GodotPython(godot, project, pythonscript_dist)
    assert "Pythonscript" not in open_editor(copy)
    assert SINGLETON in (project / "project.godot").read_text(encoding="utf-8")
    # 5. in the second opening (which, the plugin not enabled yet, may crash as it quits: nothing is lost)
    assert "Pythonscript 0.50" in copy.run(["-e", "--quit"], allowed=(EXIT_CRASH,))
    assert SINGLETON in (project / "project.godot").read_text(encoding="utf-8")
    assert all(any((project / ".import").glob(f"{icon}-*.stex")) for icon in ICONS), "the editor's imports were lost"
    # the plugin is enabled as the Plugins tab writes it; from then on the editor opens and quits clean, every time
    with (project / "project.godot").open("a", encoding="utf-8") as settings:
        settings.write(PLUGIN_ENABLED)
    for _ in range(CLEAN_OPENINGS):
        assert "Pythonscript 0.50" in copy.run(["-e", "--quit"])  # no crash allowed, no second try
    assert 'enabled=PoolStringArray( "pathing_py" )' in (project / "project.godot").read_text(encoding="utf-8")
    return copy
