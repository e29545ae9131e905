"""``docs/fidelity.md`` is what ``python -m phone_gym.docgen.fidelity --write`` writes now
(its screens are compared by tests/test_figures.py, the ``fidelity`` figure)."""

from __future__ import annotations

from pathlib import Path

from phone_gym.docgen import fidelity
from phone_gym.mockapps import APPS
from phone_gym.world.manifest import AppLook

ROOT = Path(__file__).resolve().parents[1]


def test_fidelity_page_is_current() -> None:
    text = fidelity.generate(ROOT, images=False)
    committed = (ROOT / fidelity.PAGE).read_text()
    assert committed == text, "run python -m phone_gym.docgen.fidelity --write"
    for app in APPS:
        assert f"## {app.manifest.label}\n" in text
        assert (ROOT / fidelity.IMAGES / f"{app.manifest.name.lower()}.png").is_file()


def test_differences_name_what_is_not_drawn() -> None:
    shown = fidelity.Drawn("Simple Calendar", "tabs", ("Month", "Event list"), True,
                           None)  # type: ignore[arg-type]
    look = AppLook(title="Calendar", navigation="bottom_bar", nav_items=("Month", "List"))
    assert fidelity.differences(look, shown) == [
        "navigation declared as bottom bar but drawn as tabs",
        "app bar title “Simple Calendar” (the real app shows “Calendar”)",
    ]
    same = fidelity.Drawn("Calendar", "bottom_bar", ("Month", "List"), False, None)  # type: ignore[arg-type]
    assert fidelity.differences(look, same) == []
    assert fidelity.differences(AppLook(title="Calendar", navigation="drawer"), same) == [
        "the drawer is declared, not yet drawn"]
    drawer = fidelity.Drawn("Calendar", "drawer", (), False, None)  # type: ignore[arg-type]
    assert fidelity.differences(AppLook(title="Calendar", navigation="drawer"), drawer) == []
    assert fidelity.differences(AppLook(title="Calendar", navigation="speed_dial_fab"),
                                drawer) == ["the speed-dial FAB is declared, not yet drawn"]


def test_drawers_and_speed_dials_are_read_off_the_main_screen() -> None:
    from phone_gym.mockapps import APPS
    from phone_gym.world import Device
    from phone_gym.world.render import Renderer

    joplin = next(a for a in APPS if a.name == "Joplin")
    device = Device(APPS)
    shown = fidelity.drawn(device, joplin.manifest, Renderer(*fidelity.SIZE))
    assert shown.navigation == "speed_dial_fab"


def test_check_fails_on_a_stale_page(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / fidelity.PAGE).write_text("# old\n")
    assert fidelity.main(["--check", "--root", str(tmp_path)]) == 1
