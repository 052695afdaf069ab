"""A maths message in another language is flagged as not English, not as off-topic (issue
62, part 8): the maths reader (`refinement/foreign_maths.py`) over messages written for
this test in Spanish, French, German and Portuguese, and the packet's `no_match_reason`
(`retrieval/no_match.py`) after the real language reader, with the scope model's verdict
set by hand."""

from __future__ import annotations

import pytest

from tutorgraph.refinement.foreign_maths import reads_as_maths
from tutorgraph.refinement.language import detect_language
from tutorgraph.retrieval.packet import build_packet
from tutorgraph.retrieval.stages import RefineStage
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.packet import ReasoningPacket, ScopeInfo
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit

# Written for this test (not from a benchmark): (language, message).
MATHS = [
    ("es", "¿cuánto es 3/4 más 1/2?"),
    ("es", "no entiendo cómo dividir fracciones"),
    ("es", "cuánto es siete por ocho"),
    ("es", "como se calcula el perimetro de un rectangulo"),
    ("fr", "combien font 7 fois 8 ?"),
    ("fr", "je ne comprends pas comment multiplier des fractions"),
    ("fr", "comment trouver l'aire d'un cercle"),
    ("de", "was ist die hälfte von 18 geteilt durch 3"),
    ("de", "ich verstehe die Bruchrechnung nicht"),
    ("de", "wie rechnet man den Flächeninhalt eines Dreiecks aus"),
    ("pt", "quanto é 12 dividido por 4?"),
    ("pt", "não sei como somar frações"),
    ("pt", "como calcular a área de um triângulo"),
    ("es", "Lucía tiene 15 caramelos y le da 6 a su hermano. ¿Cuántos le quedan?"),
]
NOT_MATHS = [
    ("es", "qué hora es en madrid"),
    ("es", "hola, ¿cómo estás?"),
    ("es", "tengo 12 años y vivo en Sevilla"),  # a number alone is not maths
    ("fr", "je m'appelle lucas et j'aime le foot"),
    ("fr", "quel temps fait-il aujourd'hui à Paris ?"),
    ("fr", "je vais au cinéma 2 fois par semaine"),  # "fois" without a number after it
    ("de", "wie spät ist es"),
    ("de", "ich habe heute keine Lust auf Schule"),
    ("de", "mein Hund heißt Bello und ist 3 Jahre alt"),
    ("pt", "qual é o seu filme favorito?"),
    ("pt", "olá, tudo bem com você?"),
    ("pt", "vou à praia com a minha família no sábado"),
]
BELOW = ScopeInfo(applied=True, model="scope", in_scope=0.02, threshold=0.32)
ABOVE = ScopeInfo(applied=True, model="scope", in_scope=0.71, threshold=0.32)


@pytest.mark.parametrize(("code", "message"), MATHS)
def test_a_maths_message_in_another_language_reads_as_maths(code: str, message: str) -> None:
    assert detect_language(message).code == code  # the language reader's own verdict
    assert reads_as_maths(message, code)


@pytest.mark.parametrize(("code", "message"), NOT_MATHS)
def test_a_message_of_another_language_without_maths_does_not(code: str, message: str) -> None:
    assert detect_language(message).code == code
    assert not reads_as_maths(message, code)


def test_a_language_the_reader_could_not_name_reads_with_every_list() -> None:
    assert reads_as_maths("ik snap de breuken niet", None)
    assert reads_as_maths("7 x 8", None) and not reads_as_maths("hallo allemaal", None)


async def _packet(message: str, scope: ScopeInfo) -> ReasoningPacket:
    """The packet of `message` after the real refine stage (the language reader), with the
    scope model's verdict `scope` and no hits (the flag reads neither)."""
    state = RequestState(request=RetrievalRequest(query=message))
    await RefineStage(None).run(state)
    state.scope_info = scope
    return build_packet(state)


@pytest.mark.parametrize(("code", "message"), MATHS)
async def test_maths_in_another_language_is_flagged_not_english(code: str, message: str) -> None:
    """The English scope model reads it as off-topic (`BELOW`); the reason says what is
    true: the message is maths, in another language."""
    packet = await _packet(message, BELOW)
    assert packet.language.english is False and packet.language.detected == code
    assert packet.no_match
    reason = packet.no_match_reason or ""
    assert reason.startswith("not_english: "), reason
    assert "school math" not in reason and f"(language {code})" in reason
    name = {"es": "Spanish", "fr": "French", "de": "German", "pt": "Portuguese"}[code]
    assert f"maths in {name}" in reason


@pytest.mark.parametrize(("code", "message"), NOT_MATHS)
async def test_another_language_without_maths_may_still_be_off_topic(
    code: str, message: str
) -> None:
    packet = await _packet(message, BELOW)
    assert packet.language.detected == code
    assert packet.no_match and (packet.no_match_reason or "").startswith("off_topic: ")


@pytest.mark.parametrize(
    ("message", "scope"),
    [
        ("qual é o seu filme favorito?", ABOVE),  # the scope model read it as in scope
        ("Wie berechne ich die Fläche eines Dreiecks?", ABOVE),
        ("hola, ¿cómo estás?", ScopeInfo(reason="no scope model configured")),
    ],
)
async def test_another_language_is_flagged_not_english_when_the_scope_model_passes_it(
    message: str, scope: ScopeInfo
) -> None:
    """Only English is supported: a message read as another language is always flagged,
    and only a confident "not maths" from both readers makes it off-topic."""
    packet = await _packet(message, scope)
    assert packet.no_match and (packet.no_match_reason or "").startswith("not_english: ")


async def test_an_english_message_keeps_its_reasons() -> None:
    off = await _packet("can we talk about football", BELOW)
    assert off.no_match_reason is not None and off.no_match_reason.startswith("off_topic: ")
    empty = await _packet("how do I add 3/4 and 1/2?", ABOVE)
    assert empty.no_match_reason == "no_content: nothing in the index matched the message"
