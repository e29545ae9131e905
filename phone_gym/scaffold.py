"""``phone-gym new-app NAME``: write a working app, its tasks, fixtures and tests from the
Notes pattern, in phone-gym's own tree (a new folder under ``phone_gym/mockapps``, found
automatically) or, with ``out``, as a pip-installable package of its own (found through the
``phone_gym.apps`` entry point once installed)."""

from __future__ import annotations

import re
from pathlib import Path

from .world.manifest import NAME_RE, PACKAGE_RE

TEMPLATE_DIR = Path(__file__).resolve().parent / "mockapps" / "_template"
FILES = ("__init__.py", "manifest.py", "app.py", "fixtures.py", "tasks.py", "test_app.py")


def module_name(name: str) -> str:
    """``TodoList`` -> ``todo_list``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace(f"@@{key}@@", value)
    return text


def absolute_imports(text: str, module: str) -> str:
    """Relative imports of phone-gym's layers, made absolute (for a package of its own)."""
    text = re.sub(r"^from \.\.\.(\w)", r"from phone_gym.\1", text, flags=re.M)
    text = re.sub(r"^from \.\.(\w)", r"from phone_gym.mockapps.\1", text, flags=re.M)
    return text.replace(f"phone_gym.mockapps.{module}", module)


def new_app(name: str, *, label: str | None = None, package: str | None = None,
            out: str | Path | None = None) -> list[Path]:
    """Write the app ``name`` (CamelCase); return the files written. Raises ``ValueError``
    with what to do when the name, package or place is not right."""
    if not NAME_RE.match(name):
        raise ValueError(f"app name {name!r}: use letters and digits, starting with a capital "
                         "letter, e.g. TodoList")
    module = module_name(name)
    package = package or f"com.example.{module.replace('_', '')}"
    if not PACKAGE_RE.match(package):
        raise ValueError(f"--package {package!r} is not an Android package name such as "
                         "com.example.todo")
    values = {"Name": name, "name": module, "module": module, "label": label or name,
              "package": package, "icon": "apps"}
    if out is None:
        root = Path(__file__).resolve().parent / "mockapps"
        if "site-packages" in root.parts or "dist-packages" in root.parts:
            raise ValueError("phone-gym is installed, not checked out: use --out DIR to write "
                             "an app package of its own")
        folder = root / module
        plugin_root = None
    else:
        plugin_root = Path(out)
        folder = plugin_root / module
    if folder.exists():
        raise ValueError(f"{folder} exists already: pick another name or remove it")
    folder.mkdir(parents=True)
    written = []
    for name_ in FILES:
        text = render((TEMPLATE_DIR / f"{name_}.tmpl").read_text(), values)
        if plugin_root is not None:
            text = absolute_imports(text, module)
        target = folder / name_
        target.write_text(text)
        written.append(target)
    if plugin_root is not None:
        pyproject = plugin_root / "pyproject.toml"
        pyproject.write_text(
            "[build-system]\nrequires = [\"setuptools>=68\"]\n"
            "build-backend = \"setuptools.build_meta\"\n\n"
            f"[project]\nname = \"phone-gym-{module.replace('_', '-')}\"\nversion = \"0.1.0\"\n"
            f"description = \"The {values['label']} app for phone-gym's PhoneWorld.\"\n"
            "requires-python = \">=3.10\"\ndependencies = [\"phone-gym\"]\n\n"
            f"[project.entry-points.\"phone_gym.apps\"]\n{module} = \"{module}\"\n\n"
            f"[tool.setuptools]\npackages = [\"{module}\"]\n")
        written.append(pyproject)
    return written
