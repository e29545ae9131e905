"""Write docs/images/play.png, the README's screenshot of the play page: a Clock task two
steps in, taken by Playwright with the system's Chromium (never a downloaded browser).

    python tests/play/make_screenshot.py [OUT]
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image
from play_support import CHROMIUM, CHROMIUM_ARGS, TASK, oracle_plan
from playwright.sync_api import sync_playwright

from phone_gym.play.cli import make_sessions
from phone_gym.play.server import ServerThread

MAX_BYTES = 200_000


def main(out: Path, work: Path) -> int:
    sessions = make_sessions(task=TASK, seed=0, out=work, size=(540, 1200))
    session = sessions.warm()  # the page's tab takes it
    _, plan = oracle_plan(TASK, 0)
    for action in plan[:2]:  # open Clock from the launcher, then its Timer tab
        session.act(action.to_dict())
    with ServerThread(sessions) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 760})
        page.goto(server.page_url())
        page.wait_for_function("document.getElementById('step').textContent === '2'")
        page.wait_for_function("document.getElementById('phone').naturalWidth > 0")
        png = page.screenshot()
        browser.close()
    sessions.close()
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=128)
    out.parent.mkdir(parents=True, exist_ok=True)
    image.save(out, optimize=True)
    size = out.stat().st_size
    print(f"wrote {out} ({size} bytes)")
    return 0 if size <= MAX_BYTES else 1


if __name__ == "__main__":
    import tempfile

    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images/play.png")
    with tempfile.TemporaryDirectory() as tmp:
        raise SystemExit(main(target, Path(tmp)))
