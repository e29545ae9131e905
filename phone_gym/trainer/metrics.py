"""A CSV metrics log: one row per call, columns grown as new keys appear."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path
from typing import Any


class MetricsLog:
    """Appends rows to ``path`` (CSV); a new key rewrites the file with the wider header."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.rows: list[dict[str, Any]] = []
        self.columns: list[str] = []

    def log(self, row: Mapping[str, Any]) -> None:
        self.rows.append(dict(row))
        new = [k for k in row if k not in self.columns]
        if new:
            self.columns += new
            with open(self.path, "w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=self.columns)
                writer.writeheader()
                writer.writerows(self.rows)
        else:
            with open(self.path, "a", newline="") as f:
                csv.DictWriter(f, fieldnames=self.columns).writerow(dict(row))


def read_metrics(path: str | Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
