"""The dataset formats ``phone-gym collect --format`` writes (a light module: the CLI builds
its parser from it without loading the exporters, Pillow or torch)."""

from __future__ import annotations

#: ``native`` (the trajectory folder), ``hf`` (a Hugging Face ``datasets`` parquet folder),
#: ``sharegpt`` (LLaMA-Factory's ShareGPT layout), ``trl`` (TRL's conversational messages).
FORMATS: tuple[str, ...] = ("native", "hf", "sharegpt", "trl")
