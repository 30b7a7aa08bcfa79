// rummylab serve: the Meld page's answer (the request and the pack picker are ask.js's).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const RED = new Set(["H", "D"]);
  const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
  function card(text) {
    const s = document.createElement("span");
    s.className = "card static" + (text === "X" ? " joker" : RED.has(text[1]) ? " red" : "");
    s.dataset.card = text;
    s.textContent = text === "X" ? "🃏" : text[0].replace("T", "10") + SUIT[text[1]];
    return s;
  }
  $("new-meld").addEventListener("click", () => {
    const t = document.querySelector("[name=table]");
    if (t.value.trim() && !t.value.trim().endsWith("|")) t.value = t.value.trim() + " | ";
    document.querySelector("input[name=pick][value=table]").checked = true;
    t.focus();
  });
  window.RL_meldResult = function (doc) {
    const p = doc.plan;
    $("status").textContent = `${p.variant}, ${p.players} players: ${p.plan.length} step${p.plan.length === 1 ? "" : "s"}`;
    $("sentence").textContent = doc.text.split("\n\n")[0].replace(/\n\s*/g, " ");
    const ol = $("plan");
    ol.textContent = "";
    (p.plan.length ? p.plan : ["lay nothing down"]).forEach((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      ol.appendChild(li);
    });
    $("finish").textContent = `Then: ${p.finish}. ${p.points_left} points left in hand, ${p.points_after_best_discard} after the best discard.`;
    $("left").textContent = "";
    p.left_in_hand.forEach((c) => $("left").appendChild(card(c)));
    $("after").textContent = "";
    (p.table_after || "").split("|").map((m) => m.trim()).filter(Boolean).forEach((m) => {
      const d = document.createElement("div");
      d.className = "meld";
      m.split(/\s+/).forEach((c) => d.appendChild(card(c)));
      $("after").appendChild(d);
    });
    const body = document.querySelector("#others tbody");
    body.textContent = "";
    (doc.others || []).forEach((o) => {
      const tr = document.createElement("tr");
      const keep = document.createElement("td");
      keep.appendChild(card(o.keep));
      tr.appendChild(keep);
      [`${(o.plan.length ? o.plan : ["lay nothing down"]).join("; ")}; then ${o.finish}`, o.points_left,
        o.points_after_best_discard].forEach((v, k) => {
        const td = document.createElement("td");
        td.textContent = v;
        if (k) td.className = "n";
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    ["others-h", "others"].forEach((id) => $(id).classList.toggle("hidden", !(doc.others || []).length));
    ["left-h", "after-h", "details"].forEach((id) => $(id).classList.remove("hidden"));
    $("text").textContent = doc.text;
    $("argv").textContent = "rummylab " + doc.argv.map((w) => /[\s;"'|]/.test(w) ? `'${w}'` : w).join(" ");
  };
})();
