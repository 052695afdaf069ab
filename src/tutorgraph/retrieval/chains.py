"""Each linked concept's prerequisite chain, read from the graph: the first concept of each
taxonomy carries the concepts that come before it, foundations first, each with how many
edges back it stands and the relation it leaves by (`aligned_with` for the standard a
construct or section teaches).

A tutor reads "5.NF.B.3 (Interpret a fraction as division) comes before 6.RP.A.3.c", not bare
ids: the chain is read `CHAIN_DEPTH` edges back.

>>> linked = await with_chains(graph, concepts)  # doctest: +SKIP
>>> [step.id for step in linked[0].prerequisites]  # doctest: +SKIP
['ccss:5.NF.B.3', ...]
"""

from __future__ import annotations

from collections.abc import Sequence

from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.packet import ChainStep, LinkedConcept

__all__ = ["CHAIN_DEPTH", "with_chains"]

# Prerequisite edges read back from each lead concept.
CHAIN_DEPTH = 2


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
