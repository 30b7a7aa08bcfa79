// rummylab serve: the Ask and Meld pages. The pack picker fills the card fields; the form is sent as
// the command's fields (POST /api/jobs/<kind>); the answer streams in as server-sent events.
"use strict";
(function () {
  const form = document.querySelector("form.ask");
  if (!form) return;
  const kind = form.dataset.kind;
  const $ = (id) => document.getElementById(id);
  const RED = new Set(["H", "D"]);

  // ---- the pack picker ----------------------------------------------------------------------
  const pack = $("pack");
  const target = () => (form.querySelector("input[name=pick]:checked") || {}).value || "hand";
  const field = (name) => form.querySelector(`[name=${name}]`);
  const words = (text) => (text || "").toUpperCase().split(/[\s,]+/).filter(Boolean);

  function cardButton(text) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card" + (text === "X" ? " joker" : RED.has(text[1]) ? " red" : "");
    b.dataset.card = text;
    b.textContent = text === "X" ? "🃏" : text[0].replace("T", "10") + { S: "♠", H: "♥", D: "♦", C: "♣" }[text[1]];
    b.setAttribute("aria-label", text);
    b.addEventListener("click", () => pick(text));
    return b;
  }
  if (pack) {
    const cards = pack.dataset.cards.split(" ");
    for (let s = 0; s < cards.length; s += 13) {
      const row = document.createElement("div");
      row.className = "suit-row";
      cards.slice(s, s + 13).forEach((c) => row.appendChild(cardButton(c)));
      pack.appendChild(row);
    }
  }
  // the history builder: a turn as the table saw it, appended to the history field
  let builderField = "b-took";
  document.querySelectorAll("[data-pick]").forEach((el) => el.addEventListener("focus", () => (builderField = el.id)));
  function addTurn() {
    const h = field("history");
    const up = $("b-up").value.trim().toUpperCase();
    const took = $("b-took").value.trim().toUpperCase();
    const threw = $("b-threw").value.trim().toUpperCase();
    const parts = h.value.split(";").map((x) => x.trim()).filter(Boolean);
    if (up && !parts.some((x) => x.startsWith("up "))) parts.unshift(`up ${up}`);
    if (threw) parts.push(`${$("b-seat").value}:${$("b-how").value === "take" ? `take ${took}` : "draw"} discard ${threw}`);
    h.value = parts.join("; ");
    $("b-took").value = $("b-threw").value = "";
    builderField = "b-took";
  }
  if ($("b-add")) $("b-add").addEventListener("click", addTurn);

  function pick(card) {
    const name = target();
    if (name === "builder") {
      $(builderField).value = card;
      builderField = builderField === "b-took" && $("b-how").value === "take" ? "b-threw" : builderField === "b-up" ? "b-took" : "b-threw";
      return;
    }
    const f = field(name);
    if (!f) return;
    if (name === "upcard") {
      f.value = f.value.trim().toUpperCase() === card ? "" : card;
    } else if (name === "spread" || name === "table") {
      const sep = name === "table" ? "|" : "\n";
      const lines = f.value.split(sep);
      const part = (lines[lines.length - 1] + " " + card).trim();
      lines[lines.length - 1] = sep === "|" && lines.length > 1 ? " " + part : part;
      f.value = lines.join(sep).trim();
    } else {
      let have = words(f.value);
      const copies = have.filter((c) => c === card).length;
      const most = card === "X" ? 4 : Number(pack.dataset.copies || 1);
      have = copies >= most ? have.filter((c) => c !== card) : have.concat([card]);
      f.value = have.join(" ");
    }
    showPicked();
  }
  function showPicked() {
    if (!pack) return;
    const hand = new Set(words((field("hand") || {}).value));
    const up = new Set(words((field("upcard") || field("taken") || {}).value));
    pack.querySelectorAll(".card").forEach((b) => {
      b.classList.toggle("picked", hand.has(b.dataset.card));
      b.classList.toggle("upcard", up.has(b.dataset.card));
    });
  }
  form.addEventListener("input", showPicked);
  showPicked();

  // ---- the request ---------------------------------------------------------------------------
  function fields() {
    const out = {};
    form.querySelectorAll("input[name], select[name], textarea[name]").forEach((el) => {
      if (el.name === "pick" || el.disabled) return;
      if (el.type === "checkbox") { if (el.checked) out[el.name] = true; return; }
      const v = el.value.trim();
      if (v === "") return;
      if (el.dataset.list === "lines") out[el.name] = v.split("\n").map((x) => x.trim()).filter(Boolean);
      else if (el.dataset.list === "commas") out[el.name] = v.split(",").map((x) => x.trim()).filter(Boolean);
      else if (el.type === "number") out[el.name] = Number(v);
      else out[el.name] = v;
    });
    return out;
  }
  function clearErrors() {
    form.querySelectorAll(".field-error").forEach((p) => (p.textContent = ""));
    form.querySelectorAll(".invalid").forEach((el) => el.classList.remove("invalid"));
  }
  function showError(message, name) {
    const p = form.querySelector(`.field-error[data-for="${name || ""}"]`) || form.querySelector('.field-error[data-for=""]');
    p.textContent = message;
    const el = name && field(name);
    if (el) { el.classList.add("invalid"); el.focus(); }
  }

  let source = null;
  function stop() {
    if (source) { source.close(); source = null; }
    $("go").disabled = false;
    $("stop").disabled = true;
  }
  $("stop").addEventListener("click", () => { stop(); status("Stopped."); });
  window.addEventListener("pagehide", stop);
  const status = (text) => ($("status").textContent = text);

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors();
    stop();
    reset();
    $("go").disabled = true;
    status("Sending…");
    let r;
    try {
      r = await fetch(`/api/jobs/${kind}`, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(fields()) });
    } catch (e) { status("The server cannot be reached."); $("go").disabled = false; return; }
    const doc = await r.json().catch(() => ({ detail: `the server answered ${r.status}` }));
    if (r.status !== 202) { showError(doc.detail, doc.field); status("Not asked: see the message."); $("go").disabled = false; return; }
    listen(doc.job, doc.place);
  });

  function listen(job, place) {
    status(place ? `Waiting: place ${place} in line.` : "Starting…");
    $("stop").disabled = false;
    source = new EventSource(`/api/jobs/${job}/events`);
    source.addEventListener("queued", (e) => status(`Waiting: place ${JSON.parse(e.data).place} in line.`));
    source.addEventListener("started", () => status(kind === "knock" ? "Dealing worlds…" : "Planning…"));
    source.addEventListener("note", (e) => { $("note").textContent = JSON.parse(e.data); $("note").classList.remove("hidden"); });
    source.addEventListener("progress", (e) => progress(JSON.parse(e.data)));
    let over = false;        // the last event came: the server ends the stream, and it is closed then
    source.addEventListener("result", (e) => { over = true; (kind === "knock" ? result : window.RL_meldResult)(JSON.parse(e.data)); });
    source.addEventListener("error", (e) => {
      if (!e.data) { const was = over; stop(); if (!was) status("The connection to the server closed."); return; }
      over = true;
      const d = JSON.parse(e.data);
      showError(d.message, d.field);
      status("Not answered: see the message.");
    });
    source.addEventListener("failed", (e) => { over = true; showError(JSON.parse(e.data), ""); status("Failed."); });
  }

  // ---- the answer ----------------------------------------------------------------------------
  const num = (x, d = 2, sign = true) => (x === null || x === undefined || !isFinite(x)) ? "n/a"
    : (sign && x > 0 ? "+" : "") + x.toFixed(d).replace("-", "−");
  const est = (e, d = 2, sign = true) => `${num(e.value, d, sign)} [${num(e.ci95[0], d, sign)}, ${num(e.ci95[1], d, sign)}]`;
  const pct = (e) => `${(100 * e.value).toFixed(1)}% [${(100 * e.ci95[0]).toFixed(1)}, ${(100 * e.ci95[1]).toFixed(1)}]`;
  function reset() {
    ["call", "sentence", "chart", "text", "argv"].forEach((id) => $(id) && ($(id).textContent = ""));
    ["meter", "nums", "details", "note"].forEach((id) => $(id) && $(id).classList.add("hidden"));
    if ($("call")) $("call").className = "call";
  }
  function progress(s) {
    if (kind !== "knock") return;
    status(`${s.worlds.toLocaleString("en")} worlds, ${s.seconds.toFixed(1)} s`);
    numbers(s);
  }
  function numbers(s) {
    $("nums").classList.remove("hidden");
    $("ev_knock").textContent = est(s.ev_knock);
    $("ev_play").textContent = est(s.ev_play);
    $("win_knock").textContent = pct(s.win_knock);
    $("win_play").textContent = pct(s.win_play);
    $("diff").textContent = `${est(s.diff)} per hand, n = ${s.diff.n.toLocaleString("en")}`;
    meter(s.diff);
  }
  function meter(d) {
    const m = $("meter");
    const lo = d.ci95[0], hi = d.ci95[1];
    if (lo === null || hi === null || !isFinite(lo) || !isFinite(hi)) { m.classList.add("hidden"); return; }
    m.classList.remove("hidden");
    const span = Math.max(Math.abs(lo), Math.abs(hi), 1e-9) * 1.15;
    const x = (v) => `${50 + 50 * v / span}%`;
    m.querySelector(".zero").style.left = "50%";
    m.querySelector(".ci").style.left = x(lo);
    m.querySelector(".ci").style.width = `${50 * (hi - lo) / span}%`;
    m.querySelector(".pt").style.left = x(d.value);
  }
  function result(doc) {
    const a = doc.advice;
    numbers(a);
    form.querySelectorAll(".unit").forEach((u) => (u.textContent = a.unit));
    const call = $("call");
    call.textContent = a.recommendation === "knock" ? "Knock" : a.recommendation === "play on" ? "Play on" : "Too close to call";
    call.classList.add(a.recommendation === "knock" ? "knock" : a.recommendation === "play on" ? "playon" : "open");
    status(`${a.worlds.toLocaleString("en")} worlds in ${a.elapsed.toFixed(2)} s (stopped: ${a.stopped}), seed ${a.seed}`);
    $("sentence").textContent = doc.answer.join(" ");
    chart(doc.chart);
    $("text").textContent = doc.text;
    $("argv").textContent = "rummylab " + doc.argv.map((w) => /[\s;"']/.test(w) ? `'${w}'` : w).join(" ");
    $("details").classList.remove("hidden");
  }
  function chart(c) {
    const p = $("chart");
    p.textContent = "";
    if (!c) { p.textContent = "No stored knock chart for this game under the runs folder (make demo stores one)."; return; }
    if (c.error) { p.textContent = c.error; return; }
    const said = c.decision === "can't tell" ? "cannot tell" : `says ${c.decision}`;
    p.append(`The stored knock chart (${c.strategy} against ${c.opponent}, ${c.hands.toLocaleString("en")} hands per threshold) ` +
      `${said} at ${c.bucket}, ${c.word} ${c.cell}: margin ${est({ value: c.margin, ci95: c.ci95 })} per hand. `);
    if (c.report) { const l = document.createElement("a"); l.href = c.report; l.textContent = "See the chart in the report."; p.append(l); }
  }
})();
