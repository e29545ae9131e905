"""Issue 32, held-out fidelity: a rebuilt app keys what typing does by the field, not by the
text a training trace typed. Contacts' search, rebuilt from one look-up episode, is replayed on
another that searches for someone else: typing the new name reaches the filtered list (the
link of the search field), and the screen shows the name typed now."""

from __future__ import annotations

from pathlib import Path

import pytest

from phone_gym.reconstruct.loop import closed_loop, record_episodes

pytestmark = pytest.mark.slow


def test_text_never_typed_in_training_follows_the_fields_link(tmp_path: Path) -> None:
    train = record_episodes(["ContactsLookupPhone:0"], tmp_path / "train")
    held = record_episodes(["ContactsLookupPhone:1"], tmp_path / "held")
    rep = closed_loop(train, held, tmp_path / "rebuilt")
    typed = [s for s in rep["steps"] if s["action"]["action"] == "type"]
    assert typed, rep["steps"]
    trained = {s["action"]["text"] for s in closed_loop(train, train, tmp_path / "again")[
        "steps"] if s["action"]["action"] == "type"}
    assert all(s["action"]["text"] not in trained for s in typed)  # other text than trained
    assert all(s["ok"] and s["text_overlap"] == 1.0 for s in typed), typed
