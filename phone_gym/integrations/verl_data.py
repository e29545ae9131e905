"""The parquet dataset of phone-gym episodes for verl (extra ``[verl]``; needs only pyarrow).

One row per (template, seed), in the columns verl's ``RLHFDataset``
(``verl/utils/dataset/rl_dataset.py``, 0.9) reads: ``prompt`` (chat messages; verl requires
them, ``PhoneGymAgentLoop`` builds the conversation it sends from the env's instruction and
screenshots instead), ``data_source``, ``agent_name`` (the registered agent loop that runs
the row: ``AgentLoopWorker.generate_sequences`` reads it per row), ``ability``,
``reward_model`` and ``extra_info`` (``task``, ``seed``, ``index``: ``RLHFDataset.__getitem__``
passes ``extra_info`` through to the agent loop's ``run(**kwargs)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

#: The name ``PhoneGymAgentLoop`` is registered under, and the rows' ``agent_name``.
AGENT_NAME = "phone_gym"
DATA_SOURCE = "phone_gym"


def build_rows(tasks: str | Sequence[str] | None = None, seeds: int | Iterable[int] = 8, *,
               split: str | None = None, agent_name: str = AGENT_NAME) -> list[dict[str, Any]]:
    """The dataset rows, one per (template, seed). ``tasks``: template ids (None: all);
    ``seeds``: a count or the seeds; ``split``: PhoneWorld-Bench's ``"train"`` or ``"test"``
    templates only (as ``gym.make("PhoneWorld-v0", split=...)`` samples them)."""
    from ..envs.phone_world import select_templates, split_templates

    templates = select_templates(tasks)
    if split is not None:
        templates = split_templates(templates, split)
    seed_list = list(range(seeds)) if isinstance(seeds, int) else [int(s) for s in seeds]
    if not seed_list or any(s < 0 for s in seed_list):
        raise ValueError(f"seeds={seeds!r}; accepted: a count > 0 or a non-empty list of ints >= 0")
    rows: list[dict[str, Any]] = []
    for template in templates:
        for seed in seed_list:
            rows.append({
                "data_source": DATA_SOURCE,
                "agent_name": agent_name,
                "prompt": [{"role": "user",
                            "content": f"phone-gym episode: task {template.id}, seed {seed}"}],
                "ability": "phone",
                "reward_model": {"style": "rule", "ground_truth": ""},
                "extra_info": {"task": template.id, "seed": seed, "index": len(rows),
                               "split": split or "all"},
            })
    return rows


def build_parquet(path: str | Path, tasks: str | Sequence[str] | None = None,
                  seeds: int | Iterable[int] = 8, *, split: str | None = None,
                  agent_name: str = AGENT_NAME) -> Path:
    """Write ``build_rows(...)`` to the parquet file ``path`` (folders made); returns it."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as err:
        raise ImportError("build_parquet needs pyarrow: pip install 'phone-gym[verl]'") from err
    rows = build_rows(tasks, seeds, split=split, agent_name=agent_name)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), out)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m phone_gym.integrations.verl_data OUT.parquet [--tasks ...] [--seeds N]
    [--split train]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m phone_gym.integrations.verl_data",
                                     description="Write phone-gym episodes as a verl dataset.")
    parser.add_argument("out", help="the parquet file to write")
    parser.add_argument("--tasks", nargs="*", default=None,
                        help="template ids (default: all templates)")
    parser.add_argument("--seeds", type=int, default=8, help="seeds 0..N-1 per template")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed")
    parser.add_argument("--split", choices=("train", "test"), default=None,
                        help="PhoneWorld-Bench's train or test templates only")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.first_seed < 0:
        parser.error("--seeds must be >= 1 and --first-seed >= 0")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    try:
        out = build_parquet(args.out, args.tasks or None, seeds, split=args.split)
    except (ValueError, ImportError) as err:
        parser.exit(2, f"error: {err}\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
