"""Reader for Godot 3 text resources (``.tscn`` / ``.tres``, ``format=2``).

Only reading, numpy only: enough to get a TileMap's ``tile_data`` and its
TileSet's tiles without the engine.

Quick start::

    >>> from pathing_py.godot.text import parse_text
    >>> document = parse_text('''[gd_scene load_steps=2 format=2]
    ...
    ... [node name="Ground" type="TileMap"]
    ... format = 1
    ... tile_data = PoolIntArray( 0, 1, 0, -65536, 2, 0 )
    ... ''', source="demo.tscn")
    >>> node = document.sections[1]
    >>> node.tag, node.attributes["type"], node.line
    ('node', 'TileMap', 3)
    >>> node.properties["tile_data"].tolist()
    [0, 1, 0, -65536, 2, 0]
    >>> node.property_lines["tile_data"]
    5

Values become Python values: ``int``, ``float``, ``bool``, ``None`` (null),
``str``, ``list`` (``[ ]``), ``dict`` (``{ }``), a flat numpy array for
numeric pools (int64 for ``PoolIntArray( )`` and ``PoolByteArray( )``, float64
for ``PoolRealArray``, ``PoolVector2Array`` …: tile data and images are
large), :class:`ResourceRef` for
``SubResource( N )`` / ``ExtResource( N )``, and :class:`Constructor` for any
other ``Name( args )`` such as ``Vector2( 1, 2 )`` or ``Transform2D( … )``.
"""

import bisect
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, NoReturn, Tuple, Union

import numpy as np

from ..grid import MapFormatError

__all__ = ["Constructor", "Document", "ResourceRef", "Section", "parse_file", "parse_text"]


@dataclass(frozen=True)
class ResourceRef:
    """``SubResource( id )`` or ``ExtResource( id )``: a link to another section or file."""

    kind: str
    id: Union[int, str]


@dataclass(frozen=True)
class Constructor:
    """A typed value such as ``Vector2( 1, 2 )``: the type name and its arguments."""

    name: str
    args: Tuple[Any, ...]


@dataclass
class Section:
    """One ``[tag key=value …]`` header and the ``key = value`` lines below it."""

    tag: str
    attributes: Dict[str, Any]
    line: int
    properties: Dict[str, Any] = field(default_factory=dict)
    property_lines: Dict[str, int] = field(default_factory=dict)


@dataclass
class Document:
    """A parsed file: ``sections[0]`` is the ``gd_scene`` / ``gd_resource`` header."""

    source: str
    sections: List[Section]

    def where(self, line: int) -> str:
        """``file:line``, the prefix of every error about this document."""
        return f"{self.source}:{line}"


def parse_file(path: Union[str, Path]) -> Document:
    """Read and parse a ``.tscn`` / ``.tres`` file; errors name the file (and line)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise MapFormatError(f"{path}: cannot read: {error}") from None
    return parse_text(text, source=str(path))


def parse_text(text: str, source: str = "<text>") -> Document:
    """Parse the text of a Godot 3 text resource; ``source`` names it in errors."""
    return _Parser(text, source).document()


#: The ``format`` of a file's header: Godot 3 text files, and Godot 4's.
GODOT3_FORMAT, GODOT4_FORMAT = 2, 3

_SPACE = re.compile(r"(?:\s+|;[^\n]*)+")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\"}
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_KEYWORDS = {"true": True, "false": False, "null": None, "nil": None, "inf": math.inf, "nan": math.nan}
_POOL_BODY = re.compile(r"\(([^()\"]*)\)")
#: Numeric pools become flat numpy arrays: tile data and embedded images can be large.
_NUMERIC_POOLS = {
    "PoolIntArray": int,
    "PoolByteArray": int,
    "PoolRealArray": float,
    "PoolVector2Array": float,
    "PoolVector3Array": float,
    "PoolColorArray": float,
}


class _Parser:
    """Recursive descent over the whole text, keeping the offset for line numbers."""

    def __init__(self, text: str, source: str):
        self.text = text
        self.source = source
        self.position = 0
        self._line_starts = [match.end() for match in re.finditer("\n", text)]

    # -- structure ------------------------------------------------------------------

    def document(self) -> Document:
        sections: List[Section] = []
        self.skip_space()
        while self.position < len(self.text):
            if self.peek() == "[":
                sections.append(self.section_header())
                if len(sections) == 1:  # before the body, whose syntax differs between versions
                    self.require_godot3(sections[0])
            elif not sections:
                self.fail("expected a [gd_scene …] or [gd_resource …] header")
            else:
                self.assignment(sections[-1])
            self.skip_space()
        if not sections:
            self.fail("the file is empty")
        return Document(self.source, sections)

    def section_header(self) -> Section:
        line = self.line()
        self.position += 1
        tag = self.identifier("a section name after '['")
        attributes: Dict[str, Any] = {}
        self.skip_space()
        while self.peek() != "]":
            if self.position >= len(self.text) or self.peek() == "[":
                self.fail(f"section [{tag} …] is not closed with ']'", line)
            key = self.identifier(f"an attribute name or ']' in section [{tag} …]")
            self.skip_space()
            self.expect("=")
            attributes[key] = self.value()
            self.skip_space()
        self.position += 1
        return Section(tag, attributes, line)

    def require_godot3(self, header: Section) -> None:
        """Refuse other versions' files by their header's ``format``: Godot 4 writes 3, Godot 3 writes 2."""
        version = header.attributes.get("format", GODOT3_FORMAT)
        if version == GODOT3_FORMAT:
            return
        kind = "scene" if header.tag == "gd_scene" else "resource"
        if version == GODOT4_FORMAT:
            self.fail(
                f"this is a Godot 4 {kind} (format={version}); pathing_py reads Godot 3 {kind}s (format=2)",
                header.line,
            )
        self.fail(f"format={version!r} is not a Godot 3 file (format=2)", header.line)

    def assignment(self, section: Section) -> None:
        line = self.line()
        if self.peek() == '"':
            key = self.string()
        else:
            end = self.text.find("=", self.position)
            newline = self.text.find("\n", self.position)
            if end < 0 or 0 <= newline < end:
                self.fail("expected 'name = value'")
            key = self.text[self.position : end].strip()
            self.position = end
        self.skip_space()
        self.expect("=")
        section.properties[key] = self.value()
        section.property_lines[key] = line

    # -- values ---------------------------------------------------------------------

    def value(self) -> Any:
        self.skip_space()
        char = self.peek()
        if char == '"':
            return self.string()
        if char == "[":
            return self.sequence("[", "]")
        if char == "{":
            return self.dictionary()
        if char == "-" and self.text.startswith("-inf", self.position):
            self.position += 4
            return -math.inf
        number = _NUMBER.match(self.text, self.position)
        if number:
            self.position = number.end()
            token = number.group()
            return float(token) if any(c in token for c in ".eE") else int(token)
        name = self.identifier("a value")
        if name in _KEYWORDS:
            return _KEYWORDS[name]
        line = self.line()
        self.skip_space()
        if self.peek() != "(":
            self.fail(f"unknown value {name!r}", line)
        if name in _NUMERIC_POOLS:
            return self.numeric_pool(name)
        args = tuple(self.sequence("(", ")"))
        if name in ("SubResource", "ExtResource"):
            if len(args) != 1 or not isinstance(args[0], (int, str)):
                self.fail(f"{name}( ) takes one id")
            return ResourceRef(name, args[0])
        return Constructor(name, args)

    def numeric_pool(self, name: str) -> np.ndarray:
        """Fast path for the big values: a ``tile_data`` or an image may hold a million numbers."""
        kind = _NUMERIC_POOLS[name]
        match = _POOL_BODY.match(self.text, self.position)
        must_hold = f"{name}( ) must hold {'integers' if kind is int else 'numbers'} separated by commas"
        if match is None:
            self.fail(must_hold)
        body = match.group(1).strip()
        try:
            values = [kind(token) for token in body.split(",")] if body else []
        except ValueError:
            self.fail(must_hold)
        self.position = match.end()
        return np.array(values, dtype=np.int64 if kind is int else np.float64)

    def sequence(self, opening: str, closing: str) -> List[Any]:
        items: List[Any] = []
        for _ in self.items(opening, closing):
            items.append(self.value())
        return items

    def dictionary(self) -> Dict[Any, Any]:
        items: Dict[Any, Any] = {}
        for _ in self.items("{", "}"):
            key = self.value()
            self.expect(":")
            items[_hashable(key)] = self.value()
        return items

    def items(self, opening: str, closing: str) -> Iterator[None]:
        """Yield once per comma-separated item up to ``closing``; a trailing comma is allowed, as in Godot."""
        line = self.line()
        self.expect(opening)
        first = True
        while True:
            self.skip_space()
            if self.peek() == closing:
                break
            if self.position >= len(self.text):
                self.fail(f"'{opening}' is not closed with '{closing}'", line)
            if not first:
                self.expect(",")
                self.skip_space()
                if self.peek() == closing:
                    break
            first = False
            yield
        self.position += 1

    def string(self) -> str:
        match = _STRING.match(self.text, self.position)
        if not match:
            self.fail("string is not closed with '\"'")
        self.position = match.end()
        return _ESCAPE.sub(_unescape, match.group(1))

    # -- tokens ---------------------------------------------------------------------

    def identifier(self, expected: str) -> str:
        self.skip_space()
        match = _IDENTIFIER.match(self.text, self.position)
        if not match:
            self.fail(f"expected {expected}, found {self.excerpt()}")
        self.position = match.end()
        return match.group()

    def expect(self, char: str) -> None:
        self.skip_space()
        if self.peek() != char:
            self.fail(f"expected '{char}', found {self.excerpt()}")
        self.position += 1

    def skip_space(self) -> None:
        match = _SPACE.match(self.text, self.position)
        if match:
            self.position = match.end()

    def peek(self) -> str:
        return self.text[self.position : self.position + 1]

    def excerpt(self) -> str:
        rest = self.text[self.position : self.position + 20].split("\n")[0]
        return repr(rest) if rest else "the end of the line" if self.peek() else "the end of the file"

    def line(self) -> int:
        return bisect.bisect_right(self._line_starts, self.position) + 1

    def fail(self, message: str, line: int = 0) -> NoReturn:
        raise MapFormatError(f"{self.source}:{line or self.line()}: {message}")


def _unescape(match: "re.Match") -> str:
    code = match.group(1)
    if code.startswith("u") and len(code) == 5:
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, code)


def _hashable(key: Any) -> Any:
    """Dictionary keys are usually strings; lists (rare) become tuples so they can be keys."""
    return tuple(_hashable(item) for item in key) if isinstance(key, list) else key
