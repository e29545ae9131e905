"""Refresh ``slow_tests.txt``: the tests the fast tier leaves out because one run of them
takes ``THRESHOLD_S`` or more (setup included) on the 2-core reference machine. Feed it the
output of a fast-tier run with durations::

    python -m pytest -n 2 -p no:cacheprovider --durations=0 | python tests/slow_tests.py

Tests already listed stay listed (a test that got fast again can be taken out by hand)."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

THRESHOLD_S = 1.5
LIST = Path(__file__).with_name("slow_tests.txt")
HEADER = ("# Tests the fast tier (plain `pytest`) leaves out: each takes 1.5 s or more on 2 "
          "cores.\n"
          "# `pytest --full` runs them. Refresh: see tests/slow_tests.py.\n")


def listed() -> set[str]:
    """The node ids in ``LIST``."""
    if not LIST.exists():
        return set()
    return {line.strip() for line in LIST.read_text().splitlines()
            if line.strip() and not line.startswith("#")}


def main() -> int:
    spent: Counter[str] = Counter()
    for line in sys.stdin:
        m = re.match(r"\s*([\d.]+)s (?:call|setup|teardown)\s+(.+?)\s*$", line)
        if m:
            spent[m.group(2)] += float(m.group(1))
    slow = listed() | {node for node, s in spent.items() if s >= THRESHOLD_S}
    LIST.write_text(HEADER + "".join(f"{node}\n" for node in sorted(slow)))
    print(f"{len(slow)} slow tests in {LIST}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
