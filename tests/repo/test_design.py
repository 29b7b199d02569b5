"""docs/design.md is the specification the code cites: every capability id (``SPEC G4``, a bare ``U7``, a range
``U1-U4``) and every source article (``seed 001``) named in the code, the tests, the benchmarks, the scenes'
scripts, the README or the other docs is defined there, so that whoever reads a citation can look it up."""

import re
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design.md"
#: Where citations are looked for: the code and its documentation, not the design itself.
CITING = [
    *(
        path
        for folder in ("pathing_py", "addons", "bench", "tests", "scenes", "tools")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in {".py", ".gd"} and path != Path(__file__).resolve()  # this file's samples cite on purpose
    ),
    ROOT / "README.md",
    *(path for path in sorted((ROOT / "docs").glob("*.md")) if path != DESIGN),
]
DEFINITION = re.compile(r"^- \*\*(?P<id>[A-Z][1-9]\d?) ", re.M)
SOURCE = re.compile(r"^- \*\*seed (?P<number>\d{3})\*\*", re.M)
SEED = re.compile(r"\b[Ss]eed (?P<number>\d{3})\b")
SPEC = re.compile(r"\bSPEC (?P<id>[A-Z][1-9]\d?)\b")
RANGE = re.compile(r"\b(?P<family>[A-Z])(?P<first>[1-9]\d?)\s*[-–](?P=family)(?P<last>[1-9]\d?)\b")


def defined(text: str) -> Tuple[Set[str], Set[str]]:
    """The capability ids and the source numbers a design text defines."""
    return set(DEFINITION.findall(text)), set(SOURCE.findall(text))


def cited(text: str, families: Set[str]) -> Set[str]:
    """The capability ids ``text`` cites: after ``SPEC`` any id, bare only those of a known family (``families``,
    the letters the design uses), each id of a range ``U1-U4`` included."""
    ids = set(SPEC.findall(text))
    for match in RANGE.finditer(text):
        ids |= {f"{match['family']}{n}" for n in range(int(match["first"]), int(match["last"]) + 1)}
    if families:
        ids |= set(re.findall(rf"\b[{''.join(sorted(families))}][1-9]\d?\b", text))
    return ids


def undefined_citations(design: str, files: Dict[str, str]) -> List[str]:
    """``file: id`` for every id or source cited in ``files`` (name -> text) that ``design`` does not define."""
    ids, sources = defined(design)
    families = {identifier[0] for identifier in ids}
    missing = []
    for name, text in files.items():
        missing += [f"{name}: {identifier}" for identifier in sorted(cited(text, families) - ids)]
        missing += [f"{name}: seed {number}" for number in sorted(set(SEED.findall(text)) - sources)]
    return missing


def test_every_id_cited_in_the_repository_is_defined_in_the_design():
    files = {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in CITING}
    assert len(files) > 100
    assert undefined_citations(DESIGN.read_text(encoding="utf-8"), files) == []


def test_the_design_defines_each_id_once_in_its_family_order():
    text = DESIGN.read_text(encoding="utf-8")
    ids = DEFINITION.findall(text)
    assert len(ids) == len(set(ids)) and len(ids) >= 40
    for family in {identifier[0] for identifier in ids}:
        numbers = [int(identifier[1:]) for identifier in ids if identifier[0] == family]
        assert numbers == list(range(1, len(numbers) + 1)), family


@pytest.mark.parametrize(
    "text, missing",
    [
        ("# SPEC G4 and G3, U1-U2", []),
        ("# SPEC G9: not defined", ["code.py: G9"]),
        ("'''see U1–U4'''", ["code.py: U3", "code.py: U4"]),
        ("# the X1 key, F1 and SPEC Q1", ["code.py: Q1"]),
        ("# as seed 001 does, and seed 007", ["code.py: seed 007"]),
        ("KEY_F3 = 1E5  # G2x", []),
    ],
)
def test_an_undefined_citation_is_named_with_its_file(text, missing):
    design = (
        "".join(f"- **{identifier} Name.** x\n" for identifier in ("G3", "G4", "U1", "U2", "F1"))
        + "- **seed 001**: x\n"
    )
    assert undefined_citations(design, {"code.py": text}) == missing
