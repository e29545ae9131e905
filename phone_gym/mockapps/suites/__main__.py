"""``python -m phone_gym.mockapps.suites [PATH]``: write ``docs/androidworld.md`` to PATH
(or print it)."""

from __future__ import annotations

import sys
from pathlib import Path

from .androidworld import androidworld_doc


def main(argv: list[str]) -> int:
    """Write the page to ``argv[0]`` (or print it)."""
    text = androidworld_doc()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
