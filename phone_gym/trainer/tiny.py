"""A tiny, randomly initialized Qwen2.5-VL and its processor, built from configs, for tests,
the benchmark and the example: no download, no torchvision.

``build_tiny_vlm()`` returns ``(model, processor)``. The processor is ``TinyVLProcessor``, a
``transformers.ProcessorMixin``: a byte-level BPE tokenizer trained locally on the prompt
vocabulary (with the Qwen special tokens), a Qwen-style chat template, and
``PatchImageProcessor``, a numpy image processor that writes ``pixel_values`` and
``image_grid_thw`` in Qwen's patch layout. It saves and loads like any processor
(``save_pretrained``; ``AutoProcessor.from_pretrained`` once this module is imported) and
works as TRL's ``processing_class``.

A real checkpoint loads the same way the policy loads any model (see ``vlm.load_vlm``)::

    from transformers import AutoModelForImageTextToText, AutoProcessor
    model = AutoModelForImageTextToText.from_pretrained("/models/Qwen2.5-VL-3B-Instruct")
    processor = AutoProcessor.from_pretrained("/models/Qwen2.5-VL-3B-Instruct")
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import torch
from PIL import Image
from transformers import (
    AutoImageProcessor,
    AutoProcessor,
    BaseImageProcessor,
    BatchFeature,
    ProcessorMixin,
)
from transformers.image_utils import make_flat_list_of_images

from ..actions import ACTION_FIELDS, BUTTONS, DIRECTIONS, PhoneAction, format_action
from ..envs import PhoneWorldEnv
from ..mockapps import APPS, TEMPLATES
from .prompts import system_prompt, user_text

SPECIAL_TOKENS: tuple[str, ...] = (
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>",
    "<|image_pad|>", "<|video_pad|>",
)
CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
CLIP_STD = (0.26862954, 0.26130258, 0.27577711)
#: Qwen's chat layout: ``<|im_start|>role\n...<|im_end|>\n``, images as vision pads.
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}{% else %}"
    "{% for part in message['content'] %}{% if part['type'] == 'image' %}"
    "<|vision_start|><|image_pad|><|vision_end|>{% else %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


class PatchImageProcessor(BaseImageProcessor):
    """Images to Qwen2-VL/2.5-VL vision input: resized to ``size`` (width, height; multiples
    of ``patch_size * merge_size``), CLIP-normalized, cut into patches in Qwen's order.

    Its output has the layout of transformers' ``Qwen2VLImageProcessorPil``
    (``models/qwen2_vl/image_processing_pil_qwen2_vl.py``): ``pixel_values`` of shape
    ``(grid_h * grid_w, 3 * T * p * p)`` per image and ``image_grid_thw`` rows ``[1, gh, gw]``;
    unlike it, every image gets the same fixed size (and so the same number of tokens).
    """

    model_input_names = ["pixel_values", "image_grid_thw"]

    def __init__(self, size: Sequence[int] = (64, 128), patch_size: int = 8,
                 merge_size: int = 2, temporal_patch_size: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if len(size) != 2:
            raise ValueError(f"size={size!r} must be (width, height)")
        unit = patch_size * merge_size
        if size[0] % unit or size[1] % unit:
            raise ValueError(f"size={tuple(size)} must be multiples of "
                             f"patch_size*merge_size={unit}")
        self.size = (int(size[0]), int(size[1]))
        self.patch_size = patch_size
        self.merge_size = merge_size
        self.temporal_patch_size = temporal_patch_size

    def num_tokens(self) -> int:
        """Vision tokens per image after the merger."""
        w, h = self.size
        return (w // self.patch_size) * (h // self.patch_size) // self.merge_size**2

    def patchify(self, image: Any) -> np.ndarray:
        """One image (PIL, or an ``(H, W, 3)`` uint8 array) as ``(grid_h * grid_w,
        3 * T * p * p)`` float32 patches."""
        pil = image if isinstance(image, Image.Image) else Image.fromarray(np.asarray(image))
        pil = pil.convert("RGB")
        if pil.size != self.size:
            pil = pil.resize(self.size, Image.Resampling.BICUBIC)
        x: np.ndarray = np.asarray(pil, dtype=np.float32) / 255.0
        x = (x - np.array(CLIP_MEAN, np.float32)) / np.array(CLIP_STD, np.float32)
        x = x.transpose(2, 0, 1)[None]  # (1, C, H, W)
        t, p, m = self.temporal_patch_size, self.patch_size, self.merge_size
        x = np.repeat(x, t, axis=0)
        c, gh, gw = x.shape[1], x.shape[2] // p, x.shape[3] // p
        x = x.reshape(1, t, c, gh // m, m, p, gw // m, m, p)
        x = x.transpose(0, 3, 6, 4, 7, 2, 1, 5, 8)
        return x.reshape(gh * gw, c * t * p * p)

    def preprocess(self, images: Any, *args: Any, return_tensors: str | None = "pt",
                   **kwargs: Any) -> BatchFeature:
        """``pixel_values`` and ``image_grid_thw`` of one image or a (nested) list of them."""
        if args or kwargs:
            bad = [*map(repr, args), *kwargs]
            raise ValueError(f"PatchImageProcessor takes images and return_tensors only, not "
                             f"{', '.join(bad)}")
        flat = cast("list[Any]", make_flat_list_of_images(self.fetch_images(images)))
        patches = [self.patchify(im) for im in flat]
        gw, gh = self.size[0] // self.patch_size, self.size[1] // self.patch_size
        data = {"pixel_values": np.concatenate(patches),
                "image_grid_thw": np.array([[1, gh, gw]] * len(patches), dtype=np.int64)}
        return BatchFeature(data, tensor_type=return_tensors)


class TinyVLProcessor(ProcessorMixin):
    """A transformers processor: ``PatchImageProcessor`` plus a tokenizer and a chat template.

    Each ``<|image_pad|>`` in the text becomes the image's number of vision tokens, and
    ``mm_token_type_ids`` marks them, as ``Qwen2_5_VLProcessor`` does
    (``models/qwen2_5_vl/processing_qwen2_5_vl.py``); calling, ``apply_chat_template``,
    ``save_pretrained`` and ``from_pretrained`` (also through ``AutoProcessor`` once this
    module is imported) come from ``ProcessorMixin``.
    """

    image_token = "<|image_pad|>"
    return_mm_token_type_ids = True

    def __init__(self, image_processor: Any = None, tokenizer: Any = None,
                 chat_template: str | None = None, **kwargs: Any) -> None:
        super().__init__(image_processor, tokenizer, chat_template=chat_template, **kwargs)
        self.image_token_id = int(tokenizer.convert_tokens_to_ids(self.image_token))

    def replace_image_token(self, image_inputs: dict[str, Any], image_idx: int,
                            **kwargs: Any) -> str:
        """The pads one image takes: its grid over the merger's ``merge_size ** 2``."""
        merge_length = self.image_processor.merge_size**2
        return self.image_token * (int(image_inputs["image_grid_thw"][image_idx].prod())
                                   // merge_length)

    @property
    def model_input_names(self) -> list[str]:
        return [*super().model_input_names, "mm_token_type_ids"]


#: The key the tiny processor classes are registered under, so that ``AutoProcessor`` and
#: ``AutoImageProcessor`` find them by the class names a saved processor records.
AUTO_KEY = "phone_gym_tiny_vl"
try:
    AutoImageProcessor.register(AUTO_KEY, image_processor_classes={"pil": PatchImageProcessor},
                                exist_ok=True)
except ImportError:  # transformers < 5.11 (verl's venv) gates it behind torchvision: the
    pass  # processor still works, only AutoImageProcessor does not find it by name
AutoProcessor.register(AUTO_KEY, TinyVLProcessor, exist_ok=True)


#: The templates whose instructions the tiny tokenizer learns from: a fixed list, so that
#: adding templates does not change the tokenizer (and the tiny models tests train).
CORPUS_TASKS = frozenset({
    "ContactsAddContact", "ContactsEditPhone", "ContactsDeleteContact", "ContactsStarContact",
    "ContactsRemoveFavorite", "ContactsLookupPhone", "CrossContactPhoneToNote",
    "ClockAddAlarm", "ClockAddRepeatingAlarm", "ClockDisableAlarm", "ClockDeleteAlarm",
    "ClockChangeAlarmTime", "ClockAlarmTimeLookup", "ClockDeleteDisabledAlarms",
    "NotesCreateNote", "NotesEditNote", "NotesReplaceNoteText", "NotesRenameNote",
    "NotesDeleteNote", "NotesPinNote", "NotesUnpinNote", "NotesReadNote",
    "SettingsTurnOffWifi", "SettingsSetDarkTheme", "SettingsSetBrightness",
    "FilesDeleteFile", "FilesRenameFile", "FilesReadBookingCode", "SettingsWifiOff",
    "SettingsWifiOn", "SettingsBluetoothOn", "SettingsBluetoothOff", "SettingsAirplaneModeOn",
    "SettingsDarkThemeOn", "SettingsDoNotDisturbOn", "ContactsCreate", "ContactsDelete",
    "ClockCreateAlarm", "TodoAddItem", "TodoRenameItem", "TodoCompleteItem", "TodoDeleteItem",
    "TodoCountOpen",
})


def _corpus() -> list[str]:
    """Text the tiny tokenizer is trained on: prompts, instructions, actions, numbers."""
    apps = [a.name for a in APPS]
    lines = [system_prompt(apps)] * 30 + [user_text("x", ["wait(seconds=1)"], None)] * 30
    lines += [system_prompt(None)] * 30 + [user_text("x", [], "error")] * 30
    env = PhoneWorldEnv(screenshot=False)
    tasks = [t for t in TEMPLATES if t in CORPUS_TASKS]  # fixed: new templates leave it be
    for seed in range(3):
        for task in tasks:
            lines.append(env.reset(seed=seed, options={"task": task})[0]["instruction"])
    rng = np.random.default_rng(0)
    for _ in range(400):
        kind = str(rng.choice(list(ACTION_FIELDS)))
        values: dict[str, Any] = {}
        for name in ACTION_FIELDS[kind]:
            if name in ("x", "y", "x2", "y2"):
                values[name] = int(rng.integers(0, 1001))
            elif name == "text":
                values[name] = str(rng.choice(["Bob", "success", "09:15", "Groceries"]))
            elif name == "direction":
                values[name] = str(rng.choice(DIRECTIONS))
            elif name == "button":
                values[name] = str(rng.choice(BUTTONS))
            elif name == "app":
                values[name] = str(rng.choice(apps))
            elif name == "seconds":
                values[name] = 1
            else:
                values[name] = "success"
        lines.append(format_action(PhoneAction(type=kind, **values)))
    return lines


def build_tiny_tokenizer(vocab_size: int = 1024) -> Any:
    """A byte-level BPE ``PreTrainedTokenizerFast`` with the Qwen special tokens and a
    Qwen-style chat template, trained in a fraction of a second on ``_corpus()``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    # lines are pre-tokens (merges may span words: short prompts for a fast tiny model);
    # digits stay single tokens, as in Qwen's tokenizer
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split("\n", "isolated"), pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False, max_token_length=24)
    tok.train_from_iterator(_corpus(), trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>",
                                   pad_token="<|endoftext|>", padding_side="left")
    fast.chat_template = CHAT_TEMPLATE
    return fast


def build_tiny_vlm(image_size: tuple[int, int] = (64, 128), hidden_size: int = 64,
                   num_layers: int = 2, vision_depth: int = 1, patch_size: int = 8,
                   vocab_size: int = 1024, seed: int = 0) -> tuple[Any, TinyVLProcessor]:
    """A randomly initialized ``Qwen2_5_VLForConditionalGeneration`` (about 0.2 M
    parameters by default) and its ``TinyVLProcessor``; ``image_size`` is (width, height)."""
    from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration

    tokenizer = build_tiny_tokenizer(vocab_size)
    image_processor = PatchImageProcessor(image_size, patch_size=patch_size)
    processor = TinyVLProcessor(image_processor, tokenizer, chat_template=CHAT_TEMPLATE)
    ids = {t: int(tokenizer.convert_tokens_to_ids(t)) for t in SPECIAL_TOKENS}
    heads = max(2, hidden_size // 16)
    half = hidden_size // heads // 2  # rotary frequencies per head, split over (t, h, w)
    section = [half - 2 * (half // 3), half // 3, half // 3]
    config = Qwen2_5_VLConfig(
        text_config={
            "vocab_size": len(tokenizer), "hidden_size": hidden_size,
            "intermediate_size": hidden_size * 2, "num_hidden_layers": num_layers,
            "num_attention_heads": heads, "num_key_value_heads": heads,
            "max_position_embeddings": 4096, "tie_word_embeddings": True,
            "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                "mrope_section": section},
            "bos_token_id": ids["<|endoftext|>"], "eos_token_id": ids["<|im_end|>"],
            "pad_token_id": ids["<|endoftext|>"],
        },
        vision_config={
            "depth": vision_depth, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2,
            "patch_size": patch_size, "spatial_merge_size": 2, "temporal_patch_size": 1,
            "out_hidden_size": hidden_size, "window_size": patch_size * 4,
            "fullatt_block_indexes": list(range(vision_depth)),
        },
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=True,
    )
    torch.manual_seed(seed)
    model = Qwen2_5_VLForConditionalGeneration(config)
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    return model, processor
