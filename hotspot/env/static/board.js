// The Hot Spot board in SVG: one drawing code for the replay viewer
// (hotspot.env.viewer) and the browser app (hotspot serve, hotspot.human.web).
//
// It draws the data of hotspot.env.viewer.board_of(): flat-topped hexes in
// the odd-q layout of D1 (odd columns half a hex down), each labelled with its
// (col,row) as the text board and the action captions name it; crustals,
// platforms and the Central Crustal (D2) by colour, with their letter and
// damage; counters as printed (2.2.1): attack top left, defense top right, the
// type in the centre, squads bottom left, movement bottom right, in their
// side's colour; a badge counts the counters of a stack.
"use strict";

const HS_SVG = "http://www.w3.org/2000/svg";
const HS_R = 30;                 // hex radius, in SVG units
const HS_SQ3 = Math.sqrt(3);
const HS_SIDE_NAMES = ["ziegler", "technocrat"];
const HS_PIECE_CLASS = {2: "crustal", 3: "crustal", 4: "crustal", 5: "crustal", 6: "platform"};

function hsCentre(c, r) {
  return [HS_R + 1.5 * HS_R * c, HS_SQ3 / 2 * HS_R * (1 + 2 * r + (c & 1))];
}

function hsHexPoints(x, y, radius) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 3 * i;
    pts.push((x + radius * Math.cos(a)).toFixed(1) + "," + (y + radius * Math.sin(a)).toFixed(1));
  }
  return pts.join(" ");
}

function hsEl(tag, attrs, parent, text) {
  const e = document.createElementNS(HS_SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

class HotspotBoard {
  // svg: an <svg> element; meta: board_meta(); handlers: {onHex(c, r), onUnit(u), onHover(c, r)} (all optional).
  constructor(svg, meta, handlers) {
    this.svg = svg;
    this.meta = meta;
    this.handlers = handlers || {};
    this.board = null;
    svg.innerHTML = "";
    svg.classList.add("hs-board");
    this.grid = hsEl("g", {"class": "hs-grid"}, svg);
    this.layer = hsEl("g", {"class": "hs-layer"}, svg);
    this.hexes = {};
    for (let c = 0; c < meta.cols; c++) for (let r = 0; r < meta.rows; r++) this._hex(c, r, this.grid, false);
    this.central = new Set(meta.central.map(([c, r]) => c + "," + r));
    svg.addEventListener("click", e => {
      const g = e.target.closest("[data-unit]");
      if (g && this.handlers.onUnit) { this.handlers.onUnit(+g.dataset.unit, e); return; }
      const h = e.target.closest("[data-hex]");
      if (h && this.handlers.onHex) { const [c, r] = h.dataset.hex.split(",").map(Number); this.handlers.onHex(c, r, e); }
    });
    svg.addEventListener("mouseover", e => {
      const h = e.target.closest("[data-hex]");
      if (h && this.handlers.onHover) { const [c, r] = h.dataset.hex.split(",").map(Number); this.handlers.onHover(c, r); }
    });
    this._fit([]);
  }

  _hex(c, r, parent, offMap) {
    const [x, y] = hsCentre(c, r);
    const g = hsEl("g", {"data-hex": c + "," + r, "class": "hs-hex" + (offMap ? " hs-offmap" : "")}, parent);
    const poly = hsEl("polygon", {points: hsHexPoints(x, y, HS_R), "class": "hs-molten"}, g);
    hsEl("text", {x: x, y: y + HS_R * 0.8, "class": "hs-coord"}, g, c + "," + r);
    const entry = {g: g, poly: poly, x: x, y: y};
    if (!offMap) this.hexes[c + "," + r] = entry;
    return entry;
  }

  // The view box: the map, grown to show the hexes of pieces partly off it (6.9, D3).
  _fit(cells) {
    let c0 = 0, c1 = this.meta.cols - 1, r0 = 0, r1 = this.meta.rows - 1;
    for (const [c, r] of cells) { c0 = Math.min(c0, c); c1 = Math.max(c1, c); r0 = Math.min(r0, r); r1 = Math.max(r1, r); }
    const x0 = hsCentre(c0, 0)[0] - HS_R - 2, x1 = hsCentre(c1, 0)[0] + HS_R + 2;
    const y0 = HS_SQ3 / 2 * HS_R * 2 * r0 - 2, y1 = HS_SQ3 / 2 * HS_R * (2 * r1 + 3) + 2;
    this.svg.setAttribute("viewBox", [x0, y0, x1 - x0, y1 - y0].map(v => v.toFixed(1)).join(" "));
  }

  // Units of the current board in hex (c, r), Ziegler's then the Technocrat's.
  stackAt(c, r) {
    if (!this.board) return [];
    return this.board.units.filter(u => u[7] === c && u[8] === r).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  }

  pieceAt(c, r) {
    if (!this.board) return null;
    return this.board.pieces.find(p => p[3].some(([pc, pr]) => pc === c && pr === r)) || null;
  }

  // board: board_of(); marks (optional): {targets: ["c,r", ...] (hexes to click), units: [id, ...]
  // (counters to click), refused: "c,r" (a refused click)}.
  draw(board, marks) {
    marks = marks || {};
    this.board = board;
    this.marks = marks;
    const layer = this.layer;
    layer.innerHTML = "";
    for (const key in this.hexes) this.hexes[key].poly.setAttribute("class", this.central.has(key) ? "hs-central" : "hs-molten");
    const offMap = [];
    const where = {};
    for (const p of board.pieces) {
      const [k, name, kind, cells, controller, neutralized] = p;
      const cls = kind === 1 ? (controller === 1 ? "hs-central hs-central-techno" : "hs-central") :
        kind === 6 ? "hs-platform" : neutralized ? "hs-neutralized" : controller === 1 ? "hs-techno" : "hs-crustal";
      cells.forEach(([c, r], i) => {
        let h = this.hexes[c + "," + r];
        if (!h) { h = this._hex(c, r, layer, true); offMap.push([c, r]); }
        h.poly.setAttribute("class", cls + (k === board.selPiece ? " hs-selected" : ""));
        where[c + "," + r] = {piece: p, front: i === 0 && (kind === 3 || kind === 5)};
      });
    }
    for (const key of marks.targets || []) {  // a target off the map (a crustal moving partly off, 6.9)
      if (!this.hexes[key] && !where[key]) {
        const [c, r] = key.split(",").map(Number);
        this._hex(c, r, layer, true);
        offMap.push([c, r]);
      }
    }
    this._fit(offMap);
    for (const key in where) {
      const {piece, front} = where[key];
      const [k, name, kind, cells, controller, neutralized, damage, rating] = piece;
      const h = this.hexes[key] || this._find(layer, key);
      let label = name;
      if (kind === 1) {  // the Central Crustal: its name on its centre hex (D2); its colour, its controller
        if (key !== cells[0][0] + "," + cells[0][1]) continue;
      } else if (key === cells[0][0] + "," + cells[0][1]) {
        label += " " + (damage < 0 ? "?" : damage) + "/" + rating;  // damage and damage rating (14.0, D7)
        if (neutralized) label += " N";
      }
      hsEl("text", {x: h.x, y: h.y - HS_R * 0.58, "class": "hs-piece-label" + (kind === 6 ? " hs-on-dark" : "")}, layer, label);
      if (front) hsEl("circle", {cx: h.x - HS_R * 0.62, cy: h.y - HS_R * 0.05, r: 3, "class": "hs-front"}, layer);
    }
    for (const key of marks.targets || []) {
      const h = this.hexes[key] || this._find(layer, key);
      if (h) hsEl("polygon", {points: hsHexPoints(h.x, h.y, HS_R - 2.5), "class": "hs-target", "data-hex": key}, layer);
    }
    if (board.setupHex) {  // a crustal being set up: its first hex, the facing to choose (3.2)
      const h = this.hexes[board.setupHex.join(",")];
      if (h) hsEl("polygon", {points: hsHexPoints(h.x, h.y, HS_R - 1.5), "class": "hs-setup"}, layer);
    }
    if (marks.refused) {
      const h = this.hexes[marks.refused];
      if (h) hsEl("polygon", {points: hsHexPoints(h.x, h.y, HS_R - 2.5), "class": "hs-refused"}, layer);
    }
    const stacks = {};
    for (const u of board.units) {
      const key = u[7] + "," + u[8];
      (stacks[key] = stacks[key] || [[], []])[u[1] === 1 ? 1 : 0].push(u);
    }
    for (const key in stacks) {
      const h = this.hexes[key] || this._find(layer, key);
      if (!h) continue;
      const both = stacks[key][0].length && stacks[key][1].length;
      for (const side of [0, 1]) {
        const units = stacks[key][side];
        if (!units.length) continue;
        // The top counter: the selected one, else the lowest index (R9.5, the one a hidden stack shows).
        const top = units.find(u => u[0] === board.selUnit) || units.reduce((a, b) => (a[0] < b[0] ? a : b));
        const x = both ? h.x + (side ? 14 : -14) : h.x;
        this._counter(layer, top, units, x, h.y + 1, both ? 26 : 30);
      }
    }
  }

  _find(layer, key) {
    const g = layer.querySelector('[data-hex="' + key + '"]');
    if (!g) return null;
    const [c, r] = key.split(",").map(Number);
    const [x, y] = hsCentre(c, r);
    return {x: x, y: y};
  }

  _counter(layer, u, stack, x, y, w) {
    const [id, side, type, squads, attack, defense, movement] = u;
    const hidden = type < 0;
    const g = hsEl("g", {"class": "hs-counter hs-" + HS_SIDE_NAMES[side] + (hidden ? " hs-hidden" : "") +
                         (id === this.board.selUnit ? " hs-selected" : "") +
                         ((this.marks.units || []).includes(id) ? " hs-target-unit" : ""), "data-unit": id}, layer);
    const half = w / 2;
    if (stack.length > 1) hsEl("rect", {x: x - half + 3, y: y - half - 3, width: w, height: w, rx: 2, "class": "hs-shadow"}, g);
    hsEl("rect", {x: x - half, y: y - half, width: w, height: w, rx: 2, "class": "hs-face"}, g);
    const t = this.meta.types[type] || null;
    const small = 8.5;
    const f = v => (v < 0 ? "?" : v);  // hidden from the viewer (D20)
    if (hidden) {
      hsEl("text", {x: x, y: y + 4, "class": "hs-abbr"}, g, "?");
    } else {
      hsEl("text", {x: x - half + 2, y: y - half + small, "class": "hs-num hs-left"}, g, f(attack));
      hsEl("text", {x: x + half - 2, y: y - half + small, "class": "hs-num hs-right"}, g, f(defense));
      hsEl("text", {x: x, y: y + 4, "class": "hs-abbr"}, g, t.abbr);
      if (t.infantry) hsEl("text", {x: x - half + 2, y: y + half - 2, "class": "hs-num hs-left"}, g, "x" + f(squads));
      hsEl("text", {x: x + half - 2, y: y + half - 2, "class": "hs-num hs-right"}, g, f(movement));
    }
    if (stack.length > 1) {
      hsEl("circle", {cx: x + half, cy: y - half, r: 6, "class": "hs-badge"}, g);
      hsEl("text", {x: x + half, y: y - half + 3, "class": "hs-badge-text"}, g, stack.length);
    }
    hsEl("title", {}, g, stack.map(v => HotspotBoard.unitText(this.meta, v)).join("\n"));
  }

  // "technocrat crawler (unit 12): attack 3, defense 2, movement 3" (a counter's full text).
  static unitText(meta, u) {
    const [id, side, type, squads, attack, defense, movement, c, r] = u;
    if (type < 0) return HS_SIDE_NAMES[side] + " counter (unit " + id + "), hidden (D20) at " + c + "," + r;
    const t = meta.types[type];
    const size = t.infantry ? " x" + (squads < 0 ? "?" : squads) : "";
    const f = v => (v < 0 ? "?" : v);
    return HS_SIDE_NAMES[side] + " " + t.name.replace("_", " ") + size + " (unit " + id + "): attack " + f(attack) +
      ", defense " + f(defense) + ", movement " + f(movement) + " at " + c + "," + r;
  }

  // What a hex holds, as lines of text (the details panel).
  describeHex(c, r) {
    const lines = ["hex (" + c + "," + r + ")"];
    const p = this.pieceAt(c, r);
    if (p) {
      const [k, name, kind, cells, controller, neutralized, damage, rating] = p;
      const kindName = kind === 1 ? "the Central Crustal (D2)" : this.meta.pieceKinds[kind].replace("_", "-") + (kind === 6 ? "" : " crustal");
      lines.push(name + ": " + kindName + (kind === 6 ? "" : ", " + HS_SIDE_NAMES[controller]) +
                 (neutralized ? ", neutralized" : "") + ", damage " + (damage < 0 ? "?" : damage) + "/" + rating);
    } else if (this.central.has(c + "," + r)) {
      lines.push("CC: the Central Crustal (D2)");
    } else {
      lines.push("molten rock");
    }
    return lines;
  }

  // The legend: colours, counters and coordinates, into an HTML element.
  static legend(container, meta) {
    const rows = [
      ["hs-molten", "molten rock"], ["hs-central", "Central Crustal (D2)"],
      ["hs-central hs-central-techno", "Central Crustal under Technocrat control (15.0)"], ["hs-crustal", "Ziegler crustal"],
      ["hs-techno", "crustal under Technocrat control (15.0)"], ["hs-neutralized", "neutralized crustal (15.4)"],
      ["hs-platform", "attack platform"]];
    let html = "<div class='hs-legend-grid'>";
    for (const [cls, text] of rows)
      html += "<svg viewBox='0 0 20 14' class='hs-swatch'><rect width='20' height='14' class='" + cls + "'/></svg><span>" + text + "</span>";
    html += "<svg viewBox='0 0 20 14' class='hs-swatch'><rect width='20' height='14' class='hs-face hs-ziegler'/></svg><span>Ziegler counter</span>";
    html += "<svg viewBox='0 0 20 14' class='hs-swatch'><rect width='20' height='14' class='hs-face hs-technocrat'/></svg><span>Technocrat counter</span>";
    html += "</div><p>A counter as printed (2.2.1): attack top left, defense top right, type in the centre (" +
      meta.types.slice(1).map(t => t.abbr + " " + t.name.replace("_", " ")).filter((v, i, a) => a.indexOf(v) === i).join(", ") +
      "), squads bottom left (infantry, D4), movement bottom right. A badge counts the counters of a stack; " +
      "the top one is shown (hover or click the hex for all). ? : hidden from the viewer (D20).</p>" +
      "<p>Crustals: letter, damage/rating on the front hex (a dot marks the front of two-hex and long crustals, 6.4); " +
      "P1..P5: attack platforms. Each hex shows its (col,row), as the text board and the captions do.</p>";
    container.innerHTML = html;
  }
}
