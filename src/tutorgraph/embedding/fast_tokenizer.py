"""A model's fast tokenizer (`tokenizer.json`) through the `tokenizers` library alone.

The ONNX embedder and the ONNX reranker only need token ids; importing transformers for its
`AutoTokenizer` costs over a second and, with torch installed, about 250 MB (it imports
torch). This reads the same `tokenizer.json` (the same ids, checked against
`AutoTokenizer` in the tests) and the special tokens the model names.

>>> tok = FastTokenizer.load(Path("model-dir"))  # doctest: +SKIP
>>> tok.encode("what is 3/4?", add_special_tokens=False)  # doctest: +SKIP
[2054, 2003, 1017, 1013, 1018, 1029]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tutorgraph.errors import ConfigurationError

__all__ = ["FastTokenizer"]

_SPECIAL = {"cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]"}


class FastTokenizer:
    """Token ids without padding or truncation, plus the special tokens' ids."""

    def __init__(self, tokenizer: Any, special: dict[str, int]) -> None:
        self._tokenizer = tokenizer
        self.cls_token_id = special["cls_token"]
        self.sep_token_id = special["sep_token"]
        self.pad_token_id = special["pad_token"]

    @classmethod
    def load(cls, path: Path) -> FastTokenizer:
        """The tokenizer of the model folder `path` (its `tokenizer.json`)."""
        from tokenizers import Tokenizer

        file = path / "tokenizer.json"
        if not file.is_file():
            raise ConfigurationError(f"{path} has no tokenizer.json (a fast tokenizer)")
        tokenizer = Tokenizer.from_file(str(file))
        tokenizer.no_truncation()
        tokenizer.no_padding()
        names = dict(_SPECIAL)
        for config in ("special_tokens_map.json", "tokenizer_config.json"):
            try:
                data = json.loads((path / config).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            for key in names:
                value = data.get(key)
                if isinstance(value, dict):  # {"content": "[CLS]", ...}
                    value = value.get("content")
                if isinstance(value, str):
                    names[key] = value
        ids: dict[str, int] = {}
        for key, token in names.items():
            found = tokenizer.token_to_id(token)
            if found is None:
                raise ConfigurationError(f"the tokenizer of {path} has no {token}")
            ids[key] = int(found)
        return cls(tokenizer, ids)

    @property
    def backend(self) -> Any:
        """The `tokenizers.Tokenizer` (to set padding or truncation on a copy)."""
        return self._tokenizer

    def encode(self, text: str, *, add_special_tokens: bool = True) -> list[int]:
        return list(self._tokenizer.encode(text, add_special_tokens=add_special_tokens).ids)

    def __call__(
        self, texts: Sequence[str], *, add_special_tokens: bool = True
    ) -> dict[str, list[list[int]]]:
        encodings = self._tokenizer.encode_batch(list(texts), add_special_tokens=add_special_tokens)
        return {"input_ids": [list(e.ids) for e in encodings]}
