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

__all__ = [
    "FAILURES", "RECORD_KEYS", "Agent", "CallableAgent", "EndpointError", "OpenAIAgent",
    "OracleAgent", "PolicyAgent", "RandomAgent", "Suite", "compare", "make_agent",
    "read_results", "register_suite", "resolve_suite", "run_bench", "run_episode",
    "suite_names", "summarize", "template_meta",
]
