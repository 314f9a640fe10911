// The memory browser: a day's recordings and what each held, people and places, an ask box
// whose answer links to the moments it cites, and uploads with their job's progress. It only
// calls the REST API (with the API key typed above, if the server needs one); text from
// memory is always set as text, never as markup.
"use strict";

const $ = (selector) => document.querySelector(selector);
const ROLL_UPS = new Set(["hour", "day"]);
const PICTURED = new Set(["clip", "text", "sighting", "recording", "visit", "stay"]);

function key() { return localStorage.getItem("memlens-key") || ""; }

async function call(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (key()) headers["X-API-Key"] = key();
  const response = await fetch(path, Object.assign({}, options, { headers }));
  if (!response.ok) {
    let detail = await response.text();
    try { detail = JSON.parse(detail).detail; } catch (_) { /* not JSON: the text itself */ }
    throw new Error(`${response.status}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
  }
  return response.headers.get("content-type") === "image/jpeg" ? response.blob() : response.json();
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function shown(error) { $("#error").textContent = error ? error.message : ""; }

function clock(iso) { return iso.slice(11, 19); }

function picture(videoId, seconds) {
  // <img> cannot send an API key: the frame is fetched, then shown from a blob
  const img = el("img", { alt: `frame at ${Math.round(seconds)} s` });
  call(`/frames/${encodeURIComponent(videoId)}?t=${seconds.toFixed(2)}&width=240`)
    .then((blob) => { img.src = URL.createObjectURL(blob); })
    .catch(() => img.remove());
  return img;
}

function momentRow(m, cited) {
  const row = el("div", { class: "moment" + (cited ? " cited" : ""), "data-id": m.id ?? m.record_id },
    el("time", { datetime: m.wall_start }, clock(m.wall_start)),
    el("span", { class: "kind" }, m.source || m.kind),
    el("span", { class: "text" }, m.speaker && !m.text.startsWith(m.speaker) ? `${m.speaker}: ${m.text}` : m.text));
  if (m.video_id && PICTURED.has(m.kind)) row.append(picture(m.video_id, (m.start + m.end) / 2));
  return row;
}

async function showRecording(videoId, citedId) {
  document.querySelectorAll("#recordings li").forEach((li) => li.classList.toggle("open", li.dataset.video === videoId));
  const page = await call(`/memories?video_id=${encodeURIComponent(videoId)}&limit=1000`);
  const box = $("#moments");
  box.replaceChildren(...page.records.filter((m) => !ROLL_UPS.has(m.kind) && m.kind !== "recording")
    .map((m) => momentRow(m, m.id === citedId)));
  const cited = box.querySelector(".cited");
  if (cited) cited.scrollIntoView({ block: "center" });
}

async function showDay(day, openVideo, citedId) {
  $("#day").value = day;
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  const until = next.toISOString().slice(0, 10);
  const page = await call(`/memories?kind=recording&since=${day}T00:00:00&until=${until}T00:00:00&limit=1000`);
  $("#recordings").replaceChildren(...page.records.map((r) => {
    const li = el("li", { "data-video": r.video_id }, el("time", {}, clock(r.wall_start)), " ", r.text);
    li.addEventListener("click", () => showRecording(r.video_id).catch(shown));
    return li;
  }));
  $("#moments").replaceChildren();
  const first = openVideo || (page.records[0] && page.records[0].video_id);
  if (first) await showRecording(first, citedId);
}

async function latestDay() {
  const page = await call("/memories?kind=recording&limit=1000");
  const last = page.records[page.records.length - 1];
  return last ? last.wall_start.slice(0, 10) : new Date().toISOString().slice(0, 10);
}

async function ask(event) {
  event.preventDefault();
  shown(null);
  const body = { question: $("#question").value };
  if ($("#asked-at").value) body.at = $("#asked-at").value;
  $("#answer").replaceChildren(el("p", { class: "meta" }, "thinking…"));
  const a = await call("/ask", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const parts = [el("p", { class: "answer-text" + (a.abstained ? " abstained" : "") }, a.answer),
    el("p", { class: "meta" }, `confidence ${a.confidence.toFixed(2)}`)];
  for (const e of a.evidence) {
    const row = momentRow(e, false);
    const link = el("a", { class: "moment-link" }, "show moment");
    link.addEventListener("click", () => showDay(e.wall_start.slice(0, 10), e.video_id, e.record_id).catch(shown));
    if (e.video_id) row.append(link);
    parts.push(row);
  }
  $("#answer").replaceChildren(...parts);
}

async function showKnown(noun, plural) {
  const list = await call(`/${plural}`);
  $(`#${plural}`).replaceChildren(...list.known.map((k) => {
    const input = el("input", { type: "text", value: k.name || "", placeholder: `${noun} ${k.id}`, "aria-label": `name ${noun} ${k.id}` });
    const button = el("button", { type: "button" }, "rename");
    button.addEventListener("click", () => call(`/${plural}/${k.id}/name`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: input.value }),
    }).then(() => showKnown(noun, plural)).catch(shown));
    return el("li", {}, `${noun} ${k.id} (${k.sightings} sightings) `, input, button);
  }));
}

async function upload(event) {
  event.preventDefault();
  shown(null);
  const form = new FormData();
  form.append("file", $("#file").files[0]);
  if ($("#start").value) form.append("start", $("#start").value);
  const accepted = await call("/ingest", { method: "POST", body: form });
  let job = await call(`/jobs/${accepted.job_id}`);
  while (job.status === "queued" || job.status === "running") {
    $("#job").textContent = `${job.file}: ${job.status} ${job.stage || ""} ${Math.round(job.percent)}%`;
    await new Promise((done) => setTimeout(done, 1000));
    job = await call(`/jobs/${accepted.job_id}`);
  }
  $("#job").textContent = `${job.file}: ${job.status}${job.error ? " — " + job.error : ""}`;
  await refresh();
}

async function refresh() {
  await showDay($("#day").value || await latestDay());
  await Promise.all([showKnown("person", "people"), showKnown("place", "places")]);
}

$("#key").value = key();
$("#key").addEventListener("change", () => { localStorage.setItem("memlens-key", $("#key").value); refresh().catch(shown); });
$("#ask-form").addEventListener("submit", (event) => ask(event).catch(shown));
$("#upload-form").addEventListener("submit", (event) => upload(event).catch(shown));
$("#day").addEventListener("change", () => showDay($("#day").value).catch(shown));
refresh().catch(shown);
