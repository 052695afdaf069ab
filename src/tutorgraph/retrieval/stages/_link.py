"""The link stage: the concepts a request is about, per taxonomy (the caller's
`concept_ids` first, then the linker's best `LINKED_PER_TAXONOMY` in each taxonomy the caller
named none of), each taxonomy's first concept with its prerequisite chain, with names.

It runs before the search and blocks on nothing: it starts `state.linking`, a task that
awaits the query embedding `route` started, links in a worker thread and reads the chains,
while the dense and lexical searches run, and sets `state.linked` when it is done. The graph
search awaits it for its seeds (issue 47: one source of concepts per request), and the search
stage waits for it to end (`state.await_linking`), or cancels it past the source timeout. The
task never raises: a failure is the stage's degradation.

The linker reads the request's `grade` (a prior over the standards) and the story's tags from
the request's facts; it sets `state.grade_info`: the request's grade, else the band the
standards model reads from the message (issue 48).

In a dialogue it also sets `state.topic` (`retrieval/topic.py`): a turn that leans on the
dialogue was linked with the session's window (the facts' `link_text`), so its concepts are
the session's; one that stands alone is compared with the window's own first standard,
embedded beside the query (the one more encoder pass a dialogue may cost).

The chains are `retrieval/chains.py`'s: a construct or section reaches the Common Core
progressions through its `aligned_with` edge, so its chain starts with the standard it
teaches, then that standard's prerequisites.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import KW_ONLY, dataclass

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import SourceUnavailableError, failure_reason
from tutorgraph.linking import taxonomy_of
from tutorgraph.linking.linker import STRUCTURED as COMMON_CORE
from tutorgraph.retrieval.chains import with_chains
from tutorgraph.retrieval.pipeline import Stage, elapsed_ms
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import Linking, RequestState
from tutorgraph.retrieval.topic import NEW_TOPIC, Topic, dialogue_topic
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import ConceptLinks, GraphStore, LinkedCard
from tutorgraph_client.models.grade import band
from tutorgraph_client.models.packet import GradeInfo, LinkedConcept

__all__ = ["LINKED_PER_TAXONOMY", "LinkStage"]

log = logging.getLogger(__name__)

# Concepts the linker names in each taxonomy (10: with 5, the packet missed the standard a
# top-10 search finds, held-out messages hit@10 0.674 against the linker's 0.761).
LINKED_PER_TAXONOMY = 10


@dataclass(frozen=True)
class LinkStage(Stage):
    """Starts `state.linking`; a graph that is down leaves the concepts without their chains,
    a failed or missing query embedding leaves the caller's concepts only."""

    name = "link"
    reads = frozenset({"facts", "query_vector"})
    writes = frozenset({"grade_info", "linked", "linking", "topic"})
    # The task reports its own time under `timings_ms.link` (the stage only starts it).
    timing = None
    required = False

    graph: GraphStore
    linker: ConceptLinks | None
    _: KW_ONLY
    timeout_s: float
    # The graph's circuit breaker (the retriever's; None: none).
    breaker: CircuitBreaker | None = None
    # Embeds a dialogue's window when the turn stands alone (None: its topic is not compared).
    embedder: Embedder | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> LinkStage:
        return cls(
            deps.graph,
            deps.linker,
            timeout_s=config.source_timeout_s,
            breaker=deps.breakers.graph,
            embedder=deps.embedder,
        )

    async def run(self, state: RequestState) -> bool:
        if (grade := state.request.grade) is not None:
            state.grade_info = GradeInfo(grade=grade, band=band(grade), source="request")
        task = asyncio.create_task(self._link(state))
        # Awaited by the search stage; if the request fails first, its end is not lost noise.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        state.linking = task
        return True

    async def _link(self, state: RequestState) -> Linking:
        """The concepts with their chains; a failure degrades the stage and links nothing."""
        started = time.perf_counter()
        waited: float | None = None
        try:
            out, waited = await self._concepts(state)
            # No concept, no chain to read: the graph is not asked (a call that asks it
            # nothing must not count as its answer with the breaker).
            chained = (
                await guarded(
                    "graph", with_chains(self.graph, out), self.timeout_s, breaker=self.breaker
                )
                if out
                else out
            )
            state.linked = chained or out
            return Linking(state.linked, linker_ran=waited is not None)
        except Exception as exc:  # the stage's failure policy, inside its task
            log.warning("stage link failed (%s); the request goes on without it", exc)
            state.degraded_stages[self.name] = failure_reason(self.name, exc)
            return Linking([], linker_ran=False)
        finally:
            if self.linker is not None:
                # Its own work, not the wait for the embedding it shares with the search.
                ms = elapsed_ms(started) - (waited or 0.0)
                state.timings["link"] = round(max(ms, 0.0), 3)

    async def _concepts(self, state: RequestState) -> tuple[list[LinkedConcept], float | None]:
        """The caller's concepts, then the linker's, and the milliseconds spent waiting for
        the query embedding (None when the linker did not run)."""
        request = state.request
        caller = (
            await guarded(
                "graph",
                self.graph.get_concepts(request.concept_ids),
                self.timeout_s,
                breaker=self.breaker,
            )
            if request.concept_ids
            else None
        )
        out = [
            LinkedConcept(
                id=c.id,
                taxonomy=t,
                name=c.name,
                description=c.description,
                evidence={"caller": True},
            )
            for c in caller or []
            if (t := taxonomy_of(c)) is not None
        ]
        if self.linker is None or state.query_vector is None:
            state.topic = self._topic(state, out, None)
            return out, None
        named = {c.taxonomy for c in out}
        text = state.facts.link_text
        window = self._window_vector(state)
        waiting = time.perf_counter()
        try:
            vector = await state.query_embedding()
        except SourceUnavailableError as exc:
            # The caller's concepts still get their chains; the packet says what is missing.
            log.warning("the linker is skipped: %s", exc)
            state.degraded_stages[self.name] = failure_reason(self.name, exc)
            return out, None
        waited = elapsed_ms(waiting)
        found = await asyncio.to_thread(self._link_text, state, text, vector)
        session = None
        if window is not None:
            session = await asyncio.to_thread(self._session_standard, state, await window)
        out += [
            LinkedConcept(
                id=c.concept_id,
                taxonomy=c.taxonomy,
                name=c.name,
                description=c.description,
                score=c.score,
                evidence=c.evidence,
            )
            for taxonomy, concepts in found.items()
            if taxonomy not in named
            for c in concepts
        ]
        state.topic = self._topic(state, out, session)
        return out, waited

    def _window_vector(self, state: RequestState) -> asyncio.Task[npt.NDArray[np.float32]] | None:
        """The embedding of a dialogue's window, started beside the query's when the turn
        stands alone (its topic is then compared with the window's); else None."""
        dialogue = state.facts.dialogue
        if (
            dialogue is None
            or not dialogue.window
            or not dialogue.stands_alone
            or self.embedder is None
        ):
            return None
        task = asyncio.create_task(embed_async(self.embedder, [dialogue.window]))
        # Not awaited when the linker fails first: its end is then not lost noise.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return task

    def _session_standard(
        self, state: RequestState, vectors: npt.NDArray[np.float32]
    ) -> str | None:
        """The window's first Common Core standard (in a worker thread)."""
        assert self.linker is not None and state.facts.dialogue is not None
        found = self.linker.link(
            state.facts.dialogue.window, 1, vectors[0], grade=state.request.grade
        )
        first = found.get(COMMON_CORE) or []
        return first[0].concept_id if first else None

    @staticmethod
    def _topic(
        state: RequestState, linked: list[LinkedConcept], session: str | None
    ) -> Topic | None:
        """The dialogue's topic (None without a dialogue)."""
        dialogue = state.facts.dialogue
        if dialogue is None:
            return None
        if not dialogue.window:
            return NEW_TOPIC
        kind = dialogue.kind
        return dialogue_topic(
            carried=not dialogue.stands_alone,
            linked=linked,
            session=session,
            asked=kind.asks_topic and bool(kind.topics),
            announced=dialogue.announced,
        )

    def _link_text(
        self, state: RequestState, text: str, vector: npt.NDArray[np.float32]
    ) -> dict[str, list[LinkedCard]]:
        """The linker's concepts (in a worker thread), and the grade it used: the request's,
        else the band it reads from the message (`state.grade_info`)."""
        assert self.linker is not None
        grade = state.request.grade
        # The story's mathematics, read once by the facts stage (the diagnosis reads it too).
        story = state.facts.story
        tags = story.tags() if story is not None else frozenset()
        found = self.linker.link(text, LINKED_PER_TAXONOMY, vector, grade=grade, tags=tags)
        if grade is None and (inferred := self.linker.infer_band(text, vector, tags)) is not None:
            state.grade_info = GradeInfo(
                band=inferred[0], source="inferred", probability=inferred[1]
            )
        return found
