"""``python -m phone_gym.suites [PATH]``: write ``docs/androidworld.md`` to PATH
(or print it). ``python -m phone_gym.suites --pwbench docs/bench.md``: rewrite the
instance table of PhoneWorld-Bench's page (between its ``<!-- instances -->`` markers).
``--freeze-pwbench``: draw the current version's data file from the registry (once per
version; it refuses to overwrite a frozen file)."""

from __future__ import annotations

import sys
from pathlib import Path

from .androidworld import androidworld_doc


def main(argv: list[str]) -> int:
    """Write the page to ``argv[0]`` (or print it)."""
    if argv[:1] == ["--pwbench"]:
        from ..mockapps import REGISTRY
        from .pwbench import with_instances

        path = Path(argv[1] if len(argv) > 1 else "docs/bench.md")
        path.write_text(with_instances(path.read_text(encoding="utf-8"), REGISTRY),
                        encoding="utf-8")
        return 0
    if argv[:1] == ["--freeze-pwbench"]:
        from ..mockapps import REGISTRY
        from .pwbench import DATA, write

        if DATA.exists():
            print(f"{DATA.name} is frozen; a new version needs a new VERSION", file=sys.stderr)
            return 1
        write(REGISTRY, DATA)
        return 0
    text = androidworld_doc()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
