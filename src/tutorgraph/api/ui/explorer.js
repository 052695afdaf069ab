// The packet explorer: one request to POST /v1/retrieve, the packet drawn as plain DOM.
// Everything from the packet is set as text (never as HTML). A `#q=...&key=...` fragment
// fills the form and runs it (the fragment never reaches the server).
"use strict";
const $ = (sel) => document.querySelector(sel);
const COLORS = ["#3b6fd1", "#2f8f5b", "#a05bc4", "#c4552b", "#d19a3b", "#2b8fc4", "#777", "#c43b6f"];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function request() {
  const body = { query: $("#query").value, debug: true, fusion: $("#fusion").value };
  const answer = $("#student_answer").value.trim();
  if (answer) body.student_answer = answer;
  if ($("#profile").value) body.retrieval_profile = $("#profile").value;
  if ($("#use_weight").checked) body.semantic_weight = Number($("#semantic_weight").value);
  if ($("#rerank").value) body.rerank = $("#rerank").value === "true";
  body.sources = [...document.querySelectorAll("input[name=source]:checked")].map((i) => i.value);
  return body;
}

function renderHits(list, hits) {
  list.replaceChildren();
  for (const hit of hits) {
    const head = el("div", { class: "hit-head" },
      el("span", { class: "kind" }, hit.kind), el("span", { class: "hid" }, hit.id));
    for (const source of hit.found_by) head.append(el("span", { class: `badge ${source}` }, source));
    head.append(el("span", { class: "score" }, `score ${hit.score.toFixed(4)}`));
    const item = el("li", { class: "hit", "data-id": hit.id }, head);
    if (hit.title) item.append(el("div", { class: "title" }, hit.title));
    item.append(el("p", { class: "text" }, hit.text.length > 300 ? hit.text.slice(0, 299) + "…" : hit.text));
    list.append(item);
  }
}

function renderVerdict(packet) {
  // What an app acts on first: "I'm not sure", or how sure each slot is.
  const box = $("#verdict");
  box.replaceChildren();
  box.className = packet.no_match ? "unsure" : "";
  if (packet.no_match) {
    box.append(el("p", {}, `Not sure: ${packet.no_match_reason}`));
    return;
  }
  if (packet.confidence === null) {
    box.append(el("p", {}, `No confidence: ${packet.scope.reason || "no scope model"}`));
    return;
  }
  const pct = (v) => `${Math.round(100 * v)}%`;
  const slots = packet.slots;
  const parts = [`first concept right ${pct(packet.confidence)}`];
  if (slots.teach.confidence !== null) parts.push(`teaching on target ${pct(slots.teach.confidence)}`);
  if (slots.misconceptions.confidence !== null) parts.push(`misconception found ${pct(slots.misconceptions.confidence)}`);
  box.append(el("p", {}, `Confidence: ${parts.join(", ")} (in scope ${pct(packet.scope.in_scope)})`));
}

function renderDiagnosis(packet) {
  const box = $("#diagnosis");
  box.replaceChildren();
  const check = packet.answer_check;
  if (!check) {
    box.append(el("p", {}, "No problem and answer were read."));
    return;
  }
  if (check.missing.length) {
    box.append(el("p", {}, `Not diagnosed: the message gives no ${check.missing.join(" and no ")}.`));
    return;
  }
  box.append(el("p", {}, `${check.problem}: the student answered ${check.student_answer} ` +
    `(${check.correct ? "correct" : `incorrect; the answer is ${check.correct_answer}`})`));
  for (const f of packet.diagnosis) {
    box.append(el("div", { class: "finding" }, `${f.misconception_id}: ${f.explanation}`));
  }
}

function renderConcepts(packet) {
  // Each linked concept with its taxonomy, name and description; the first of each
  // taxonomy with its prerequisite chain (foundations first), by name.
  const list = $("#concepts");
  list.replaceChildren();
  if (!packet.concepts.length) {
    list.append(el("li", {}, "No concept was linked."));
    return;
  }
  const shown = {};
  for (const c of packet.concepts) {
    // The first five of each taxonomy; the packet holds ten.
    shown[c.taxonomy] = (shown[c.taxonomy] || 0) + 1;
    if (shown[c.taxonomy] > 5) continue;
    const score = c.evidence.caller ? "yours" : `score ${c.score.toFixed(3)}`;
    const item = el("li", { class: "concept", "data-id": c.id },
      el("span", { class: "badge" }, c.taxonomy), " ", el("b", {}, c.name), ` (${score})`);
    if (c.description) item.append(el("div", { class: "text" }, c.description));
    if (c.prerequisites.length) {
      const chain = el("ol", { class: "chain" });
      for (const p of c.prerequisites) {
        chain.append(el("li", { "data-id": p.id, title: p.description },
          `${p.name}${p.description ? ": " + p.description.slice(0, 90) : ""} ` +
          (p.relation === "aligned_with" ? "(the standard it teaches)" : `(${p.depth} back)`)));
      }
      item.append(el("div", { class: "title" }, "builds on"), chain);
    }
    list.append(item);
  }
}

function renderGraph(packet) {
  // Each prerequisite path left to right, the concept itself at the right.
  const paths = packet.graph_context.prerequisites.slice(0, 6);
  const box = $("#graph");
  box.replaceChildren();
  if (!paths.length) {
    box.append(el("p", {}, "No prerequisite chain for this request."));
    return;
  }
  const depth = Math.max(...paths.map((p) => p.length));
  const width = 220 * depth + 40, height = 44 * paths.length + 20;
  const root = svg("svg", { width, height, id: "chain", viewBox: `0 0 ${width} ${height}` });
  paths.forEach((path, row) => {
    const y = 24 + row * 44;
    const xs = path.map((_, i) => 20 + 220 * (depth - path.length + i));
    for (let i = 1; i < path.length; i++) {
      root.append(svg("line", { x1: xs[i - 1], y1: y, x2: xs[i], y2: y }));
    }
    path.forEach((id, i) => {
      root.append(svg("circle", { cx: xs[i], cy: y, r: 6, "data-id": id }));
      const label = svg("text", { x: xs[i] + 9, y: y - 8 });
      label.textContent = id;
      root.append(label);
    });
  });
  box.append(root);
}

function renderTimings(packet) {
  const stages = Object.entries(packet.timings_ms).filter(([s, ms]) => s !== "total" && ms > 0);
  const sum = stages.reduce((a, [, ms]) => a + ms, 0) || 1;
  const bar = el("div", { class: "bar", id: "timing-bar" });
  stages.forEach(([stage, ms], i) => {
    const seg = el("div", { class: "seg", "data-stage": stage, title: `${stage} ${ms.toFixed(1)} ms`,
      style: `width:${(100 * ms) / sum}%;background:${COLORS[i % COLORS.length]}` }, `${stage} ${ms.toFixed(1)}`);
    bar.append(seg);
  });
  $("#timings").replaceChildren(bar, el("p", {}, `total ${packet.timings_ms.total.toFixed(1)} ms`));
}

async function run(event) {
  if (event) event.preventDefault();
  const status = $("#status");
  status.className = "";
  status.textContent = "retrieving…";
  const key = $("#key").value;
  const headers = { "Content-Type": "application/json" };
  if (key) headers["X-API-Key"] = key;
  try {
    const response = await fetch("/v1/retrieve", { method: "POST", headers, body: JSON.stringify(request()) });
    const data = await response.json();
    if (!response.ok) throw new Error(`${response.status} ${data.error ? data.error.message : ""}`);
    renderVerdict(data);
    renderHits($("#hits"), data.results);
    renderHits($("#lessons"), data.lessons);
    renderConcepts(data);
    renderDiagnosis(data);
    renderGraph(data);
    renderTimings(data);
    $("#debug").textContent = JSON.stringify(data.debug, null, 2);
    $("#packet").hidden = false;
    const degraded = data.degraded_sources.length ? `; degraded: ${data.degraded_sources.join(", ")}` : "";
    status.textContent = `${data.results.length} hits${degraded}`;
  } catch (err) {
    status.className = "error";
    status.textContent = `failed: ${err.message}`;
  }
}

$("#controls").addEventListener("submit", run);
$("#semantic_weight").addEventListener("input", () => {
  $("#use_weight").checked = true;
  $("#weight_value").textContent = $("#semantic_weight").value;
});
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get("key")) $("#key").value = fragment.get("key");
if (fragment.get("student_answer")) $("#student_answer").value = fragment.get("student_answer");
if (fragment.get("q")) {
  $("#query").value = fragment.get("q");
  run();
}
