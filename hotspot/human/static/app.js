// The browser app (hotspot serve): a game against agents, or agents watched, on the board of board.js.
// Every rule is the server's (hotspot.human.web, hotspot.human.session): this page shows the state,
// sends clicks and decisions, and shows what the server answers (a refused click: the rule's reason).
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const app = {state: null, board: null, meta: null, timer: null, zoom: 1, hover: null, refused: null, version: 0,
               busy: false, shownSettings: null};
  window.hotspotApp = app;  // for the tests and the curious

  async function api(method, path, body) {
    const opts = {method: method, headers: {}};
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    const response = await fetch(path, opts);
    let data = null;
    try { data = await response.json(); } catch (e) { data = {error: "the server sent no JSON (" + response.status + ")"}; }
    return {ok: response.ok, status: response.status, data: data};
  }

  function message(text, isError) {
    $("message").textContent = text || "";
    $("message").className = isError ? "hs-error" : "";
  }

  function option(select, value, text) {
    const o = document.createElement("option");
    o.value = value; o.textContent = text || value;
    select.appendChild(o);
  }

  function el(tag, text, attrs) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  // ------------------------------------------------------------ showing the game
  function humanToMove() { return !!(app.state && app.state.to_move && app.state.to_move.human); }

  function choose(select, value) {  // a value the list lacks (an agent with parameters, a scenario file): added
    value = String(value);
    if (![...select.options].some(o => o.value === value)) option(select, value);
    select.value = value;
  }

  function showSettings(settings) {
    // the bar shows the game on the board: after a new game (here or by /api/new), a load, or a reload
    const shown = JSON.stringify(settings);
    if (!settings || shown === app.shownSettings) return;  // the same game: the person's edits stay
    app.shownSettings = shown;
    choose($("ziegler"), settings.ziegler);
    choose($("technocrat"), settings.technocrat);
    choose($("scenario"), settings.scenario);
    $("seed").value = String(settings.seed);
    $("maxturns").value = settings.max_turns == null ? "" : String(settings.max_turns);
  }

  function render(state) {
    app.state = state;
    showSettings(state.settings);
    if (!app.board || JSON.stringify(state.meta) !== JSON.stringify(app.meta)) {
      app.meta = state.meta;
      app.board = new HotspotBoard($("board"), state.meta, {onHex: clickHex, onUnit: clickUnit,
                                                              onHover: (c, r) => showHex(c, r)});
      HotspotBoard.legend($("legend"), state.meta);
    }
    const mine = humanToMove();
    app.board.draw(state.board, {targets: mine ? Object.keys(state.targets) : [],
                                 units: mine ? Object.keys(state.unitTargets).map(Number) : [],
                                 refused: app.refused});
    $("status").textContent = state.status;
    $("notes").textContent = state.notes.join("; ");
    $("choices").innerHTML = "";
    const targeted = new Set([].concat(...Object.values(state.targets), ...Object.values(state.unitTargets)));
    $("buttons").innerHTML = "";
    $("actions").innerHTML = "";
    for (const a of state.legal) {
      const b = el("button", a.caption + " ", {"data-action": a.action});
      b.appendChild(el("code", "[" + a.command + "]"));
      b.onclick = () => play(a.action);
      $("actions").appendChild(b);
      if (!targeted.has(a.action)) {  // nothing on the board to click for it: a button
        const c = el("button", a.caption, {"data-action": a.action});
        c.onclick = () => play(a.action);
        $("buttons").appendChild(c);
      }
    }
    $("nlegal").textContent = state.legal.length;
    const log = $("log");
    log.innerHTML = "";
    for (const entry of state.log.slice(-80)) {
      log.appendChild(el("li", "T" + entry.turn + entry.phase + " " + entry.side + " (" + entry.by + "): " + entry.caption));
      for (const d of entry.details) log.appendChild(el("li", d, {"class": "detail"}));
    }
    log.scrollTop = log.scrollHeight;
    $("undo").disabled = !state.can_undo;
    $("concede").disabled = !state.can_concede;
    const watching = !state.settings || (state.settings.ziegler !== "human" && state.settings.technocrat !== "human");
    $("watch").hidden = !watching;
    if (state.over && app.timer) stopRun();
    if (app.hover) showHex(app.hover[0], app.hover[1]);
    document.body.dataset.over = state.over ? "1" : "0";
    document.body.dataset.tomove = state.over ? "" : (mine ? "human" : "agent");
    document.body.dataset.version = String(++app.version);
  }

  function showHex(c, r) {
    app.hover = [c, r];
    if (!app.board) return;
    const box = $("hex");
    box.innerHTML = "";
    for (const line of app.board.describeHex(c, r)) box.appendChild(el("div", line));
    for (const u of app.board.stackAt(c, r)) {
      const b = el("button", HotspotBoard.unitText(app.meta, u), {"data-unit": u[0]});
      b.onclick = () => clickUnit(u[0]);
      box.appendChild(b);
    }
  }

  // ------------------------------------------------------------ deciding
  async function send(method, path, body, keepMessage) {
    // a decision, a new game or a load waits for the agents' replies: after a moment say so,
    // and take no other click until the answer is in (the page is "busy")
    const waits = method === "POST" && !app.timer;
    let slow = null;
    if (waits) {
      app.busy = true;
      document.body.dataset.busy = "1";
      slow = setTimeout(() => message("The agents are thinking..."), 400);
    }
    let r;
    try {
      r = await api(method, path, body);
    } finally {
      if (waits) {
        clearTimeout(slow);
        app.busy = false;
        document.body.dataset.busy = "0";
        if ($("message").textContent === "The agents are thinking...") message("");
      }
    }
    if (r.ok && r.data.turn !== undefined) {
      app.refused = null;
      if (!keepMessage) message("");
      render(r.data);
    }
    return r;
  }

  function viewArg() { return $("view").value; }

  async function play(action) {
    if (app.busy) return;
    const r = await send("POST", "/api/play", {action: action, view: viewArg()});
    if (!r.ok) message(r.data.error, true);
  }

  async function click(body) {
    showChoices([]);
    if (!humanToMove() || app.busy) return;
    body.view = viewArg();
    const r = await send("POST", "/api/click", body);
    if (r.ok && r.data.choices) { showChoices(r.data.choices); return; }
    if (!r.ok) {
      message(r.data.error, true);
      if (r.data.hex) { app.refused = r.data.hex.join(","); render(app.state); app.refused = null; }
    }
  }

  function clickHex(c, r) { showHex(c, r); click({hex: [c, r]}); }
  function clickUnit(u) { click({unit: u}); }

  function showChoices(choices) {
    const box = $("choices");
    box.innerHTML = "";
    if (!choices.length) return;
    box.appendChild(el("div", "Which one?"));
    for (const ch of choices) {
      const b = el("button", ch.caption, {"data-action": ch.action});
      b.onclick = () => { showChoices([]); play(ch.action); };
      box.appendChild(b);
    }
    const cancel = el("button", "cancel");
    cancel.onclick = () => showChoices([]);
    box.appendChild(cancel);
  }

  // ------------------------------------------------------------ game controls
  async function newGame() {
    stopRun();
    const body = {ziegler: $("ziegler").value, technocrat: $("technocrat").value, scenario: $("scenario").value,
                  seed: Number($("seed").value || 0), view: viewArg()};
    if ($("maxturns").value) body.max_turns = Number($("maxturns").value);
    const r = await send("POST", "/api/new", body);
    if (!r.ok) message(r.data.error, true);
  }

  async function refresh() {
    const r = await send("GET", "/api/state?view=" + encodeURIComponent(viewArg()), undefined, true);
    if (!r.ok && app.state) message(r.data.error, true);
  }

  async function stepAgents() {
    const r = await send("POST", "/api/advance", {max: 1, view: viewArg()});
    if (!r.ok) { message(r.data.error, true); stopRun(); }
  }

  function stopRun() {
    if (app.timer) clearTimeout(app.timer);
    app.timer = null;
    $("run").textContent = "Run";
  }

  function run() {
    if (app.timer) { stopRun(); return; }
    $("run").textContent = "Pause";
    const tick = async () => {
      if (!app.timer) return;
      await stepAgents();
      if (app.timer && app.state && !app.state.over) app.timer = setTimeout(tick, Number($("speed").value));
      else stopRun();
    };
    app.timer = setTimeout(tick, 0);
  }

  async function save() {
    const r = await api("GET", "/api/save");
    if (!r.ok) { message(r.data.error, true); return; }
    const blob = new Blob([JSON.stringify(r.data, null, 1)], {type: "application/json"});
    const a = el("a", "", {href: URL.createObjectURL(blob), download: "hotspot-game.json"});
    document.body.appendChild(a); a.click(); a.remove();
    message("saved as hotspot-game.json (your downloads)");
  }

  async function load(file) {
    let data;
    try { data = JSON.parse(await file.text()); } catch (e) { message(file.name + ": not JSON", true); return; }
    const r = await send("POST", "/api/load", data);
    if (!r.ok) message(file.name + ": " + r.data.error, true);
    else message("loaded " + file.name);
  }

  function setZoom(z) {
    app.zoom = Math.max(1, Math.min(4, z));
    $("board").style.width = $("board").style.height = (100 * app.zoom) + "%";
  }

  async function start() {
    const info = (await api("GET", "/api/info")).data;
    for (const side of ["ziegler", "technocrat"]) for (const a of info.agents) option($(side), a);
    $("ziegler").value = info.agents.includes("scripted") ? "scripted" : info.agents[1];
    $("technocrat").value = "human";
    for (const s of info.scenarios) option($("scenario"), s);
    if (info.games) {
      const games = (await api("GET", "/api/games")).data.games;
      for (const g of games) option($("games"), g.id, g.label);
      $("replays").hidden = false;
    }
    $("new").onclick = newGame;
    $("undo").onclick = async () => { const r = await send("POST", "/api/undo", {view: viewArg()}); if (!r.ok) message(r.data.error, true); };
    $("concede").onclick = async () => {
      if (!window.confirm("Concede the game? The other side wins (rule 5.0); this cannot be undone.")) return;
      const r = await send("POST", "/api/concede", {view: viewArg()});
      if (!r.ok) message(r.data.error, true);
    };
    $("save").onclick = save;
    $("load").onchange = e => { if (e.target.files[0]) load(e.target.files[0]); e.target.value = ""; };
    $("view").onchange = refresh;
    $("run").onclick = run;
    $("step").onclick = stepAgents;
    $("open").onclick = () => window.open("/replay?game=" + encodeURIComponent($("games").value), "_blank");
    $("zoomin").onclick = () => setZoom(app.zoom * 1.5);
    $("zoomout").onclick = () => setZoom(app.zoom / 1.5);
    if (info.playing) await refresh();
    document.body.dataset.ready = "1";
  }
  start();
})();
