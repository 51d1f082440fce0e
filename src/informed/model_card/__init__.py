"""`informed.model_card`: a result as the ``model-index`` entries of a Hugging Face model
card, each value with its interval and n in ``args`` (`to_model_index`).

The adapter lives in `informed.integrations.model_card` (docs/model_cards.md); the
entries are plain lists and dicts, so `huggingface_hub` is needed only to write them into
a README.md (``huggingface_hub.metadata_save``).
"""

from __future__ import annotations

from informed.integrations.model_card import DEFAULT_MEASURES, metric_entry, to_model_index

__all__ = ["DEFAULT_MEASURES", "metric_entry", "to_model_index"]
