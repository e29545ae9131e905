// phone-gym play: the page's pointer, wheel and keyboard input become phone actions in
// [0, 1000] coordinates, sent one at a time to the server (POST /api/action). Each tab has
// its own session (its id in sessionStorage, sent in X-Play-Session): its own episode and
// recording. The token comes from the URL the server printed (?token=...): the server set it
// as a cookie on this load, so it leaves the address bar.
"use strict";
const $ = (id) => document.getElementById(id);
const SESSION_KEY = "phone-gym-play-session";
let session = sessionStorage.getItem(SESSION_KEY);
const here = new URL(location.href);
if (here.searchParams.has("token")) {
  here.searchParams.delete("token");
  history.replaceState(null, "", here.pathname + here.search + here.hash);
}
const HOLD_MS = 500;      // press and hold this long: long_press
const DRAG_MIN = 25;      // moved this far (of 1000): drag
const WHEEL_GAP_MS = 350; // one scroll action per wheel gesture
const TYPE_IDLE_MS = 700; // typed keys are sent after this pause
let state = null;
let queue = Promise.resolve();
let start = null;
let lastWheel = 0;
let typed = "";
let typeTimer = null;

function show(s) {
  state = s;
  $("task").textContent = s.task_id ? `${s.task_id} (seed ${s.seed})` : "";
  $("instruction").textContent = s.instruction;
  $("step").textContent = s.step;
  $("max-steps").textContent = s.max_steps ?? "?";
  $("last-action").textContent = s.action || "none";
  $("error").textContent = s.action_error ? `action_error: ${s.action_error}` : "";
  if (s.width && s.height) $("phone-box").style.aspectRatio = `${s.width} / ${s.height}`;
  $("phone").src = `/api/frame.png?session=${encodeURIComponent(session)}&v=${s.frame_version}`;
  const v = $("verdict");
  v.replaceChildren();
  v.className = "";
  if (s.verdict) {
    v.className = s.verdict.success ? "success" : "failure";
    const head = document.createElement("strong");
    head.textContent = s.verdict.success ? "Success" : "Failure";
    const body = document.createElement("div");
    body.textContent = `reward ${s.verdict.reward} in ${s.verdict.steps} steps: ` +
      (s.verdict.reason || "no reason given");
    v.append(head, body);
    $("recorded").textContent = `Recorded episode ${s.episode_id} in ${s.verdict.recorded}`;
  }
}

async function api(url, body) {
  // a POST (JSON) when there is a body, else a GET; always with this tab's session
  const init = {headers: {"X-Play-Session": session || ""}};
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(url, init);
  return {ok: r.ok, data: await r.json()};
}

async function openSession(note, takeOver) {
  const {ok, data} = await api("/api/session", {take_over: Boolean(takeOver)});
  $("take-over").hidden = ok || data.code !== "full";
  if (!ok) { $("error").textContent = data.error; return; }
  session = data.session;
  sessionStorage.setItem(SESSION_KEY, session);
  show(data.state);
  if (note) $("error").textContent = note;
}

async function answer({ok, data}) {
  if (ok) { show(data); return; }
  if (data.code === "no_session") {  // closed after idling, or the server restarted
    await openSession(`${data.error} (a new episode started)`);
    return;
  }
  $("error").textContent = data.error;
}

function post(url, body) {
  // requests go one after another: the phone sees actions in the order they were made
  queue = queue.then(async () => answer(await api(url, body || {})))
    .catch((e) => { $("error").textContent = String(e); });
  return queue;
}

const act = (action) => post("/api/action", action);

function point(ev) {
  const r = $("phone").getBoundingClientRect();
  const clamp = (v) => Math.max(0, Math.min(1000, Math.round(v * 1000)));
  return {x: clamp((ev.clientX - r.left) / r.width), y: clamp((ev.clientY - r.top) / r.height)};
}

const phone = $("phone");
phone.addEventListener("pointerdown", (ev) => {
  if (ev.button !== 0) return;
  ev.preventDefault();
  $("phone-box").focus();
  phone.setPointerCapture(ev.pointerId);
  start = {...point(ev), t: performance.now()};
});
phone.addEventListener("pointerup", (ev) => {
  if (!start) return;
  const end = point(ev);
  const held = performance.now() - start.t;
  const moved = Math.hypot(end.x - start.x, end.y - start.y);
  flushTyped();
  if (moved > DRAG_MIN) act({action: "drag", x: start.x, y: start.y, x2: end.x, y2: end.y});
  else if (held >= HOLD_MS) act({action: "long_press", x: start.x, y: start.y});
  else act({action: "click", x: start.x, y: start.y});
  start = null;
});
phone.addEventListener("pointercancel", () => { start = null; });
phone.addEventListener("wheel", (ev) => {
  ev.preventDefault();
  const now = performance.now();
  if (now - lastWheel < WHEEL_GAP_MS) return;
  lastWheel = now;
  const horizontal = Math.abs(ev.deltaX) > Math.abs(ev.deltaY);
  // AndroidWorld's sense: "down" reveals what is below, as the wheel rolled towards you
  const direction = horizontal ? (ev.deltaX > 0 ? "right" : "left")
                               : (ev.deltaY > 0 ? "down" : "up");
  act({action: "scroll", ...point(ev), direction});
}, {passive: false});

function flushTyped() {
  clearTimeout(typeTimer);
  if (typed) act({action: "type", text: typed});
  typed = "";
  $("typing").textContent = "";
}

$("phone-box").addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Enter") { ev.preventDefault(); flushTyped(); act({action: "press", button: "enter"}); return; }
  if (ev.key === "Backspace") { ev.preventDefault(); typed = typed.slice(0, -1); }
  else if (ev.key.length === 1) { ev.preventDefault(); typed += ev.key; }
  else return;
  $("typing").textContent = typed ? `typing "${typed}"` : "";
  clearTimeout(typeTimer);
  typeTimer = setTimeout(flushTyped, TYPE_IDLE_MS);
});

for (const button of ["back", "home", "recents", "enter"]) {
  $(button).addEventListener("click", () => { flushTyped(); act({action: "press", button}); });
}
function sendText(input, action) {
  const text = $(input).value;
  if (!text) { $("error").textContent = `write the text to ${action} first`; return; }
  act({action, text});
  $(input).value = "";
}
$("type").addEventListener("click", () => sendText("type-text", "type"));
$("type-text").addEventListener("keydown", (ev) => { if (ev.key === "Enter") sendText("type-text", "type"); });
$("answer").addEventListener("click", () => sendText("answer-text", "answer"));
$("finish").addEventListener("click", () => { flushTyped(); act({action: "finish", status: "success"}); });
$("infeasible").addEventListener("click", () => act({action: "finish", status: "infeasible"}));
$("take-over").addEventListener("click", () => {
  queue = queue.then(() => openSession("", true))
    .catch((e) => { $("error").textContent = String(e); });
});
$("new").addEventListener("click", () => {
  $("recorded").textContent = "Episodes are recorded when they end.";
  post("/api/new");
});

queue = (session ? api("/api/state").then(answer) : openSession())
  .catch((e) => { $("error").textContent = String(e); });
