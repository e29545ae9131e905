"""The template index and lazy loading (issue 25): ``tasks/templates.json`` is current (else
``python -m phone_gym.tasks --write-index``), the lazy registry lists what importing every
app lists, ``import phone_gym`` imports no app, and ``gym.make`` of one template loads only
the apps that template uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from phone_gym.tasks.index import INDEX, REINDEX, builtin_template_ids
from phone_gym.tasks.registry import default_registry, discover, index_text, make_index

ROOT = Path(__file__).resolve().parents[1]


def test_the_index_is_current() -> None:
    assert INDEX.read_text(encoding="utf-8") == index_text(make_index()), REINDEX


def test_the_lazy_registry_lists_what_loading_every_app_lists() -> None:
    eager = discover(plugins=False, lazy=False)
    lazy = discover(plugins=False)
    assert list(lazy.templates) == list(eager.templates) == builtin_template_ids()
    assert [p.manifest for p in lazy.packages] == [p.manifest for p in eager.packages]
    for lazy_pkg, eager_pkg in zip(lazy.packages, eager.packages, strict=True):
        # an app nobody loaded has the fresh data its class would give
        assert lazy_pkg.handle.fresh() == eager_pkg.app.fresh_snapshot(), eager_pkg.module
    some = list(lazy.templates)[::50]
    assert [type(lazy.templates[t]) for t in some] == [type(eager.templates[t]) for t in some]


def test_a_stale_index_entry_is_a_clear_error(monkeypatch: object) -> None:
    registry = discover(plugins=False)
    registry.add_index("phone_gym.mockapps.notes", ["NotesNoSuchTemplate"])
    try:
        registry.templates["NotesNoSuchTemplate"]
    except LookupError as exc:
        assert "stale" in str(exc) and "--write-index" in str(exc)
    else:
        raise AssertionError("no error for a template its module does not define")


def run(code: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=300).stdout
    return json.loads(out.splitlines()[-1])  # type: ignore[no-any-return]


def test_import_phone_gym_registers_every_id_and_imports_no_app() -> None:
    got = run("import json, sys, gymnasium as gym, phone_gym; "
              "print(json.dumps({'apps': sorted(m for m in sys.modules if m.startswith("
              "'phone_gym.mockapps.') or m.startswith('phone_gym.crossapp')), "
              "'ids': len([k for k in gym.registry if k.startswith('PhoneWorld-')])}))")
    assert got["apps"] == []
    assert got["ids"] == len(builtin_template_ids()) + 1  # and PhoneWorld-v0


def test_make_of_one_template_loads_only_its_apps() -> None:
    got = run("import json, sys, gymnasium as gym, phone_gym; "
              "env = gym.make('PhoneWorld-NotesIsTodo-v0'); env.reset(seed=0); "
              "apps = sorted({m.split('.')[2] for m in sys.modules "
              "if m.startswith('phone_gym.mockapps.') and m.endswith('.app')}); "
              "print(json.dumps({'apps': apps, 'launcher': len(env.unwrapped.device.manifests)}))")
    assert got["apps"] == ["joplin"]  # NotesIsTodo is about Joplin
    assert got["launcher"] == len(default_registry().packages)  # every app is installed


def test_version_and_usage_errors_load_no_app_suite_or_renderer() -> None:
    """``phone-gym --version`` and a bad flag answer without the apps, the suites or Pillow
    (the command line builds its parser from the command modules' flags only)."""
    got = run("import contextlib, io, json, sys; from phone_gym.cli import main; "
              "err = io.StringIO(); out = io.StringIO(); "
              "with_err = contextlib.redirect_stderr(err); with_out = contextlib.redirect_stdout(out)\n"
              "with with_err, with_out: codes = [main(['--version']), main(['--no-such-flag'])]\n"
              "heavy = sorted(m for m in sys.modules if m.startswith(("
              "'phone_gym.mockapps.', 'phone_gym.crossapp', 'phone_gym.bench.suites', "
              "'phone_gym.suites', 'PIL')))\n"
              "print(json.dumps({'codes': codes, 'heavy': heavy, 'out': out.getvalue()}))")
    assert got["codes"] == [0, 2]
    assert str(got["out"]).startswith("phone-gym ")
    assert got["heavy"] == []
