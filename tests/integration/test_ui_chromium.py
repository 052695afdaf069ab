"""The packet explorer (`/ui`) as a teacher sees it: the real app served by uvicorn over real
HTTP (the session index: real MiniLM, Chroma, BM25, graph, scope model; API keys on), the page
loaded in headless Chromium with every host but the loopback unresolvable (so nothing may come
from a CDN), and the DOM read after the page's JavaScript drew the packet.

What a new user found wrong, checked on the rendered page: concepts and chain steps are shown
by name, never by a bare id; the curriculum labels are visible text with readable contrast; the
prerequisite chain is drawn from the same concepts the concepts panel lists (never "empty"
under listed prerequisites); the slots, their confidence and "I'm not sure" are shown. And
the page runs under its own strict Content-Security-Policy: the console shows no refusal.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import lxml.html
import pytest
from tests.integration.api_support import ADMIN, settings_for
from tests.integration.local_openai import serving

from tutorgraph.api import create_app

pytestmark = pytest.mark.integration

UI_DIR = Path(__file__).resolve().parents[2] / "src" / "tutorgraph" / "api" / "ui"
# A concept id of any of the data's namespaces: ccss:4.NF.A.1, eedi:construct:415,
# eedi:misconception:2481, openstax:section:m81298, openstax:m81298:chunk:3, lc:<uuid>.
CONCEPT_ID = re.compile(r"\b(?:ccss|eedi|openstax|lc):[\w.-]+(?::[\w.-]+)*")
FRACTIONS = "why is 3/4 bigger than 2/3?"
DECIMALS = "i got 1.2 for 0.6 × 0.2, why is it wrong?"
CHIT_CHAT = "hey can we talk about my weekend instead"


def _chromium() -> str | None:
    names = ("chromium", "chromium-browser", "google-chrome")
    return next((p for p in map(shutil.which, names) if p), None)


CHROMIUM = _chromium()
if CHROMIUM is None:
    pytest.skip(
        "no headless Chromium on PATH (Debian: apt install chromium)", allow_module_level=True
    )


def _c(name: str) -> str:
    """An XPath test: the element has class `name`."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


STEPS = f".//*[{_c('step')} and not({_c('target')})]"
EMPTY_CHAIN = f"//*[@id='chains']/*[{_c('empty')}]"
COLUMNS = f".//li[{_c('col')} and @data-depth]"


# Issue 63: a dialogue of two earlier turns, then the student's message; what the packet's
# `dialogue` block says for each (filled in by `_Recorder` where the engine leaves it null).
TURNS = [
    {"role": "tutor", "text": "Let's practise adding. What is 7 + 6?"},
    {"role": "student", "text": "hmm is it 12"},
]
DIALOGUES: dict[str, dict[str, Any]] = {
    "so is it 13?": {
        "turns": 2, "problem": "7 + 6", "problem_turn": 0, "student_answer_turn": 2,
        "help_request": False, "chit_chat": False, "topic": "carried",
        "topic_standard": "ccss:1.OA.C.6",
    },
    "idk i don't get it": {
        "turns": 2, "problem": "7 + 6", "problem_turn": 0, "student_answer_turn": None,
        "help_request": True, "chit_chat": False, "topic": "carried",
        "topic_standard": "ccss:1.OA.C.6",
    },
    "brb getting a snack": {
        "turns": 2, "problem": None, "problem_turn": None, "student_answer_turn": None,
        "help_request": False, "chit_chat": True, "topic": "new", "topic_standard": None,
    },
}  # fmt: skip


class _Recorder:
    """In front of the served app: records the body of each `POST /v1/retrieve` the page
    sends and the packet it gets; a packet whose request had a `conversation` and whose
    `dialogue` the engine left null gets the block `DIALOGUES` gives its query, so the
    page's rendering of it is checked either way."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.bodies: dict[str, dict[str, Any]] = {}
        self.packets: dict[str, dict[str, Any]] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != "/v1/retrieve":
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        body = json.loads(raw) if raw else {}
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        if not body.get("conversation"):
            await self.app(scope, replay, send)
            return
        self.bodies[body["query"]] = body
        start: dict[str, Any] = {}
        parts: list[bytes] = []

        async def capture(message: Any) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        await self.app(scope, replay, capture)
        out = b"".join(parts)
        if start["status"] == 200:
            packet = json.loads(out)
            if packet.get("dialogue") is None and body["query"] in DIALOGUES:
                packet["dialogue"] = DIALOGUES[body["query"]]
            self.packets[body["query"]] = packet
            out = json.dumps(packet).encode()
        headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(out)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": out})


@dataclass
class Served:
    url: str
    index_dir: Path
    recorder: _Recorder

    def packet(self, body: dict[str, Any]) -> dict[str, Any]:
        """The packet the page asks for, fetched directly (the same request body)."""
        resp = httpx.post(
            f"{self.url}/v1/retrieve", json=body, headers={"X-API-Key": ADMIN}, timeout=120
        )
        assert resp.status_code == 200, resp.text
        packet: dict[str, Any] = resp.json()
        return packet


@pytest.fixture(scope="module")
def served(session_index) -> Iterator[Served]:  # type: ignore[no-untyped-def]
    # Read only (no ingest here): the session index itself, with the shipped defaults but
    # for keys (on, as a deployment has them) and no cross-encoder (faster to start).
    settings = settings_for(session_index[0], reranker_model="", rate_limit_per_minute=2000)
    recorder = _Recorder(create_app(settings))
    with serving(recorder, start_timeout_s=300) as url:
        yield Served(url, session_index[0], recorder)


def _ui_url(base: str, query: dict[str, str], fragment: dict[str, str]) -> str:
    return f"{base}/ui?{urllib.parse.urlencode(query)}#{urllib.parse.urlencode(fragment)}"


def _rendered(url: str, profile: Path) -> lxml.html.HtmlElement:
    """The page's DOM once its scripts ran (virtual time: the budget ends once the fetch is
    answered and the page is idle)."""
    run = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--virtual-time-budget=30000",
        "--window-size=1280,2000",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",  # the console, where a refusal by the page's CSP shows
        "--v=0",
        "--dump-dom",
        url,
    ]
    done = subprocess.run(run, capture_output=True, text=True, timeout=120, check=True)
    # The page works under its own Content-Security-Policy (no inline style or script).
    refusals = [line for line in done.stderr.splitlines() if "Content Security Policy" in line]
    assert not refusals, refusals[:3]
    page = lxml.html.fromstring(done.stdout)
    body = page.find("body")
    assert body is not None and body.get("data-state") == "done", page.get_element_by_id(
        "status"
    ).text_content()
    return page


def _find(node: Any, xpath: str) -> list[Any]:
    found: list[Any] = node.xpath(xpath)
    return found


def _text(node: Any) -> str:
    """The node's text, its pieces joined by single spaces."""
    return " ".join(" ".join(node.itertext()).split())


def _visible_text(node: Any) -> str:
    """The text a reader sees first: without the small `code.cid` id tags the page adds."""
    copy = lxml.html.fromstring(lxml.html.tostring(node))
    for tag in _find(copy, f"//code[{_c('cid')}]"):
        tag.drop_tree()
    return _text(copy)


@dataclass
class Page:
    dom: Any  # the rendered page, parsed by lxml
    packet: dict[str, Any]  # the packet the API returns for the page's request


@pytest.fixture(scope="module")
def pages(served: Served, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Page]:
    """The pages the tests read, rendered side by side: two questions with a grade (the
    question and grade in the URL's query string, the key in its fragment), one of them an
    answer the bug rules diagnose, and chit-chat in the fragment-only form of the README."""
    requests = {
        "fractions": {"query": FRACTIONS, "grade": "6"},
        "decimals": {"query": DECIMALS, "grade": "6"},
        "unsure": {"query": CHIT_CHAT},
    }
    urls = {
        "fractions": _ui_url(served.url, {"q": FRACTIONS, "grade": "6"}, {"key": ADMIN}),
        "decimals": _ui_url(served.url, {"q": DECIMALS, "grade": "6"}, {"key": ADMIN}),
        "unsure": f"{served.url}/ui#{urllib.parse.urlencode({'q': CHIT_CHAT, 'key': ADMIN})}",
    }
    root = tmp_path_factory.mktemp("chromium")
    with ThreadPoolExecutor(len(urls)) as pool:
        doms = {k: pool.submit(_rendered, url, root / k) for k, url in urls.items()}
        return {
            k: Page(doms[k].result(), served.packet({**requests[k], "debug": True})) for k in urls
        }


def _concepts(page: Page) -> list[Any]:
    return _find(page.dom, f"//*[@id='concepts']//li[{_c('concept')}]")


def test_concepts_and_chain_steps_are_named_never_bare_ids(pages: dict[str, Page]) -> None:
    for name, page in pages.items():
        steps = _find(page.dom, f"//*[@id='chains']//*[{_c('step')}]")
        concepts = _concepts(page)
        assert len(concepts) == len(page.packet["concepts"]), name
        for node in [*steps, *concepts]:
            shown = _text(node)
            assert shown and not CONCEPT_ID.search(shown), (name, shown)
            # The id stays on the node, for a developer, but not as its text.
            assert CONCEPT_ID.fullmatch(node.get("data-id")), node.get("data-id")
        # Everything a teacher reads (the developer block aside) names things: an id only
        # ever appears in the small `code.cid` tag beside a hit.
        for section in _find(page.dom, "//main/section"):
            assert not CONCEPT_ID.search(_visible_text(section)), (name, _visible_text(section))
    # A Common Core standard, whose name is its code, is shown by its statement, the code
    # beside it (the slice index chains 6.NS.B.3 for the decimals question in grade 6).
    decimals = pages["decimals"]
    standards = [
        c
        for c in decimals.packet["concepts"]
        if c["taxonomy"] == "common-core" and c["prerequisites"]
    ]
    assert standards, "a Common Core standard of the decimals question has a chain"
    for standard in standards:
        for step in [standard, *standard["prerequisites"]]:
            drawn = _find(
                decimals.dom, f"//*[@id='chains']//*[{_c('step')} and @data-id='{step['id']}']"
            )
            assert drawn, step["id"]
            name = _text(_find(drawn[0], f".//*[{_c('cname')}]")[0])
            code = _text(_find(drawn[0], f".//code[{_c('code')}]")[0])
            assert code == step["id"].removeprefix("ccss:") == step["name"]
            assert name.rstrip("…") and step["description"].startswith(name.rstrip("…"))


def test_the_chain_is_the_concepts_panels_prerequisites(pages: dict[str, Page]) -> None:
    for name, page in pages.items():
        listed = {li.get("data-id"): int(li.get("data-prerequisites")) for li in _concepts(page)}
        chains = {
            c.get("data-for"): c for c in _find(page.dom, f"//*[@id='chains']/*[{_c('chain')}]")
        }
        with_prerequisites = {cid for cid, n in listed.items() if n}
        # One source of truth: a chain for exactly the concepts the panel says build on
        # others, with the steps the packet lists, and no "empty" line beside them.
        assert with_prerequisites, name
        assert set(chains) == with_prerequisites, name
        assert not _find(page.dom, EMPTY_CHAIN), name
        for concept in page.packet["concepts"]:
            assert listed[concept["id"]] == len(concept["prerequisites"]), concept["id"]
            if concept["prerequisites"]:
                chain = chains[concept["id"]]
                drawn = [s.get("data-id") for s in _find(chain, STEPS)]
                assert sorted(drawn) == sorted(s["id"] for s in concept["prerequisites"])
                assert int(chain.get("data-steps")) == len(drawn)
                # Foundations first: the columns go from the most steps back to one.
                depths = [int(col.get("data-depth")) for col in _find(chain, COLUMNS)]
                assert depths == sorted(depths, reverse=True) and depths[-1] == 1


def test_curriculum_labels_are_visible_and_readable(pages: dict[str, Page]) -> None:
    cards = f"//*[@id='concepts']//*[{_c('card')}]/h3/*[{_c('tax')}]"
    for name, page in pages.items():
        labels = [_text(t) for t in _find(page.dom, cards)]
        assert labels == ["Common Core", "Eedi", "OpenStax"], name
        for chip in _find(page.dom, f"//*[{_c('tax')}]"):
            assert re.search(r"\btax-(common-core|eedi|openstax|other)\b", chip.get("class"))
    # Each label's text against its background: WCAG AA (4.5:1) for small text.
    css = (UI_DIR / "explorer.css").read_text()
    for taxonomy in ("common-core", "eedi", "openstax", "other"):
        rule = re.search(rf"\.tax-{taxonomy} \{{([^}}]*)\}}", css)
        assert rule, taxonomy
        fg = re.search(r"(?<!-)color: (#[0-9a-f]{6})", rule.group(1))
        bg = re.search(r"background: (#[0-9a-f]{6})", rule.group(1))
        assert fg and bg, rule.group(1)
        assert _contrast(fg.group(1), bg.group(1)) >= 4.5, (taxonomy, fg.group(1), bg.group(1))


def _contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, bl = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * bl

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_slots_confidence_grade_and_im_not_sure(pages: dict[str, Page]) -> None:
    for name, page in pages.items():
        packet = page.packet
        for slot in ("teach", "misconceptions", "practice"):
            box = page.dom.get_element_by_id(f"slot-{slot}")
            want = packet["slots"][slot]
            cards = _find(box, f".//li[{_c('hit-card')}]")
            assert [c.get("data-id") for c in cards] == [h["id"] for h in want["hits"]], slot
            if want["confidence"] is not None:
                assert f"{round(100 * want['confidence'])}% sure" in _text(box), (name, slot)
            if not want["hits"]:
                assert want["empty_reason"] in _text(box), (name, slot)
    # How sure, on the first question; the grade the URL gave, as the packet reports it.
    fractions = pages["fractions"]
    assert not fractions.packet["no_match"] and fractions.packet["confidence"] is not None
    verdict = fractions.dom.get_element_by_id("verdict")
    assert verdict.get("class") == "sure" and "How sure the lookup is" in _text(verdict)
    topic = _find(verdict, f".//*[{_c('meter')}]")[0]
    assert float(topic.get("data-confidence")) == pytest.approx(
        fractions.packet["confidence"], abs=1e-3
    )
    assert fractions.packet["grade"] == {
        "grade": "6", "band": "6-8", "source": "request", "probability": None
    }  # fmt: skip
    assert "Grade 6 (as given)" in _text(fractions.dom.get_element_by_id("context-notes"))
    # Chit-chat: "I'm not sure", first, in words.
    assert pages["unsure"].packet["no_match"]
    unsure = pages["unsure"].dom.get_element_by_id("verdict")
    assert unsure.get("class") == "unsure"
    assert _text(unsure).startswith("I'm not sure. The message does not read as school math")
    # The developer block keeps the ranked results with how each was found, the lessons,
    # the timings and the debug block.
    dom = fractions.dom
    assert len(_find(dom, f"//*[@id='hits']/li[{_c('hit')}]")) == len(fractions.packet["results"])
    assert len(_find(dom, f"//*[@id='lessons']/li[{_c('hit')}]")) == 4
    for source in ("vector", "graph"):
        assert _find(dom, f"//*[@id='hits']//*[{_c('badge')} and {_c(source)}]"), source
    assert _find(dom, "//*[@id='timing-bar']/*[@data-stage='embed']")
    assert '"query_type":' in _text(dom.get_element_by_id("debug"))


def test_the_students_answer_is_checked_and_its_misconception_named(
    pages: dict[str, Page],
) -> None:
    dom = pages["decimals"].dom
    diagnosis = dom.get_element_by_id("diagnosis-box")
    assert diagnosis.get("hidden") is None
    said = "the student answered 1.2, which is not correct (the answer is 0.12)"
    assert said in _text(diagnosis)
    # The bug rule's misconception (Eedi 2481, in the slice), by name.
    finding = _find(diagnosis, f".//*[{_c('finding')}]")[0]
    assert finding.get("data-id") == "eedi:misconception:2481"
    assert "Likely misconception: When multiplying decimals" in _text(finding)
    card = "//*[@id='slot-misconceptions']//li[@data-id='eedi:misconception:2481']"
    assert _find(dom, f"{card}//*[{_c('diagnosed')}]")
    # No claim covers the whole slot (issue 62): each card carries its own, as its `role`
    # says, and only a reproduced one says it reproduces the answer.
    box = dom.get_element_by_id("slot-misconceptions")
    assert "would explain the answer" not in _text(box)
    tags = {"reproduces_answer": "diagnosed", "possible": "possible", "topic_error": "topic"}
    for hit in pages["decimals"].packet["slots"]["misconceptions"]["hits"]:
        own = f"//*[@id='slot-misconceptions']//li[@data-id='{hit['id']}']"
        assert _find(dom, f"{own}//*[{_c(tags[hit['role']])}]"), hit["id"]
        if hit["role"] != "reproduces_answer":
            assert not _find(dom, f"{own}//*[{_c('diagnosed')}]"), hit["id"]
    # No answer in the message: no answer section at all.
    assert pages["fractions"].dom.get_element_by_id("diagnosis-box").get("hidden") is not None


def test_the_page_sets_no_html_from_the_packet() -> None:
    """Everything from the packet is set as text: the page's script never parses HTML."""
    script = (UI_DIR / "explorer.js").read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in script.replace("nothing is ever assigned to innerHTML", ""), sink
    # And no asset from elsewhere: the page works offline.
    page = (UI_DIR / "index.html").read_text()
    assert not re.search(r"(src|href)=\"(https?:)?//", page)


# -- the dialogue (issue 63) -------------------------------------------------------------------


@pytest.fixture(scope="module")
def dialogue_pages(served: Served, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Three messages, each after the same two earlier turns given in the URL (`turns=`):
    an answer, a request for help and chit-chat."""
    root = tmp_path_factory.mktemp("chromium-dialogue")
    urls = {
        q: _ui_url(served.url, {"q": q, "turns": json.dumps(TURNS)}, {"key": ADMIN})
        for q in DIALOGUES
    }
    with ThreadPoolExecutor(len(urls)) as pool:
        doms = {
            q: pool.submit(_rendered, url, root / str(i)) for i, (q, url) in enumerate(urls.items())
        }
        return {q: doms[q].result() for q in urls}


def _fact(dom: Any, name: str) -> str:
    found = _find(dom, f"//*[@id='dialogue']//*[@data-fact='{name}']")
    return _text(found[0]) if found else ""


def test_the_chat_box_sends_the_earlier_turns_and_the_dialogue_is_shown(
    served: Served, dialogue_pages: dict[str, Any]
) -> None:
    for query, dom in dialogue_pages.items():
        # The request the page sent: the two turns, oldest first, as the conversation.
        sent = served.recorder.bodies[query]
        assert sent["conversation"] == TURNS and sent["query"] == query
        # The chat box lists them, each with who said it, removable.
        listed = _find(dom, "//*[@id='turns']/li")
        assert [li.get("data-role") for li in listed] == ["tutor", "student"]
        assert [_text(li) for li in listed] == [
            "Tutor Let's practise adding. What is 7 + 6? remove",
            "Student hmm is it 12 remove",
        ]
        # The packet's dialogue block, as the page got it.
        d = served.recorder.packets[query]["dialogue"]
        assert dom.get_element_by_id("dialogue-box").get("hidden") is None
        box = dom.get_element_by_id("dialogue")
        assert "2 earlier turns read." in _text(box)
        numbered = _find(box, ".//li[@data-turn]")
        assert [int(li.get("data-turn")) for li in numbered] == [0, 1, 2]
        assert _text(numbered[2]).startswith(f"Student {query} this message")
        for tag, turn in (("problem", d["problem_turn"]), ("answer", d["student_answer_turn"])):
            tagged = [int(li.get("data-turn")) for li in numbered if _find(li, f".//*[{_c(tag)}]")]
            assert tagged == ([] if turn is None else [turn]), (query, tag)
        problem = _fact(dom, "problem")
        if d["problem"] is None:
            assert problem == "Problem: none read from the dialogue."
        else:
            who = (
                "this message (turn 2)"
                if d["problem_turn"] == 2
                else (f"turn {d['problem_turn']} (the {TURNS[d['problem_turn']]['role']}'s)")
            )
            assert problem == f"Problem: {d['problem']}, from {who}"
        answer = _fact(dom, "answer")
        if d["student_answer_turn"] is None:
            assert answer == "The student's answer: none in this message."
        else:
            assert answer.startswith("The student's answer: ")
            assert answer.endswith(f"from turn {d['student_answer_turn']}") or answer.endswith(
                f"(turn {d['student_answer_turn']})"
            )
        topic = _find(box, ".//*[@data-fact='topic']")[0]
        assert topic.get("data-topic") == d["topic"]
        assert _text(topic).startswith(f"Topic: {d['topic']}")
        codes = [_text(c) for c in _find(topic, f".//code[{_c('code')}]")]
        standard = d["topic_standard"]
        assert codes == ([] if standard is None else [standard.removeprefix("ccss:")])
        assert bool(_fact(dom, "help-request")) == d["help_request"], query
        assert bool(_fact(dom, "chit-chat")) == d["chit_chat"], query
    # The answer turn, as the fixed block says it (the engine may read its own).
    answer = dialogue_pages["so is it 13?"]
    if served.recorder.packets["so is it 13?"]["dialogue"] == DIALOGUES["so is it 13?"]:
        assert _fact(answer, "problem") == "Problem: 7 + 6, from turn 0 (the tutor's)"
        assert _fact(answer, "answer").endswith("from this message (turn 2)")
        topic = _fact(answer, "topic")
        assert topic.startswith(
            "Topic: carried: this message keeps the session's standard 1.OA.C.6"
        )


def test_a_page_without_earlier_turns_sends_no_conversation(pages: dict[str, Page]) -> None:
    for name, page in pages.items():
        assert page.dom.get_element_by_id("dialogue-box").get("hidden") is not None, name
        assert not _find(page.dom, "//*[@id='turns']/li"), name
