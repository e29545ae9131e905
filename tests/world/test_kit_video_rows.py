"""The screen kit's 16:9 video rows (``kit.VideoRow``): a thumbnail left of the text (VLC)
or a full-width picture above it (YouTube's feed), keeping a list item's accessibility
node, texts, parts and ids."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from driving import tap
from test_kit import colors, element, region, render, start

from phone_gym.world import App, Route, Screen, pictures
from phone_gym.world.kit import VideoRow, video_row_height
from phone_gym.world.manifest import AppManifest
from phone_gym.world.theme import SCREEN_W
from phone_gym.world.widgets import TopBar, VirtualList

TITLES = ("Sunset over the bay", "Cooking pasta")


@dataclass
class ReelUi:
    layout: str = "side"
    opened: str = ""
    picked: str = ""


class ReelApp(App):
    manifest = AppManifest("Reel", "com.example.reel")
    ui: ReelUi

    def initial_ui(self) -> ReelUi:
        return ReelUi()

    def row(self, i: int) -> object:
        title = TITLES[i]
        return VideoRow(title, picture=pictures.encode("video", i + 7), layout=self.ui.layout,
                        id=f"video_{i}", parts=[(f"channel_{i}", "Chef Ana"),
                                                (f"length_{i}", "4:05")],
                        on_click=lambda: setattr(self.ui, "opened", title),
                        selected=self.ui.picked == title)

    def view(self, route: Route) -> Screen:
        return Screen(top_bar=TopBar("Reel"), content=[
            VirtualList(len(TITLES), self.row, id="videos",
                        row_height=video_row_height(self.ui.layout))])


def reel(device: object) -> ReelUi:
    app = device.apps["Reel"]  # type: ignore[attr-defined]
    assert isinstance(app, ReelApp)
    return app.ui


@pytest.mark.parametrize("layout", ["side", "card"])
def test_a_video_row_keeps_the_list_items_node_and_parts(layout: str) -> None:
    device = start(ReelApp)
    reel(device).layout = layout
    device.invalidate()
    row = element(device, "video_1")
    assert row.class_name == "android.view.ViewGroup" and row.text == "Cooking pasta"
    x0, y0, x1, y1 = row.bounds
    assert y1 - y0 == video_row_height(layout)
    channel, length = element(device, "channel_1"), element(device, "length_1")
    assert (channel.text, length.text) == ("Chef Ana", "4:05")
    if layout == "card":  # edge to edge, the texts under the 16:9 picture
        assert (x0, x1) == (0, SCREEN_W)
        assert channel.bounds[1] >= y0 + SCREEN_W * 9 // 16
    else:  # the texts right of the 16:9 thumbnail
        assert channel.bounds[0] > x0 + 288 and channel.bounds[3] <= y1
    tap(device, id="video_1")
    assert reel(device).opened == "Cooking pasta"


def test_the_picture_is_drawn_16_by_9() -> None:
    device = start(ReelApp)
    x0, y0, x1, y1 = element(device, "video_0").bounds
    side = render(device)
    thumb = region(side, (x0 + 60, y0 + 40, x0 + 300, y1 - 40))  # the thumbnail
    assert colors(thumb) > 20
    reel(device).layout = "card"
    device.invalidate()
    x0, y0, x1, y1 = element(device, "video_0").bounds
    card = render(device)
    picture = region(card, (0, y0, SCREEN_W, y0 + SCREEN_W * 9 // 16 - 8))
    assert colors(picture) > 20 and colors(region(card, (0, y0, 40, y0 + 400))) > 1


def test_a_picked_row_is_selected_and_marked() -> None:
    device = start(ReelApp)
    plain = render(device)
    reel(device).picked = "Sunset over the bay"
    device.invalidate()
    node = [p for p in device.frame().items if p.node.id == "video_0"][0].node
    assert node.selected
    marked = render(device)
    x0, y0, x1, y1 = element(device, "video_0").bounds
    assert (region(marked, (x0, y0, x1, y1)) != region(plain, (x0, y0, x1, y1))).any()


def test_bad_arguments_name_what_is_accepted() -> None:
    with pytest.raises(ValueError, match="accepted: side, card"):
        VideoRow("x", picture=pictures.encode("video", 1), layout="grid")
    with pytest.raises(ValueError, match="accepted: side, card"):
        video_row_height("grid")
    with pytest.raises(ValueError, match="pictures.encode"):
        VideoRow("x", picture="▶")
