"""phone_gym.bench: evaluate an agent on a suite of tasks (``phone-gym bench``).

- ``suites``: named suites (``"phoneworld"``, ``"real"``, comma lists of template ids) and
  ``register_suite``
- ``agents``: the ``Agent`` protocol; ``OracleAgent``, ``RandomAgent``, ``CallableAgent``,
  ``PolicyAgent`` (a trainer ``Policy``), ``OpenAIAgent`` (an OpenAI-compatible endpoint)
- ``runner``: ``run_bench`` (worker processes, resume, progress bar, time limit)
- ``workers``: ``WorkerPool``, processes no agent can stop (a dead or overrunning
  worker is recorded and replaced; workers die with the bench); ``calls``: agent calls
  under deadlines
- ``results``: the records (``results.jsonl``), ``summarize``, ``compare``

The trainer (and torch) is imported only when a trainer ``Policy`` runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Where each public name lives; a name's module is imported on first use (PEP 562), so that
#: ``phone-gym --version`` and ``bench --help`` do not load the apps and suites.
_HOME = {
    **dict.fromkeys(("Agent", "CallableAgent", "EndpointError", "OpenAIAgent", "OracleAgent",
                     "PolicyAgent", "RandomAgent", "make_agent"), "agents"),
    **dict.fromkeys(("FAILURES", "RECORD_KEYS", "compare", "read_results", "summarize"),
                    "results"),
    **dict.fromkeys(("run_bench", "run_episode"), "runner"),
    **dict.fromkeys(("Suite", "register_suite", "resolve_suite", "suite_names",
                     "template_meta"), "suites"),
}

if TYPE_CHECKING:
    from .agents import (
        Agent,
        CallableAgent,
        EndpointError,
        OpenAIAgent,
        OracleAgent,
        PolicyAgent,
        RandomAgent,
        make_agent,
    )
    from .results import FAILURES, RECORD_KEYS, compare, read_results, summarize
    from .runner import run_bench, run_episode
    from .suites import Suite, register_suite, resolve_suite, suite_names, template_meta


def __getattr__(name: str) -> Any:
    if name in _HOME:
        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FAILURES", "RECORD_KEYS", "Agent", "CallableAgent", "EndpointError", "OpenAIAgent",
    "OracleAgent", "PolicyAgent", "RandomAgent", "Suite", "compare", "make_agent",
    "read_results", "register_suite", "resolve_suite", "run_bench", "run_episode",
    "suite_names", "summarize", "template_meta",
]
