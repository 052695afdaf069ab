"""One behavioural suite for every `LexicalIndex`: the BM25 index as built in memory, and the
same index saved to its folder and loaded back (what `LocalIndex` opens).

The corpus is small and hand-written, so each expectation can be read off it: which item
holds which term, and which terms no item holds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path

import pytest
import pytest_asyncio

from hostile_text import HOSTILE
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import IndexItem, LexicalIndex, ScoredItem

pytestmark = pytest.mark.unit

ITEMS = [
    IndexItem(
        id="test:misconception:1",
        kind="misconception",
        title="",
        text="Adds the numerators and adds the denominators when adding fractions",
        concept_ids=("ccss:5.NF.A.1",),
    ),
    IndexItem(
        id="test:misconception:2",
        kind="misconception",
        title="",
        text="Flips the wrong fraction when dividing fractions",
        concept_ids=("ccss:6.NS.A.1", "eedi:construct:7"),
    ),
    IndexItem(
        id="test:explanation:1",
        kind="explanation",
        title="Unlike denominators",
        text="To add fractions with unlike denominators, first find a common denominator.",
        updated_at="2025-01-02T03:04:05Z",
    ),
    IndexItem(
        id="test:exercise:1",
        kind="exercise",
        title="Ratio tables",
        text="Complete the ratio table: 2 cups of flour for every 3 eggs.",
    ),
    IndexItem(
        id="test:worked_example:1",
        kind="worked_example",
        title="Multiplying decimals",
        text="Multiply 0.4 by 0.25: ignore the points, multiply, then place the point.",
    ),
    IndexItem(
        id="test:question:1",
        kind="question",
        title="",
        text="What is the perimeter of a rectangle 3 cm by 5 cm?",
    ),
    IndexItem(
        id="test:concept:1",
        kind="concept",
        title="6.NS.A.1",
        text="Interpret and compute quotients of fractions",
        concept_ids=("ccss:6.NS.A.1",),
    ),
    IndexItem(
        id="test:concept:2",
        kind="concept",
        title="Prime factorisation",
        text="Write a whole number as a product of primes",
    ),
]
BY_ID = {item.id: item for item in ITEMS}
# A word only one item holds -> that item.
UNIQUE = {
    "numerators": "test:misconception:1",
    "flips": "test:misconception:2",
    "common": "test:explanation:1",
    "flour": "test:exercise:1",
    "decimals": "test:worked_example:1",
    "perimeter": "test:question:1",
    "quotients": "test:concept:1",
    "primes": "test:concept:2",
}

Make = Callable[[Sequence[IndexItem]], Awaitable[LexicalIndex]]


@pytest.fixture(params=["built", "loaded"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Make:
    """`make(items)`: a lexical index over `items`, as this leg opens it."""
    folders = iter(range(100))

    async def build(items: Sequence[IndexItem]) -> LexicalIndex:
        index = BM25Index.build(items)
        if request.param == "built":
            return index
        folder = tmp_path / f"lexical-{next(folders)}"
        index.save(folder)
        return BM25Index.load(folder)

    return build


@pytest_asyncio.fixture
async def index(make: Make) -> AsyncIterator[LexicalIndex]:
    built = await make(ITEMS)
    yield built
    await built.aclose()


def _ids(hits: list[ScoredItem]) -> list[str]:
    return [h.item.id for h in hits]


def _well_formed(hits: list[ScoredItem], k: int) -> None:
    assert len(hits) <= k
    assert len(set(_ids(hits))) == len(hits), "an item is listed once"
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True), "best first"
    assert all(s > 0 for s in scores), "a hit shares a term with the query"
    assert all(h.item == BY_ID[h.item.id] for h in hits), "hits are the items indexed"


async def test_satisfies_the_protocol(index: LexicalIndex) -> None:
    assert isinstance(index, LexicalIndex)


@pytest.mark.parametrize(("term", "item_id"), sorted(UNIQUE.items()))
async def test_a_term_one_item_holds_finds_that_item_alone(
    index: LexicalIndex, term: str, item_id: str
) -> None:
    hits = await index.search(term, 5)
    assert _ids(hits) == [item_id]
    _well_formed(hits, 5)


async def test_the_item_holding_every_query_term_ranks_first(index: LexicalIndex) -> None:
    hits = await index.search("adding fractions numerators denominators", 8)
    assert hits[0].item.id == "test:misconception:1"
    # The other items that mention fractions or denominators follow; no other item does.
    assert set(_ids(hits)) == {
        "test:misconception:1",
        "test:misconception:2",
        "test:explanation:1",
        "test:concept:1",
    }
    _well_formed(hits, 8)


async def test_matching_is_case_and_title_insensitive(index: LexicalIndex) -> None:
    # The title is searched with the text; case does not matter.
    assert _ids(await index.search("RATIO TABLES", 3))[0] == "test:exercise:1"
    assert _ids(await index.search("prime factorisation", 3))[0] == "test:concept:2"


async def test_a_standard_code_is_one_term(index: LexicalIndex) -> None:
    assert _ids(await index.search("what does 6.ns.a.1 say", 3)) == ["test:concept:1"]


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 20])
async def test_k_bounds_the_hits_and_a_smaller_k_is_a_prefix(index: LexicalIndex, k: int) -> None:
    query = "fractions denominators ratio multiply"
    every = await index.search(query, len(ITEMS) + 5)
    hits = await index.search(query, k)
    assert len(every) == 6  # the items holding one of the terms, at most the index's size
    assert len(hits) == min(k, len(every))
    assert [h.item.id for h in hits] == [h.item.id for h in every[:k]]
    _well_formed(hits, k)


async def test_k_zero_is_no_hits(index: LexicalIndex) -> None:
    assert await index.search("fractions", 0) == []


@pytest.mark.parametrize(
    "query", ["", " ", "\t\n  ", "the of and", "zzqx", "unknownword anotherone", "?!"]
)
async def test_a_query_with_no_indexed_term_finds_nothing(index: LexicalIndex, query: str) -> None:
    assert await index.search(query, 5) == []


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:30]))
async def test_full_text_syntax_is_plain_text(index: LexicalIndex, text: str) -> None:
    # Quotes, AND/OR/NOT, `*`, `:`, brackets, backslashes: never syntax, never an error.
    _well_formed(await index.search(text, 5), 5)


async def test_syntax_around_a_term_still_finds_it(index: LexicalIndex) -> None:
    for query in ('"perimeter"', "perimeter*", "title:perimeter", "NOT perimeter", "(perimeter)"):
        assert _ids(await index.search(query, 3)) == ["test:question:1"], query


async def test_the_same_query_gives_the_same_hits(index: LexicalIndex) -> None:
    query = "fractions when adding or dividing"
    first = await index.search(query, 8)
    assert [(h.item.id, h.score) for h in await index.search(query, 8)] == [
        (h.item.id, h.score) for h in first
    ]


async def test_every_item_round_trips_with_all_its_fields(index: LexicalIndex) -> None:
    found = {}
    for term in UNIQUE:
        for hit in await index.search(term, 1):
            found[hit.item.id] = hit.item
    assert found == BY_ID  # ids, kinds, titles, texts, concept ids, updated_at


async def test_an_empty_index_finds_nothing(make: Make) -> None:
    empty = await make([])
    assert await empty.search("fractions", 5) == []
    assert await empty.search("", 5) == []
    await empty.aclose()
