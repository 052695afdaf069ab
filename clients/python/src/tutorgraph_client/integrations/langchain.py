"""A LangChain retriever over tutorgraph: in process (a `HybridRetriever`) or remote (the
`tutorgraph_client` clients). Each hit becomes a `Document` whose metadata carries its
kind, ids, `found_by`, graph path and diagnosis, the packet's verdict (`no_match`,
`no_match_reason`, `confidence`) and its score on one scale: `score` is `reciprocal_rank`,
1 / n for the n-th lesson or the n-th result, the same scale as the LlamaIndex adapter's
(`integrations/packets.py`); the hit's own score is `hit_score`, on `hit_score_scale`. On a
`no_match` packet (off topic, or nothing matched) it gives no documents, so a chain feeds
its model nothing off topic, unless built with `include_no_match=True`. Needs
`tutorgraph-client[langchain]`.

>>> retriever = TutorGraphRetriever(source=TutorGraph("http://127.0.0.1:8000", api_key=k))
... # doctest: +SKIP
>>> doc = retriever.invoke("why is 3/4 bigger than 2/3?")[0]  # doctest: +SKIP
>>> doc.metadata["kind"], doc.metadata["score"], doc.metadata["no_match"]  # doctest: +SKIP
('explanation', 1.0, False)
>>> TutorGraphRetriever(source=tg).invoke("who won the game last night?")  # doctest: +SKIP
[]

**Chat history.** A tutoring turn ("12?", "idk") leans on the turns before it; pass them
as LangChain chat messages and they become the request's `conversation` (`HumanMessage`:
the student, `AIMessage`: the tutor; system and tool messages are skipped; a long chat is
cut to its latest turns within the request's limits, never refused). Either as the
keyword `chat_history`, or as the input dict of LangChain's history-aware retrievers
(`create_history_aware_retriever`'s `{"input": ..., "chat_history": [...]}`, the history a
prompt's `MessagesPlaceholder("chat_history")` reads), so this retriever can stand where
such a chain stands, without a model call to rewrite the question: tutorgraph reads the
dialogue itself.

>>> history = [AIMessage("What is 7 + 6?")]  # doctest: +SKIP
>>> retriever.invoke("12?", chat_history=history)  # doctest: +SKIP
>>> retriever.invoke({"input": "12?", "chat_history": history})  # doctest: +SKIP
>>> chain = {"input": RunnablePassthrough()} | retriever  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    MessageLikeRepresentation,
    convert_to_messages,
)
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig
from pydantic import ConfigDict, Field

from tutorgraph_client.integrations.packets import (
    aretrieve,
    conversation_of,
    documents_of,
    hit_text,
    request_for,
    retrieve,
)
from tutorgraph_client.models.conversation import Role, Turn
from tutorgraph_client.models.packet import ReasoningPacket

__all__ = ["TutorGraphRetriever", "conversation_from_messages"]

# A `ChatMessage`'s free-form role, read as a turn's (other roles are not turns).
_CHAT_ROLES: dict[str, Role] = {
    "user": "student",
    "human": "student",
    "assistant": "tutor",
    "ai": "tutor",
}

ChatHistory = Sequence[MessageLikeRepresentation]


def _roles(messages: Sequence[BaseMessage]) -> Iterator[tuple[Role, str]]:
    for m in messages:
        if isinstance(m, HumanMessage):
            yield "student", m.text
        elif isinstance(m, AIMessage):
            yield "tutor", m.text
        elif isinstance(m, ChatMessage) and (role := _CHAT_ROLES.get(m.role.lower())):
            yield role, m.text


def conversation_from_messages(chat_history: ChatHistory, query: str) -> list[Turn]:
    """LangChain chat messages (or what `convert_to_messages` reads: `("human", "...")`,
    `{"role": "assistant", "content": "..."}`) as the request's `conversation`, oldest first.

    >>> [t.role for t in conversation_from_messages(
    ...     [SystemMessage("be kind"), AIMessage("What is 7 + 6?"), HumanMessage("13")], "ok")]
    ... # doctest: +SKIP
    ['tutor', 'student']
    """
    if isinstance(chat_history, str):
        raise TypeError("chat_history is a list of chat messages, not a string")
    return conversation_of(_roles(convert_to_messages(chat_history)), query)


def _split_input(
    input: str | Mapping[str, Any], kwargs: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    # The history-aware retrievers' input dict: `input` is the query, `chat_history` the turns.
    if isinstance(input, str):
        return input, kwargs
    if "input" not in input:
        raise ValueError(
            'a dict input needs "input" (the student\'s turn) and may have "chat_history"'
        )
    history = input.get("chat_history")
    return str(input["input"]), {**kwargs, **({"chat_history": history} if history else {})}


def _documents(packet: ReasoningPacket, k: int, *, include_no_match: bool) -> list[Document]:
    # Teaching first, then the results: `k` documents in all (`teaching_first`).
    return [
        Document(page_content=hit_text(h), metadata=meta, id=h.id)
        for h, meta in documents_of(packet, k, include_no_match=include_no_match)
    ]


class TutorGraphRetriever(BaseRetriever):
    """`source`: a `HybridRetriever`, an `AsyncTutorGraph` or a `TutorGraph`; `k`: how many
    documents; `request_fields`: any other `RetrievalRequest` field (a student's answer,
    concept ids, a profile); `include_no_match`: give a `no_match` packet's documents too
    (each says `no_match` and why in its metadata) instead of none. Each call may pass the
    chat so far as `chat_history` (a keyword, or in an input dict; module docstring).

    >>> retriever.invoke({"input": "12?", "chat_history": [AIMessage("What is 7 + 6?")]})
    ... # doctest: +SKIP
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source: Any
    k: int = Field(default=10, ge=1, le=50)
    request_fields: dict[str, Any] = Field(default_factory=dict)
    include_no_match: bool = False

    def invoke(
        self,
        input: str | Mapping[str, Any],
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        """Documents for a query string, or for `{"input": ..., "chat_history": [...]}`."""
        query, kwargs = _split_input(input, kwargs)
        return super().invoke(query, config, **kwargs)

    async def ainvoke(
        self,
        input: str | Mapping[str, Any],
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        query, kwargs = _split_input(input, kwargs)
        return await super().ainvoke(query, config, **kwargs)

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,  # noqa: ARG002 - the base class passes it
        k: int | None = None,
        chat_history: ChatHistory | None = None,
        **fields: Any,
    ) -> list[Document]:
        history = conversation_from_messages(chat_history, query) if chat_history else None
        request = request_for(query, k or self.k, {**self.request_fields, **fields}, history)
        packet = retrieve(self.source, request)
        return _documents(packet, request.n_results, include_no_match=self.include_no_match)

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,  # noqa: ARG002
        k: int | None = None,
        chat_history: ChatHistory | None = None,
        **fields: Any,
    ) -> list[Document]:
        history = conversation_from_messages(chat_history, query) if chat_history else None
        request = request_for(query, k or self.k, {**self.request_fields, **fields}, history)
        packet = await aretrieve(self.source, request)
        return _documents(packet, request.n_results, include_no_match=self.include_no_match)
