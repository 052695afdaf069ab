// The packet explorer, for a teacher first: one request to POST /v1/retrieve, the packet drawn
// as plain DOM. Everything from the packet is set as text (el() appends strings as text
// nodes; nothing is ever assigned to innerHTML). Concepts are shown by name (a Common Core
// standard, whose name is its code, by its statement with the code beside it); an id only
// ever appears small, in a <code class="cid"> or a title attribute.
//
// `/ui?q=...&grade=4&student_answer=...` fills the form and runs it; so does the fragment
// form `/ui#q=...&key=...` (the API key is read from the fragment only, which never reaches
// the server or its logs). `turns=` (JSON: [{"role": "tutor", "text": "..."}, ...]) fills the
// earlier turns of the dialogue, sent as the request's `conversation`.
"use strict";
const $ = (sel) => document.querySelector(sel);
const COLORS = ["#3b6fd1", "#2f8f5b", "#a05bc4", "#c4552b", "#b07a12", "#2b8fc4", "#666", "#c43b6f"];
const TAXONOMIES = { "common-core": "Common Core", eedi: "Eedi", openstax: "OpenStax" };
const TAXONOMY_ORDER = ["common-core", "eedi", "openstax"];
const KINDS = {
  concept: "Concept", misconception: "Misconception", explanation: "Explanation",
  worked_example: "Worked example", exercise: "Exercise", question: "Quiz question",
};
const SHOWN_PER_TAXONOMY = 5;
const ROLES = { tutor: "Tutor", student: "Student" };
const MAX_TURNS = 50; // the request's limit (a 51st turn is a 422)

// The earlier turns the teacher added (oldest first), and those the last request sent.
const turns = [];
let sentTurns = [];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    // Styles through the CSSOM: the page's Content-Security-Policy (style-src 'self')
    // refuses a style attribute, but not this.
    if (k === "style") {
      for (const rule of String(v).split(";")) {
        const at = rule.indexOf(":");
        if (at > 0) node.style.setProperty(rule.slice(0, at).trim(), rule.slice(at + 1).trim());
      }
    } else {
      node.setAttribute(k, v);
    }
  }
  for (const c of children) {
    if (c !== null && c !== undefined && c !== "") node.append(c);
  }
  return node;
}

function shorten(text, n) {
  const t = (text || "").replace(/\s+/g, " ").trim();
  return t.length > n ? t.slice(0, n - 1).trimEnd() + "…" : t;
}

const pct = (v) => `${Math.round(100 * v)}%`;

// -- names, not ids ------------------------------------------------------------------------

function taxonomyOf(id) {
  if (id.startsWith("ccss:") || id.startsWith("lc:")) return "common-core";
  if (id.startsWith("eedi:")) return "eedi";
  if (id.startsWith("openstax:")) return "openstax";
  if (id.startsWith("generated:")) return "generated";
  return "local";
}

function taxonomyLabel(taxonomy) {
  return TAXONOMIES[taxonomy] || (taxonomy ? taxonomy[0].toUpperCase() + taxonomy.slice(1) : "Other");
}

function taxonomyChip(taxonomy) {
  const known = TAXONOMIES[taxonomy] ? taxonomy : "other";
  return el("span", { class: `tax tax-${known}`, "data-taxonomy": taxonomy }, taxonomyLabel(taxonomy));
}

// What a concept is called: its name; a Common Core standard (named by its code) by its
// statement, the code kept as `code`. Never the id.
function conceptLabel(c, n = 110) {
  const code = c.id.startsWith("ccss:") ? c.id.slice(5) : null;
  if (code && (!c.name || c.name === code)) {
    return { text: shorten(c.description, n) || `Standard ${code}`, code };
  }
  const name = c.name && c.name !== c.id ? c.name : shorten(c.description, n);
  return { text: name || "(unnamed concept)", code };
}

function conceptName(c, n) {
  const label = conceptLabel(c, n);
  const node = el("span", { class: "cname", title: `${c.id}${c.description ? "\n" + c.description : ""}` },
    label.text);
  return label.code ? [el("code", { class: "code" }, label.code), " ", node] : [node];
}

// -- the request ---------------------------------------------------------------------------

function request() {
  const body = { query: $("#query").value, debug: true, fusion: $("#fusion").value };
  const answer = $("#student_answer").value.trim();
  if (answer) body.student_answer = answer;
  if ($("#grade").value) body.grade = $("#grade").value;
  if ($("#profile").value) body.retrieval_profile = $("#profile").value;
  if ($("#use_weight").checked) body.semantic_weight = Number($("#semantic_weight").value);
  if ($("#rerank").value) body.rerank = $("#rerank").value === "true";
  body.sources = [...document.querySelectorAll("input[name=source]:checked")].map((i) => i.value);
  if (turns.length) body.conversation = turns.map((t) => ({ role: t.role, text: t.text }));
  return body;
}

// -- the earlier turns (a small chat box) ----------------------------------------------------

function renderTurns() {
  const list = $("#turns");
  list.replaceChildren();
  turns.forEach((t, i) => {
    const remove = el("button", { type: "button", class: "remove", "aria-label": `remove turn ${i}` }, "remove");
    remove.addEventListener("click", () => {
      turns.splice(i, 1);
      renderTurns();
    });
    list.append(el("li", { class: `turn ${t.role}`, "data-role": t.role },
      el("span", { class: "role" }, ROLES[t.role]), el("span", { class: "said" }, shorten(t.text, 160)), remove));
  });
  $("#add_turn").disabled = turns.length >= MAX_TURNS;
}

function addTurn(role, text) {
  const said = (text || "").trim();
  if (!ROLES[role] || !said || turns.length >= MAX_TURNS) return false;
  turns.push({ role, text: said.slice(0, 2000) });
  return true;
}

function addTypedTurn() {
  if (addTurn($("#turn_role").value, $("#turn_text").value)) {
    $("#turn_text").value = "";
    // The next turn is most often the other speaker's.
    $("#turn_role").value = $("#turn_role").value === "tutor" ? "student" : "tutor";
    renderTurns();
  }
}

// `turns=` in the URL: a JSON list of {role, text}; anything else in it is ignored.
function turnsFromUrl(raw) {
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return;
  }
  if (!Array.isArray(parsed)) return;
  for (const t of parsed) {
    if (t && typeof t.text === "string") addTurn(t.role, t.text);
  }
  renderTurns();
}

// -- the verdict: how sure, or "I'm not sure" ----------------------------------------------

function meter(label, value, note) {
  const word = value >= 0.7 ? "likely" : value >= 0.4 ? "possible" : "unsure";
  return el("div", { class: `meter ${word}`, "data-confidence": value.toFixed(3) },
    el("span", { class: "meter-label" }, label),
    el("span", { class: "meter-bar" }, el("span", { class: "meter-fill", style: `width:${pct(value)}` })),
    el("span", { class: "meter-value" }, `${pct(value)} · ${word}`),
    note ? el("span", { class: "meter-note" }, note) : null);
}

function renderVerdict(packet) {
  const box = $("#verdict");
  box.replaceChildren();
  box.className = packet.no_match ? "unsure" : "sure";
  $("#packet").classList.toggle("no-match", packet.no_match);
  if (packet.no_match) {
    // "off_topic: the message does not read as ... (in_scope 0.00 < 0.32)": the code and the
    // figures are kept, small; the sentence is the text.
    const reason = packet.no_match_reason || "";
    const split = reason.match(/^([a-z_]+): (.*?)(?: \(([^)]*)\))?$/);
    const why = split ? split[2] : reason;
    box.append(
      el("p", { class: "headline" }, "I'm not sure."),
      why ? el("p", {}, `${why[0].toUpperCase()}${why.slice(1)}.`) : null,
      split ? el("p", { class: "note" }, el("code", { class: "cid" }, split[1]), split[3] ? ` ${split[3]}` : "") : null,
      el("p", { class: "note" }, "What the search found anyway is below: treat it with care."));
    return;
  }
  if (packet.confidence == null) {
    box.append(el("p", { class: "headline" }, "No confidence estimate"),
      el("p", { class: "note" }, packet.scope.reason || "the server has no scope model"));
    return;
  }
  const slots = packet.slots;
  box.append(el("p", { class: "headline" }, "How sure the lookup is"));
  const meters = el("div", { class: "meters" },
    meter("Topic", packet.confidence, "the first Common Core standard is the right one"));
  if (slots.teach.confidence != null) meters.append(meter("What to teach", slots.teach.confidence, "the lessons are on target"));
  if (slots.misconceptions.confidence != null) {
    meters.append(meter("Misconception", slots.misconceptions.confidence, "one of them is the student's"));
  }
  if (slots.practice.confidence != null) meters.append(meter("Practice", slots.practice.confidence, ""));
  box.append(meters);
}

function renderNotes(packet) {
  const box = $("#context-notes");
  box.replaceChildren();
  const grade = packet.grade || {};
  if (grade.source === "request" && grade.grade) {
    const name = grade.grade === "K" ? "Kindergarten" : grade.grade === "HS" ? "High school" : `Grade ${grade.grade}`;
    box.append(el("p", { class: "grade" }, `${name} (as given), band ${grade.band}: used to prefer standards of that grade.`));
  } else if (grade.source === "inferred" && grade.band) {
    const sure = grade.probability === null || grade.probability === undefined ? "" : ` (${pct(grade.probability)} sure)`;
    box.append(el("p", { class: "grade" }, `Grade band ${grade.band}, read from the message${sure}. Choose a grade above to set it.`));
  }
  const language = packet.language || {};
  if (language.english === false) {
    const detected = language.detected ? ` (read as "${language.detected}")` : "";
    box.append(el("p", { class: "language" },
      `Only English is supported${detected}. ${language.note || ""}`.trim()));
  }
}

// -- the dialogue: what the packet read from the earlier turns -----------------------------

const TOPIC_WORDS = {
  new: "new: the earlier turns had no topic yet",
  carried: "carried: this message keeps the session's standard",
  changed: "changed: this message moves on from the session's standard",
};

// "turn 0 (the tutor's)" or "this message (turn 2)".
function turnName(n, count) {
  if (n === count) return `this message (turn ${n})`;
  const t = sentTurns[n];
  return t ? `turn ${n} (the ${t.role}'s)` : `turn ${n}`;
}

function renderDialogue(packet) {
  const box = $("#dialogue");
  box.replaceChildren();
  const d = packet.dialogue;
  $("#dialogue-box").hidden = !d;
  if (!d) return;
  const count = d.turns;
  // The earlier turns as sent, numbered, the ones the facts came from tagged.
  const list = el("ol", { class: "turns", start: "0" });
  sentTurns.forEach((t, n) => {
    const item = el("li", { class: `turn ${t.role}`, "data-turn": String(n) },
      el("span", { class: "role" }, ROLES[t.role]), el("span", { class: "said" }, shorten(t.text, 200)));
    if (n === d.problem_turn) item.append(el("span", { class: "tag problem" }, "the problem"));
    if (n === d.student_answer_turn) item.append(el("span", { class: "tag answer" }, "the student's answer"));
    list.append(item);
  });
  const current = el("li", { class: "turn student current", "data-turn": String(count) },
    el("span", { class: "role" }, "Student"), el("span", { class: "said" }, shorten(packet.query, 200)),
    el("span", { class: "tag" }, "this message"));
  if (count === d.problem_turn) current.append(el("span", { class: "tag problem" }, "the problem"));
  if (count === d.student_answer_turn) current.append(el("span", { class: "tag answer" }, "the student's answer"));
  list.append(current);
  box.append(el("p", { class: "note" }, `${count} earlier turn${count === 1 ? "" : "s"} read.`), list);
  const fact = (name, ...text) => box.append(el("p", { class: `fact ${name}`, "data-fact": name }, ...text));
  if (d.chit_chat) {
    fact("chit-chat", el("b", {}, "Chit-chat: "), "a social remark, a request to stop or off topic; steer back to the topic.");
  }
  if (d.help_request) fact("help-request", el("b", {}, "A request for help: "), "not an answer to check.");
  if (d.problem) {
    fact("problem", el("b", {}, "Problem: "), d.problem,
      d.problem_turn === null || d.problem_turn === undefined ? "" : `, from ${turnName(d.problem_turn, count)}`);
  } else {
    fact("problem", el("b", {}, "Problem: "), "none read from the dialogue.");
  }
  if (d.student_answer_turn !== null && d.student_answer_turn !== undefined) {
    const check = packet.answer_check;
    const said = check && check.student_answer ? `${check.student_answer}, ` : "";
    fact("answer", el("b", {}, "The student's answer: "), `${said}from ${turnName(d.student_answer_turn, count)}`);
  } else {
    fact("answer", el("b", {}, "The student's answer: "), "none in this message.");
  }
  const standard = d.topic_standard ? d.topic_standard.replace(/^ccss:/, "") : null;
  const topic = el("p", { class: "fact topic", "data-fact": "topic", "data-topic": d.topic },
    el("b", {}, "Topic: "), TOPIC_WORDS[d.topic] || d.topic);
  if (standard) topic.append(" ", el("code", { class: "code" }, standard), el("span", { class: "note" }, " (the session's standard before this message)"));
  box.append(topic);
}

// -- concepts and their chains (one source: each concept's `prerequisites`) -----------------

function grouped(concepts) {
  const groups = new Map();
  for (const c of concepts) {
    if (!groups.has(c.taxonomy)) groups.set(c.taxonomy, []);
    groups.get(c.taxonomy).push(c);
  }
  const order = [...TAXONOMY_ORDER.filter((t) => groups.has(t)), ...[...groups.keys()].filter((t) => !TAXONOMY_ORDER.includes(t))];
  return order.map((t) => [t, groups.get(t)]);
}

function conceptItem(c) {
  const score = c.evidence && c.evidence.caller ? "given by the app" : typeof c.score !== "number" ? "" : `match ${c.score.toFixed(2)}`;
  const item = el("li", { class: "concept", "data-id": c.id, "data-prerequisites": String(c.prerequisites.length) },
    ...conceptName(c, 140), score ? el("span", { class: "score" }, ` ${score}`) : null);
  if (c.prerequisites.length) {
    const n = c.prerequisites.length;
    item.append(el("div", { class: "builds-on" },
      el("a", { href: `#chain-${c.taxonomy}` }, `builds on ${n} earlier concept${n === 1 ? "" : "s"}: see the chain below`)));
  }
  return item;
}

function renderConcepts(packet) {
  const box = $("#concepts");
  box.replaceChildren();
  if (!packet.concepts.length) {
    box.append(el("p", { class: "empty" }, "No concept was linked to this message."));
    return;
  }
  const cards = el("div", { class: "cards" });
  for (const [taxonomy, concepts] of grouped(packet.concepts)) {
    const head = el("h3", {}, taxonomyChip(taxonomy));
    if (taxonomy === "common-core" && packet.slots.concepts_confidence !== null && packet.slots.concepts_confidence !== undefined) {
      head.append(el("span", { class: "score" }, ` first one right: ${pct(packet.slots.concepts_confidence)}`));
    }
    const list = el("ol", { class: "concepts" });
    concepts.slice(0, SHOWN_PER_TAXONOMY).forEach((c) => list.append(conceptItem(c)));
    const card = el("div", { class: "card", "data-taxonomy": taxonomy }, head, list);
    if (concepts.length > SHOWN_PER_TAXONOMY) {
      const more = el("ol", { class: "concepts", start: String(SHOWN_PER_TAXONOMY + 1) });
      concepts.slice(SHOWN_PER_TAXONOMY).forEach((c) => more.append(conceptItem(c)));
      card.append(el("details", {}, el("summary", {}, `${concepts.length - SHOWN_PER_TAXONOMY} more`), more));
    }
    cards.append(card);
  }
  box.append(cards);
}

function stepsBack(depth) {
  return depth === 1 ? "just before" : `${depth} steps before`;
}

function chainStep(step) {
  const node = el("li", { class: "step", "data-id": step.id, "data-depth": String(step.depth),
    "data-relation": step.relation }, ...conceptName(step, 90));
  if (step.relation === "aligned_with") node.append(el("span", { class: "tag" }, "the standard it teaches"));
  if (taxonomyOf(step.id) !== "local") node.prepend(taxonomyChip(taxonomyOf(step.id)), " ");
  return node;
}

function renderChains(packet) {
  // One chain per concept that carries prerequisites (the first of each curriculum): its
  // steps in columns by how many edges back they are, foundations first, the concept last.
  const box = $("#chains");
  box.replaceChildren();
  const leads = packet.concepts.filter((c) => c.prerequisites.length);
  if (!leads.length) {
    const linked = packet.concepts.length ? "None of the linked concepts has a prerequisite in the curriculum graph." : "No concept was linked, so there is no chain.";
    box.append(el("p", { class: "empty" }, linked));
    return;
  }
  for (const c of leads) {
    const depth = Math.max(...c.prerequisites.map((s) => s.depth));
    const cols = el("ol", { class: "chain-cols" });
    for (let d = depth; d >= 1; d--) {
      const steps = c.prerequisites.filter((s) => s.depth === d);
      if (!steps.length) continue;
      cols.append(el("li", { class: "col", "data-depth": String(d) },
        el("h4", {}, stepsBack(d)), el("ul", {}, ...steps.map(chainStep))));
    }
    const target = el("li", { class: "step target", "data-id": c.id }, taxonomyChip(c.taxonomy), " ", ...conceptName(c, 90));
    cols.append(el("li", { class: "col target" }, el("h4", {}, "this concept"), el("ul", {}, target)));
    box.append(el("div", { class: "chain", id: `chain-${c.taxonomy}`, "data-for": c.id,
      "data-steps": String(c.prerequisites.length) },
    el("h3", {}, taxonomyChip(c.taxonomy), " ", ...conceptName(c, 140),
      el("span", { class: "score" }, ` builds on ${c.prerequisites.length}`)), cols));
  }
}

// -- the student's answer -------------------------------------------------------------------

function misconceptionNames(packet) {
  const names = new Map();
  for (const h of [...packet.slots.misconceptions.hits, ...packet.results]) {
    if (h.kind === "misconception") names.set(h.id, h.title || h.text);
  }
  for (const m of packet.graph_context.misconceptions || []) {
    if (m.id && (m.name || m.text)) names.set(m.id, m.name || m.text);
  }
  return names;
}

function renderDiagnosis(packet) {
  const box = $("#diagnosis");
  box.replaceChildren();
  const check = packet.answer_check;
  // Shown only when the message is about an answer (a problem, a student's answer or both).
  $("#diagnosis-box").hidden = !check;
  if (!check) return;
  if (check.missing.length) {
    box.append(el("p", { class: "empty" }, `Not checked: the message gives no ${check.missing.join(" and no ")}.`));
    return;
  }
  const verdict = check.correct ? el("b", { class: "right" }, "correct") : el("b", { class: "wrong" }, "not correct");
  const p = el("p", {}, `${check.problem}: the student answered ${check.student_answer}, which is `, verdict);
  if (!check.correct && check.correct_answer) p.append(` (the answer is ${check.correct_answer})`);
  box.append(p);
  const names = misconceptionNames(packet);
  for (const f of packet.diagnosis) {
    const name = names.get(f.misconception_id);
    box.append(el("div", { class: "finding", "data-id": f.misconception_id },
      el("div", { class: "finding-name", title: f.misconception_id }, name ? `Likely misconception: ${name}` : "Likely misconception"),
      el("div", {}, f.explanation)));
  }
}

// -- the slots ------------------------------------------------------------------------------

// What a misconception in the slot claims, its own claim only (issue 62): the slot makes none.
function roleTag(hit, diagnosed) {
  if (hit.role === "reproduces_answer" || (!hit.role && diagnosed)) {
    return el("span", { class: "tag diagnosed" }, "reproduces the student's answer");
  }
  if (hit.role === "possible") {
    const sure = hit.confidence !== null && hit.confidence !== undefined ? `, ${pct(hit.confidence)} likely` : "";
    return el("span", { class: "tag possible" }, `possible${sure}: does not reproduce the answer`);
  }
  if (hit.role === "topic_error") return el("span", { class: "tag topic" }, "a common error of the topic");
  return null;
}

// Where a slot's hit came from: the linked standard's content, or the message's nearest.
function viaTag(hit) {
  if (hit.via === "standard" && hit.standard) return el("span", { class: "tag via" }, `from ${hit.standard.replace(/^ccss:/, "")}`);
  if (hit.via === "message") return el("span", { class: "tag via" }, "near the message");
  return null;
}

function hitCard(hit, diagnosed) {
  const heading = hit.kind === "misconception" ? (hit.title || hit.text) : (hit.title || KINDS[hit.kind] || hit.kind);
  const item = el("li", { class: `hit-card kind-${hit.kind}`, "data-id": hit.id },
    el("div", { class: "hit-head" }, taxonomyChip(taxonomyOf(hit.id)), " ",
      el("span", { class: "kind" }, KINDS[hit.kind] || hit.kind),
      roleTag(hit, diagnosed), viaTag(hit),
      hit.grade ? el("span", { class: "tag grade" }, hit.grade === "K" ? "kindergarten" : hit.grade === "HS" ? "high school" : `grade ${hit.grade}`) : null,
      hit.generated ? el("span", { class: "tag generated" }, "made for this question") : null),
    el("div", { class: "hit-title" }, heading));
  if (hit.kind !== "misconception") item.append(el("p", { class: "text", title: shorten(hit.text, 1200) }, shorten(hit.text, 320)));
  if (hit.generated && hit.answer != null) item.append(el("p", { class: "answer", title: hit.steps.join(" ") }, `Answer: ${hit.answer}`));
  item.append(el("code", { class: "cid" }, hit.id));
  return item;
}

function renderSlot(box, slot, packet, intro) {
  box.replaceChildren();
  const head = el("p", { class: "slot-head" });
  if (slot.confidence !== null && slot.confidence !== undefined) head.append(el("span", { class: "conf" }, `${pct(slot.confidence)} sure`), " ");
  if (intro) head.append(intro);
  if (head.childNodes.length) box.append(head);
  if (slot.note) box.append(el("p", { class: "slot-note" }, `Note: ${slot.note}.`));
  if (!slot.hits.length) {
    box.append(el("p", { class: "empty" }, slot.empty_reason ? `Nothing here: ${slot.empty_reason}.` : "Nothing found."));
    return;
  }
  const diagnosed = new Set(packet.diagnosis.map((f) => f.misconception_id));
  box.append(el("ol", { class: "hit-cards" }, ...slot.hits.map((h) => hitCard(h, diagnosed.has(h.id)))));
}

function renderSlots(packet) {
  const s = packet.slots;
  renderSlot($("#slot-teach"), s.teach, packet, "Explanations and worked examples of the standards the message is about.");
  const stated = s.misconceptions.stated_answer;
  // No claim for the whole slot: each card says what it claims (its role and confidence).
  renderSlot($("#slot-misconceptions"), s.misconceptions, packet,
    stated === true ? "The student gave an answer: each card says whether it reproduces it." :
      stated === false ? "The student gave no answer to explain: these are common errors of the topic." : "");
  renderSlot($("#slot-practice"), s.practice, packet, "Exercises and quiz questions on the same standards.");
}

// -- for developers -------------------------------------------------------------------------

function renderHits(list, hits) {
  list.replaceChildren();
  for (const hit of hits) {
    const head = el("div", { class: "hit-head" }, taxonomyChip(taxonomyOf(hit.id)), " ",
      el("span", { class: "kind" }, KINDS[hit.kind] || hit.kind));
    for (const source of hit.found_by) head.append(el("span", { class: `badge ${source}` }, source));
    head.append(el("span", { class: "score" }, `score ${hit.score.toFixed(4)}`), el("code", { class: "cid" }, hit.id));
    const item = el("li", { class: "hit", "data-id": hit.id }, head);
    if (hit.title) item.append(el("div", { class: "hit-title" }, hit.title));
    item.append(el("p", { class: "text" }, shorten(hit.text, 300)));
    list.append(item);
  }
}

function renderTimings(packet) {
  const stages = Object.entries(packet.timings_ms).filter(([s, ms]) => s !== "total" && ms > 0);
  const sum = stages.reduce((a, [, ms]) => a + ms, 0) || 1;
  const bar = el("div", { class: "bar", id: "timing-bar" });
  stages.forEach(([stage, ms], i) => {
    bar.append(el("div", { class: "seg", "data-stage": stage, title: `${stage} ${ms.toFixed(1)} ms`,
      style: `width:${(100 * ms) / sum}%;background:${COLORS[i % COLORS.length]}` }, `${stage} ${ms.toFixed(1)}`));
  });
  $("#timings").replaceChildren(bar, el("p", {}, `total ${packet.timings_ms.total.toFixed(1)} ms`));
}

// -- running a query ------------------------------------------------------------------------

async function run(event) {
  if (event) event.preventDefault();
  const status = $("#status");
  status.className = "";
  status.textContent = "looking it up…";
  const key = $("#key").value;
  const headers = { "Content-Type": "application/json" };
  if (key) headers["X-API-Key"] = key;
  try {
    const body = request();
    sentTurns = (body.conversation || []).slice();
    const response = await fetch("/v1/retrieve", { method: "POST", headers, body: JSON.stringify(body) });
    const data = await response.json();
    if (response.status === 401) {
      $("#advanced").open = true;
      throw new Error("this server needs an API key: enter it under Developer options");
    }
    if (!response.ok) throw new Error(`${response.status} ${data.error ? data.error.message : ""}`);
    renderVerdict(data);
    renderNotes(data);
    renderDialogue(data);
    renderConcepts(data);
    renderChains(data);
    renderDiagnosis(data);
    renderSlots(data);
    renderHits($("#hits"), data.results);
    renderHits($("#lessons"), data.lessons);
    renderTimings(data);
    $("#debug").textContent = JSON.stringify(data.debug, null, 2);
    $("#packet").hidden = false;
    const why = data.degraded_reasons || {};
    const named = data.degraded_sources.map((s) => (why[s] ? `${s} (${why[s]})` : s));
    const stages = Object.values(data.degraded_stages || {});
    const degraded =
      (named.length ? `; some sources did not answer: ${named.join(", ")}` : "") +
      (stages.length ? `; ${stages.join("; ")}` : "");
    status.textContent = `${data.results.length} results in ${Math.round(data.timings_ms.total)} ms${degraded}`;
    document.body.dataset.state = "done";
  } catch (err) {
    status.className = "error";
    status.textContent = `failed: ${err.message}`;
    document.body.dataset.state = "failed";
  }
}

$("#controls").addEventListener("submit", run);
$("#add_turn").addEventListener("click", addTypedTurn);
$("#turn_text").addEventListener("keydown", (event) => {
  // Enter adds the turn; it does not send the form.
  if (event.key === "Enter") {
    event.preventDefault();
    addTypedTurn();
  }
});
$("#semantic_weight").addEventListener("input", () => {
  $("#use_weight").checked = true;
  $("#weight_value").textContent = $("#semantic_weight").value;
});
const search = new URLSearchParams(location.search);
const fragment = new URLSearchParams(location.hash.slice(1));
const param = (name) => fragment.get(name) || search.get(name);
if (fragment.get("key")) $("#key").value = fragment.get("key");
if (param("turns")) turnsFromUrl(param("turns"));
if (param("student_answer")) $("#student_answer").value = param("student_answer");
if (param("grade")) {
  const wanted = param("grade").trim().toUpperCase();
  if ([...$("#grade").options].some((o) => o.value === wanted)) $("#grade").value = wanted;
}
if (param("q")) {
  $("#query").value = param("q");
  run();
}
