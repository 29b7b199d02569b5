import struct
import zlib

import numpy as np
import pytest

from pathing_py import Grid
from pathing_py.cli import main
from pathing_py.debug import paths_picture, write_png


def read_png(path):
    """Decode the PNGs we write (8-bit RGB, filter 0), to check them independently of the writer."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, offset = {}, 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF
        chunks[kind] = body
        offset += 12 + length
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    raw = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, width * 3 + 1)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(height, width, 3)


def test_png_round_trip(tmp_path):
    image = np.random.default_rng(3).integers(0, 256, (5, 7, 3), dtype=np.uint8)
    write_png(tmp_path / "x.png", image)
    assert (read_png(tmp_path / "x.png") == image).all()


def test_picture_marks_paths():
    grid = Grid.from_ascii("....\n....")
    image = paths_picture(grid, [[(0, 0), (1, 0)]], scale=4)
    assert image.shape == (8, 16, 3)
    assert tuple(image[2, 2]) != tuple(image[6, 14])


def test_demo_on_an_ascii_map(tmp_path, capsys):
    level = tmp_path / "level.txt"
    level.write_text("......\n.####.\n......\n###...\n")
    out = tmp_path / "demo.png"
    assert main(["demo", str(level), "--orders", "5", "--out", str(out), "--scale", "3"]) == 0
    printed = capsys.readouterr().out
    assert "6x4 cells, 17 passable" in printed
    assert printed.count("FOUND") == 5 and "5 of 5 orders found" in printed
    assert read_png(out).shape == (12, 18, 3)


def test_demo_is_deterministic(tmp_path, capsys, movingai_dir):
    runs = []
    for name in ("a.png", "b.png"):
        main(["demo", str(movingai_dir / "den520d.map"), "--orders", "4", "--out", str(tmp_path / name)])
        runs.append([line.split()[:6] for line in capsys.readouterr().out.splitlines() if "FOUND" in line])
    assert runs[0] == runs[1] and len(runs[0]) == 4
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


@pytest.mark.parametrize(
    "name, text, message",
    [("bad.txt", "..\n.", "row is 1 wide"), ("level.xyz", "..", "unknown map type '.xyz'"), ("missing.map", None, "cannot read")],
)
def test_demo_reports_bad_maps(tmp_path, capsys, name, text, message):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    assert main(["demo", str(path), "--out", str(tmp_path / "x.png")]) == 2
    assert message in capsys.readouterr().err


def test_orders_must_be_positive(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--orders", "0"])
    assert "must be at least 1" in capsys.readouterr().err
