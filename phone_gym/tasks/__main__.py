"""``python -m phone_gym.tasks --write-index``: write the template index
(``tasks/templates.json``) from the built-in apps and catalogue; ``--check-index``: exit 1
when it is stale; ``--write-spare``: measure each template's spare steps for the oracle's
longer routes (``tasks/spare.json``)."""

from __future__ import annotations

import argparse
import sys

from .registry import INDEX, REINDEX, index_text, make_index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m phone_gym.tasks",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-index", action="store_true", help="write the index")
    parser.add_argument("--check-index", action="store_true", help="exit 1 if it is stale")
    parser.add_argument("--write-spare", action="store_true",
                        help="measure the oracles' spare steps (tasks/spare.json)")
    args = parser.parse_args(argv)
    if args.write_spare:
        from .spare import SPARE, measure, spare_text
        SPARE.write_text(spare_text(measure()), encoding="utf-8")
        print(f"wrote {SPARE}")
        return 0
    text = index_text(make_index())
    if args.write_index:
        INDEX.write_text(text, encoding="utf-8")
        print(f"wrote {INDEX}")
    elif args.check_index:
        current = INDEX.read_text(encoding="utf-8") if INDEX.exists() else ""
        if current != text:
            print(f"{INDEX} is stale: {REINDEX}", file=sys.stderr)
            return 1
        print(f"{INDEX} is current")
    else:
        parser.print_help()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
