import io
import struct

import numpy as np
import pytest

from pathing_py.animation import CUBE_LEVELS, MAX_EXACT_COLOURS, GifWriter


def read_sub_blocks(data, offset):
    """The bytes of a chain of sub-blocks (length byte, bytes; a zero length ends it), and the offset after it."""
    parts = []
    while data[offset]:
        parts.append(data[offset + 1 : offset + 1 + data[offset]])
        offset += 1 + data[offset]
    return b"".join(parts), offset + 1


def lzw_decode(data, code_size):
    """GIF LZW as the GIF89a specification describes the decoder, written apart from the encoder."""
    clear, end = 1 << code_size, (1 << code_size) + 1
    table, previous, width = [], None, code_size + 1
    buffer = bits = 0
    stream = iter(data)
    out = []
    while True:
        while bits < width:
            byte = next(stream, None)
            if byte is None:
                return out
            buffer |= byte << bits
            bits += 8
        code, buffer, bits = buffer & ((1 << width) - 1), buffer >> width, bits - width
        if code == clear:
            table, previous, width = [[i] for i in range(clear)] + [None, None], None, code_size + 1
            continue
        if code == end:
            return out
        if previous is None:
            entry = table[code]
        else:
            entry = table[code] if code < len(table) else table[previous] + table[previous][:1]
            if len(table) < 4096:
                table.append(table[previous] + entry[:1])
        out += entry
        if len(table) == 1 << width and width < 12:
            width += 1
        previous = code


def decode_gif(data):
    """Every frame as a viewer shows it (drawn over the frames before, transparent pixels left alone),
    each with its delay in hundredths; and the loop count (None without the NETSCAPE2.0 block)."""
    assert data[:6] == b"GIF89a" and data[-1:] == b";"
    width, height, flags = struct.unpack("<HHB", data[6:11])
    assert not flags & 0x80, "we write no global colour table"
    canvas = np.zeros((height, width, 3), np.uint8)
    frames, loops, control, offset = [], None, None, 13
    while data[offset] != 0x3B:
        if data[offset] == 0x21:
            label = data[offset + 1]
            body, offset = read_sub_blocks(data, offset + 2)
            if label == 0xF9:
                control = body
            elif label == 0xFF:
                assert body[:11] == b"NETSCAPE2.0"
                loops = struct.unpack("<H", body[12:14])[0]
            continue
        assert data[offset] == 0x2C
        left, top, w, h, flags = struct.unpack("<HHHHB", data[offset + 1 : offset + 10])
        assert flags & 0x80, "every frame has a local colour table"
        size = 2 << (flags & 7)
        palette = np.frombuffer(data[offset + 10 : offset + 10 + 3 * size], np.uint8).reshape(size, 3)
        offset += 10 + 3 * size
        code_size = data[offset]
        body, offset = read_sub_blocks(data, offset + 1)
        indices = np.array(lzw_decode(body, code_size)[: w * h]).reshape(h, w)
        packed, delay, transparent = control[0], struct.unpack("<H", control[1:3])[0], control[3]
        assert packed >> 2 & 7 == 1, "frames stay for the next to draw over"
        shown = indices != transparent if packed & 1 else np.ones_like(indices, bool)
        canvas[top : top + h, left : left + w][shown] = palette[indices[shown]]
        frames.append((canvas.copy(), delay, (left, top, w, h)))
    return frames, loops


def gif_of(frames, delay=0.1, **options):
    stream = io.BytesIO()
    with GifWriter(stream, **options) as gif:
        for frame in frames:
            gif.add(frame, delay)
    return stream.getvalue()


def moving_square(count=5, size=(24, 40)):
    """Frames of a red square walking over a striped background."""
    background = np.zeros((*size, 3), np.uint8)
    background[::3] = (40, 90, 200)
    frames = []
    for step in range(count):
        frame = background.copy()
        frame[5 + step : 11 + step, 3 * step : 3 * step + 6] = (220, 30, 30)
        frames.append(frame)
    return frames


def test_frames_come_back_as_drawn_and_store_only_what_changed():
    frames = moving_square()
    decoded, loops = decode_gif(gif_of(frames, delay=0.25))
    assert loops == 0  # for ever
    assert len(decoded) == len(frames)
    for (image, delay, _), frame in zip(decoded, frames):
        assert (image == frame).all() and delay == 25
    assert decoded[0][2] == (0, 0, 40, 24)
    assert decoded[1][2] == (0, 5, 9, 7)  # the square's old and new places only


def test_equal_frames_lengthen_the_one_before():
    frame = moving_square(1)[0]
    stream = io.BytesIO()
    with GifWriter(stream, loop=False) as gif:
        for delay in (0.1, 0.2, 0.3):
            gif.add(frame, delay)
    decoded, loops = decode_gif(stream.getvalue())
    assert loops is None and gif.frames == 1
    assert [delay for _, delay, _ in decoded] == [60]


def test_delays_longer_than_the_field_holds_are_split():
    decoded, _ = decode_gif(gif_of(moving_square(1), delay=700.0))
    assert [delay for _, delay, _ in decoded] == [0xFFFF, 70000 - 0xFFFF]


@pytest.mark.parametrize("colours", [1, 2, 3, 4, 5, 16, 17, 200, MAX_EXACT_COLOURS])
def test_up_to_255_colours_are_kept_exactly(colours):
    rng = np.random.default_rng(colours)
    palette = rng.integers(0, 256, (colours, 3), dtype=np.uint8)
    first = palette[rng.integers(0, colours, (30, 50))]
    second = first.copy()
    second[10:20, 10:30] = palette[rng.integers(0, colours, (10, 20))]
    decoded, _ = decode_gif(gif_of([first, second]))  # one frame if they are equal (one colour)
    assert (decoded[0][0] == first).all() and (decoded[-1][0] == second).all()


def test_more_colours_take_the_nearest_of_the_colour_cube():
    image = np.random.default_rng(1).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    (decoded, _, _), = decode_gif(gif_of([image]))[0]
    step = 255 / (CUBE_LEVELS - 1)
    assert np.abs(decoded.astype(int) - image).max() <= step / 2 + 0.5
    assert len(np.unique(decoded.reshape(-1, 3), axis=0)) <= CUBE_LEVELS**3


def test_a_big_noisy_frame_fills_the_code_table_and_starts_it_again():
    image = (np.random.default_rng(2).integers(0, 5, (200, 300, 3)) * 60).astype(np.uint8)
    data = gif_of([image])
    (decoded, _, _), = decode_gif(data)[0]
    assert (decoded == image).all()
    assert len(data) > 4096 * 12 // 8  # more codes than one table holds


def test_pillow_reads_the_same_frames(tmp_path):
    image_module = pytest.importorskip("PIL.Image")
    frames = moving_square()
    frames.append(np.random.default_rng(3).integers(0, 256, frames[0].shape, dtype=np.uint8))
    path = tmp_path / "walk.gif"
    with GifWriter(path) as gif:
        for frame in frames:
            gif.add(frame, 0.1)
    with image_module.open(path) as picture:
        assert picture.n_frames == len(frames)
        for number, frame in enumerate(frames[:-1]):
            picture.seek(number)
            assert (np.asarray(picture.convert("RGB")) == frame).all()
            assert picture.info["duration"] == 100


@pytest.mark.parametrize(
    "frames, delay, message",
    [
        ([np.zeros((4, 4), np.uint8)], 0.1, "expected an RGB uint8 image"),
        ([np.zeros((4, 4, 3), np.float32)], 0.1, "expected an RGB uint8 image"),
        ([np.zeros((4, 4, 3), np.uint8)], 0.01, "delay must be at least 0.02 s"),
        ([np.zeros((4, 4, 3), np.uint8), np.zeros((4, 5, 3), np.uint8)], 0.1, "frames must all be 4x4, got 5x4"),
        ([np.zeros((0, 4, 3), np.uint8)], 0.1, "1 to 65535 pixels"),
        ([], 0.1, "at least one frame"),
    ],
)
def test_bad_frames_are_refused_with_a_message(frames, delay, message):
    with pytest.raises(ValueError, match=message):
        gif_of(frames, delay)
