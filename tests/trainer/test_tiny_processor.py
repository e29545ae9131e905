"""The shipped tiny model's processor is a real transformers processor: it expands image pads
like Qwen's, round-trips through ``save_pretrained``/``AutoProcessor.from_pretrained``, and
trains with TRL's ``SFTTrainer`` as its ``processing_class``."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("transformers", reason="needs the train extra (transformers)")

import torch  # noqa: E402
from PIL import Image  # noqa: E402
from transformers import (  # noqa: E402
    AutoProcessor,
    BaseImageProcessor,
    PreTrainedTokenizerBase,
    ProcessorMixin,
)

from phone_gym.trainer.tiny import (  # noqa: E402
    CHAT_TEMPLATE,
    PatchImageProcessor,
    TinyVLProcessor,
    build_tiny_vlm,
)


def screenshot(seed: int, size: tuple[int, int] = (90, 200)) -> Image.Image:
    """A random RGB image of ``size`` (width, height)."""
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), np.uint8)
    return Image.fromarray(pixels)


def conversation(text: str, answer: str | None = None) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": [{"type": "text", "text": "You operate a phone."}]},
        {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": text}]}]
    if answer is not None:
        messages.append({"role": "assistant", "content": [{"type": "text", "text": answer}]})
    return messages


def prompts(processor: Any) -> list[str]:
    """Two chat prompts of different lengths, each with one image."""
    return [processor.apply_chat_template(conversation(t), add_generation_prompt=True)
            for t in ("Turn off the alarm at 07:30.", "Open Clock.")]


def test_processor_is_a_transformers_processor(tiny_vlm: tuple[Any, Any]) -> None:
    _, processor = tiny_vlm
    assert isinstance(processor, ProcessorMixin) and isinstance(processor, TinyVLProcessor)
    assert TinyVLProcessor.get_attributes() == ["image_processor", "tokenizer"]
    assert isinstance(processor.image_processor, BaseImageProcessor)
    assert isinstance(processor.tokenizer, PreTrainedTokenizerBase)
    assert processor.chat_template == CHAT_TEMPLATE
    assert processor.image_token_id == processor.tokenizer.convert_tokens_to_ids("<|image_pad|>")
    assert "mm_token_type_ids" in processor.model_input_names


def test_image_pads_expand_to_the_images_vision_tokens(tiny_vlm: tuple[Any, Any]) -> None:
    _, processor = tiny_vlm
    texts = prompts(processor)
    assert texts[1].startswith("<|im_start|>system\nYou operate a phone.<|im_end|>\n")
    assert texts[1].endswith("<|vision_start|><|image_pad|><|vision_end|>Open Clock."
                             "<|im_end|>\n<|im_start|>assistant\n")
    batch = processor(text=texts, images=[screenshot(0), screenshot(1)], padding=True,
                      return_tensors="pt")
    per_image = processor.image_processor.num_tokens()
    assert per_image == 32  # (64 / 8) * (128 / 8) patches, merged 2 x 2
    is_pad = batch["input_ids"] == processor.image_token_id
    assert is_pad.sum(dim=1).tolist() == [per_image, per_image]
    assert torch.equal(batch["mm_token_type_ids"], is_pad.long())
    assert batch["image_grid_thw"].tolist() == [[1, 16, 8], [1, 16, 8]]
    assert batch["pixel_values"].shape == (2 * 16 * 8, 3 * 8 * 8)
    # left padding: the shorter prompt's pads come first
    assert batch["attention_mask"][1, 0] == 0 and batch["attention_mask"][:, -1].all()
    with pytest.raises(ValueError, match="image_pad"):
        processor(text=texts, images=[screenshot(0)], return_tensors="pt")


def test_image_processor_refuses_options_it_does_not_apply() -> None:
    with pytest.raises(ValueError, match="images and return_tensors only.*do_resize"):
        PatchImageProcessor()(screenshot(0), do_resize=False)
    with pytest.raises(ValueError, match="multiples of patch_size"):
        PatchImageProcessor((60, 128))


@pytest.mark.parametrize("loader", [AutoProcessor, TinyVLProcessor])
def test_save_and_load_give_identical_outputs(tiny_vlm: tuple[Any, Any], tmp_path: Path,
                                              loader: Any) -> None:
    _, processor = tiny_vlm
    processor.save_pretrained(tmp_path)
    again = loader.from_pretrained(tmp_path)
    assert type(again) is TinyVLProcessor
    assert again.image_processor.to_dict() == processor.image_processor.to_dict()
    assert again.chat_template == processor.chat_template
    texts, again_texts = prompts(processor), prompts(again)
    assert again_texts == texts
    images = [screenshot(2), screenshot(3, (64, 128))]
    a = processor(text=texts, images=images, padding=True, return_tensors="pt")
    b = again(text=again_texts, images=images, padding=True, return_tensors="pt")
    assert sorted(a) == sorted(b)
    for key in a:
        assert torch.equal(a[key], b[key]), key


def test_sft_trainer_trains_one_step_with_the_processor(tmp_path: Path) -> None:
    pytest.importorskip("trl", reason="TRL is not installed (pip install trl)")
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    model, processor = build_tiny_vlm()
    data = Dataset.from_dict({  # TRL's vision-language format: "messages" and "images"
        "messages": [conversation("Open the Clock app.", 'open_app(app="Clock")'),
                     conversation("Wait a second.", "wait(seconds=1)")],
        "images": [[screenshot(4)], [screenshot(5)]],
    })
    args = SFTConfig(output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=2,
                     learning_rate=1e-2, use_cpu=True, bf16=False, report_to="none",
                     save_strategy="no", logging_steps=1, dataloader_num_workers=0)
    trainer = SFTTrainer(model=model, args=args, train_dataset=data, processing_class=processor)
    batch = trainer.data_collator([dict(row) for row in data])
    pads = (batch["input_ids"] == processor.image_token_id).sum(dim=1)
    assert pads.tolist() == [processor.image_processor.num_tokens()] * 2
    assert batch["pixel_values"].shape[0] == 2 * 16 * 8
    vision = {n: p.detach().clone() for n, p in model.named_parameters() if "visual" in n}
    assert vision
    result = trainer.train()
    assert trainer.state.global_step == 1 and math.isfinite(result.training_loss)
    changed = [n for n, p in model.named_parameters()
               if n in vision and not torch.equal(vision[n], p.detach())]
    assert changed  # the images reached the vision tower and it was trained
