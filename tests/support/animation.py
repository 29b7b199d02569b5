"""What other tests take from tests/tools/test_animation.py: its helpers, moved here."""

import io

import numpy as np
from PIL import Image


def decode_gif(data):
    """Every frame as a viewer shows it (drawn over the frames before), each with its delay in hundredths and the
    rectangle the file stores for it (left, top, width, height); and the loop count (None: played once)."""
    frames = []
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.format == "GIF"
        loops = picture.info.get("loop")
        for number in range(picture.n_frames):
            picture.seek(number)
            left, top, right, bottom = picture.tile[0][1] if picture.tile else (0, 0, *picture.size)
            frames.append(
                (
                    np.asarray(picture.convert("RGB")),
                    picture.info["duration"] // 10,
                    (left, top, right - left, bottom - top),
                )
            )
    return frames, loops
