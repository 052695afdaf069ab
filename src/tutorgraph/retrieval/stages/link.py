"""The link stage: the concepts a request is about, per taxonomy (the caller's
`concept_ids` first, then the linker's best `LINKED_PER_TAXONOMY` in each taxonomy the caller
named none of), each taxonomy's first concept with its prerequisite chain, with names.

It runs before the search and blocks on nothing: it starts `state.linking`, a task that
awaits the query embedding `route` started, links in a worker thread and reads the chains,
while the dense and lexical searches run. The graph search awaits it for its seeds (issue
47: one source of concepts per request), and the search stage sets `state.linked` from it
(`pipeline.await_linking`). The task never raises: a failure is the stage's degradation.

The linker reads the request's `grade` (a prior over the standards) and the story's tags from
the request's facts; it sets `state.grade_info`: the request's grade, else the band the
standards model reads from the message (issue 48).

The chain is read to `CHAIN_DEPTH` edges back and listed foundations first: a tutor reads
"5.NF.B.3 (Interpret a fraction as division) comes before 6.RP.A.3.c", not bare ids. A
construct or section reaches the Common Core progressions through its `aligned_with` edge:
its chain starts with the standard it teaches (1 back), then that standard's prerequisites.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

import numpy as np
import numpy.typing as npt

from tutorgraph.errors import SourceUnavailableError, failure_reason
from tutorgraph.linking import taxonomy_of
from tutorgraph.retrieval.pipeline import Linking, RequestState, Stage, elapsed_ms
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import ConceptLinks, GraphStore, LinkedCard
from tutorgraph_client.models.grade import band
from tutorgraph_client.models.packet import ChainStep, GradeInfo, LinkedConcept

__all__ = ["CHAIN_DEPTH", "LINKED_PER_TAXONOMY", "LinkStage", "with_chains"]

log = logging.getLogger(__name__)

# Prerequisite edges read back from each lead concept.
CHAIN_DEPTH = 2
# Concepts the linker names in each taxonomy (10: with 5, the packet missed the standard a
# top-10 search finds, held-out messages hit@10 0.674 against the linker's 0.761).
LINKED_PER_TAXONOMY = 10


@dataclass(frozen=True)
class LinkStage(Stage):
    """Starts `state.linking`; a graph that is down leaves the concepts without their chains,
    a failed or missing query embedding leaves the caller's concepts only."""

    name = "link"
    reads = frozenset({"facts", "query_vector"})
    writes = frozenset({"grade_info", "linking"})
    # The task reports its own time under `timings_ms.link` (the stage only starts it).
    timing = None
    required = False

    graph: GraphStore
    linker: ConceptLinks | None
    _: KW_ONLY
    timeout_s: float
    # The graph's circuit breaker (the retriever's; None: none).
    breaker: CircuitBreaker | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> LinkStage:
        return cls(
            deps.graph,
            deps.linker,
            timeout_s=config.source_timeout_s,
            breaker=deps.breakers.graph,
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
            return Linking(chained or out, linker_ran=waited is not None)
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
            return out, None
        named = {c.taxonomy for c in out}
        text = " ".join(p for p in (request.query, request.problem) if p)
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
        return out, waited

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


async def with_chains(
    graph: GraphStore, concepts: Sequence[LinkedConcept], depth: int = CHAIN_DEPTH
) -> list[LinkedConcept]:
    """`concepts` with the first of each taxonomy carrying its prerequisite chain."""
    leads: dict[str, int] = {}
    for i, c in enumerate(concepts):
        leads.setdefault(c.taxonomy, i)
    lead_ids = [concepts[i].id for i in leads.values()]
    paths = await graph.prerequisite_chains(lead_ids, depth) if lead_ids else []
    # The shortest distance of each concept on a chain to the lead it comes before, and the
    # relation of the edge it leaves by on that shortest path.
    before: dict[str, dict[str, tuple[int, str]]] = {lead: {} for lead in lead_ids}
    for path in paths:
        lead = path.path[-1]
        steps = zip(reversed(path.path[:-1]), reversed(path.relations), strict=True)
        for steps_back, (cid, relation) in enumerate(steps, start=1):
            seen = before[lead].get(cid)
            if seen is None or steps_back < seen[0]:
                before[lead][cid] = (steps_back, relation)
    ids = list(dict.fromkeys(cid for chain in before.values() for cid in chain))
    known = {c.id: c for c in await graph.get_concepts(ids)} if ids else {}
    out = list(concepts)
    for i in leads.values():
        chain = before[out[i].id]
        out[i] = out[i].model_copy(
            update={
                "prerequisites": [
                    ChainStep(
                        id=cid,
                        name=known[cid].name,
                        description=known[cid].description,
                        depth=back,
                        relation=relation,
                    )
                    for cid, (back, relation) in sorted(
                        chain.items(), key=lambda kv: (-kv[1][0], kv[0])
                    )
                    if cid in known
                ]
            }
        )
    return out
