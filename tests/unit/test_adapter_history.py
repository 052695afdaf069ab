"""The framework adapters take chat history in their frameworks' own shapes (issue 63): a
LangChain message list (as a keyword or a history-aware retriever's input dict) and a
LlamaIndex chat engine's memory become the request's `conversation`, the student's turns
and the tutor's, within the request's limits, so a long chat is never a 422. Real framework
objects (messages, runnables, chat engines with LlamaIndex's mock model); the packet source
is the stand-in for the server of `test_framework_adapters`."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnablePassthrough
from llama_index.core.chat_engine import CondensePlusContextChatEngine, ContextChatEngine
from llama_index.core.llms import ChatMessage, MessageRole
from llama_index.core.llms.mock import MockLLM
from llama_index.core.memory import ChatMemoryBuffer
from tests.unit.test_framework_adapters import _packet, _Source

from tutorgraph_client.integrations.langchain import TutorGraphRetriever as LangChainRetriever
from tutorgraph_client.integrations.llamaindex import TutorGraphRetriever as LlamaRetriever
from tutorgraph_client.integrations.packets import conversation_of
from tutorgraph_client.models.conversation import (
    MAX_CONVERSATION_CHARS,
    MAX_TURN_CHARS,
    MAX_TURNS,
    DialogueInfo,
)

pytestmark = pytest.mark.unit

TUTOR_Q = "What is 7 + 6?"
LC_HISTORY = [
    SystemMessage("You are a patient maths tutor."),
    AIMessage(TUTOR_Q),
    AIMessage("", tool_calls=[{"name": "calc", "args": {"x": "7+6"}, "id": "c1"}]),
    ToolMessage("13", tool_call_id="c1"),
    HumanMessage("is it 12"),
    AIMessage("Not quite. Count on 6 from 7."),
]
TURNS = [("tutor", TUTOR_Q), ("student", "is it 12"), ("tutor", "Not quite. Count on 6 from 7.")]


def _pairs(source: _Source, i: int = -1) -> list[tuple[str, str]]:
    return [(t.role, t.text) for t in source.requests[i].conversation]


def test_langchain_history_as_a_keyword_and_as_the_history_aware_input() -> None:
    source = _Source(_packet())
    retriever = LangChainRetriever(source=source, k=3)
    retriever.invoke("13?", chat_history=LC_HISTORY)
    # The input dict of `create_history_aware_retriever` (what MessagesPlaceholder reads),
    # through a chain, and awaited.
    (RunnablePassthrough() | retriever).invoke({"input": "13?", "chat_history": LC_HISTORY})
    asyncio.run(retriever.ainvoke({"input": "13?", "chat_history": LC_HISTORY}))
    # Message-like tuples, as `convert_to_messages` reads them.
    retriever.invoke("13?", chat_history=[("ai", TUTOR_Q), ("human", "is it 12")])
    assert [r.query for r in source.requests] == ["13?"] * 4
    for i in range(3):
        assert _pairs(source, i) == TURNS  # system, tool and empty messages are not turns
    assert _pairs(source) == TURNS[:2]
    # Without history the request is as before: no conversation.
    retriever.invoke("13?")
    retriever.invoke({"input": "13?", "chat_history": []})
    assert source.requests[-1].conversation == [] and source.requests[-2].conversation == []


def test_langchain_history_and_request_fields_together() -> None:
    source = _Source(_packet())
    retriever = LangChainRetriever(source=source, k=2, request_fields={"grade": "1"})
    docs = retriever.invoke("13?", chat_history=LC_HISTORY, student_answer="13")
    (request,) = source.requests
    assert (request.grade, request.student_answer, request.n_results) == ("1", "13", 2)
    assert len(request.conversation) == 3 and len(docs) == 2
    with pytest.raises(ValueError, match='"input"'):
        retriever.invoke({"question": "13?"})
    with pytest.raises(TypeError, match="not a string"):
        retriever.invoke("13?", chat_history="AI: What is 7 + 6?")


def test_a_long_chat_is_cut_to_the_latest_turns_within_the_limits() -> None:
    long_turn = "intro " * 600 + TUTOR_Q  # over MAX_TURN_CHARS: its end is kept
    history: list[HumanMessage | AIMessage] = []
    for i in range(80):
        history += [AIMessage(f"question {i}"), HumanMessage(f"answer {i}" if i % 7 else "   ")]
    history += [AIMessage(long_turn), HumanMessage("13?")]  # the history already holds the turn
    source = _Source(_packet())
    LangChainRetriever(source=source, k=3).invoke("13?", chat_history=history)
    turns = source.requests[0].conversation
    assert len(turns) == MAX_TURNS and all(t.text for t in turns)
    assert turns[-1].role == "tutor" and turns[-1].text.endswith(TUTOR_Q)  # the repeat dropped
    assert len(turns[-1].text) <= MAX_TURN_CHARS and turns[-1].text.startswith("intro")
    assert turns[-2].text == "answer 79"  # the latest turns, in order
    # Many long turns: the oldest go until the whole fits.
    big = [("student" if i % 2 else "tutor", f"{i} " + "x" * 1500) for i in range(40)]
    kept = conversation_of(big, "ok")  # type: ignore[arg-type]
    assert sum(len(t.text) for t in kept) <= MAX_CONVERSATION_CHARS
    assert kept[-1].text.startswith("39 ") and len(kept) == MAX_CONVERSATION_CHARS // 1503


LLAMA_HISTORY = [
    ChatMessage(role=MessageRole.SYSTEM, content="You are a patient maths tutor."),
    ChatMessage(role=MessageRole.ASSISTANT, content=TUTOR_Q),
    ChatMessage(role=MessageRole.USER, content="is it 12"),
    ChatMessage(role=MessageRole.TOOL, content="13"),
    ChatMessage(role=MessageRole.ASSISTANT, content="Not quite. Count on 6 from 7."),
]


@pytest.mark.parametrize("engine_kind", ["context", "condense_plus_context"])
def test_a_llamaindex_chat_engine_passes_its_history_through_the_memory(
    engine_kind: str,
) -> None:
    source = _Source(_packet())
    memory = ChatMemoryBuffer.from_defaults(token_limit=100_000)
    retriever = LlamaRetriever(source, similarity_top_k=3, memory=memory)
    llm = MockLLM(max_tokens=8)
    engine = (
        ContextChatEngine.from_defaults(retriever, llm=llm, memory=memory)
        if engine_kind == "context"
        else CondensePlusContextChatEngine.from_defaults(
            retriever, llm=llm, memory=memory, skip_condense=True
        )
    )
    # A copy: the memory keeps the list it is given and appends to it.
    engine.chat("13?", chat_history=list(LLAMA_HISTORY))
    assert source.requests[0].query == "13?" and _pairs(source, 0) == TURNS
    # The next turn reads the one before it and the engine's reply, from the same memory.
    reply = engine.chat_history[-1].content
    asyncio.run(engine.achat("so 13"))
    assert source.requests[1].query == "so 13"
    assert _pairs(source, 1) == [*TURNS, ("student", "13?"), ("tutor", reply)]


def test_llamaindex_history_per_call_and_none_without_it() -> None:
    source = _Source(_packet())
    retriever = LlamaRetriever(source, similarity_top_k=3)
    nodes = retriever.retrieve_turn("13?", LLAMA_HISTORY)
    asyncio.run(retriever.aretrieve_turn("13?", LLAMA_HISTORY))
    retriever.retrieve("13?")
    assert len(nodes) == 3 and _pairs(source, 0) == TURNS == _pairs(source, 1)
    assert source.requests[2].conversation == []


def test_the_documents_carry_what_the_packet_read_from_the_dialogue() -> None:
    info = DialogueInfo(turns=3, problem="7 + 6", problem_turn=0, topic="carried")
    source = _Source(_packet().model_copy(update={"dialogue": info}))
    (doc,) = LangChainRetriever(source=source, k=1).invoke("13?", chat_history=LC_HISTORY)
    (node,) = LlamaRetriever(source, similarity_top_k=1).retrieve_turn("13?", LLAMA_HISTORY)
    for meta in (doc.metadata, node.node.metadata):
        assert meta["dialogue"] == info.model_dump()
    (plain,) = LangChainRetriever(source=_Source(_packet()), k=1).invoke("13?")
    assert plain.metadata["dialogue"] is None
