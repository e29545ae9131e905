"""``VLMPolicy``: a transformers image-text-to-text model as a batched phone policy.

Prompts come from ``prompts.build_messages`` through the processor's chat template;
generation is batched with left padding; the output is parsed by ``phone_gym.actions`` in
the env. Each ``Generation`` keeps the exact prompt ids, generated ids and their log-probs,
which SFT and GRPO train on (``sequence_logprobs``) without re-tokenizing.

Sampling and scoring share one definition: a token's log-prob is ``log_softmax(logits / T)``
with the vision tokens masked, at the policy's temperature ``T`` whether it samples or decodes
greedily. Generation gets a ``GenerationConfig`` built from the policy's settings only, so no
logits processor of the checkpoint's ``generation_config`` (Qwen instruct checkpoints ship a
``repetition_penalty``; also ``no_repeat_ngram_size``, ``min_new_tokens``, top-k/top-p...)
shapes sampling without shaping the recorded and training log-probs. Forward passes run under
the policy's ``Precision`` (``precision.py``: half-precision compute, float32 master weights).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch
from PIL import Image

from .policies import Generation, Info, Observation
from .precision import HALF, Precision, dtype_name, master_weights, parse_dtype
from .prompts import Turn, build_messages, prompt_locale, system_prompt


@dataclass
class TrainSample:
    """One prompt/completion pair in token ids, with the prompt's images."""

    prompt_ids: list[int]
    completion_ids: list[int]
    images: list[np.ndarray]
    old_logprobs: list[float] | None = None
    advantage: float = 0.0


def load_vlm(name_or_path: str, dtype: str | torch.dtype | None = None,
             device: str | None = None, quantization: str | None = None) -> tuple[Any, Any]:
    """``(model, processor)`` from ``"tiny"`` (``build_tiny_vlm()``), a folder written by
    ``VLMPolicy.save`` or any local checkpoint (e.g. Qwen2.5-VL / Qwen3-VL) through
    ``AutoModelForImageTextToText`` and ``AutoProcessor`` (hub ids work with network).

    ``dtype`` ("bfloat16", "float16", "float32", "auto" or None: the checkpoint's own, which
    transformers 5 loads by default, bfloat16 for Qwen) is the dtype the weights load in and
    forward passes compute in; training steps float32 master weights whatever it is
    (``precision.py``). ``quantization="4bit"`` loads the base in 4 bits for QLoRA
    (``quantize.py``: needs bitsandbytes and a CUDA GPU, else ``ValueError``)."""
    from transformers import AutoModelForImageTextToText, AutoProcessor

    from .tiny import build_tiny_vlm  # also registers the tiny processor with AutoProcessor

    resolved = parse_dtype(dtype)
    if quantization is not None:
        from .quantize import load_kwargs

        if name_or_path == "tiny":
            raise ValueError("quantization = \"4bit\" needs a checkpoint folder (model = "
                             "\"tiny\" is built in memory): set model to one, or remove "
                             "quantization")
        quantized = AutoModelForImageTextToText.from_pretrained(
            name_or_path, **load_kwargs(quantization, resolved, device))
        return quantized, AutoProcessor.from_pretrained(name_or_path)
    if name_or_path == "tiny":
        model, processor = build_tiny_vlm()
        if isinstance(resolved, torch.dtype):
            model.to(resolved)
    else:
        kwargs: dict[str, Any] = {}
        if resolved is not None:
            kwargs["dtype"] = resolved
        model = AutoModelForImageTextToText.from_pretrained(name_or_path, **kwargs)
        processor = AutoProcessor.from_pretrained(name_or_path)
    if device is not None:
        model.to(device)
    return model, processor


class VLMPolicy:
    """A vision-language model writing one action per turn.

    - ``image_size``: (width, height) the screenshots are resized to before the processor
      (None: the processor's own resizing).
    - ``do_sample``/``temperature``: sampling at ``temperature`` with no other logits
      processor (no top-k/top-p, no repetition penalty, whatever the checkpoint's
      ``generation_config`` says), or greedy decoding; the recorded log-probs are of
      ``softmax(logits / temperature)`` in both cases, which is what
      ``sequence_logprobs(..., temperature=policy.temperature)`` computes in training.
    - Generation stops at every end-of-sequence id the tokenizer and the model's
      ``generation_config`` name (``eos_ids``; Qwen: ``<|im_end|>`` and ``<|endoftext|>``), as
      TRL's ``GRPOTrainer`` does.
    - Rollouts run in eval mode (no dropout); ``sequence_logprobs`` runs in whatever mode the
      model is in: training runs it in train mode, so LoRA dropout > 0 makes the update's
      forward noisier than the rollout's (the default dropout is 0: both are the same). TRL
      keeps dropout on in both (transformers' ``Trainer.training_step`` calls
      ``model.train()`` before ``GRPOTrainer._prepare_inputs`` generates;
      ``GRPOConfig.disable_dropout``, default False, turns it off in both).
    - ``precision`` (``Precision``): the dtype the weights were loaded in, which forward
      passes compute in under ``torch.autocast``; ``trainable_parameters`` upcasts the
      trainable weights to float32 master weights for the optimizer.
    - ``max_history`` earlier actions in the prompt; ``history_images`` of their screenshots.
    - ``system``: the system prompt (default: generated from the action definitions).
    """

    def __init__(self, model: Any, processor: Any, *, image_size: tuple[int, int] | None = None,
                 max_new_tokens: int = 48, do_sample: bool = True, temperature: float = 1.0,
                 max_history: int = 8, history_images: int = 0, system: str | None = None,
                 app_names: Sequence[str] | None = None, batch_size: int = 16) -> None:
        if not temperature > 0:
            raise ValueError(f"temperature={temperature!r}; accepted: a number > 0 (greedy "
                             "decoding is do_sample=False)")
        self.model = model
        self.processor = processor
        self.tokenizer = getattr(processor, "tokenizer", processor)
        self.tokenizer.padding_side = "left"
        # (width, height); a list (from a config) becomes a tuple
        self.image_size = cast("tuple[int, int]", tuple(image_size)) if image_size else None
        self.max_new_tokens = max_new_tokens
        self.do_sample = do_sample
        self.temperature = temperature
        self.max_history = max_history
        self.history_images = history_images
        #: the system prompt given (None: ``prompts.system_prompt`` in each episode's locale)
        self.system = system
        self.app_names = list(app_names) if app_names else None
        #: what the default system prompt asks before the action (``prompts.REASONS``)
        self.reasons = "none"
        self.batch_size = batch_size
        self.pad_id = int(self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None
                          else self.tokenizer.eos_token_id)
        self.end_id = int(self.tokenizer.eos_token_id)
        base = model.get_base_model() if hasattr(model, "get_base_model") else model
        self.eos_ids = eos_token_ids(base, self.end_id)
        self.precision = Precision.of(model)
        config = getattr(model, "config", None)
        image_token_id = getattr(processor, "image_token_id", None)
        self.image_token_id = int(image_token_id if image_token_id is not None
                                  else getattr(config, "image_token_id", -1))
        #: Vision tokens the policy may not generate: one sampled into a completion would
        #: claim an image the training forward pass does not have. They are masked out of
        #: sampling and out of the recorded and training log-probs alike.
        vocab = self.tokenizer.get_vocab() if hasattr(self.tokenizer, "get_vocab") else {}
        self.banned_ids = sorted({i for i in (
            self.image_token_id, getattr(config, "video_token_id", None),
            getattr(config, "vision_start_token_id", None),
            getattr(config, "vision_end_token_id", None),
            *(vocab.get(t) for t in ("<|image_pad|>", "<|video_pad|>", "<|vision_start|>",
                                     "<|vision_end|>"))) if isinstance(i, int) and i >= 0})
        params = inspect.signature(base.forward).parameters
        self._mm_types = "mm_token_type_ids" in params
        self._keep = "logits_to_keep" in params

    # --- prompts -----------------------------------------------------------------------------
    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def trainable_parameters(self) -> list[torch.nn.Parameter]:
        """The parameters an optimizer steps, as float32 master weights (half-precision
        trainable weights are upcast in place; see ``precision.master_weights``)."""
        return master_weights(self.model, self.precision)

    def _image(self, array: Any) -> np.ndarray:
        image = np.asarray(array)
        if self.image_size and (image.shape[1], image.shape[0]) != self.image_size:
            image = np.asarray(Image.fromarray(image).resize(self.image_size,
                                                             Image.Resampling.BILINEAR))
        return image

    def prepare(self, obs: Observation, info: Info,
                history: Sequence[Turn]) -> tuple[str, list[np.ndarray]]:
        """The prompt text (chat template applied) and its images, in order."""
        shot = obs.get("screenshot")
        turns = [Turn(t.action, t.error, self._image(t.screenshot)
                      if t.screenshot is not None and self.history_images else None)
                 for t in history]
        locale = prompt_locale(info.get("locale"))
        system = self.system if self.system is not None else system_prompt(
            self.app_names, self.reasons, locale)
        messages, images = build_messages(
            str(obs.get("instruction", info.get("instruction", ""))), turns,
            self._image(shot) if shot is not None else None, system=system,
            max_history=self.max_history, history_images=self.history_images, locale=locale)
        text = self.processor.apply_chat_template(messages, tokenize=False,
                                                  add_generation_prompt=True)
        return text, images

    def encode(self, texts: Sequence[str], images: Sequence[list[np.ndarray]]) -> Any:
        """Left-padded model inputs for a batch of prompts."""
        flat = [im for ims in images for im in ims]
        kwargs: dict[str, Any] = {"text": list(texts), "padding": True, "return_tensors": "pt"}
        if flat:
            kwargs["images"] = [Image.fromarray(im) for im in flat]
        return self.processor(**kwargs)

    def prompt_ids(self, obs: Observation, info: Info,
                   history: Sequence[Turn]) -> tuple[list[int], list[np.ndarray]]:
        """Token ids and images of one prompt, exactly as ``act`` would build them."""
        text, images = self.prepare(obs, info, history)
        batch = self.encode([text], [images])
        ids = batch["input_ids"][0]
        return ids[batch["attention_mask"][0].bool()].tolist(), images

    def completion_ids(self, text: str) -> list[int]:
        """Token ids of an answer ``text`` followed by the end-of-turn token."""
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"]) + [self.end_id]

    # --- acting -------------------------------------------------------------------------------
    @torch.no_grad()
    def act(self, observations: Sequence[Observation], infos: Sequence[Info],
            histories: Sequence[Sequence[Turn]]) -> list[Generation]:
        prepared = [self.prepare(o, i, h) for o, i, h in zip(observations, infos, histories,
                                                             strict=True)]
        out: list[Generation] = []
        for start in range(0, len(prepared), self.batch_size):
            chunk = prepared[start:start + self.batch_size]
            out += self._generate([t for t, _ in chunk], [ims for _, ims in chunk])
        return out

    def generation_config(self) -> Any:
        """The complete ``GenerationConfig`` of a rollout, from this policy's settings only:
        sampling at ``temperature`` (top-k 0, top-p 1) or greedy, one beam, the vision tokens
        suppressed, stopping at ``eos_ids``. TRL's ``GRPOTrainer`` builds its generation config
        the same way (every sampling parameter set from its own arguments)."""
        from transformers import GenerationConfig

        kwargs: dict[str, Any] = {
            "max_new_tokens": self.max_new_tokens, "do_sample": self.do_sample, "num_beams": 1,
            "pad_token_id": self.pad_id, "eos_token_id": list(self.eos_ids),
            "return_dict_in_generate": True, "output_logits": True,
            "suppress_tokens": list(self.banned_ids) or None}
        if self.do_sample:
            kwargs.update(temperature=self.temperature, top_k=0, top_p=1.0)
        return GenerationConfig(**kwargs)

    @contextmanager
    def _only(self, config: Any) -> Iterator[None]:
        """The model's ``generation_config`` replaced by ``config`` while generating:
        transformers fills every setting a passed config leaves unset from the model's own
        (``GenerationMixin._prepare_generation_config``), so a repetition penalty or
        ``min_new_tokens`` of the checkpoint would otherwise still apply. TRL swaps it the
        same way on older transformers (``trl.models.utils._override_model_generation_config``).
        """
        base = self.model.get_base_model() if hasattr(self.model, "get_base_model") \
            else self.model
        saved = base.generation_config
        base.generation_config = config
        try:
            yield
        finally:
            base.generation_config = saved

    def _generate(self, texts: list[str], images: list[list[np.ndarray]]) -> list[Generation]:
        was_training = self.model.training
        self.model.eval()
        batch = self.encode(texts, images).to(self.device)
        config = self.generation_config()
        try:
            with self._only(config), self.precision.autocast(self.device.type):
                result = self.model.generate(**batch, generation_config=config)
        finally:
            if was_training:
                self.model.train()
        width = batch["input_ids"].shape[1]
        new = result.sequences[:, width:]
        logp = torch.stack([  # one step at a time: no (B, T, vocab) copy
            torch.log_softmax(self._masked(step.float()) / self.temperature, dim=-1)
            .gather(-1, new[:, k:k + 1])[:, 0]
            for k, step in enumerate(result.logits)], dim=1)
        stops = set(self.eos_ids)
        gens = []
        for row in range(new.shape[0]):
            ids = new[row].tolist()
            n = next((k + 1 for k, i in enumerate(ids) if i in stops), len(ids))
            prompt = batch["input_ids"][row][batch["attention_mask"][row].bool()].tolist()
            text = self.tokenizer.decode(ids[:n], skip_special_tokens=True)
            gens.append(Generation(text=text.strip(), prompt_ids=prompt, gen_ids=ids[:n],
                                   logprobs=logp[row, :n].tolist(), images=images[row]))
        return gens

    # --- training -----------------------------------------------------------------------------
    def sequence_logprobs(self, samples: Sequence[TrainSample], temperature: float = 1.0,
                          model: Any = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Log-probs of each sample's completion tokens, ``(B, C)``, and their mask.

        Prompts are left-padded and completions right-padded, so every completion starts at
        the same column and only the last ``C + 1`` positions' logits are computed.
        ``model`` (default ``self.model``) lets a reference model score the same batch. The
        forward runs under ``self.precision`` (autocast to a half compute dtype) in the
        model's current mode (train mode: its dropout is on). ``temperature=self.temperature``
        gives the log-probs the rollout recorded.
        """
        p = max(len(s.prompt_ids) for s in samples)
        c = max(len(s.completion_ids) for s in samples)
        ids = torch.full((len(samples), p + c), self.pad_id, dtype=torch.long)
        mask = torch.zeros_like(ids)
        for row, s in enumerate(samples):
            lp, lc = len(s.prompt_ids), len(s.completion_ids)
            ids[row, p - lp:p] = torch.tensor(s.prompt_ids)
            ids[row, p:p + lc] = torch.tensor(s.completion_ids)
            mask[row, p - lp:p + lc] = 1
        inputs: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        flat = [im for s in samples for im in s.images]
        if flat:
            inputs.update(self.processor.image_processor(
                [Image.fromarray(im) for im in flat], return_tensors="pt"))
        if self._mm_types:
            inputs["mm_token_type_ids"] = (ids == self.image_token_id).long()
        if self._keep:
            inputs["logits_to_keep"] = c + 1
        device = self.device
        inputs = {k: v.to(device) if hasattr(v, "to") else v for k, v in inputs.items()}
        with self.precision.autocast(device.type):
            out = (model or self.model)(**inputs, use_cache=False)
        logits = out.logits[:, -(c + 1):-1].float()
        target = ids[:, p:].to(device)
        logp = torch.log_softmax(self._masked(logits) / temperature, dim=-1)
        logp = logp.gather(-1, target.unsqueeze(-1)).squeeze(-1)
        return logp, mask[:, p:].to(device).float()

    def _masked(self, logits: Any) -> Any:
        """``logits`` with the banned vision tokens at -inf (as the sampler saw them)."""
        if not self.banned_ids:
            return logits
        banned = [i for i in self.banned_ids if i < logits.shape[-1]]
        return logits.index_fill(-1, torch.tensor(banned, device=logits.device), float("-inf"))

    def save(self, path: str | Path, merged: bool = False) -> None:
        """Save the model and the processor to a folder (``load_vlm`` reads it back). A LoRA
        model saves its adapter only, unless ``merged``: then the adapters are merged into
        the weights first (for good: do it when training is over). Weights are saved in
        the dtype the model was loaded in (bfloat16 for a bfloat16 run, not the float32
        master copy; peft's adapters stay float32)."""
        Path(path).mkdir(parents=True, exist_ok=True)
        if merged and hasattr(self.model, "merge_and_unload"):
            self.model = self.model.merge_and_unload()
        state = None
        loaded = self.precision.loaded
        if loaded in HALF and not hasattr(self.model, "peft_config"):
            state = {k: v.to(loaded) if v.is_floating_point() else v
                     for k, v in self.model.state_dict().items()}
        self.model.save_pretrained(path, state_dict=state)
        if state is not None:  # save_pretrained names the float32 master weights' dtype
            _set_dtype(Path(path) / "config.json", dtype_name(loaded))
        self.processor.save_pretrained(path)


def _set_dtype(path: Path, name: str) -> None:
    """Write ``name`` as every ``dtype`` of a saved ``config.json`` (and its sub-configs)."""
    import json

    def fix(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: name if k in ("dtype", "torch_dtype") and isinstance(v, str)
                    else fix(v) for k, v in node.items()}
        return node

    path.write_text(json.dumps(fix(json.loads(path.read_text())), indent=2) + "\n")


def eos_token_ids(model: Any, tokenizer_eos: int) -> list[int]:
    """Every id that ends a completion: the model's ``generation_config.eos_token_id`` (one id
    or a list) and the tokenizer's end-of-sequence token, as TRL's ``GRPOTrainer.__init__``
    collects them (Qwen instruct: ``<|im_end|>`` and ``<|endoftext|>``)."""
    declared = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    ids = [] if declared is None else [declared] if isinstance(declared, int) else list(declared)
    return [int(i) for i in dict.fromkeys([tokenizer_eos, *ids])]
