// Kroon's board page. It draws the state the server streams and sends the player's
// actions back; it knows no rules: the legal moves, with their captured squares and
// paths, come from the server, which also explains every refusal.
"use strict";

const kroon = {
  session: null,
  state: null,
  receivedAt: 0,
  selected: null,   // the square of the piece picked up
  dragFrom: null,   // the square a drag started on
  flipped: false,
  choosing: null,   // the moves offered when several captures end on one square
  edited: {},       // inputs the player is editing, not to be overwritten
};
window.kroon = kroon;

const $ = (id) => document.getElementById(id);

// ---- talking to the server ----

async function act(action) {
  let answer;
  try {
    const response = await fetch(`/api/action?session=${kroon.session}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(action),
    });
    answer = await response.json();
    if (!response.ok) {
      say(answer.error || `the server answered ${response.status}`);
      return null;
    }
  } catch (e) {
    say(`the server did not answer: ${e}`);
    return null;
  }
  say("");
  return answer;
}

function say(text, notice) {
  const message = $("message");
  message.textContent = text;
  message.classList.toggle("notice", !!notice);
}

async function connect() {
  try {
    const response = await fetch("/api/session", { method: "POST" });
    kroon.session = (await response.json()).session;
  } catch (e) {
    $("connection").textContent = "no server";
    return;
  }
  const events = new EventSource(`/api/events?session=${kroon.session}`);
  events.onopen = () => { $("connection").textContent = "connected"; };
  events.onmessage = (event) => {
    kroon.state = JSON.parse(event.data);
    kroon.receivedAt = performance.now();
    render();
  };
  events.onerror = () => {
    // The session ends with its stream: a new one starts with a reload.
    events.close();
    $("connection").textContent = "connection lost: reload the page";
  };
}

// ---- the board ----

function squareAt(row, column) {
  // Dark squares are those with an odd row + column; 1 is row 0, column 1.
  if ((row + column) % 2 === 0) return null;
  return row * 5 + Math.floor(column / 2) + 1;
}

function buildBoard() {
  const board = $("board");
  board.textContent = "";
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 10; c++) {
      const cell = document.createElement("div");
      cell.className = "square";
      cell.dataset.cell = `${r},${c}`;
      board.appendChild(cell);
    }
  }
}

function pieceOn(square) {
  const symbol = kroon.state.position[square];
  switch (symbol) {
    case "w": return { side: "white", king: false };
    case "b": return { side: "black", king: false };
    case "W": return { side: "white", king: true };
    case "B": return { side: "black", king: true };
    default: return null;
  }
}

function renderBoard() {
  const state = kroon.state;
  const targets = new Set(
    state.legal.filter((m) => m.from === kroon.selected).map((m) => m.to));
  const last = state.last ? new Set([state.last.from, state.last.to]) : new Set();
  const offered = kroon.highlighted || null;
  for (const cell of $("board").children) {
    const [r, c] = cell.dataset.cell.split(",").map(Number);
    const [row, column] = kroon.flipped ? [9 - r, 9 - c] : [r, c];
    const square = squareAt(row, column);
    cell.textContent = "";
    cell.className = "square";
    delete cell.dataset.square;
    if (square === null) continue;
    cell.classList.add("dark");
    cell.dataset.square = square;
    if (last.has(square)) cell.classList.add("last");
    if (square === kroon.selected) cell.classList.add("selected");
    if (targets.has(square)) cell.classList.add("target");
    if (offered && offered.path.includes(square)) cell.classList.add("path");
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = square;
    cell.appendChild(number);
    const piece = pieceOn(square);
    if (piece) {
      const disc = document.createElement("div");
      disc.className = `piece ${piece.side}${piece.king ? " king" : ""}`;
      if (offered && offered.captured.includes(square)) disc.classList.add("capturing");
      cell.appendChild(disc);
    }
  }
}

function squareOf(element) {
  const cell = element && element.closest ? element.closest(".square") : null;
  return cell && cell.dataset.square ? Number(cell.dataset.square) : null;
}

function ownPiece(square) {
  const piece = kroon.state && pieceOn(square);
  return piece && piece.side === kroon.state.side;
}

function onDown(event) {
  const square = squareOf(event.target);
  if (square === null || !kroon.state) return;
  event.preventDefault();
  if (kroon.selected !== null && square !== kroon.selected && !ownPiece(square)) {
    const from = kroon.selected;
    kroon.selected = null;
    attempt(from, square);
    return;
  }
  if (ownPiece(square)) {
    kroon.selected = square;
    kroon.dragFrom = square;
    closeChoices();
    renderBoard();
  } else if (pieceOn(square)) {
    say(`it is ${kroon.state.side}'s turn`);
  }
}

function onUp(event) {
  if (kroon.dragFrom === null) return;
  const from = kroon.dragFrom;
  kroon.dragFrom = null;
  const square = squareOf(document.elementFromPoint(event.clientX, event.clientY));
  if (square !== null && square !== from && kroon.selected === from) {
    kroon.selected = null;
    attempt(from, square);
  }
}

function attempt(from, to) {
  const candidates = kroon.state.legal.filter((m) => m.from === from && m.to === to);
  renderBoard();
  if (candidates.length === 1) {
    act({ action: "move", move: candidates[0].hub });
  } else if (candidates.length > 1) {
    offerChoices(candidates);
  } else {
    // Not legal: the server says why.
    act({ action: "move", move: `${from}-${to}` });
  }
}

function offerChoices(moves) {
  kroon.choosing = moves;
  const list = $("choice-list");
  list.textContent = "";
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "path-choice";
    button.dataset.hub = move.hub;
    button.textContent = `${move.path.join("x")} takes ${move.captured.join(", ")}`;
    button.onmouseenter = () => { kroon.highlighted = move; renderBoard(); };
    button.onfocus = button.onmouseenter;
    button.onclick = () => { closeChoices(); act({ action: "move", move: move.hub }); };
    list.appendChild(button);
  }
  $("choices").hidden = false;
  $("choices").scrollIntoView({ block: "nearest" });
  kroon.highlighted = moves[0];
  renderBoard();
}

function closeChoices() {
  kroon.choosing = null;
  kroon.highlighted = null;
  $("choices").hidden = true;
}

// ---- the rest of the page ----

function sideName(side) {
  const who = kroon.state.players[side] === "engine" ? ` (${kroon.state.engine})` : "";
  return side[0].toUpperCase() + side.slice(1) + who;
}

function clockText(ms) {
  const tenths = Math.max(0, Math.floor(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor(tenths / 10) % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}.${tenths % 10}`;
}

function renderClocks() {
  const state = kroon.state;
  if (!state) return;
  const [top, bottom] = kroon.flipped ? ["white", "black"] : ["black", "white"];
  $("top-label").textContent = sideName(top);
  $("bottom-label").textContent = sideName(bottom);
  for (const [place, side] of [["top", top], ["bottom", bottom]]) {
    const element = $(`${place}-clock`);
    element.dataset.side = side;
    if (!state.clock) {
      element.textContent = "";
      element.className = "clock";
      continue;
    }
    let ms = state.clock[side];
    const running = state.clock.running === side;
    if (running) ms -= performance.now() - kroon.receivedAt;
    element.textContent = clockText(ms);
    element.className = `clock${running ? " running" : ""}${ms < 10000 ? " low" : ""}`;
  }
}

function setInput(id, value) {
  const input = $(id);
  if (document.activeElement !== input && !kroon.edited[id]) input.value = value;
}

function renderPanel() {
  const state = kroon.state;
  $("engine-name").textContent = `engine: ${state.engine}`;
  $("tables").textContent = state.tables;
  setInput("white-player", state.players.white);
  setInput("black-player", state.players.black);
  const level = state.level;
  setInput("level-kind", level.kind);
  if (level.kind === "depth") setInput("level-value", level.depth);
  if (level.kind === "time") setInput("level-value", level.seconds);
  if (level.kind === "clock") {
    setInput("level-value", level.seconds / 60);
    setInput("level-increment", level.increment);
  }
  $("increment-box").hidden = $("level-kind").value !== "clock";
  setInput("fen", state.fen);

  let turn = state.result ? "the game is over" : `${sideName(state.side)} to move`;
  if (state.thinking) turn += ": thinking…";
  if (state.paused && !state.result) turn += " (paused: play a move or press “Engine moves now”)";
  $("turn").textContent = turn;
  const c = state.counters;
  let counters = `kings only: ${c.king_moves}/${c.king_moves_limit} moves`;
  if (c.ending) counters += `; ${c.ending.rule}: ${c.ending.moves}/${c.ending.limit} moves`;
  $("counters").textContent = counters;
  $("result").textContent = state.result ? `${state.result.pdn}  ${state.result.summary}` : "";
  if (state.engine_error) say(state.engine_error);
  else if (state.notice) say(state.notice, true);

  $("analyse").textContent = state.analysing ? "Stop analysis" : "Analyse";
  const search = state.search;
  const white = (score) => (state.side === "white" ? score : -score);
  $("analysis-depth").textContent = search ? search.depth : "–";
  $("analysis-score").textContent =
    search && search.score !== null ? formatScore(white(search.score)) : "–";
  $("analysis-nps").textContent =
    search && search.nps !== null ? Math.round(search.nps).toLocaleString("en") : "–";
  // The PV is redrawn only when it changes, so a click on it is not lost.
  const line = search ? search.pv.map((m) => m.hub) : [];
  const pv = $("pv");
  if (pv.dataset.line !== line.join(" ")) {
    pv.dataset.line = line.join(" ");
    pv.textContent = "";
    search && search.pv.forEach((move, i) => {
      const span = document.createElement("span");
      span.className = "pv-move";
      span.dataset.index = i;
      span.dataset.hub = move.hub;
      span.textContent = move.pdn;
      span.title = "play up to this move";
      pv.appendChild(span);
    });
  }
  const known = [];
  if (state.book !== undefined) known.push(`book: ${state.book}`);
  if (state.database !== undefined) known.push(`database: ${state.database}`);
  $("knowledge").textContent = known.join("; ");
  renderGraph();
  renderMoves();
}

function formatScore(men) {
  return `${men > 0 ? "+" : ""}${men.toFixed(2)} (White's view)`;
}

function renderGraph() {
  const state = kroon.state;
  const svg = $("graph");
  const plies = Math.max(state.record.length, state.scores.length - 1, 1);
  const x = (ply) => (ply / plies) * 300;
  const y = (score) => 40 - Math.max(-3, Math.min(3, score)) * 12;
  let points = "";
  state.scores.forEach((score, ply) => {
    if (score !== null) points += `${x(ply).toFixed(1)},${y(score).toFixed(1)} `;
  });
  svg.innerHTML =
    `<line x1="0" y1="40" x2="300" y2="40" stroke="#aaa" stroke-width="0.5"/>` +
    `<line x1="${x(state.ply)}" y1="0" x2="${x(state.ply)}" y2="80" stroke="#e90" stroke-width="1"/>` +
    `<polyline fill="none" stroke="#236" stroke-width="1.5" points="${points}"/>`;
}

function renderMoves() {
  const state = kroon.state;
  const list = $("moves");
  list.textContent = "";
  let item = null;
  state.record.forEach((move, i) => {
    const white = (i % 2 === 0) === (state.start_side === "white");
    if (white || item === null) {
      item = document.createElement("li");
      list.appendChild(item);
      if (!white) item.appendChild(document.createTextNode("… "));
    }
    const span = document.createElement("span");
    span.textContent = move.pdn;
    span.dataset.ply = i + 1;
    if (i + 1 === state.ply) span.className = "current";
    if (i + 1 > state.ply) span.className = "future";
    span.onclick = () => act({ action: "goto", ply: i + 1 });
    item.appendChild(span);
  });
}

function render() {
  if (!kroon.state) return;
  // A choice or a selection belongs to the position it was made in.
  if (kroon.selected !== null && !ownPiece(kroon.selected)) kroon.selected = null;
  if (kroon.choosing && kroon.state.legal.every((m) => m.hub !== kroon.choosing[0].hub)) {
    closeChoices();
  }
  renderBoard();
  renderClocks();
  renderPanel();
}

async function copyFen() {
  const fen = kroon.state.fen;
  $("fen").value = fen;
  try {
    await navigator.clipboard.writeText(fen);
    say("FEN copied", true);
  } catch (e) {
    $("fen").select();
    say("select and copy the FEN above", true);
  }
}

async function savePdn() {
  const answer = await act({ action: "save" });
  if (!answer) return;
  $("pdn-text").value = answer.pdn;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([answer.pdn], { type: "application/x-pdn" }));
  link.download = "kroon-game.pdn";
  link.click();
  URL.revokeObjectURL(link.href);
}

function setLevel() {
  const kind = $("level-kind").value;
  const value = Number($("level-value").value);
  const action = { action: "level", kind };
  if (kind === "depth") action.depth = value;
  if (kind === "time") action.seconds = value;
  if (kind === "clock") {
    action.seconds = value * 60;
    action.increment = Number($("level-increment").value);
  }
  kroon.edited = {};
  act(action);
}

function wire() {
  buildBoard();
  const board = $("board");
  board.addEventListener("pointerdown", onDown);
  document.addEventListener("pointerup", onUp);
  $("first").onclick = () => act({ action: "first" });
  $("undo").onclick = () => act({ action: "undo" });
  $("redo").onclick = () => act({ action: "redo" });
  $("last").onclick = () => act({ action: "last" });
  $("flip").onclick = () => { kroon.flipped = !kroon.flipped; render(); };
  $("numbers").onclick = () => board.classList.toggle("show-numbers");
  $("new-game").onclick = () => act({ action: "new" });
  $("go").onclick = () => act({ action: "go" });
  $("analyse").onclick = () => act({ action: "analyse", on: !kroon.state.analysing });
  $("pv").onclick = (event) => {
    const span = event.target.closest(".pv-move");
    if (!span) return;
    const moves = [...$("pv").children].slice(0, Number(span.dataset.index) + 1);
    act({ action: "line", moves: moves.map((m) => m.dataset.hub) });
  };
  $("choice-cancel").onclick = () => { closeChoices(); renderBoard(); };
  for (const side of ["white", "black"]) {
    $(`${side}-player`).onchange = (e) => act({ action: "players", [side]: e.target.value });
  }
  for (const id of ["level-kind", "level-value", "level-increment"]) {
    $(id).addEventListener("input", () => {
      kroon.edited[id] = true;
      $("increment-box").hidden = $("level-kind").value !== "clock";
    });
  }
  $("set-level").onclick = setLevel;
  $("setup").onclick = () => act({ action: "setup", fen: $("fen").value });
  $("copy-fen").onclick = copyFen;
  $("load-pdn").onclick = () => act({ action: "load", pdn: $("pdn-text").value });
  $("save-pdn").onclick = savePdn;
  $("pdn-file").onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $("pdn-text").value = await file.text();
    act({ action: "load", pdn: $("pdn-text").value });
  };
  setInterval(renderClocks, 100);
  connect();
}

wire();
