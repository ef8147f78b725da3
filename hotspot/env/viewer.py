"""A self-contained HTML replay viewer for a game record.

``write_replay_html(record, path)`` replays the record (scenario, seed,
actions), keeps one frame per action (pieces, units, turn, phase) with a
caption of the action and every die roll and outcome it caused
(``hotspot.core.render.describe_events``), and writes a
single HTML file (no network, no dependencies) that draws the hex board in
SVG and steps through the frames: buttons, a slider, the arrow keys, play.
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import NamedTuple

from hotspot.core.game import Game, IllegalActionError, action_to_string
from hotspot.core.hexgrid import MAP_COLS, MAP_ROWS, col_row
from hotspot.core.record import GameRecord, RecordError
from hotspot.core.render import describe_events, piece_name
from hotspot.core.rules_data import (NO_PIECE, PHASE_LETTERS, PHASE_NAMES, PIECE_NAMES, RESULT_NAMES, SIDE_NAMES,
                                     UNIT_LETTERS, UNIT_SIDE)
from hotspot.core.state import MAX_PIECES, MAX_UNITS


def _frame(s, caption: str) -> dict:
    pieces = []
    for k in range(MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == NO_PIECE or k == 0:
            continue
        cells = [list(col_row(int(c))) for c in s["piece_cells"][k] if c >= 0]
        pieces.append([piece_name(s, k), PIECE_NAMES[kind], cells, int(s["piece_controller"][k]),
                       int(s["piece_neutralized"][k]), int(s["piece_damage"][k])])
    units = []
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t > 0:
            c, r = col_row(int(s["unit_cell"][u]))
            units.append([int(UNIT_SIDE[t]), UNIT_LETTERS[t], int(s["unit_squads"][u]), c, r])
    phase = int(s["phase"])
    return {"turn": int(s["turn"]), "phase": PHASE_LETTERS[phase], "phaseName": PHASE_NAMES[phase],
            "result": RESULT_NAMES[int(s["result"])], "pieces": pieces, "units": units, "caption": caption}


class ReplayStep(NamedTuple):
    """One action of a replayed record (``replay_steps``)."""

    game: Game          # the live game, after the action
    index: int          # the action's position in the record
    side: int           # the side that acted
    turn: int           # the turn and phase letter when it acted (4.0)
    phase: str
    caption: str        # the core's action_to_string
    details: list       # every die roll and outcome it caused (describe_events)


def replay_steps(record: GameRecord):
    """Replay ``record`` action by action, yielding a ``ReplayStep`` after each.
    Raises ``RecordError`` where the record does not replay."""
    game = replay_start(record)
    for i, a in enumerate(record.actions):
        side, turn, phase = int(game.current_player()), game.turn, PHASE_LETTERS[game.phase]
        text = action_to_string(game.s, a)
        before = game.s.copy()  # names of pieces that this action may remove
        try:
            events = game.apply_action(a, events=True)
        except (IllegalActionError, TypeError) as exc:
            raise RecordError(f"actions[{i}] = {a!r} does not replay: {exc}") from None
        yield ReplayStep(game, i, side, turn, phase, text, describe_events(before, events))


def replay_start(record: GameRecord) -> Game:
    """The game at the start of ``record`` (its scenario and seed, or its initial state)."""
    if record.initial_state is not None:
        import base64
        return Game.from_bytes(base64.b64decode(record.initial_state))
    return Game(record.scenario, seed=record.seed, max_turns=record.max_turns)


def replay_frames(record: GameRecord) -> list[dict]:
    """The frames of a record: the start, then one after each action."""
    frames = [_frame(replay_start(record).s, "start")]
    for step in replay_steps(record):
        caption = f"{SIDE_NAMES[step.side]}: {step.caption}" + (" — " + "; ".join(step.details)
                                                                if step.details else "")
        frames.append(_frame(step.game.s, caption))
    return frames


def write_replay_html(record, path, title: str = "Hot Spot replay") -> Path:
    """Write the viewer for ``record`` (a GameRecord or a path to a saved one) to ``path``."""
    if not isinstance(record, GameRecord):
        record = GameRecord.load(record)
    frames = replay_frames(record)
    data = json.dumps({"cols": MAP_COLS, "rows": MAP_ROWS, "frames": frames}, separators=(",", ":"))
    page = _TEMPLATE.replace("__TITLE__", html.escape(title)).replace("__DATA__", data.replace("</", "<\\/"))
    path = Path(path)
    path.write_text(page, encoding="utf-8")
    return path


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body{font-family:sans-serif;background:#222;color:#eee;margin:12px}
#bar button{margin-right:4px}#caption{min-height:3em;margin:8px 0;max-width:900px}
svg text{font-size:7px;pointer-events:none}
</style></head><body>
<h3>__TITLE__</h3>
<div id="bar"><button id="first">|&lt;</button><button id="prev">&lt;</button><button id="play">play</button>
<button id="next">&gt;</button><button id="last">&gt;|</button>
<input id="slider" type="range" min="0" value="0" style="width:420px">
<span id="status"></span></div>
<div id="caption"></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const R = 16, SQ3 = Math.sqrt(3);
const svg = document.getElementById("board");
const NS = "http://www.w3.org/2000/svg";
svg.setAttribute("width", Math.ceil(R * (1.5 * (DATA.cols - 1) + 2)) + 2);
svg.setAttribute("height", Math.ceil(SQ3 * R * (DATA.rows + 0.5)) + 2);
function centre(c, r) { return [R + 1.5 * R * c, SQ3 / 2 * R * (1 + 2 * r + (c & 1))]; }
const hexes = {};
for (let c = 0; c < DATA.cols; c++) for (let r = 0; r < DATA.rows; r++) {
  const [x, y] = centre(c, r);
  const pts = [];
  for (let i = 0; i < 6; i++) { const a = Math.PI / 3 * i; pts.push((x + R * Math.cos(a)).toFixed(1) + "," + (y + R * Math.sin(a)).toFixed(1)); }
  const p = document.createElementNS(NS, "polygon");
  p.setAttribute("points", pts.join(" ")); p.setAttribute("stroke", "#301510");
  svg.appendChild(p);
  const t = document.createElementNS(NS, "text");
  t.setAttribute("x", x); t.setAttribute("y", y + 2); t.setAttribute("text-anchor", "middle");
  svg.appendChild(t);
  hexes[c + "," + r] = {poly: p, text: t};
}
const CC = [[7,10],[7,9],[8,10],[8,11],[7,11],[6,11],[6,10]];
let index = 0, timer = null;
function show(i) {
  index = Math.max(0, Math.min(DATA.frames.length - 1, i));
  const f = DATA.frames[index];
  for (const key in hexes) { hexes[key].poly.setAttribute("fill", "#781609"); hexes[key].text.textContent = ""; }
  for (const [c, r] of CC) hexes[c + "," + r].poly.setAttribute("fill", "#969696");
  for (const [name, kind, cells, ctl, neut, dmg] of f.pieces) {
    const colour = kind === "platform" ? "#3c4655" : neut ? "#965aaa" : ctl === 1 ? "#5a82c8" : "#d6be8c";
    for (const [c, r] of cells) { const h = hexes[c + "," + r]; if (h) { h.poly.setAttribute("fill", colour); h.text.textContent = name; } }
  }
  const stacks = {};
  for (const [side, letter, squads, c, r] of f.units) {
    const key = c + "," + r; stacks[key] = stacks[key] || ["", ""];
    stacks[key][side] += letter + (squads > 1 ? squads : "");
  }
  for (const key in stacks) {
    const h = hexes[key]; if (!h) continue;
    const [z, t] = stacks[key];
    h.text.textContent = (h.text.textContent ? h.text.textContent + " " : "") + (z ? z.toLowerCase() : "") + (z && t ? "|" : "") + t;
  }
  document.getElementById("slider").value = index;
  document.getElementById("status").textContent = "step " + index + "/" + (DATA.frames.length - 1) +
    " — turn " + f.turn + ", phase " + f.phase + " (" + f.phaseName + ")" + (f.phase === "-" ? ": " + f.result : "");
  document.getElementById("caption").textContent = f.caption;
  document.body.dataset.step = String(index);
}
document.getElementById("slider").max = DATA.frames.length - 1;
document.getElementById("slider").addEventListener("input", e => show(+e.target.value));
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(index - 1);
document.getElementById("next").onclick = () => show(index + 1);
document.getElementById("last").onclick = () => show(DATA.frames.length - 1);
document.getElementById("play").onclick = () => {
  if (timer) { clearInterval(timer); timer = null; return; }
  timer = setInterval(() => { if (index >= DATA.frames.length - 1) { clearInterval(timer); timer = null; } else show(index + 1); }, 150);
};
document.addEventListener("keydown", e => { if (e.key === "ArrowRight") show(index + 1); if (e.key === "ArrowLeft") show(index - 1); });
show(0);
</script></body></html>
"""
