"""A LlamaIndex retriever over tutorgraph: in process (a `HybridRetriever`) or remote (the
`tutorgraph_client` clients). Each hit becomes a `NodeWithScore`: a `TextNode` with the
hit's id, its provenance and the packet's verdict (`no_match`, `no_match_reason`,
`confidence`) as metadata, kept out of the text a model or an embedder reads but for `id`,
`kind` and `title`. Needs `tutorgraph-client[llamaindex]`.

The score is `reciprocal_rank`, the same scale as the LangChain adapter's
(`integrations/packets.py`): 1 / n for the n-th lesson or the n-th result, in [0, 1] and
never rising in the order the nodes come, so `SimilarityPostprocessor(similarity_cutoff=c)`
keeps the first 1 / c lessons and the first 1 / c results (0.5: two of each), whatever their
kinds; the hit's own score (a cosine for a lesson, fused, reranked or learned for a result)
is `metadata["hit_score"]`, on `metadata["hit_score_scale"]`. On a `no_match` packet (off
topic, or nothing matched) it gives no nodes unless built with `include_no_match=True`.

>>> retriever = TutorGraphRetriever(TutorGraph("http://127.0.0.1:8000", api_key=k))
... # doctest: +SKIP
>>> node = retriever.retrieve("why is 3/4 bigger than 2/3?")[0]  # doctest: +SKIP
>>> node.score, node.node.metadata["kind"], node.node.metadata["no_match"]  # doctest: +SKIP
(1.0, 'explanation', False)

**Chat history.** A tutoring turn ("12?", "idk") leans on the turns before it. LlamaIndex's
chat engines (`ContextChatEngine`, `CondensePlusContextChatEngine`) call a retriever with
the message alone (or its condensed rewrite), and keep the history in their memory. Give the
retriever that memory (`memory=`) and it reads the history at each call, before the engine
adds the new message: the user's messages are the student's turns, the assistant's the
tutor's (system and tool messages are not turns), cut to the latest turns within the
request's limits, never refused. With `skip_condense=True` the retriever gets the student's
own turn, which tutorgraph reads in the light of the dialogue (no model call to rewrite it).
Outside an engine, pass the history per call: `retrieve_turn(message, chat_history)`.

>>> memory = ChatMemoryBuffer.from_defaults()  # doctest: +SKIP
>>> retriever = TutorGraphRetriever(tg, memory=memory)  # doctest: +SKIP
>>> engine = CondensePlusContextChatEngine.from_defaults(
...     retriever, llm=llm, memory=memory, skip_condense=True)  # doctest: +SKIP
>>> engine.chat("12?")  # doctest: +SKIP
>>> retriever.retrieve_turn("12?", [ChatMessage(role="assistant", content="What is 7 + 6?")])
... # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory.types import BaseMemory
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from tutorgraph_client.integrations.packets import (
    PacketSource,
    aretrieve,
    conversation_of,
    documents_of,
    hit_text,
    request_for,
    retrieve,
)
from tutorgraph_client.models.conversation import Role, Turn
from tutorgraph_client.models.packet import ReasoningPacket

__all__ = ["TutorGraphRetriever", "conversation_from_chat"]

# The chat roles that are turns: the user is the student; the assistant (and its names in
# some providers' messages) the tutor. System, developer, tool and function messages are not.
_ROLES: dict[MessageRole, Role] = {
    MessageRole.USER: "student",
    MessageRole.ASSISTANT: "tutor",
    MessageRole.CHATBOT: "tutor",
    MessageRole.MODEL: "tutor",
}


def _roles(messages: Sequence[ChatMessage]) -> Iterator[tuple[Role, str]]:
    for m in messages:
        if (role := _ROLES.get(m.role)) is not None:
            yield role, m.content or ""


def conversation_from_chat(chat_history: Sequence[ChatMessage], query: str) -> list[Turn]:
    """A chat engine's history (`list[ChatMessage]`, oldest first) as the request's
    `conversation`.

    >>> [t.role for t in conversation_from_chat(
    ...     [ChatMessage(role="assistant", content="What is 7 + 6?")], "12?")]
    ['tutor']
    """
    return conversation_of(_roles(chat_history), query)


# The metadata a model's prompt shows (what an answer cites and what it is); an embedder
# sees the kind and title only. The rest (scores, provenance, the verdict) is for the app.
_LLM_KEYS = frozenset({"id", "kind", "title"})
_EMBED_KEYS = frozenset({"kind", "title"})


def _node(text: str, meta: dict[str, Any]) -> NodeWithScore:
    node = TextNode(
        id_=meta["id"],
        text=text,
        metadata=meta,
        excluded_llm_metadata_keys=sorted(meta.keys() - _LLM_KEYS),
        excluded_embed_metadata_keys=sorted(meta.keys() - _EMBED_KEYS),
    )
    return NodeWithScore(node=node, score=meta["score"])


def _nodes(packet: ReasoningPacket, k: int, *, include_no_match: bool) -> list[NodeWithScore]:
    # Teaching first, then the results: `k` nodes in all (`teaching_first`).
    return [
        _node(hit_text(h), meta)
        for h, meta in documents_of(packet, k, include_no_match=include_no_match)
    ]


class TutorGraphRetriever(BaseRetriever):
    """`source`: a `HybridRetriever`, an `AsyncTutorGraph` or a `TutorGraph`;
    `similarity_top_k`: how many nodes; `request_fields`: other `RetrievalRequest` fields;
    `include_no_match`: give a `no_match` packet's nodes too (each says `no_match` and why
    in its metadata) instead of none; `memory`: a chat engine's memory, whose history is
    read as the dialogue at each call (module docstring).

    >>> TutorGraphRetriever(tg, memory=engine_memory).retrieve("12?")  # doctest: +SKIP
    """

    def __init__(
        self,
        source: PacketSource,
        *,
        similarity_top_k: int = 10,
        request_fields: dict[str, Any] | None = None,
        include_no_match: bool = False,
        memory: BaseMemory | None = None,
        **kwargs: Any,
    ) -> None:
        self._source = source
        self._k = similarity_top_k
        self._fields = dict(request_fields or {})
        self._include_no_match = include_no_match
        self._memory = memory
        super().__init__(**kwargs)

    def retrieve_turn(
        self, message: str, chat_history: Sequence[ChatMessage]
    ) -> list[NodeWithScore]:
        """Nodes for a student's turn read with the chat before it (not the memory's)."""
        return self._nodes_for(message, conversation_from_chat(chat_history, message))

    async def aretrieve_turn(
        self, message: str, chat_history: Sequence[ChatMessage]
    ) -> list[NodeWithScore]:
        history = conversation_from_chat(chat_history, message)
        return await self._anodes_for(message, history)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        query = query_bundle.query_str
        history = self._memory.get_all() if self._memory is not None else []
        return self._nodes_for(query, conversation_from_chat(history, query))

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        query = query_bundle.query_str
        history = await self._memory.aget_all() if self._memory is not None else []
        return await self._anodes_for(query, conversation_from_chat(history, query))

    def _nodes_for(self, query: str, history: list[Turn]) -> list[NodeWithScore]:
        request = request_for(query, self._k, self._fields, history)
        packet = retrieve(self._source, request)
        return _nodes(packet, request.n_results, include_no_match=self._include_no_match)

    async def _anodes_for(self, query: str, history: list[Turn]) -> list[NodeWithScore]:
        request = request_for(query, self._k, self._fields, history)
        packet = await aretrieve(self._source, request)
        return _nodes(packet, request.n_results, include_no_match=self._include_no_match)
