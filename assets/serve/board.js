// The page of `rulesi serve`: draws the server's picture of the board, lets the
// player click cells to play (part by part), and talks to the JSON API
// (docs/serve.md). It knows no game: everything comes from the server.
"use strict";

const state = {
  info: null, // GET /api/game
  pos: null, // the position shown
  selected: [], // the cells clicked so far in this turn
  busy: false, // a request is under way
  players: {}, // player name -> "human" | "computer"
};

const $ = (id) => document.getElementById(id);

// Sends a request to the API; resolves to the JSON answer, or throws an Error
// carrying the server's code, message and ply.
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw Object.assign(new Error("the server cannot be reached"), { code: "network" });
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch (e) {
    answer = null;
  }
  if (!response.ok) {
    const message = answer && answer.message ? answer.message : `the server answered ${response.status}`;
    throw Object.assign(new Error(message), {
      code: answer && answer.code,
      status: response.status,
      ply: answer && answer.ply,
    });
  }
  return answer;
}

function say(text, note) {
  const m = $("message");
  m.textContent = text || "";
  m.className = note ? "note" : "";
}

// Whether `list` starts with `prefix`.
function startsWith(list, prefix) {
  return prefix.length <= list.length && prefix.every((c, i) => list[i] === c);
}

// The legal turns that go on from the cells clicked so far.
function candidates() {
  const pos = state.pos;
  if (!pos) return [];
  return pos.legal.filter((t) => startsWith(t.cells, state.selected));
}

function show(pos) {
  state.pos = pos;
  state.selected = [];
  if (location.hash.slice(1) !== pos.id) history.replaceState(null, "", "#" + pos.id);
  $("board").innerHTML = pos.svg;
  hands(pos.reserves || []);
  $("status").textContent = pos.outcome ? `${pos.status}` : pos.status + (pos.chooser ? ` · ${pos.chooser} chooses` : "");
  const moves = $("moves");
  moves.replaceChildren(
    ...pos.moves.map((m, i) => {
      const li = document.createElement("li");
      li.textContent = m;
      if (i === pos.moves.length - 1) li.className = "last";
      return li;
    }),
  );
  moves.scrollTop = moves.scrollHeight;
  $("undo").disabled = pos.ply === 0;
  $("computer").disabled = !!pos.outcome || pos.legal.length === 0;
  if (pos.outcome) say("Game over: " + pos.outcome.result + ".", true);
  mark();
  autoplay();
}

// The pieces each side holds off the board, as `play` shows them: `in hand: red 3
// tile, 1 cube · blue none` (hidden in a game without reserves).
function hands(reserves) {
  const p = $("hands");
  p.hidden = reserves.length === 0;
  p.replaceChildren(
    "in hand: ",
    ...reserves.flatMap((r, i) => {
      const span = document.createElement("span");
      span.className = "hand";
      span.dataset.side = r.side;
      const held = r.pieces.filter((h) => h.count !== 0).map((h) => `${h.count} ${h.kind}`);
      span.textContent = `${r.side} ${held.length ? held.join(", ") : "none"}`;
      return i === 0 ? [span] : [" · ", span];
    }),
  );
}

// Marks the cells: those clicked, where the turn can go next, or (nothing clicked)
// where turns start; and offers the turns to choose from as buttons.
function mark() {
  const board = $("board");
  const cands = candidates();
  const n = state.selected.length;
  const next = new Set();
  const starts = new Set();
  for (const t of cands) {
    if (t.cells.length > n) (n === 0 ? starts : next).add(t.cells[n]);
  }
  const cells = board.querySelectorAll(".cell");
  // Where turns start almost everywhere (placements), the tint is shown only under
  // the pointer.
  board.classList.toggle("many-starts", starts.size * 2 > cells.length);
  for (const el of cells) {
    const c = el.dataset.cell;
    el.classList.toggle("selected", state.selected.includes(c));
    el.classList.toggle("target", next.has(c));
    el.classList.toggle("start", starts.has(c));
  }
  const choices = $("choices");
  const complete = cands.filter((t) => t.cells.length === n && (n > 0 || t.cells.length === 0));
  choices.replaceChildren(
    ...complete.map((t) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = t.notation;
      b.dataset.turn = t.notation;
      b.addEventListener("click", () => play({ turn: t.notation }));
      return b;
    }),
  );
}

function clicked(cell) {
  const pos = state.pos;
  if (!pos || state.busy) return;
  if (pos.outcome) {
    say("The game is over (undo takes back the last move).");
    return;
  }
  const n = state.selected.length;
  if (n > 0 && state.selected[n - 1] === cell) {
    // The last cell again: start the turn afresh.
    state.selected = [];
    say("");
    mark();
    return;
  }
  const next = state.selected.concat([cell]);
  let cands = pos.legal.filter((t) => startsWith(t.cells, next));
  if (cands.length === 0 && n > 0) {
    // Not a continuation: perhaps the start of another turn.
    state.selected = [];
    return clicked(cell);
  }
  if (cands.length === 0) {
    say(`No legal turn starts at ${cell}.`);
    return;
  }
  state.selected = next;
  say("");
  const complete = cands.filter((t) => t.cells.length === next.length);
  if (complete.length === 1 && cands.length === 1) {
    play({ turn: complete[0].notation });
    return;
  }
  mark();
}

async function request(work) {
  if (state.busy) return;
  state.busy = true;
  $("board").classList.add("busy");
  try {
    const pos = await work();
    if (pos) show(pos);
  } catch (e) {
    say(e.message);
    if (e.code === "stale-ply" || e.code === "game-over") {
      // Another tab moved: show the game as it is.
      try {
        show(await api("GET", `/api/games/${state.pos.id}`));
        say(e.message);
      } catch (_) {}
    } else if (e.code === "no-such-game") {
      state.pos = null;
    } else if (state.pos) {
      state.selected = [];
      mark();
    }
  } finally {
    state.busy = false;
    $("board").classList.remove("busy");
  }
}

function play(turn) {
  say("");
  return request(() => api("POST", `/api/games/${state.pos.id}/play`, { ply: state.pos.ply, ...turn }));
}

function thinkMs() {
  const v = Math.round(Number($("think").value));
  return Number.isFinite(v) ? Math.min(60000, Math.max(1, v)) : 1000;
}

function computer() {
  if (!state.pos || state.pos.outcome) return;
  say("The computer is thinking…", true);
  return request(async () => {
    const pos = await api("POST", `/api/games/${state.pos.id}/computer`, { ply: state.pos.ply, think_ms: thinkMs() });
    say("");
    return pos;
  });
}

// The computer plays for the players set to "computer".
function autoplay() {
  const pos = state.pos;
  if (!pos || pos.outcome || !pos.choosing || state.players[pos.choosing] !== "computer") return;
  setTimeout(() => {
    if (state.pos === pos && !state.busy) computer();
  }, 50);
}

function newGame(event) {
  if (event) event.preventDefault();
  const body = { options: {} };
  const ruleset = $("ruleset");
  if (ruleset && ruleset.value) body.ruleset = ruleset.value;
  for (const el of $("settings").querySelectorAll("[data-option]")) {
    if (el.value !== "") body.options[el.dataset.option] = el.type === "number" ? Number(el.value) : el.value;
  }
  say("");
  return request(() => api("POST", "/api/games", body));
}

function save() {
  if (!state.pos) return;
  const blob = new Blob([state.pos.record], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = state.info.file.replace(/\.game$/, "") + ".record";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function load(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  const record = await file.text();
  return request(async () => {
    const pos = await api("POST", "/api/games/load", { record });
    say(`Loaded ${file.name}.`, true);
    return pos;
  });
}

// The "new game" form and the players' settings, from GET /api/game.
function settingsForm(info) {
  const rows = [];
  const label = (text, control, title) => {
    const l = document.createElement("label");
    l.textContent = text;
    if (title) l.title = title;
    l.appendChild(control);
    return l;
  };
  if (info.rulesets.length > 0) {
    const select = document.createElement("select");
    select.id = "ruleset";
    select.add(new Option("(none)", ""));
    for (const r of info.rulesets) {
      const o = new Option(`${r.name} — ${r.description}`, r.name);
      o.selected = r.name === info.default_ruleset;
      select.add(o);
    }
    rows.push(label("ruleset", select));
  }
  for (const opt of info.options) {
    let control;
    const given = info.default_options[opt.name];
    if (opt.numeric && opt.values.length === 0) {
      control = document.createElement("input");
      control.type = "number";
      control.placeholder = opt.default;
      control.value = given || "";
    } else {
      control = document.createElement("select");
      control.add(new Option(`(default: ${opt.default})`, ""));
      for (const v of opt.values) control.add(new Option(v, v, false, v === given));
    }
    control.dataset.option = opt.name;
    rows.push(label(opt.name, control, opt.description));
  }
  $("settings").replaceChildren(...rows);
  const players = info.players.map((p) => {
    const select = document.createElement("select");
    select.dataset.player = p;
    select.add(new Option("a person", "human"));
    select.add(new Option("the computer", "computer"));
    select.addEventListener("change", () => {
      state.players[p] = select.value;
      autoplay();
    });
    state.players[p] = "human";
    return label(`${p} is played by`, select);
  });
  $("players").replaceChildren(...players);
}

async function start() {
  $("board").addEventListener("click", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (cell) clicked(cell.dataset.cell);
  });
  $("undo").addEventListener("click", () =>
    request(() => api("POST", `/api/games/${state.pos.id}/undo`, { ply: state.pos.ply })),
  );
  $("computer").addEventListener("click", computer);
  $("new-game").addEventListener("submit", newGame);
  $("save").addEventListener("click", save);
  $("load").addEventListener("change", load);
  try {
    state.info = await api("GET", "/api/game");
  } catch (e) {
    say(e.message);
    return;
  }
  document.title = `${state.info.title} · rulesi`;
  $("title").textContent = state.info.title;
  settingsForm(state.info);
  const id = location.hash.slice(1);
  if (id) {
    try {
      show(await api("GET", `/api/games/${encodeURIComponent(id)}`));
      return;
    } catch (e) {
      // Not kept any more: a new game.
    }
  }
  await request(() => api("POST", "/api/games", {}));
}

start();
