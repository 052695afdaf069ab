"""`FastTokenizer` (the `tokenizers` library alone) gives the ids transformers' AutoTokenizer
gives, for the embedder's batches and counts and for the reranker's pairs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hostile_text import HOSTILE
from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.embedding.embedder import resolve_model_path
from tutorgraph.embedding.fast_tokenizer import FastTokenizer
from tutorgraph.embedding.onnx_embedder import _tokenizers
from tutorgraph.embedding.reranker import RerankerOptions, encode_pairs
from tutorgraph.ingest.eedi import EediQuestion, eedi_query_text
from tutorgraph.retrieval.factory import bundled_reranker_path

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def texts(eedi_questions: list[EediQuestion], eedi_misconceptions: dict[int, str]) -> list[str]:
    """Real question texts (LaTeX, long ones), misconceptions, and hostile strings."""
    questions = [
        eedi_query_text(q, x) for q in eedi_questions for x in q.answers if x != q.correct_answer
    ]
    return questions[:300] + list(eedi_misconceptions.values())[:100] + HOSTILE[:20]


def test_embedder_batches_and_counts_match_autotokenizer(texts: list[str]) -> None:
    from transformers import AutoTokenizer

    path = Path(resolve_model_path(DEFAULT_EMBEDDING_MODEL))
    reference = AutoTokenizer.from_pretrained(str(path))
    batch, counter = _tokenizers(path, 256)
    ordered = sorted(texts, key=len)
    for start in range(0, len(ordered), 8):
        chunk = ordered[start : start + 8]
        want = reference(chunk, padding=True, truncation=True, max_length=256, return_tensors="np")
        got = batch.encode_batch(chunk)
        np.testing.assert_array_equal(want["input_ids"], [e.ids for e in got])
        np.testing.assert_array_equal(want["attention_mask"], [e.attention_mask for e in got])
        np.testing.assert_array_equal(want["token_type_ids"], [e.type_ids for e in got])
    for text in texts:
        assert counter.encode(text, add_special_tokens=False) == reference.encode(
            text, add_special_tokens=False, verbose=False
        )


def test_reranker_pairs_match_autotokenizer(texts: list[str]) -> None:
    from transformers import AutoTokenizer

    path = bundled_reranker_path()
    reference, fast = AutoTokenizer.from_pretrained(str(path)), FastTokenizer.load(path)
    assert (fast.cls_token_id, fast.sep_token_id, fast.pad_token_id) == (
        reference.cls_token_id,
        reference.sep_token_id,
        reference.pad_token_id,
    )
    options = RerankerOptions()
    for query in texts[::20]:
        assert encode_pairs(fast, query, texts[:60], options) == encode_pairs(
            reference, query, texts[:60], options
        )
