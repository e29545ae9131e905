"""Run configs for ``phone-gym train sft|grpo --config FILE``: JSON or TOML (``tomllib``).

Shared keys (defaults in ``COMMON``): ``model`` ("tiny" or a local checkpoint), ``out_dir``,
the policy settings, ``seed``, ``checkpoint_every``, ``lora`` (a table: r, alpha, dropout,
target_modules; absent: full fine-tuning), ``quantization`` ("4bit": QLoRA, the base
loaded in 4 bits under the ``lora`` adapters; needs bitsandbytes and a CUDA GPU). SFT
adds ``data`` (``DATA``: the folder ``phone-gym collect`` wrote, or oracle episodes to
collect), the optimizer keys in ``SFT`` and ``reasons`` (``"none"``, ``"reason"`` or
``"reason_and_step"``: what the target holds before the action,
``prompts.assistant_text``); GRPO adds ``sources`` (a list of ``EnvSource`` tables),
``grpo`` (``GRPOSettings`` fields), ``format_penalty`` and ``ray_workers``. Relative
paths (``out_dir``, ``data.path``) are relative to the working directory. Example (TOML)::

    model = "tiny"
    out_dir = "runs/grpo"
    [grpo]
    iterations = 20
    group_size = 8
    [[sources]]
    name = "mock"
    env = "PhoneWorld-v0"
    kwargs = { task = "ClockDisableAlarm", end_on_success = true, max_steps = 4 }
    num_envs = 8

``apply_overrides`` applies the command line's ``--set KEY=VALUE`` items: top-level or
dotted keys (``grpo.lr=1e-4``, ``sources.mock.num_envs=2``; a key of the ``grpo`` table of
a GRPO config or the ``data`` table of an SFT one also without its table: ``iterations=3``),
values read as TOML literals.
"""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

from .prompts import REASONS

#: The values of ``quantization`` (``quantize.QUANTIZATIONS``; here so that checking a config
#: needs no torch): "4bit" is QLoRA, a 4-bit NF4 base under the ``lora`` adapters.
QUANTIZATIONS: tuple[str, ...] = ("4bit",)

COMMON: dict[str, Any] = {
    "model": "tiny", "out_dir": "runs/train", "image_size": None, "max_new_tokens": 48,
    "temperature": 1.0, "max_history": 8, "history_images": 0, "dtype": None,
    "device": None, "seed": 0, "checkpoint_every": 0, "lora": None, "progress": True,
    "batch_size": 16, "gradient_checkpointing": False, "quantization": None,
}
SFT: dict[str, Any] = {
    "data": None, "steps": 300, "train_batch_size": 8, "lr": 1e-3, "weight_decay": 0.0,
    "max_grad_norm": 1.0, "eval_episodes": 0, "successful_only": True, "reasons": "none",
    "micro_batch_size": None,
}
GRPO: dict[str, Any] = {
    "sources": None, "grpo": {}, "format_penalty": 0.0, "ray_workers": 0, "record": False,
}
#: Keys of the SFT ``data`` table: the folder ``phone-gym collect`` wrote (``path``), or
#: oracle episodes to collect (``env``, ``kwargs``, ``episodes``, ``seeds``, ``num_envs``).
#: With ``path``, ``eval_episodes`` runs on ``env`` with ``kwargs`` (its ``task``: the
#: data's tasks unless given).
DATA: dict[str, Any] = {
    "path": None, "env": "PhoneWorld-v0", "kwargs": {}, "episodes": 16, "seeds": None,
    "num_envs": 4,
}
#: Keys of the ``lora`` table (``sft.LoraSettings``; written out here so that checking a
#: config needs no torch).
LORA: dict[str, Any] = {"r": 16, "alpha": 32, "dropout": 0.0, "target_modules": None}
#: The table of each kind whose keys ``--set`` also takes without the table's name
#: (``--set iterations=3`` is ``--set grpo.iterations=3``).
MAIN_TABLE = {"sft": "data", "grpo": "grpo"}
#: Keys of a ``[[sources]]`` table (``mixing.EnvSource``).
SOURCE: dict[str, Any] = {
    "name": None, "env": None, "kwargs": {}, "weight": 1.0, "num_envs": 1, "seeds": None,
    "options": None,
}


class ConfigError(ValueError):
    """A config file or a ``--set`` item that cannot be used (the message says why)."""


def load_config(path: str | Path) -> dict[str, Any]:
    """A config file as a dict (``.toml`` through tomllib, anything else as JSON)."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise ConfigError(f"no config file {str(path)!r} (examples: examples/configs/*.toml)"
                          ) from None
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {str(path)!r}: {exc.strerror}"
                          ) from None
    try:
        data = _toml().loads(text) if path.suffix == ".toml" else json.loads(text)
    except ValueError as exc:  # tomllib.TOMLDecodeError and json.JSONDecodeError both are
        kind = "TOML" if path.suffix == ".toml" else "JSON (a .toml file is read as TOML)"
        raise ConfigError(f"{path} is not valid {kind}: {exc}: fix it (examples: "
                          "examples/configs/*.toml)") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a table of settings, found {type(data).__name__}")
    return data


def _toml() -> Any:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib


def parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML literal (``3``, ``1e-4``, ``true``, ``[64, 128]``,
    ``"x"``, ``{ lr = 1e-4 }``), else the text itself as a string (``out/traj``)."""
    try:
        return _toml().loads(f"value = {text}")["value"]
    except ValueError:
        if text.strip()[:1] in ("{", "[", '"', "'"):
            raise ConfigError(f"{text!r} is not a TOML value (tables: {{ key = 1 }}, "
                              "arrays: [1, 2], strings: \"text\")") from None
        return text


def apply_overrides(config: Mapping[str, Any], items: Iterable[str],
                    kind: str | None = None) -> dict[str, Any]:
    """``config`` with ``--set KEY=VALUE`` items applied, in order, on a deep copy.

    ``KEY`` is a top-level key or a dotted path into tables (``grpo.lr``, ``data.path``)
    and into the ``sources`` list by a source's ``name`` or its index
    (``sources.real.kwargs.port``). A table value is merged key by key into the table
    already there. With ``kind`` ("sft" or "grpo"), unknown keys raise ``ConfigError``
    with the closest known ones, and a key of the kind's ``MAIN_TABLE`` that is not a
    top-level key may leave its table out (``iterations=3`` for ``grpo.iterations=3``).
    """
    out = copy.deepcopy(dict(config))
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE, e.g. --set steps=50 or "
                              "--set grpo.lr=1e-4")
        try:
            value = parse_value(text.strip())
            if kind is not None:
                key = _full_key(key, kind)
                _check_path(key, value, kind)
            _assign(out, key.split("."), value)
        except ConfigError as exc:
            raise ConfigError(f"--set {item}: {exc}") from None
    return out


def _full_key(key: str, kind: str) -> str:
    """``key`` with its table added where it names a key of the kind's main table only."""
    keys = known_keys(kind)
    dotted = f"{MAIN_TABLE.get(kind)}.{key}"
    return dotted if "." not in key and key not in keys and dotted in keys else key


def _assign(node: Any, parts: list[str], value: Any) -> None:
    for depth, part in enumerate(parts[:-1]):
        node = _child(node, part, ".".join(parts[:depth + 1]))
    last = parts[-1]
    if isinstance(node, list):
        index = _index(node, last, ".".join(parts))
        node[index] = _merged(node[index], value)
    elif isinstance(node, dict):
        node[last] = _merged(node.get(last), value)
    else:
        raise ConfigError(f"{'.'.join(parts[:-1])} is not a table")


def _child(node: Any, part: str, path: str) -> Any:
    if isinstance(node, list):
        return node[_index(node, part, path)]
    if not isinstance(node, dict):
        raise ConfigError(f"{path.rpartition('.')[0]} is not a table")
    child = node.get(part)
    if child is None:
        child = node[part] = {}
    if not isinstance(child, (dict, list)):
        raise ConfigError(f"{path} is {child!r}, not a table")
    return child


def _index(items: list[Any], part: str, path: str) -> int:
    names = [item.get("name") for item in items if isinstance(item, dict)]
    if part in names:
        return names.index(part)
    if part.isdigit() and int(part) < len(items):
        return int(part)
    raise ConfigError(f"{path}: no entry {part!r}; entries: "
                      f"{', '.join(repr(n) for n in names) or 'none'} (or an index "
                      f"0..{len(items) - 1})")


def _merged(old: Any, new: Any) -> Any:
    if isinstance(old, dict) and isinstance(new, dict):
        out = dict(old)
        for key, value in new.items():
            out[key] = _merged(out.get(key), value)
        return out
    return new


def known_keys(kind: str) -> dict[str, Any]:
    """The keys a ``kind`` config accepts, top-level and dotted (``grpo.lr``), with their
    defaults (``sources`` entries: ``sources.<name>.<key>``)."""
    if kind not in ("sft", "grpo"):
        raise ConfigError(f"kind={kind!r}; accepted: 'sft', 'grpo'")
    top = {**COMMON, **(SFT if kind == "sft" else GRPO)}
    keys = dict(top)
    keys.update({f"lora.{k}": v for k, v in LORA.items()})
    if kind == "sft":
        keys.update({f"data.{k}": v for k, v in DATA.items()})
    else:
        keys.update({f"grpo.{k}": v for k, v in grpo_defaults().items()})
        keys.update({f"sources.<name>.{k}": v for k, v in SOURCE.items()})
    return keys


def grpo_defaults() -> dict[str, Any]:
    """The fields of ``GRPOSettings`` and their defaults (imports torch)."""
    from .grpo import GRPOSettings

    return {f.name: f.default for f in fields(GRPOSettings) if f.default is not MISSING}


def _check_grpo(values: Mapping[str, Any]) -> None:
    """Raise ``ConfigError`` for ``grpo`` values ``GRPOSettings`` refuses (its message says
    what is accepted: ``loss_type``, ``clip_ratio_c``, ``refill_flat_groups``, ...)."""
    from .grpo import GRPOSettings

    try:
        GRPOSettings(**values)
    except ValueError as exc:
        raise ConfigError(f"grpo.{exc}") from None


def _suggest(key: str, known: Sequence[str], full: Sequence[str]) -> str:
    """``; did you mean 'x'?``: a dotted key of ``full`` ending in ``.key``, else the
    closest of ``known``, else the closest of ``full``."""
    close = ([k for k in full if k.endswith(f".{key}")]
             or difflib.get_close_matches(key, known, n=2, cutoff=0.6)
             or difflib.get_close_matches(key, full, n=2, cutoff=0.6))
    if not close:
        return ""
    return "; did you mean " + " or ".join(repr(k) for k in close[:2]) + "?"


def _unknown(what: str, key: str, known: Sequence[str], full: Sequence[str]) -> ConfigError:
    return ConfigError(f"unknown {what} key {key!r}{_suggest(key, known, full)} "
                       f"(accepted: {', '.join(sorted(known))})")


def _check_path(key: str, value: Any, kind: str) -> None:
    """Raise ``ConfigError`` if ``key`` (dotted) is not one a ``kind`` config has, or if
    ``value`` is a table to merge into a table of the config and holds a key it has not."""
    keys = known_keys(kind)
    parts = key.split(".")
    top = [k for k in keys if "." not in k]
    if parts[0] not in top:
        raise _unknown(f"{kind} config", key, top, list(keys))
    table = {"lora": LORA, "data": DATA if kind == "sft" else None,
             "grpo": grpo_defaults() if kind == "grpo" else None,
             "sources": SOURCE if kind == "grpo" else None}.get(parts[0])
    if len(parts) == 1:
        if table is not None and parts[0] != "sources" and isinstance(value, Mapping):
            _check_keys(parts[0], value, table, keys)
        return
    if table is None:
        raise ConfigError(f"{parts[0]} is not a table")
    rest = parts[2:] if parts[0] == "sources" else parts[1:]
    if not rest:  # sources.<name>
        if isinstance(value, Mapping):
            _check_keys(key, value, table, keys)
        return
    if rest[0] not in table:
        raise _unknown(f"{parts[0]}", rest[0], list(table), list(keys))
    if len(rest) > 1 and rest[0] not in ("kwargs", "options"):
        raise ConfigError(f"{parts[0]}.{rest[0]} is not a table")


def _check_keys(name: str, value: Mapping[str, Any], table: Mapping[str, Any],
                keys: Mapping[str, Any]) -> None:
    """Raise ``ConfigError`` for the first key of ``value`` that ``table`` has not."""
    for key in value:
        if key not in table:
            raise _unknown(name, key, list(table), list(keys))


def resolve(config: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """The config with defaults filled in; unknown keys and values of the wrong type raise
    ``ConfigError`` (a ``ValueError``) naming what is accepted."""
    keys = known_keys(kind)
    defaults = {k: v for k, v in keys.items() if "." not in k}
    for key in config:
        if key not in defaults:
            raise _unknown(f"{kind} config", key, list(defaults), list(keys))
    out = {**defaults, **config}
    _check_types(out, defaults, "")
    if out["quantization"] is not None:
        if out["quantization"] not in QUANTIZATIONS:
            raise ConfigError(f"quantization = {out['quantization']!r}; accepted: "
                              f"{', '.join(map(repr, QUANTIZATIONS))} (QLoRA: a 4-bit base "
                              "under the [lora] adapters) or none")
        if out["lora"] is None:
            raise ConfigError("quantization = \"4bit\" trains LoRA adapters over the 4-bit "
                              "base (QLoRA): add a [lora] table (e.g. lora = { r = 16 })")
    if out["lora"] is not None:
        out["lora"] = _table(out["lora"], LORA, "lora", keys)
        out["lora"] = {k: v for k, v in out["lora"].items() if v is not None}
    if kind == "sft":
        micro = out["micro_batch_size"]
        if micro is not None and (not isinstance(micro, int) or isinstance(micro, bool)
                                  or micro < 1):
            raise ConfigError(f"micro_batch_size = {micro!r}; accepted: an integer >= 1 (the "
                              "samples per forward pass; gradients accumulate up to "
                              "train_batch_size) or none")
        if out["reasons"] not in REASONS:
            raise ConfigError(f"reasons = {out['reasons']!r}: accepted: "
                              f"{', '.join(map(repr, REASONS))} (what the target holds "
                              "before the action: nothing, the step's reason, or its reason "
                              "and step instruction)")
        out["data"] = {**DATA, **_table(out["data"] or {}, DATA, "data", keys)}
        _check_types(out["data"], DATA, "data.")
    else:
        settings = grpo_defaults()
        out["grpo"] = _table(out["grpo"], settings, "grpo", keys)
        _check_types(out["grpo"], settings, "grpo.")
        _check_grpo(out["grpo"])
        sources = out["sources"]
        if not sources:
            raise ConfigError("a grpo config needs [[sources]] tables (env, kwargs, weight, "
                              "num_envs): see examples/configs/grpo_real_mock.toml")
        if not isinstance(sources, list):
            raise ConfigError("sources must be a list of tables ([[sources]] in TOML)")
        out["sources"] = []
        for k, source in enumerate(sources):
            source = _table(source, SOURCE, f"sources[{k}]", keys)
            if not source.get("env"):
                raise ConfigError(f"sources[{k}] needs env (e.g. env = \"PhoneWorld-v0\")")
            _check_types(source, SOURCE, f"sources[{k}].")
            out["sources"].append(source)
    return out


def _table(value: Any, accepted: Mapping[str, Any], name: str,
           keys: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{name} must be a table, found {value!r}")
    _check_keys(name, value, accepted, keys)
    return dict(value)


def _check_types(values: Mapping[str, Any], defaults: Mapping[str, Any], prefix: str) -> None:
    """Values whose default is a number, a flag, a string or a table must be one too."""
    for key, default in defaults.items():
        value = values.get(key, default)
        if default is None:
            continue
        if isinstance(default, bool):
            ok, what = isinstance(value, bool), "true or false"
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
            what = "an integer"
        elif isinstance(default, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            what = "a number"
        elif isinstance(default, str):
            ok, what = isinstance(value, str), "a string"
        elif isinstance(default, dict):
            ok, what = isinstance(value, Mapping), "a table"
        else:
            continue
        if not ok:
            raise ConfigError(f"{prefix}{key} = {value!r}; accepted: {what}")
