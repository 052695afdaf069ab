"""The fixtures live in `tests/fixtures.py` (loaded by the root `conftest.py` for every test
tree, `research/tests/` included); the helpers are re-exported here for the tests that import
them from `tests.conftest`. Never re-export a fixture here: a second definition would build a
second instance of it."""

from tests.fixtures import (
    DATA,
    EEDI_DIR,
    HELD_OUT_QUESTION,
    LC_DIR,
    MODEL_NAME,
    OPENSTAX_ABSENT,
    OPENSTAX_DIR,
    REPO,
    LabelledAnswer,
    build_tiny_cross_encoder,
    cli_command,
    cli_env,
    encoder_output,
    index_retriever,
    labelled_answers,
    minilm_int8_graph,
    misconception_ranking,
    slice_records,
)

__all__ = [
    "DATA",
    "EEDI_DIR",
    "HELD_OUT_QUESTION",
    "LC_DIR",
    "MODEL_NAME",
    "OPENSTAX_ABSENT",
    "OPENSTAX_DIR",
    "REPO",
    "LabelledAnswer",
    "build_tiny_cross_encoder",
    "cli_command",
    "cli_env",
    "encoder_output",
    "index_retriever",
    "labelled_answers",
    "minilm_int8_graph",
    "misconception_ranking",
    "slice_records",
]
