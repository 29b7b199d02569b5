"""Animated GIF pictures, written with Pillow (the optional extra ``pictures``).

Quick start::

    >>> import io
    >>> import numpy as np
    >>> from pathing_py.tools.animation import GifWriter
    >>> stream = io.BytesIO()
    >>> with GifWriter(stream) as gif:
    ...     for shade in (0, 128, 255, 255):
    ...         gif.add(np.full((4, 6, 3), shade, np.uint8), delay=0.1)
    >>> stream.getvalue()[:6], gif.frames
    (b'GIF89a', 3)

Frames are RGB images of one size. Pillow stores each frame after the first
as the rectangle that changed, with unchanged pixels in it transparent, so a
picture of a few units moving over a map costs little per frame, and it shows
a frame equal to the one before as the one before, longer. A frame keeps its
colours exactly when it has at most 256, else Pillow picks 256 near them.
Pillow writes the file when the writer closes, so the frames are kept until
then, one byte per pixel.
"""

import io
from pathlib import Path
from typing import Any, BinaryIO, List, Optional, Tuple, Union

import numpy as np

from ..pillow import pillow_image

__all__ = ["GifWriter"]

#: GIF delays are in hundredths of a second; browsers show delays under 2 hundredths as 10.
MIN_DELAY = 0.02
#: The longest delay a GIF frame holds (a 16-bit count of hundredths).
MAX_DELAY = 0xFFFF / 100


class GifWriter:
    """An animated GIF made frame by frame and written into a file or binary stream when closed; use it as a
    context manager (a block that raises writes nothing).

    Parameters
    ----------
    target : path or binary stream
        A path is written when the writer closes; a stream is written to and left open.
    loop : bool
        Whether viewers play the animation over and over (else once).

    Raises :class:`~pathing_py.pillow.PillowMissing` at once where Pillow is not installed.
    """

    def __init__(self, target: Union[str, Path, BinaryIO], *, loop: bool = True):
        self._image_module = pillow_image()
        self._target = target
        self.loop = loop
        self.size: Optional[Tuple[int, int]] = None  #: (width, height), set by the first frame
        self.frames = 0  #: frames in the file, once closed (equal consecutive frames count once)
        self._pictures: List[Any] = []  # Pillow images, palette mode
        self._milliseconds: List[int] = []
        self._closed = False

    def add(self, image: np.ndarray, delay: float) -> None:
        """Append an RGB uint8 image (height, width, 3) shown for ``delay`` seconds (MIN_DELAY to MAX_DELAY)."""
        image = np.asarray(image)
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"expected an RGB uint8 image of shape (h, w, 3), got {image.dtype} {image.shape}")
        if not MIN_DELAY <= delay <= MAX_DELAY:
            raise ValueError(
                f"delay must be {MIN_DELAY} s to {MAX_DELAY} s (browsers show shorter delays as 0.1 s), got {delay!r}"
            )
        height, width, _ = image.shape
        if self.size is None:
            if not (0 < width < 65536 and 0 < height < 65536):
                raise ValueError(f"a GIF is 1 to 65535 pixels wide and high, got {width}x{height}")
            self.size = (width, height)
        elif self.size != (width, height):
            raise ValueError(f"frames must all be {self.size[0]}x{self.size[1]}, got {width}x{height}")
        picture = self._image_module.fromarray(np.ascontiguousarray(image), "RGB")
        self._pictures.append(picture.convert("P", palette=self._image_module.Palette.ADAPTIVE))
        self._milliseconds.append(int(round(delay * 100)) * 10)  # whole hundredths, as the file keeps them

    def close(self) -> None:
        """Write the animation; the file when the writer was given a path."""
        if self._closed:
            return
        if not self._pictures:
            raise ValueError("a GIF needs at least one frame")
        buffer = io.BytesIO()
        first, *rest = self._pictures
        loop = {"loop": 0} if self.loop else {}  # 0: for ever; without it, no loop block: played once
        first.save(
            buffer, format="GIF", save_all=True, append_images=rest, duration=self._milliseconds, disposal=1,
            optimize=True, **loop,
        )  # fmt: skip
        buffer.seek(0)
        with self._image_module.open(buffer) as written:
            self.frames = written.n_frames
        if isinstance(self._target, (str, Path)):
            Path(self._target).write_bytes(buffer.getvalue())
        else:
            self._target.write(buffer.getvalue())
        self._pictures, self._closed = [], True

    def __enter__(self) -> "GifWriter":
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if kind is None:
            self.close()
