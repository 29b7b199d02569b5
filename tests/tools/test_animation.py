"""pathing_py.tools.animation: GIFs written with Pillow, read back with Pillow as a viewer shows them."""

import io
import subprocess
import sys

import numpy as np
import pytest

from pathing_py.tools.animation import MAX_DELAY, GifWriter
from tests.support.animation import decode_gif


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


def test_a_path_is_written_when_the_writer_closes_and_not_when_the_block_fails(tmp_path):
    path = tmp_path / "walk.gif"
    with GifWriter(path) as gif:
        for frame in moving_square(3):
            gif.add(frame, 0.1)
        assert not path.exists()
    assert gif.frames == 3 and len(decode_gif(path.read_bytes())[0]) == 3
    failed = tmp_path / "failed.gif"
    with pytest.raises(RuntimeError):
        with GifWriter(failed) as gif:
            gif.add(moving_square(1)[0], 0.1)
            raise RuntimeError("the run broke")
    assert not failed.exists()


@pytest.mark.parametrize("colours", [1, 2, 3, 17, 200, 256])
def test_up_to_256_colours_are_kept_exactly(colours):
    rng = np.random.default_rng(colours)
    palette = rng.integers(0, 256, (colours, 3), dtype=np.uint8)
    first = palette[rng.integers(0, colours, (30, 50))]
    second = first.copy()
    second[10:20, 10:30] = palette[rng.integers(0, colours, (10, 20))]
    decoded, _ = decode_gif(gif_of([first, second]))  # one frame if they are equal (one colour)
    assert (decoded[0][0] == first).all() and (decoded[-1][0] == second).all()


def test_more_colours_come_out_near():
    image = np.random.default_rng(1).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    ((decoded, _, _),) = decode_gif(gif_of([image]))[0]
    assert np.abs(decoded.astype(int) - image).mean() < 16
    assert len(np.unique(decoded.reshape(-1, 3), axis=0)) <= 256


@pytest.mark.parametrize(
    "frames, delay, message",
    [
        ([np.zeros((4, 4), np.uint8)], 0.1, "expected an RGB uint8 image"),
        ([np.zeros((4, 4, 3), np.float32)], 0.1, "expected an RGB uint8 image"),
        ([np.zeros((4, 4, 3), np.uint8)], 0.01, "delay must be 0.02 s to 655.35 s"),
        ([np.zeros((4, 4, 3), np.uint8)], MAX_DELAY + 0.01, "delay must be 0.02 s to 655.35 s"),
        ([np.zeros((4, 4, 3), np.uint8), np.zeros((4, 5, 3), np.uint8)], 0.1, "frames must all be 4x4, got 5x4"),
        ([np.zeros((0, 4, 3), np.uint8)], 0.1, "1 to 65535 pixels"),
        ([], 0.1, "at least one frame"),
    ],
)
def test_bad_frames_are_refused_with_a_message(frames, delay, message):
    with pytest.raises(ValueError, match=message):
        gif_of(frames, delay)


#: A writer made where Pillow cannot be imported.
WITHOUT_PILLOW = (
    "import io, sys; sys.modules['PIL'] = None; "
    "from pathing_py.tools.animation import GifWriter; GifWriter(io.BytesIO())"
)


def test_without_pillow_the_writer_says_what_to_install():
    done = subprocess.run([sys.executable, "-c", WITHOUT_PILLOW], capture_output=True, text=True)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert (
        last == "pathing_py.pillow.PillowMissing: pictures need Pillow, which this Python lacks: "
        "pip install 'pathing_py[pictures]'"
    )
