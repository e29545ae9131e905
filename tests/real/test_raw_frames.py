"""Raw ``screencap`` frames (AOSP ``frameworks/base/cmds/screencap/screencap.cpp`` without
``-p``: width, height, format and, on newer releases, the colour space as little-endian
32-bit words, then the pixel rows): the parser, the virtual device's output and the
backends' fallback to ``screencap -p``."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from io import BytesIO

import numpy as np
import pytest
from PIL import Image

from phone_gym.real.backend import (
    AdbBackend,
    raw_frame,
    raw_image,
    raw_layout,
    screencap_command,
)
from phone_gym.real.base import DeviceError
from phone_gym.virtual import VirtualAdbServer, VirtualPhone
from phone_gym.virtual.commands.screen import MULTI_DISPLAY_WARNING, raw_screencap
from phone_gym.virtual.local import LocalBackend

RGB = np.random.default_rng(7).integers(0, 256, (5, 3, 3), dtype=np.uint8)


def aosp_raw(pixels: np.ndarray, fmt: int, colour_space: int | None) -> bytes:
    """What screencap.cpp writes: ``write(fd, &w, 4); write(fd, &h, 4); write(fd, &f, 4)``,
    ``write(fd, &c, 4)`` (``dataSpaceToInt``) where the release has it, then the rows."""
    h, w = pixels.shape[:2]
    words = [w, h, fmt] + ([colour_space] if colour_space is not None else [])
    return struct.pack(f"<{len(words)}I", *words) + pixels.tobytes()


def with_alpha(pixels: np.ndarray, alpha: int = 255) -> np.ndarray:
    return np.dstack([pixels, np.full(pixels.shape[:2], alpha, np.uint8)])


@pytest.mark.parametrize("colour_space", [1, 2, None], ids=["srgb16", "p3_16", "header12"])
def test_both_header_sizes_parse(colour_space: int | None) -> None:
    data = aosp_raw(with_alpha(RGB, 200), 1, colour_space)  # RGBA_8888
    header = 12 if colour_space is None else 16
    assert raw_layout(data) == (header, 3, 5, 4, 1)
    assert np.array_equal(np.asarray(raw_image(data)), RGB)  # the alpha byte is dropped


@pytest.mark.parametrize(("fmt", "pixels"), [
    (2, with_alpha(RGB, 0)),             # RGBX_8888
    (3, RGB),                            # RGB_888
    (5, with_alpha(RGB[..., ::-1], 9)),  # BGRA_8888
])
def test_other_pixel_formats(fmt: int, pixels: np.ndarray) -> None:
    for colour_space in (1, None):
        image = raw_image(aosp_raw(np.ascontiguousarray(pixels), fmt, colour_space))
        assert image.mode == "RGB" and np.array_equal(np.asarray(image), RGB)


def test_a_warning_before_the_header_is_skipped() -> None:
    data = (MULTI_DISPLAY_WARNING + "\n").encode() + aosp_raw(with_alpha(RGB), 1, 1)
    assert np.array_equal(np.asarray(raw_image(data)), RGB)


@pytest.mark.parametrize("data", [
    aosp_raw(with_alpha(RGB), 1, 1)[:-1],           # a row cut short
    aosp_raw(with_alpha(RGB), 1, 1) + b"\0\0\0\0\0",  # bytes left over
    aosp_raw(with_alpha(RGB), 22, 1),                # RGBA_FP16: not read here
    aosp_raw(with_alpha(RGB)[:0], 1, 1),             # no pixels
    b"\x89PNG\r\n\x1a\n" + b"\0" * 40,              # screencap -p's output
    b"short",
], ids=["cut", "extra", "fp16", "empty", "png", "short"])
def test_a_malformed_frame_is_refused_clearly(data: bytes) -> None:
    with pytest.raises(ValueError, match=r"not a raw screencap image \(\d+ bytes.*accepted a 16 "
                                         r"or 12-byte header of little-endian width, height, "
                                         r"format \(1, 2, 3, 5\)"):
        raw_image(data)


def test_screencap_command() -> None:
    assert screencap_command(None, png=False) == "screencap"
    assert screencap_command("4619827551948147201", png=False) == (
        "screencap -d 4619827551948147201")
    assert screencap_command(None) == "screencap -p"
    with pytest.raises(ValueError, match="accepted: a physical display id"):
        screencap_command("0; reboot", png=False)


# --- the virtual device ----------------------------------------------------------------------
def png_pixels(phone: VirtualPhone) -> np.ndarray:
    code, png, _ = phone.shell("screencap -p")
    assert code == 0
    return np.asarray(Image.open(BytesIO(png)).convert("RGB"))


def test_the_virtual_devices_raw_output_is_its_pngs_pixels() -> None:
    phone = VirtualPhone()
    phone.shell("input tap 540 1200")  # something on screen besides the home screen's first
    code, raw, err = phone.shell("screencap")
    assert code == 0 and err == b""
    assert raw[:16] == struct.pack("<4I", 1080, 2400, 1, 1)  # RGBA_8888, sRGB
    pixels = np.frombuffer(raw, np.uint8, offset=16).reshape(2400, 1080, 4)
    assert (pixels[..., 3] == 255).all()
    assert np.array_equal(pixels[..., :3], png_pixels(phone))
    assert np.array_equal(np.asarray(raw_image(raw)), png_pixels(phone))


@pytest.mark.parametrize("fmt", [1, 2, 3, 5])
def test_raw_frame_is_raw_image_unconverted(fmt: int) -> None:
    pixels = RGB if fmt == 3 else with_alpha(RGB if fmt != 5 else RGB[..., ::-1], 7)
    data = aosp_raw(np.ascontiguousarray(pixels), fmt, 1)
    frame = raw_frame(data)
    assert frame.mode == ("RGBX" if fmt in (1, 2) else "RGB")
    assert np.array_equal(np.asarray(frame.convert("RGB")), RGB)
    assert frame.size == (3, 5)


def test_the_env_reads_unconverted_frames_to_the_same_observation() -> None:
    """``RealPhoneEnv`` fits ``frame()`` (RGBX over the received bytes): the same pixels as
    the RGB screenshot fitted, at a whole-number and at another size; ``is_black`` samples
    a Pillow image as it samples the array."""
    from phone_gym.envs.real_phone import fit
    from phone_gym.real.frames import is_black

    backend = LocalBackend()
    rgb, frame = backend.screenshot(), backend.frame()
    assert frame.mode == "RGBX"
    for size in ((540, 1200), (1080, 2400), (500, 1000)):
        fitted = fit(frame, size)
        assert fitted.mode == "RGB"
        assert np.array_equal(np.asarray(fitted), np.asarray(fit(rgb, size)))
    rng = np.random.default_rng(3)
    for share in (0.99, 0.999, 1.0):  # around BLACK_SHARE: sampled pixels decide
        pixels = np.where(rng.random((1003, 601, 1)) < share, 0, 200).astype(np.uint8)
        pixels = np.repeat(pixels, 3, axis=2)  # every 3rd pixel of every 3rd row sampled
        image = Image.fromarray(pixels)
        rgbx = Image.frombuffer("RGBX", (601, 1003), with_alpha(pixels).tobytes(), "raw",
                                "RGBX", 0, 1)
        assert is_black(image) == is_black(rgbx) == is_black(pixels)


@pytest.fixture
def adb(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[AdbBackend, VirtualPhone]]:
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # never start a real adb server
    phone = VirtualPhone()
    with VirtualAdbServer([phone]) as server:
        yield AdbBackend(phone.serial, port=server.port, timeout=5.0), phone


def test_adb_reads_raw_frames_equal_to_the_png(adb: tuple[AdbBackend, VirtualPhone]) -> None:
    backend, phone = adb
    assert np.array_equal(np.asarray(backend.screenshot()), png_pixels(phone))
    assert backend.raw_frames is True
    phone.displays = 2  # a foldable without -d: the warning comes first in the stream
    assert np.array_equal(np.asarray(backend.screenshot()), png_pixels(phone))


class PngOnly(LocalBackend):
    """A phone whose ``screencap`` makes PNGs whatever it is asked (a wrapper, or a vendor
    build): the commands it was sent are kept."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []

    def shell_bytes(self, command: str, timeout: float | None = None) -> bytes:
        self.sent.append(command)
        return super().shell_bytes(command.replace("screencap", "screencap -p"))


def test_a_phone_without_raw_frames_falls_back_to_png_for_good() -> None:
    backend = PngOnly()
    expected = png_pixels(backend.phone)
    assert np.array_equal(np.asarray(backend.screenshot()), expected)
    assert backend.raw_frames is False and backend.sent == ["screencap", "screencap -p"]
    backend.screenshot()
    assert backend.sent[2:] == ["screencap -p"]  # not asked for raw again


class BreaksLater(LocalBackend):
    """Raw frames, then one cut short."""

    def shell_bytes(self, command: str, timeout: float | None = None) -> bytes:
        data = super().shell_bytes(command)
        return data[:-7] if self.raw_frames else data


def test_a_broken_raw_frame_after_good_ones_is_a_device_error() -> None:
    backend = BreaksLater()
    backend.screenshot()
    with pytest.raises(DeviceError, match="returned a broken raw frame"):
        backend.screenshot()


@pytest.mark.parametrize("shape", [(5, 3, 3), (1, 1, 3), (0, 4, 3), (7, 2, 3)])
def test_raw_screencap_is_screencap_cpps_layout(shape: tuple[int, int, int]) -> None:
    """The one-pass RGBA of the virtual device is the plain one: header, then RGB plus 255."""
    image = np.random.default_rng(3).integers(0, 256, shape, dtype=np.uint8)
    h, w = shape[:2]
    assert raw_screencap(image) == aosp_raw(with_alpha(image), 1, 1)
    assert raw_screencap(image[:, ::-1]) == aosp_raw(with_alpha(image[:, ::-1]), 1, 1)
    assert len(raw_screencap(image)) == 16 + h * w * 4


@pytest.mark.parametrize("hint", [0, 1, 999, 1000, 1001, 5000])
def test_read_all_with_a_size_hint_reads_the_same_bytes(hint: int) -> None:
    """``read_all`` reads into one buffer of the size expected (the command's output last
    time): fewer bytes, exactly as many and more all come back whole."""
    import socket
    import threading

    from phone_gym.real.backend import read_all

    data = bytes(np.random.default_rng(hint).integers(0, 256, 1000, dtype=np.uint8))
    a, b = socket.socketpair()
    with a, b:
        def send() -> None:
            for i in range(0, len(data), 37):
                b.sendall(data[i:i + 37])
            b.shutdown(socket.SHUT_WR)
        sender = threading.Thread(target=send)
        sender.start()
        assert bytes(read_all(a, chunk=64, size_hint=hint)) == data
        sender.join()


def test_adb_frames_read_into_a_buffer_of_the_last_size(
        adb: tuple[AdbBackend, VirtualPhone]) -> None:
    backend, phone = adb
    first = backend.frame()
    assert backend._output_sizes == {"screencap": 16 + 1080 * 2400 * 4}
    second = backend.frame()
    assert np.array_equal(np.asarray(second.convert("RGB")), png_pixels(phone))
    assert np.array_equal(np.asarray(first.convert("RGB")), np.asarray(second.convert("RGB")))
