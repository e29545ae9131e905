"""Frames composed the cheap way (dirty rects into the last image, fills only where no later
opaque operation covers them, masked tiles blended in precut bands, shared nodes' operations
kept from frame to frame) equal frames painted the plain way: every operation of a frame
listed afresh, painted in order over the whole image, each masked tile blended over its
whole rect. The plain painter here shares no code with ``render._apply``."""

from __future__ import annotations

import numpy as np
import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import TEMPLATES
from phone_gym.world import render as R
from phone_gym.world.layout import Frame
from phone_gym.world.painter import Tile
from phone_gym.world.render import Renderer, TileCache

SIZE = (270, 600)


def fresh_ops(renderer: Renderer, frame: Frame) -> tuple[list[R.Op], list[Tile | R.RGB]]:
    """``frame``'s operations listed without the shared nodes' memo."""
    for placed in frame.items:
        placed.node.__dict__.pop(R._MEMO, None)
    return renderer._ops(frame)


def plain_paint(renderer: Renderer, frame: Frame,
                listed: tuple[list[R.Op], list[Tile | R.RGB]] | None = None) -> np.ndarray:
    """The image of ``frame``: each operation (``listed``, else listed afresh) painted whole,
    in order, onto a blank image."""
    ops, looks = listed or fresh_ops(renderer, frame)
    out = np.zeros((renderer.height, renderer.width, 3), np.uint8)
    for (_, Y0, X0, vy0, vy1, vx0, vx1), look in zip(ops, looks, strict=True):
        dst = out[vy0:vy1, vx0:vx1]
        if not isinstance(look, Tile):
            dst[...] = look
            continue
        part = (slice(vy0 - Y0, vy1 - Y0), slice(vx0 - X0, vx1 - X0))
        if look.opaque:
            dst[...] = look.rgb[part]
            continue
        if look.pre is not None and look.inv is not None:  # blend it all, then the solid rect
            dst[...] = ((dst.astype(np.uint32) * look.inv[part] + look.pre[part]) >> 8)
        r0, r1, c0, c1 = look.solid
        a0, a1 = max(vy0, Y0 + r0), min(vy1, Y0 + r1)
        b0, b1 = max(vx0, X0 + c0), min(vx1, X0 + c1)
        if a1 > a0 and b1 > b0:
            out[a0:a1, b0:b1] = look.rgb[a0 - Y0:a1 - Y0, b0 - X0:b1 - X0]
    return out


def sampled(count: int, seed: int) -> list[str]:
    """``count`` template ids drawn with ``seed``."""
    ids = sorted(TEMPLATES)
    rng = np.random.default_rng(seed)
    return [ids[i] for i in rng.choice(len(ids), count, replace=False)]


def walk(template_ids: list[str], size: tuple[int, int], steps_each: int):  # type: ignore[no-untyped-def]
    """Oracle steps over ``template_ids`` (a random action every fifth step): yields the env
    and the observation after each step."""
    env = PhoneWorldEnv(task=template_ids, obs_size=size)
    env.renderer = Counting(*size, cache=TileCache())
    env.action_space.seed(0)
    for n, tid in enumerate(template_ids):
        obs, _ = env.reset(seed=n, options={"task": tid})
        yield env, obs
        for i in range(steps_each):
            action = env.action_space.sample() if i % 5 == 4 else env.oracle_action()
            obs, _, terminated, truncated, _ = env.step(action)
            yield env, obs
            if terminated or truncated:
                break


class Counting(Renderer):
    """A renderer that counts the shared nodes whose operation came from their memo (the
    memo is left as it was only then)."""

    hits = 0

    def _ops(self, frame: Frame) -> tuple[list[R.Op], list[Tile | R.RGB]]:
        before = [p.node.__dict__.get(R._MEMO) for p in frame.items]
        out = super()._ops(frame)
        self.hits += sum(memo is not None and p.node.__dict__.get(R._MEMO) is memo
                         for p, memo in zip(frame.items, before, strict=True))
        return out


def check_walk(template_ids: list[str], size: tuple[int, int], steps_each: int) -> None:
    seen = {"partial": 0, "masked": 0, "culled": 0}
    last: list[R.Op] = []
    for env, obs in walk(template_ids, size, steps_each):
        frame = env.device.frame()
        ops, looks = env.renderer._last, env.renderer._tiles
        seen["partial"] += bool(env.renderer._dirty(last, ops))
        last = ops
        seen["masked"] += any(isinstance(t, Tile) and not t.opaque for t in looks)
        seen["culled"] += any(
            not isinstance(t, Tile) and R._uncovered(ops, looks, k + 1, *op[3:]) != [op[3:5]]
            for k, (op, t) in enumerate(zip(ops, looks, strict=True)))
        # the env's operations (shared nodes' from their memo) are those listed afresh
        memo_ops = [op[1:] for op in ops]
        listed, listed_looks = fresh_ops(env.renderer, frame)
        assert memo_ops == [op[1:] for op in listed]
        assert [t if not isinstance(t, Tile) else t.rgb.tobytes() for t in looks] == \
            [t if not isinstance(t, Tile) else t.rgb.tobytes() for t in listed_looks]
        expected = plain_paint(env.renderer, frame, (listed, listed_looks))
        assert np.array_equal(obs["screenshot"], expected), env.episode.template.id
    # each shortcut was taken, so the comparisons above tested it
    seen["memo"] = env.renderer.hits
    assert all(seen.values()), seen


def test_composed_frames_equal_plain_paint() -> None:
    """Templates with dialogs, sheets, menus and the keyboard (masked tiles, the scrim, the
    shared keyboard keys), and a random sample, at half size."""
    picked = ["ContactsDeleteContact", "ClockDeleteAlarm", "ChatSendMessage", "MarkorCreateNote"]
    assert set(picked) <= set(TEMPLATES)
    check_walk(picked + sampled(2, 1), SIZE, 8)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(540, 1200), (333, 717)])
def test_composed_frames_equal_plain_paint_long(size: tuple[int, int]) -> None:
    """A long oracle run over 40 sampled templates, at the default size and an odd one."""
    check_walk(sampled(40, 2), size, 30)


def test_kept_and_written_observations() -> None:
    """An observation the caller keeps never changes; one the caller writes into changes no
    later observation."""
    env = PhoneWorldEnv(apps="Contacts", obs_size=SIZE, render_mode="rgb_array")
    reference = Renderer(*SIZE, cache=TileCache())
    obs, _ = env.reset(seed=4)
    kept = [(obs["screenshot"], obs["screenshot"].copy())]
    for i in range(7):
        obs, _, terminated, truncated, _ = env.step(env.oracle_action())
        shot = obs["screenshot"]
        assert np.array_equal(shot, plain_paint(reference, env.device.frame()))
        rendered = env.render()
        assert rendered is not None and np.array_equal(rendered, shot)
        assert not np.shares_memory(rendered, shot)
        kept.append((shot, shot.copy()))
        if i % 3 == 0:
            shot[...] = 255 - shot  # the caller's to write: no later frame may show it
            rendered[:40] = 0
            kept.pop()
        if terminated or truncated:
            env.reset()
    for now, then in kept:
        assert np.array_equal(now, then)
        assert now.flags.writeable


def test_blend_bands_are_cut_to_what_shows() -> None:
    """A masked tile's bands cover its pixels outside the solid rect that change what is
    below (a pixel with alpha 0 changes nothing), each pixel once."""
    h, w = 20, 30
    alpha = np.zeros((h, w), np.uint16)
    alpha[4:16, 5:25] = 128  # a soft edge ...
    alpha[6:14, 8:22] = 255  # ... around a solid rect
    rgb = np.full((h, w, 3), 200, np.uint8)
    inv = (256 - alpha)[..., None]
    pre = rgb * alpha[..., None]
    tile = Tile(rgb, (6, 14, 8, 22), pre, inv, False)
    bands = R._blend_bands(tile)
    assert R._blend_bands(tile) is bands  # made once
    covered = np.zeros((h, w), int)
    for ya, yb, xa, xb, band_pre, band_inv in bands:
        covered[ya:yb, xa:xb] += 1
        assert band_inv.shape == band_pre.shape == (yb - ya, xb - xa, 3)
        assert band_pre.flags.c_contiguous and band_inv.flags.c_contiguous
    assert covered.max() == 1
    assert (covered[4:16, 5:25].astype(bool) | (alpha[4:16, 5:25] == 255)).all()
    assert not covered[:4].any() and not covered[16:].any() and not covered[:, :5].any()
    out = np.full((40, 40, 3), 10, np.uint8)
    R._paste(out, tile, 0, h, 0, w, 3, 4)
    expected = np.full((40, 40, 3), 10, np.uint8)
    blend = ((expected[3:23, 4:34].astype(np.uint32) * inv + pre) >> 8).astype(np.uint8)
    blend[6:14, 8:22] = 200
    expected[3:23, 4:34] = blend
    assert np.array_equal(out, expected)
    key = id(pre)
    del tile, bands, pre, band_pre, band_inv
    assert key not in R._BANDS  # forgotten with the tile's arrays


def test_uncovered_rows() -> None:
    opaque = Tile(np.zeros((10, 100, 3), np.uint8), opaque=True)
    narrow = Tile(np.zeros((10, 50, 3), np.uint8), opaque=True)
    ops: list[R.Op] = [((1, 2, 3), 0, 0, 0, 100, 0, 100), (id(opaque), 10, 0, 10, 20, 0, 100),
                       (id(narrow), 30, 0, 30, 40, 0, 50), (id(opaque), 15, 0, 15, 25, 0, 100),
                       (id(opaque), 90, 0, 90, 100, 0, 100)]
    looks: list[Tile | R.RGB] = [(1, 2, 3), opaque, narrow, opaque, opaque]
    assert R._uncovered(ops, looks, 1, 0, 100, 0, 100) == [(0, 10), (25, 90)]
    assert R._uncovered(ops, looks, 1, 0, 100, 0, 50) == [(0, 10), (25, 30), (40, 90)]
    assert R._uncovered(ops, looks, 1, 12, 18, 0, 100) == []
    assert R._uncovered(ops, looks, 4, 0, 50, 0, 100) == [(0, 50)]
    inset: list[R.Op] = [(id(opaque), 10, 1, 10, 20, 1, 100), (id(opaque), 30, 0, 30, 40, 0, 99)]
    assert R._uncovered(inset, [opaque, opaque], 0, 0, 50, 0, 100) == [(0, 50)]
    assert R._uncovered(inset, [opaque, opaque], 0, 0, 50, 1, 99) == [(0, 10), (20, 30), (40, 50)]


def test_shared_node_memo_follows_what_it_sits_on() -> None:
    """A shared node shown at the same place on another background, at another place, or
    under the scrim, is listed afresh (its memo is only for the same place and look)."""
    from phone_gym.world import theme as T
    from phone_gym.world.a11y import share
    from phone_gym.world.widgets import Node

    label = share(Node("text", text="Shared", id="label"))
    renderer = Renderer(*SIZE, cache=TileCache())
    full = (0, 0, T.SCREEN_W, T.SCREEN_H)
    shots = []
    for color, where, scrim in (((250, 250, 250), 400, None), ((20, 40, 90), 400, None),
                                ((20, 40, 90), 400, None), ((20, 40, 90), 600, None),
                                ((20, 40, 90), 600, 2), ((250, 250, 250), 400, None)):
        frame = Frame()
        frame.add(Node("screen", color=color), full)
        frame.add(label, (96, where, 984, where + 60), parent=0)
        frame.add(Node("text", text="on top", id="top"), (96, 1200, 984, 1260), parent=0)
        frame.scrim_before = scrim
        listed = renderer._ops(frame)
        before = [op[1:] for op in listed[0]]
        shot = renderer.render(frame)
        assert before == [op[1:] for op in fresh_ops(renderer, frame)[0]]
        assert np.array_equal(shot, plain_paint(renderer, frame))
        shots.append(shot)
    assert not np.array_equal(shots[0], shots[1]) and np.array_equal(shots[1], shots[2])
    assert np.array_equal(shots[0], shots[5])
