"""Animated GIF pictures (GIF89a), written with numpy and the standard library only.

Quick start::

    >>> import io
    >>> import numpy as np
    >>> from pathing_py.animation import GifWriter
    >>> stream = io.BytesIO()
    >>> with GifWriter(stream) as gif:
    ...     for shade in (0, 128, 255):
    ...         gif.add(np.full((4, 6, 3), shade, np.uint8), delay=0.1)
    >>> stream.getvalue()[:6], gif.frames
    (b'GIF89a', 3)

Frames are RGB images of one size. Each frame after the first stores only
the rectangle that changed, with unchanged pixels inside it transparent, so
a picture of a few units moving over a map costs little per frame; a frame
equal to the one before only lengthens how long that one shows. Every frame
carries its own colour table: its exact colours when it has at most 255,
else the nearest colours of a 6x6x6 cube.
"""

from pathlib import Path
from typing import BinaryIO, Dict, List, Optional, Tuple, Union

import numpy as np

__all__ = ["GifWriter"]

#: GIF delays are in hundredths of a second; browsers show delays under 2 hundredths as 10.
MIN_DELAY = 0.02
#: Colours a frame keeps exactly; one more index is kept for transparency.
MAX_EXACT_COLOURS = 255
#: Levels per channel of the colour cube used for frames with more colours than that.
CUBE_LEVELS = 6
MAX_CODES = 4096  # LZW codes are at most 12 bits

_CUBE_STEP = 255 / (CUBE_LEVELS - 1)
_CUBE = np.stack(np.meshgrid(*[np.round(np.arange(CUBE_LEVELS) * _CUBE_STEP)] * 3, indexing="ij"), -1).reshape(-1, 3)


class GifWriter:
    """An animated GIF written frame by frame into a file or binary stream; use it as a context manager.

    Parameters
    ----------
    target : path or binary stream
        A path is opened (and closed by :meth:`close`); a stream is written to and left open.
    loop : bool
        Whether viewers play the animation over and over (else once).
    """

    def __init__(self, target: Union[str, Path, BinaryIO], *, loop: bool = True):
        self._stream: BinaryIO
        if isinstance(target, (str, Path)):
            self._stream, self._owns_stream = open(target, "wb"), True
        else:
            self._stream, self._owns_stream = target, False
        self.loop = loop
        self.size: Optional[Tuple[int, int]] = None  #: (width, height), set by the first frame
        self.frames = 0  #: frames written (equal consecutive frames count once)
        self._previous: Optional[np.ndarray] = None
        self._pending: Optional[Tuple[bytes, Optional[int], int]] = None  # image block, transparent index, delay
        self._closed = False

    def add(self, image: np.ndarray, delay: float) -> None:
        """Append an RGB uint8 image (height, width, 3) shown for ``delay`` seconds (at least MIN_DELAY)."""
        image = np.asarray(image)
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"expected an RGB uint8 image of shape (h, w, 3), got {image.dtype} {image.shape}")
        if not delay >= MIN_DELAY:
            raise ValueError(f"delay must be at least {MIN_DELAY} s (browsers show shorter delays as 0.1 s), got {delay!r}")
        hundredths = int(round(delay * 100))
        height, width, _ = image.shape
        if self.size is None:
            if not (0 < width < 65536 and 0 < height < 65536):
                raise ValueError(f"a GIF is 1 to 65535 pixels wide and high, got {width}x{height}")
            self.size = (width, height)
            self._write_header(width, height)
        elif self.size != (width, height):
            raise ValueError(f"frames must all be {self.size[0]}x{self.size[1]}, got {width}x{height}")
        changed = np.ones((height, width), bool) if self._previous is None else (image != self._previous).any(axis=2)
        if self._pending is not None and not changed.any():  # the same picture: show the pending frame longer
            block, transparent, shown = self._pending
            self._pending = (block, transparent, shown + hundredths)
            return
        self._flush()
        self._previous = image.copy()
        rows, columns = np.nonzero(changed.any(axis=1))[0], np.nonzero(changed.any(axis=0))[0]
        top, bottom, left, right = rows[0], rows[-1] + 1, columns[0], columns[-1] + 1
        block, transparent = _image_block(image[top:bottom, left:right], changed[top:bottom, left:right], left, top)
        self._pending = (block, transparent, hundredths)
        self.frames += 1

    def close(self) -> None:
        """Write the last frame and the trailer; close the file if the writer opened it."""
        if self._closed:
            return
        if self.size is None:
            raise ValueError("a GIF needs at least one frame")
        self._flush()
        self._stream.write(b";")
        self._closed = True
        if self._owns_stream:
            self._stream.close()

    def __enter__(self) -> "GifWriter":
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if kind is None:
            self.close()
        elif self._owns_stream:
            self._stream.close()  # a partial file is left for the caller to look at

    def _write_header(self, width: int, height: int) -> None:
        screen = width.to_bytes(2, "little") + height.to_bytes(2, "little") + bytes([0x70, 0, 0])  # no global colours
        self._stream.write(b"GIF89a" + screen)
        if self.loop:
            self._stream.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # repeat forever

    def _flush(self) -> None:
        """Write the pending frame, now that its delay is known: control block (delay, transparency), image."""
        if self._pending is None:
            return
        block, transparent, hundredths = self._pending
        while hundredths > 0xFFFF:  # longer than the field holds: show the frame again, unchanged
            self._stream.write(_control_block(0xFFFF, transparent) + block)
            hundredths -= 0xFFFF
        self._stream.write(_control_block(hundredths, transparent) + block)
        self._pending = None


def _control_block(hundredths: int, transparent: Optional[int]) -> bytes:
    """Graphic control extension: leave the frame in place for the next to draw over, its delay and transparency."""
    flags = (1 << 2) | (transparent is not None)
    return b"\x21\xf9\x04" + bytes([flags]) + hundredths.to_bytes(2, "little") + bytes([transparent or 0, 0])


def _image_block(pixels: np.ndarray, changed: np.ndarray, left: int, top: int) -> Tuple[bytes, Optional[int]]:
    """Image descriptor, colour table and LZW data of one frame's changed rectangle; and its transparent index."""
    palette, indices = _palette(pixels, changed)
    transparent = None
    if not changed.all():
        transparent = len(palette)
        indices[~changed] = transparent
    bits = max(1, int(np.ceil(np.log2(len(palette) + (transparent is not None)))))
    table = np.zeros((1 << bits, 3), np.uint8)
    table[: len(palette)] = palette
    height, width = indices.shape
    descriptor = b"\x2c" + b"".join(v.to_bytes(2, "little") for v in (int(left), int(top), width, height))
    code_size = max(2, bits)
    data = _pack_codes(*_lzw_codes(indices.tobytes(), code_size))
    blocks = b"".join(bytes([len(data[i : i + 255])]) + data[i : i + 255] for i in range(0, len(data), 255))
    return descriptor + bytes([0x80 | (bits - 1)]) + table.tobytes() + bytes([code_size]) + blocks + b"\x00", transparent


def _palette(pixels: np.ndarray, changed: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The colours of the changed pixels and every pixel's index into them (uint8): exact, or the colour cube."""
    packed = (pixels[:, :, 0].astype(np.uint32) << 16) | (pixels[:, :, 1].astype(np.uint32) << 8) | pixels[:, :, 2]
    colours = np.unique(packed[changed])
    if len(colours) <= MAX_EXACT_COLOURS:
        palette = np.stack([colours >> 16, (colours >> 8) & 0xFF, colours & 0xFF], axis=1).astype(np.uint8)
        indices = np.searchsorted(colours, packed).clip(0, len(colours) - 1)  # unchanged pixels: overwritten later
        return palette, indices.astype(np.uint8)
    levels = np.round(pixels / _CUBE_STEP).astype(np.int64)
    indices = (levels[:, :, 0] * CUBE_LEVELS + levels[:, :, 1]) * CUBE_LEVELS + levels[:, :, 2]
    return _CUBE.astype(np.uint8), indices.astype(np.uint8)


def _lzw_codes(indices: bytes, code_size: int) -> Tuple[List[int], List[int]]:
    """GIF's variable-length LZW: the codes for ``indices`` and the bit width each is written with.

    The width grows when the next new code would not fit; a full table (4096
    codes) is cleared. A decoder adds each table entry one code later than
    the encoder, hence growing at ``next_code > 1 << width`` rather than ``==``.
    """
    clear, end = 1 << code_size, (1 << code_size) + 1
    codes, widths = [clear], [code_size + 1]
    table: Dict[int, int] = {}
    lookup = table.get
    next_code, width = end + 1, code_size + 1
    prefix = indices[0]
    for value in indices[1:]:
        key = (prefix << 8) | value
        code = lookup(key)
        if code is not None:
            prefix = code
            continue
        codes.append(prefix)
        widths.append(width)
        if next_code < MAX_CODES:
            table[key] = next_code
            next_code += 1
            if next_code > (1 << width) and width < 12:
                width += 1
        else:
            codes.append(clear)
            widths.append(width)
            table.clear()
            next_code, width = end + 1, code_size + 1
        prefix = value
    codes += [prefix, end]
    widths += [width, width]
    return codes, widths


def _pack_codes(codes: List[int], widths: List[int]) -> bytes:
    """Codes of the given bit widths, packed least significant bit first, as GIF stores them."""
    codes_array, widths_array = np.asarray(codes, np.uint32), np.asarray(widths, np.int64)
    owner = np.repeat(np.arange(len(codes_array)), widths_array)
    bit = np.arange(len(owner)) - np.repeat(np.cumsum(widths_array) - widths_array, widths_array)
    return np.packbits(((codes_array[owner] >> bit.astype(np.uint32)) & 1).astype(np.uint8), bitorder="little").tobytes()
