// Duel's page: plays and watches any game of `duel serve` through its
// HTTP/JSON API. Every rule lives in the server: the page only matches
// clicks against the prefixes of the view's moves[].squares.
import { renderBoard, familyOf, sideIndex, pieceFor, escapeHtml } from './board.js';
import { attachBoardInput } from './input.js';
import { renderMoveList } from './movelist.js';
import { api, setStatus, showError } from './api.js';
import { agentFor, isHuman, loadAgents } from './agents.js';
import { myGameIds, setMyGameIds, renderMyGames as listMyGames, updateMyGame } from './mygames.js';
import { renderPlayers, updateClocks as tickClocks, resultText } from './players.js';
import { resetSearch, showSearch } from './search.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 200;

const app = {
  view: null,        // the last game view from the server
  running: false,    // programs move by themselves (paused by Stop)
  selection: [],     // squares clicked so far, as [r, c]
  gen: 0,            // bumps on every new game / undo: stale timers give up
  timer: null,       // the pending program move or search poll
  sending: false,    // a person's move is on its way to the server
  starting: false,   // a program's start is on its way to the server
  flipped: false,    // the board drawn with the second player at the bottom
  past: null,        // the view of an earlier position being looked at, or null (the live one)
  focus: null,       // the square the keyboard is on ("r,c")
  clockAt: 0,        // performance.now() when the view (and its clock) came
  games: [],
};

window.addEventListener('error', (e) => showError(e.message));
window.addEventListener('unhandledrejection', (e) => showError(e.reason));

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
  faceThePerson();
  show(view);
  renderMyGames();
}

// The board turns so that a person playing only the second side sits at
// the bottom (Flip board turns it either way).
function faceThePerson() {
  app.flipped = isHuman(1) && !isHuman(0);
  $('flip').setAttribute('aria-pressed', String(app.flipped));
}

function renderMyGames() {
  return listMyGames(app.view?.id, { open: openGame, del: deleteGame });
}

async function openGame(id) {
  try {
    const view = await api('GET', `/api/games/${encodeURIComponent(id)}`);
    cancelTimer();
    ++app.gen;
    app.running = false;  // a program to move waits for Go
    resetSearch();
    faceThePerson();
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
  app.past = null;
  app.clockAt = performance.now();
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
  if (app.starting) return;  // its answer comes back here
  // A program moves; against another program, after the watch delay.
  const delay = isHuman(1 - idx) ? 0 : Math.max(0, parseInt($('watch-delay').value, 10) || 0);
  setStatus(`${who} (${agentFor(idx)}) to move…`, 'waiting');
  const gen = app.gen;
  app.timer = setTimeout(() => startAgent(gen, idx), delay);
}

async function startAgent(gen, idx) {
  if (gen !== app.gen || !app.view) return;
  const spec = agentFor(idx);
  // One start at a time: next() waits for this answer, so that a change of
  // players meanwhile cannot start a second search (409).
  app.starting = true;
  let view = null;
  let error = null;
  try {
    view = await api('POST', `/api/games/${app.view.id}/agent`, { agent: spec });
  } catch (e) {
    error = e;
  }
  app.starting = false;
  if (gen !== app.gen) {
    next();  // a newer game may have waited for this answer
    return;
  }
  if (error) {
    app.running = false;
    document.body.dataset.phase = 'paused';
    showError(error);
    return;
  }
  view.agent = spec;
  app.view = view;
  app.past = null;
  app.clockAt = performance.now();
  render();
  next();
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
  setStatus(`Playing ${move.notation || move.text}…`, 'sending');
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
  return v && !app.past && !app.sending && !v.terminal && !v.thinking && isHuman(sideIndex(v));
}

function onSquare(r, c) {
  app.focus = `${r},${c}`;
  if (app.past) {
    goLive();  // a click on an earlier position goes back to the game
    return;
  }
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
    b.innerHTML = `${p.html}<span>${escapeHtml(m.notation || m.text)}</span>`;
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

function render() {
  const v = app.view;
  const board = $('board');
  if (!v) {
    board.replaceChildren();
    delete board.dataset.shape;
    $('other-moves').replaceChildren();
    $('result').textContent = '';
    $('history').replaceChildren();
    $('player-top').replaceChildren();
    $('player-bottom').replaceChildren();
    $('viewing').hidden = true;
    updateButtons();
    return;
  }
  const shown = app.past || v;
  const marks = { selected: new Set(app.selection.map(keyOf)), targets: new Set(), starts: new Set(),
                  focus: app.focus };
  if (humanToMove()) {
    const n = app.selection.length;
    for (const m of matching(app.selection)) {
      if (m.squares.length > n) (n === 0 ? marks.starts : marks.targets).add(keyOf(m.squares[n]));
    }
  }
  if (!humanToMove()) closeChooser();
  renderBoard(board, shown, marks, onSquare, app.flipped);
  board.classList.toggle('past', !!app.past);
  // Moves that click no square (a KCell pass) are buttons of their own.
  const others = humanToMove() ? v.moves.filter((m) => !m.squares.length) : [];
  $('other-moves').replaceChildren(...others.map((m) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.notation === 'pass' ? 'Pass' : m.notation || m.text;
    b.dataset.move = m.text;
    b.addEventListener('click', () => playMove(m));
    return b;
  }));

  const names = v.players || ['Player 1', 'Player 2'];
  $('first-label').textContent = `${names[0]} (first)`;
  $('second-label').textContent = names[1];
  renderPlayers(v, app.flipped, agentFor, app.clockAt);
  $('result').textContent = resultText(v);
  $('result').classList.toggle('over', !!v.terminal);
  const viewing = $('viewing');
  viewing.hidden = !app.past;
  if (app.past) {
    const ply = app.past.ply;
    viewing.innerHTML = `Looking at ${ply ? `the position after ${escapeHtml(v.notation?.[ply - 1] ?? '')} ` +
      `(move ${ply} of ${v.history.length})` : 'the start'}. ` +
      '<button type="button" data-testid="back-live">Back to the game</button> (Esc)';
    viewing.querySelector('button').addEventListener('click', goLive);
  }
  renderMoveList($('history'), v, app.past ? app.past.ply : v.history.length, showPly);
  updateMyGame(v);
  updateRecords(v);
  updateButtons();
}

// ---- looking at earlier positions ------------------------------------------

// Shows the position after `ply` moves; the last ply is the live game.
async function showPly(ply) {
  const v = app.view;
  if (!v) return;
  const n = Math.max(0, Math.min(ply, v.history.length));
  if (n === v.history.length) {
    goLive();
    return;
  }
  const gen = app.gen;
  try {
    const past = await api('GET', `/api/games/${encodeURIComponent(v.id)}?ply=${n}`);
    if (gen !== app.gen || app.view !== v) return;
    app.past = past;
    app.selection = [];
    closeChooser();
    document.body.dataset.viewing = String(n);
    render();
  } catch (e) {
    showError(e);
  }
}

function goLive() {
  if (!app.past) return;
  app.past = null;
  delete document.body.dataset.viewing;
  render();
}

const shownPly = () => (app.past ? app.past.ply : app.view?.history.length ?? 0);

function updateButtons() {
  const v = app.view;
  $('undo').disabled = !v || v.thinking || !(v.history || []).length;
  $('stop').disabled = !v;
  $('watch').disabled = !v || v.terminal;
  const plies = v?.history.length ?? 0;
  $('nav-first').disabled = $('nav-prev').disabled = !v || shownPly() === 0;
  $('nav-next').disabled = $('nav-live').disabled = !v || shownPly() >= plies;
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
  $('nav-first').addEventListener('click', () => showPly(0));
  $('nav-prev').addEventListener('click', () => showPly(shownPly() - 1));
  $('nav-next').addEventListener('click', () => showPly(shownPly() + 1));
  $('nav-live').addEventListener('click', goLive);
  attachBoardInput($('board'), {
    canDrag: (r, c) => humanToMove() && matching([[r, c]]).length > 0,
    onDrop,
    onEscape: escape,
  });
  $('board').addEventListener('square-focus', (e) => { app.focus = e.detail; });
  // Off the board and out of the form: the arrows step through the moves
  // (Home the start, End the game now), Esc backs out.
  document.addEventListener('keydown', (e) => {
    if (e.target.closest?.('#board, input, select, textarea') || e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {
      Escape: escape,
      ArrowLeft: () => showPly(shownPly() - 1),
      ArrowRight: () => showPly(shownPly() + 1),
      Home: () => showPly(0),
      End: goLive,
    };
    if (!keys[e.key] || (e.key !== 'Escape' && !app.view)) return;
    e.preventDefault();
    keys[e.key]();
  });
  setInterval(() => tickClocks(app.view, agentFor, app.clockAt), 100);
}

// Esc: the chooser closes, else the squares picked are dropped, else back
// to the game from an earlier position.
function escape() {
  if (!$('chooser').hidden) {
    $('chooser-cancel').click();
  } else if (app.selection.length) {
    app.selection = [];
    render();
  } else {
    goLive();
  }
}

// A piece dragged from `from` to `to`: the move with those ends (the
// chooser when several have them: promotions, two jump paths); else as if
// the two squares were clicked (the first landing of a longer jump).
function onDrop(from, to) {
  if (!humanToMove() || !to || sameSq(from, to)) {
    render();
    return;
  }
  const ends = matching([from]).filter((m) => sameSq(m.squares[m.squares.length - 1], to));
  if (ends.length === 1) {
    playMove(ends[0]);
    return;
  }
  app.selection = [from];
  if (ends.length > 1) {
    openChooser(ends);
    render();
    return;
  }
  onSquare(...to);
}

// The page opens on a board: the last game this browser made if the server
// still has it, else a new game of the first kind (a person against the
// engine), ready for the first click.
async function firstBoard() {
  await renderMyGames();  // drops the games the server no longer has
  const ids = myGameIds();
  if (ids.length) {
    await openGame(ids[ids.length - 1]);
    if (app.view) return;
  }
  await newGame();
  if (!app.view) setStatus('Choose a game and the players, then New game.', 'idle');
}

async function start() {
  wire();
  keepAlive();
  resetSearch();
  render();
  try {
    await loadGames();
    await firstBoard();
  } catch (e) {
    document.body.dataset.phase = 'idle';
    showError(e);
  }
}

start();
