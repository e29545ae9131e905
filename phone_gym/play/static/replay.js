// phone-gym replay: steps through a recorded episode, its action drawn on each frame
// (a circle for a tap, two for a long press, an arrow for a drag or a scroll).
"use strict";
const $ = (id) => document.getElementById(id);
const here = new URL(location.href);
if (here.searchParams.has("token")) {  // the server set it as a cookie on this load
  here.searchParams.delete("token");
  history.replaceState(null, "", here.pathname + here.search + here.hash);
}
let episode = null;
let index = 0;

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.append(td);
}

async function loadList() {
  const data = await (await fetch("/api/episodes")).json();
  $("out").textContent = data.out;
  const body = $("episodes");
  body.replaceChildren();
  $("empty").textContent = data.episodes.length ? "" : "No recorded episodes yet: play one.";
  for (const ep of data.episodes) {
    const row = document.createElement("tr");
    row.className = "episode";
    row.dataset.episode = ep.episode_id;
    cell(row, ep.episode_id);
    cell(row, ep.task_id || "");
    cell(row, ep.seed ?? "");
    cell(row, ep.steps);
    cell(row, ep.success === null ? "unfinished" : (ep.success ? "success" : "failure"));
    row.addEventListener("click", () => open(ep.episode_id));
    body.append(row);
  }
  const wanted = new URLSearchParams(location.search).get("episode");
  if (wanted) open(wanted);
}

async function open(id) {
  const r = await fetch(`/api/episodes/${encodeURIComponent(id)}`);
  const data = await r.json();
  if (!r.ok) { $("error").textContent = data.error; return; }
  episode = data;
  index = 0;
  $("viewer").hidden = false;
  $("instruction").textContent = data.instruction;
  $("episode").textContent = `${data.episode_id} (${data.task_id}, seed ${data.seed})`;
  $("outcome").textContent = `${data.success ? "success" : "failure"}, reward ${data.reward}` +
    (data.verdict ? `: ${data.verdict}` : "");
  $("count").textContent = data.steps.length;
  draw();
  $("phone-box").focus();
}

function arrow(ctx, x1, y1, x2, y2) {
  const head = Math.max(10, ctx.canvas.width / 25);
  const a = Math.atan2(y2 - y1, x2 - x1);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x2, y2);
  ctx.lineTo(x2 - head * Math.cos(a - 0.5), y2 - head * Math.sin(a - 0.5));
  ctx.moveTo(x2, y2);
  ctx.lineTo(x2 - head * Math.cos(a + 0.5), y2 - head * Math.sin(a + 0.5));
  ctx.stroke();
}

function mark(ctx, parsed) {
  if (!parsed) return;
  const w = ctx.canvas.width, h = ctx.canvas.height;
  const X = (v) => v * w / 1000, Y = (v) => v * h / 1000;
  const r = Math.max(8, w / 25);
  ctx.strokeStyle = "rgb(230, 30, 60)";
  ctx.lineWidth = Math.max(3, w / 100);
  const kind = parsed.action;
  if (["click", "double_click", "long_press"].includes(kind) && parsed.x != null) {
    ctx.beginPath(); ctx.arc(X(parsed.x), Y(parsed.y), r, 0, 2 * Math.PI); ctx.stroke();
    if (kind !== "click") {
      ctx.beginPath(); ctx.arc(X(parsed.x), Y(parsed.y), r * 1.6, 0, 2 * Math.PI); ctx.stroke();
    }
  } else if (kind === "drag") {
    arrow(ctx, X(parsed.x), Y(parsed.y), X(parsed.x2), Y(parsed.y2));
  } else if (kind === "scroll" && parsed.x != null) {
    // content moves opposite to the direction that reveals it: draw the finger's path
    const d = {down: [0, -1], up: [0, 1], right: [-1, 0], left: [1, 0]}[parsed.direction];
    const len = h / 6;
    arrow(ctx, X(parsed.x), Y(parsed.y), X(parsed.x) + d[0] * len, Y(parsed.y) + d[1] * len);
  }
}

function draw() {
  const steps = episode.steps;
  const last = index >= steps.length;  // the screen after the last action
  const step = last ? null : steps[index];
  const src = last ? episode.final : step.frame;
  $("step").textContent = last ? "end" : index + 1;
  $("action").textContent = last ? "(the last screen)" : step.action;
  $("error").textContent = step && step.action_error ? `action_error: ${step.action_error}` : "";
  $("prev").disabled = index === 0;
  $("next").disabled = last || (index === steps.length - 1 && !episode.final);
  const canvas = $("canvas");
  const ctx = canvas.getContext("2d");
  if (!src) { ctx.clearRect(0, 0, canvas.width, canvas.height); return; }
  const img = new Image();
  img.onload = () => {
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    $("phone-box").style.aspectRatio = `${img.naturalWidth} / ${img.naturalHeight}`;
    ctx.drawImage(img, 0, 0);
    if (step) mark(ctx, step.parsed);
    canvas.dataset.drawn = `${episode.episode_id}:${index}`;
  };
  img.src = `/${src}`;
}

function go(delta) {
  if (!episode) return;
  const end = episode.steps.length - (episode.final ? 0 : 1);
  index = Math.max(0, Math.min(end, index + delta));
  draw();
}
$("prev").addEventListener("click", () => go(-1));
$("next").addEventListener("click", () => go(1));
$("phone-box").addEventListener("keydown", (ev) => {
  if (ev.key === "ArrowRight") go(1);
  if (ev.key === "ArrowLeft") go(-1);
});
loadList();
