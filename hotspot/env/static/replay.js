// The replay viewer's controls (hotspot.env.viewer.write_replay_html): steps, play, the view switch.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("data").textContent);
  const $ = id => document.getElementById(id);
  let index = 0, timer = null, zoom = 1, hover = null;
  const board = new HotspotBoard($("board"), DATA.meta, {onHover: (c, r) => { hover = [c, r]; showHex(); },
                                                          onHex: (c, r) => { hover = [c, r]; showHex(); }});
  HotspotBoard.legend($("legend"), DATA.meta);

  function showHex() {
    if (!hover) return;
    const [c, r] = hover;
    const lines = board.describeHex(c, r).concat(board.stackAt(c, r).map(u => HotspotBoard.unitText(DATA.meta, u)));
    $("hex").innerHTML = "";
    for (const line of lines) { const d = document.createElement("div"); d.textContent = line; $("hex").appendChild(d); }
  }

  function show(i) {
    index = Math.max(0, Math.min(DATA.frames.length - 1, i));
    const f = DATA.frames[index];
    const view = +$("view").value;  // 0 everything, 1 as the Ziegler saw it, 2 as the Technocrat (D20)
    board.draw(f.boards[view]);
    $("slider").value = index;
    $("status").textContent = "step " + index + "/" + (DATA.frames.length - 1) + " — turn " + f.turn + ", phase " +
      f.phase + " (" + f.phaseName + ")" + (f.over ? ": " + f.result : "");
    $("notes").textContent = f.notes.join("; ");
    $("caption").textContent = (f.player >= 0 ? ["Ziegler", "Technocrat"][f.player] + ": " : "") + f.actions[view];
    $("events").innerHTML = "";
    for (const e of f.events[view]) { const li = document.createElement("li"); li.textContent = e; $("events").appendChild(li); }
    document.body.dataset.step = String(index);
    showHex();
  }

  function setZoom(z) {
    zoom = Math.max(1, Math.min(4, z));
    $("board").style.width = $("board").style.height = (100 * zoom) + "%";
  }

  $("slider").max = DATA.frames.length - 1;
  $("slider").addEventListener("input", e => show(+e.target.value));
  $("view").addEventListener("change", () => show(index));
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(index - 1);
  $("next").onclick = () => show(index + 1);
  $("last").onclick = () => show(DATA.frames.length - 1);
  $("zoomin").onclick = () => setZoom(zoom * 1.5);
  $("zoomout").onclick = () => setZoom(zoom / 1.5);
  $("play").onclick = () => {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
    $("play").textContent = "pause";
    timer = setInterval(() => {
      if (index >= DATA.frames.length - 1) { clearInterval(timer); timer = null; $("play").textContent = "play"; }
      else show(index + 1);
    }, 250);
  };
  document.addEventListener("keydown", e => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") show(index + 1);
    if (e.key === "ArrowLeft") show(index - 1);
    if (e.key === "Home") show(0);
    if (e.key === "End") show(DATA.frames.length - 1);
  });
  show(0);
})();
