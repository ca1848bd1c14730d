// Duel's page: plays and watches any game of `duel serve` through its
// HTTP/JSON API. Every rule lives in the server: the page only matches
// clicks against the prefixes of the view's moves[].squares.
import { renderBoard, renderChart, familyOf, sideIndex, pieceFor, escapeHtml } from './board.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 200;

const app = {
  view: null,        // the last game view from the server
  running: false,    // programs move by themselves (paused by Stop)
  selection: [],     // squares clicked so far, as [r, c]
  gen: 0,            // bumps on every new game / undo: stale timers give up
  timer: null,       // the pending program move or search poll
  sending: false,    // a person's move is on its way to the server
  flipped: false,    // the board drawn with the second player at the bottom
  games: [],
};

// ---- server ----------------------------------------------------------------

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new Error(`cannot reach the server (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON: reported below */ }
  if (!res.ok) throw new Error((data && data.error) || `${res.status} ${res.statusText}`);
  if (data === null) throw new Error(`${method} ${path}: the server's answer is not JSON`);
  return data;
}

// ---- status line -----------------------------------------------------------

function setStatus(text, phase) {
  const s = $('status');
  s.textContent = text;
  s.classList.remove('error');
  if (phase) document.body.dataset.phase = phase;
}

function showError(err) {
  const s = $('status');
  s.textContent = `Error: ${err && err.message ? err.message : err}`;
  s.classList.add('error');
  document.body.dataset.error = s.textContent;
}

window.addEventListener('error', (e) => showError(e.message));
window.addEventListener('unhandledrejection', (e) => showError(e.reason));

// ---- agents ----------------------------------------------------------------

const agentInput = (idx) => $(idx === 0 ? 'first-agent' : 'second-agent');

// The spec a side plays with ("human" for a person), with the page's time
// per move added to searching agents that set no limit of their own.
function agentFor(idx) {
  const spec = agentInput(idx).value.trim() || 'human';
  if (spec === 'human') return spec;
  const [kind, rest = ''] = spec.split(/:(.*)/s);
  const t = parseFloat($('move-time').value);
  const limited = /(^|,)\s*(depth|time|nodes)\s*=/.test(rest);
  if (['engine', 'alphabeta', 'minimax'].includes(kind) && !limited && t > 0) {
    return `${kind}:${rest ? `${rest},` : ''}time=${t}`;
  }
  return spec;
}

const isHuman = (idx) => agentFor(idx) === 'human';

async function loadAgents() {
  const spec = $('spec').value.trim();
  if (!spec) return;
  try {
    const list = await api('GET', `/api/agents?game=${encodeURIComponent(spec)}`);
    const dl = $('agent-list');
    dl.replaceChildren();
    for (const a of [{ example: 'human', about: 'you, by clicking' }, ...list]) {
      const o = document.createElement('option');
      o.value = a.example;
      o.label = a.about || a.kind || '';
      dl.appendChild(o);
    }
  } catch {
    // A spec still being typed: New game reports what is wrong with it.
  }
}

// ---- games -----------------------------------------------------------------

async function loadGames() {
  app.games = await api('GET', '/api/games');
  const sel = $('game-select');
  sel.replaceChildren();
  for (const g of app.games) {
    const o = document.createElement('option');
    o.value = g.name;
    o.textContent = g.name;
    sel.appendChild(o);
  }
  selectGame(app.games[0]?.name);
}

function selectGame(name) {
  const g = app.games.find((x) => x.name === name);
  if (!g) return;
  $('game-select').value = g.name;
  $('spec').value = g.example;
  $('position').value = '';
  const hs = g.heuristics?.length ? `heuristics: ${g.heuristics.join(', ')} (default first)` : '';
  $('game-about').textContent = [g.about, hs].filter(Boolean).join(' — ');
  loadAgents();
}

// The new game is made first: a bad spec or position leaves the game in
// progress as it was, and only a game made replaces (and deletes) it.
async function newGame() {
  const body = { game: $('spec').value.trim() };
  const pos = $('position').value.trim();
  if (pos) body.position = pos;
  const old = app.view;
  const phase = document.body.dataset.phase;
  setStatus('Starting a game…', 'starting');
  let view;
  try {
    view = await api('POST', '/api/games', body);
  } catch (e) {
    document.body.dataset.phase = phase || 'idle';
    showError(e);
    return;
  }
  cancelTimer();
  ++app.gen;
  app.selection = [];
  app.sending = false;
  closeChooser();
  setMyGameIds([...myGameIds().filter((id) => id !== old?.id), view.id]);
  if (old) api('DELETE', `/api/games/${old.id}`).catch(() => {});
  resetSearch();
  app.running = true;
  show(view);
  renderMyGames();
}

// ---- the games this browser made -----------------------------------------

// Their ids, kept in localStorage so that a reload (or another tab) finds
// them; a game the server no longer has leaves the list.
const MY_GAMES_KEY = 'duel.games';
function myGameIds() {
  try {
    const ids = JSON.parse(localStorage.getItem(MY_GAMES_KEY) || '[]');
    return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
function setMyGameIds(ids) {
  try {
    localStorage.setItem(MY_GAMES_KEY, JSON.stringify(ids.slice(-20)));
  } catch { /* storage off: the list is this page's only */ }
}

async function renderMyGames() {
  const views = [];
  for (const id of myGameIds()) {
    try {
      views.push(await api('GET', `/api/games/${encodeURIComponent(id)}`));
    } catch { /* gone: dropped below */ }
  }
  setMyGameIds(views.map((v) => v.id));
  $('my-games').hidden = views.length === 0;
  $('my-games-list').replaceChildren(...views.map((v) => {
    const li = document.createElement('li');
    li.dataset.game = v.id;
    li.classList.toggle('open', app.view?.id === v.id);
    const what = document.createElement('span');
    what.className = 'what';
    const state = v.terminal ? resultText(v) : `${v.history.length} moves`;
    what.textContent = `${v.id}: ${v.spec}, ${state}`;
    const open = document.createElement('button');
    open.type = 'button';
    open.textContent = 'Open';
    open.dataset.action = 'open';
    open.addEventListener('click', () => openGame(v.id));
    const del = document.createElement('button');
    del.type = 'button';
    del.textContent = 'Delete';
    del.dataset.action = 'delete';
    del.addEventListener('click', () => deleteGame(v.id));
    li.append(what, open, del);
    return li;
  }));
}

async function openGame(id) {
  try {
    const view = await api('GET', `/api/games/${encodeURIComponent(id)}`);
    cancelTimer();
    ++app.gen;
    app.running = false;  // a program to move waits for Go
    resetSearch();
    show(view);
  } catch (e) {
    showError(e);
  }
  renderMyGames();
}

async function deleteGame(id) {
  await api('DELETE', `/api/games/${encodeURIComponent(id)}`).catch(() => {});
  if (app.view?.id === id) {
    cancelTimer();
    ++app.gen;
    app.view = null;
    delete document.body.dataset.gameId;
    setStatus('Game deleted. Choose a game and the players, then New game.', 'idle');
    render();
  }
  renderMyGames();
}

// The server drops games nobody asks about (docs/serve.md): the open game
// is asked about every 30 s, so it is never the one dropped.
const KEEP_ALIVE_MS = 30000;
function keepAlive() {
  setInterval(() => {
    if (app.view) api('GET', `/api/games/${app.view.id}`).catch(showError);
  }, KEEP_ALIVE_MS);
}

// ---- the turn loop ---------------------------------------------------------

function cancelTimer() {
  clearTimeout(app.timer);
  app.timer = null;
}

// Takes a new view from the server and decides what happens next.
function show(view) {
  app.view = view;
  document.body.dataset.gameId = view.id;
  app.selection = [];
  closeChooser();
  render();
  next();
}

function next() {
  cancelTimer();
  const v = app.view;
  if (!v) return;
  const idx = sideIndex(v);
  const who = v.players?.[idx] ?? `Player ${idx + 1}`;
  if (v.terminal) {
    app.running = false;
    setStatus(`Game over: ${resultText(v)}`, 'over');
    return;
  }
  if (v.thinking) {
    setStatus(`${who} (${v.agent || 'program'}) is thinking…`, 'thinking');
    poll(app.gen);
    return;
  }
  if (isHuman(idx)) {
    setStatus(`${who} to move: click a piece or square`, 'human');
    return;
  }
  if (!app.running) {
    setStatus(`${who} (${agentFor(idx)}) to move: press Go / watch`, 'paused');
    return;
  }
  // A program moves; against another program, after the watch delay.
  const delay = isHuman(1 - idx) ? 0 : Math.max(0, parseInt($('watch-delay').value, 10) || 0);
  setStatus(`${who} (${agentFor(idx)}) to move…`, 'waiting');
  const gen = app.gen;
  app.timer = setTimeout(() => startAgent(gen, idx), delay);
}

async function startAgent(gen, idx) {
  if (gen !== app.gen || !app.view) return;
  const spec = agentFor(idx);
  try {
    const view = await api('POST', `/api/games/${app.view.id}/agent`, { agent: spec });
    if (gen !== app.gen) return;
    view.agent = spec;
    app.view = view;
    render();
    next();
  } catch (e) {
    if (gen !== app.gen) return;
    app.running = false;
    document.body.dataset.phase = 'paused';
    showError(e);
  }
}

// While a program thinks: its search every POLL_MS, then the view it made.
function poll(gen) {
  app.timer = setTimeout(async () => {
    if (gen !== app.gen || !app.view) return;
    try {
      const s = await api('GET', `/api/games/${app.view.id}/search`);
      if (gen !== app.gen) return;
      showSearch(s);
      if (s.error) throw new Error(s.error);
      if (s.thinking) {
        poll(gen);
        return;
      }
      const view = await api('GET', `/api/games/${app.view.id}`);
      if (gen !== app.gen) return;
      show(view);
    } catch (e) {
      if (gen !== app.gen) return;
      app.running = false;
      document.body.dataset.phase = 'paused';
      showError(e);
    }
  }, POLL_MS);
}

async function playMove(move) {
  const v = app.view;
  const gen = app.gen;
  app.selection = [];
  app.sending = true;  // no clicks until the server answers
  closeChooser();
  setStatus(`Playing ${move.text}…`, 'sending');
  render();
  try {
    const view = await api('POST', `/api/games/${v.id}/move`, { move: move.text });
    if (gen !== app.gen) return;
    app.sending = false;
    // A person's move asks for the reply: a program answers it even after Stop.
    app.running = true;
    show(view);
  } catch (e) {
    if (gen !== app.gen) return;
    app.sending = false;
    render();
    next();
    showError(e);
  }
}

async function stop() {
  app.running = false;
  const v = app.view;
  if (!v) return;
  if (!v.thinking) {
    next();
    return;
  }
  try {
    await api('POST', `/api/games/${v.id}/stop`);
    setStatus('Stopping the search…', 'thinking');
  } catch (e) {
    showError(e);
  }
}

async function undo() {
  const v = app.view;
  if (!v) return;
  if (v.thinking) {
    showError(new Error('a program is thinking: press Stop first'));
    return;
  }
  // Against a program, take back its reply too so that the person moves again.
  const idx = sideIndex(v);
  const humans = [0, 1].filter(isHuman).length;
  const plies = humans === 1 && isHuman(idx) && v.history.length >= 2 ? 2 : 1;
  cancelTimer();
  const gen = ++app.gen;
  try {
    const view = await api('POST', `/api/games/${v.id}/undo`, { plies });
    if (gen !== app.gen) return;
    // A program to move after a take-back waits for Go / watch.
    if (!isHuman(sideIndex(view))) app.running = false;
    show(view);
  } catch (e) {
    showError(e);
  }
}

function go() {
  if (!app.view || app.view.terminal) return;
  app.running = true;
  next();
}

// ---- clicks ----------------------------------------------------------------

const sameSq = (a, b) => a[0] === b[0] && a[1] === b[1];
const keyOf = (sq) => `${sq[0]},${sq[1]}`;

// The legal moves whose squares start with `prefix`.
function matching(prefix) {
  return (app.view?.moves || []).filter((m) =>
    m.squares.length >= prefix.length && prefix.every((sq, i) => sameSq(sq, m.squares[i])));
}

function humanToMove() {
  const v = app.view;
  return v && !app.sending && !v.terminal && !v.thinking && isHuman(sideIndex(v));
}

function onSquare(r, c) {
  if (!humanToMove()) return;
  const sq = [r, c];
  let sel = [...app.selection, sq];
  if (app.selection.length && sameSq(app.selection[app.selection.length - 1], sq)) {
    sel = app.selection.slice(0, -1);  // a second click on the last square takes it back
  } else if (!matching(sel).length) {
    sel = matching([sq]).length ? [sq] : [];  // start again from this square, or clear
  }
  app.selection = sel;
  const cands = sel.length ? matching(sel) : [];
  const done = cands.filter((m) => m.squares.length === sel.length);
  if (done.length && done.length === cands.length) {
    if (done.length === 1) {
      playMove(done[0]);
      return;
    }
    openChooser(done);
  }
  render();
}

function openChooser(moves) {
  const box = $('chooser-moves');
  box.replaceChildren();
  const family = familyOf(app.view);
  moves.forEach((m) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.testid = 'choice';
    b.dataset.move = m.text;
    // A chess promotion names its piece last: draw it beside the text.
    const last = m.text.slice(-1);
    const idx = sideIndex(app.view);
    const p = family === 'chess' && /[qrbnk]/i.test(last)
      ? pieceFor(family, idx === 0 ? last.toUpperCase() : last.toLowerCase()) : { html: '' };
    b.innerHTML = `${p.html}<span>${escapeHtml(m.text)}</span>`;
    b.addEventListener('click', () => playMove(m));
    box.appendChild(b);
  });
  $('chooser').hidden = false;
  box.querySelector('button')?.focus();
}

function closeChooser() {
  $('chooser').hidden = true;
}

// ---- drawing ---------------------------------------------------------------

// "Black wins: White has no move", "Draw: ...": the winner by the game's
// own side names, then why.
function resultText(v) {
  if (!v.terminal) return '';
  const names = v.players || ['Player 1', 'Player 2'];
  const head = v.result === '1-0' ? `${names[0]} wins` : v.result === '0-1' ? `${names[1]} wins` : 'Draw';
  return v.reason ? `${head}: ${v.reason} (${v.result})` : `${head} (${v.result})`;
}

// A move as the move list and the buttons show it: KCell's pass (`-1`) is
// "pass".
function moveLabel(v, text) {
  return String(v.game || '').startsWith('kcell') && text === '-1' ? 'pass' : text;
}

function render() {
  const v = app.view;
  const board = $('board');
  if (!v) {
    board.replaceChildren();
    delete board.dataset.shape;
    $('other-moves').replaceChildren();
    $('result').textContent = '';
    $('history').replaceChildren();
    updateButtons();
    return;
  }
  const marks = { selected: new Set(app.selection.map(keyOf)), targets: new Set(), starts: new Set() };
  if (humanToMove()) {
    const n = app.selection.length;
    for (const m of matching(app.selection)) {
      if (m.squares.length > n) (n === 0 ? marks.starts : marks.targets).add(keyOf(m.squares[n]));
    }
  }
  if (!humanToMove()) closeChooser();
  renderBoard(board, v, marks, onSquare, app.flipped);
  // Moves that click no square (a KCell pass) are buttons of their own.
  const others = humanToMove() ? v.moves.filter((m) => !m.squares.length) : [];
  $('other-moves').replaceChildren(...others.map((m) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = moveLabel(v, m.text) === 'pass' ? 'Pass' : m.text;
    b.dataset.move = m.text;
    b.addEventListener('click', () => playMove(m));
    return b;
  }));

  const names = v.players || ['Player 1', 'Player 2'];
  $('first-label').textContent = `${names[0]} (first)`;
  $('second-label').textContent = names[1];
  const idx = sideIndex(v);
  $('players').innerHTML = names.map((n, i) =>
    `<span class="${!v.terminal && i === idx ? 'to-move' : ''}">${escapeHtml(n)}: ` +
    `${escapeHtml(agentFor(i))}</span>`).join('<span class="vs">vs</span>');
  $('result').textContent = resultText(v);
  $('result').classList.toggle('over', !!v.terminal);

  const hist = $('history');
  hist.replaceChildren(...(v.history || []).map((t) => {
    const li = document.createElement('li');
    li.textContent = moveLabel(v, t);
    return li;
  }));
  hist.scrollTop = hist.scrollHeight;
  updateRecords(v);
  updateButtons();
}

function updateButtons() {
  const v = app.view;
  $('undo').disabled = !v || v.thinking || !(v.history || []).length;
  $('stop').disabled = !v;
  $('watch').disabled = !v || v.terminal;
}

function updateRecords(v) {
  const family = familyOf(v);
  const formats = { pgn: family === 'chess', pdn: family === 'checkers', trace: true, json: true };
  for (const [fmt, on] of Object.entries(formats)) {
    const a = $(`record-${fmt}`);
    a.hidden = !on;
    a.href = `/api/games/${encodeURIComponent(v.id)}/record?format=${fmt}`;
  }
}

// ---- search panel ----------------------------------------------------------

function resetSearch() {
  for (const id of ['search-agent', 'search-depth', 'search-score', 'search-nodes', 'search-nps',
                    'search-time', 'search-pv']) $(id).textContent = '–';
  $('search-title').textContent = 'Search';
  renderChart($('nodes-chart'), []);
}

// The server's value: points from the first player's view (a win is 1, an
// estimate a fraction of one), with the engine's integer `score` beside an
// estimate; `exact` when the search proved it.
function scoreText(value, exact, score) {
  if (value === null || value === undefined) return '–';
  const v = Number(value);
  const names = app.view?.players || ['Player 1', 'Player 2'];
  if (exact) {
    return `${v > 0 ? '+' : ''}${v} (proven: ${v > 0 ? `${names[0]} wins` : v < 0 ? `${names[1]} wins` : 'draw'})`;
  }
  const units = score === undefined || score === null ? '' : ` (${score > 0 ? '+' : ''}${score})`;
  return `${v > 0 ? '+' : ''}${v.toFixed(4)}${units}`;
}

function showSearch(s) {
  $('search-title').textContent = s.thinking ? 'Search (thinking…)' : 'Last search';
  $('search-agent').textContent = s.agent || '–';
  const i = s.info;
  if (!i) return;
  const num = (x) => (x === null || x === undefined ? '–' : Number(x).toLocaleString('en-US'));
  $('search-depth').textContent = num(i.depth);
  $('search-score').textContent = scoreText(i.value, i.exact, i.score);
  $('search-nodes').textContent = num(i.nodes);
  $('search-nps').textContent = num(Math.round(i.nps || 0));
  $('search-time').textContent = i.seconds === undefined ? '–' : `${Number(i.seconds).toFixed(2)} s`;
  $('search-pv').textContent = (i.pv || []).join(' ') || '–';
  // Nodes by depth come with each finished iteration; until the first, keep the last chart.
  if (!s.thinking || (i.nodes_by_depth || []).length) {
    renderChart($('nodes-chart'), i.nodes_by_depth);
  } else if (!$('nodes-chart').querySelector('rect')) {
    renderChart($('nodes-chart'), [], 'nodes by depth: after the first iteration');
  }
}

// ---- start -----------------------------------------------------------------

function wire() {
  $('game-select').addEventListener('change', (e) => selectGame(e.target.value));
  let t = null;
  $('spec').addEventListener('input', () => {
    clearTimeout(t);
    t = setTimeout(loadAgents, 400);
  });
  $('new-game').addEventListener('click', newGame);
  $('watch').addEventListener('click', go);
  $('stop').addEventListener('click', stop);
  $('undo').addEventListener('click', undo);
  $('flip').addEventListener('click', () => {
    app.flipped = !app.flipped;
    $('flip').setAttribute('aria-pressed', String(app.flipped));
    render();
  });
  $('chooser-cancel').addEventListener('click', () => {
    closeChooser();
    app.selection = [];
    render();
  });
  for (const id of ['first-agent', 'second-agent']) {
    $(id).addEventListener('change', () => {
      if (app.view && !app.sending) {
        render();
        next();
      }
    });
  }
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !$('chooser').hidden) $('chooser-cancel').click();
  });
}

async function start() {
  wire();
  keepAlive();
  resetSearch();
  render();
  try {
    await loadGames();
    setStatus('Choose a game and the players, then New game.', 'idle');
    renderMyGames();
  } catch (e) {
    document.body.dataset.phase = 'idle';
    showError(e);
  }
}

start();
