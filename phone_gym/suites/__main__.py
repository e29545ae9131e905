"""``python -m phone_gym.suites [PATH]``: write ``docs/androidworld.md`` to PATH
(or print it). ``python -m phone_gym.suites --pwbench docs/bench.md``: rewrite the
instance table of PhoneWorld-Bench's page (between its ``<!-- instances -->`` markers).
``--freeze-pwbench``: draw the current version's data file from the registry (once per
version; it refuses to overwrite a frozen file); ``--freeze-pwbench-zh``: the same for
PhoneWorld-Bench zh (``pwbench_zh_v<ZH_VERSION>.json``, the zh-CN templates)."""

from __future__ import annotations

import sys
from pathlib import Path

from .androidworld import androidworld_doc


def main(argv: list[str]) -> int:
    """Write the page to ``argv[0]`` (or print it)."""
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if argv and argv[0].startswith("-") and argv[0] not in (
            "--pwbench", "--freeze-pwbench", "--freeze-pwbench-zh"):
        print(f"unknown option {argv[0]}: run python -m phone_gym.suites --help",
              file=sys.stderr)
        return 2
    if argv[:1] == ["--pwbench"]:
        from ..mockapps import REGISTRY
        from .pwbench import with_instances

        path = Path(argv[1] if len(argv) > 1 else "docs/bench.md")
        path.write_text(with_instances(path.read_text(encoding="utf-8"), REGISTRY),
                        encoding="utf-8")
        return 0
    if argv[:1] in (["--freeze-pwbench"], ["--freeze-pwbench-zh"]):
        from ..mockapps import REGISTRY
        from .pwbench import DATA, VERSION, ZH_DATA, ZH_LOCALE, ZH_VERSION, write

        zh = argv[0].endswith("-zh")
        path = ZH_DATA if zh else DATA
        if path.exists():
            print(f"{path.name} is frozen; a new version needs a new "
                  f"{'ZH_VERSION' if zh else 'VERSION'}", file=sys.stderr)
            return 1
        if zh:
            write(REGISTRY, path, ZH_VERSION, ZH_LOCALE)
        else:
            write(REGISTRY, path, VERSION)
        return 0
    text = androidworld_doc()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
