"""A malformed `TUTORGRAPH_*` variable is a `ConfigurationError` with one line that names the
variable and why, never its value (issue 46: it was a 47-line pydantic traceback)."""

from __future__ import annotations

import pytest

from tutorgraph.config import Settings
from tutorgraph.errors import ConfigurationError

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("variable", "value", "why"),
    [
        ("TUTORGRAPH_RERANK_DEPTH", "many", "valid integer"),
        ("TUTORGRAPH_RERANK_DEPTH", "1000", "less than or equal to 100"),
        ("TUTORGRAPH_ALLOW_ANONYMOUS", "perhaps", "valid boolean"),
        ("TUTORGRAPH_RERANKER_BACKEND", "gpu", "'auto', 'torch', 'onnx' or 'onnx-int8'"),
        ("TUTORGRAPH_HEADER_TIMEOUT_S", "-1", "greater than 0"),
        ("TUTORGRAPH_AUTH_FAILURES_PER_MINUTE", "lots", "valid integer"),
    ],
)
def test_a_malformed_variable_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, why: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError) as err:
        Settings()
    message = err.value.message
    assert message.startswith(f"{variable}: ") and why in message, message
    assert "\n" not in message and value not in message.removeprefix(f"{variable}: ")
    assert err.value.__cause__ is None and err.value.__suppress_context__


def test_several_bad_variables_name_the_first_and_count_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TUTORGRAPH_RERANK_DEPTH", "many")
    monkeypatch.setenv("TUTORGRAPH_LESSON_SLOTS", "-3")
    with pytest.raises(ConfigurationError, match=r"\(and 1 more\)$"):
        Settings()


def test_arguments_are_checked_the_same_way_and_good_ones_pass() -> None:
    with pytest.raises(ConfigurationError, match=r"^TUTORGRAPH_INFERENCE_THREADS: "):
        Settings(inference_threads=0)
    assert Settings(inference_threads=2, header_timeout_s=0.5).inference_threads == 2
    assert Settings.model_validate({"max_header_bytes": 4096}).max_header_bytes == 4096
