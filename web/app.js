// Duel's page: plays and watches any game of `duel serve` through its
// HTTP/JSON API. Every rule lives in the server: the page only matches
// clicks against the prefixes of the view's moves[].squares.
import { renderBoard, familyOf, sideIndex, escapeHtml, naturalBottom } from './board.js';
import { attachBoardInput } from './input.js';
import { makeClicks } from './clicks.js';
import { renderMoveList } from './movelist.js';
import { api, setStatus, showError } from './api.js';
import { agentFor, loadAgents } from './agents.js';
import { myGameIds, setMyGameIds, renderMyGames as listMyGames, renderLive, updateMyGame } from './mygames.js';
import { renderShare, seatsOf, storeSeats, takePlayLink } from './seats.js';
import { renderPlayers, updateClocks as tickClocks, resultText } from './players.js';
import { resetSearch, showSearch } from './search.js';
import { clearAnalysis, showAnalysis } from './analysis.js';

const $ = (id) => document.getElementById(id);

const app = {
  view: null,        // the last game view from the server
  stream: null,      // the open game's events (an EventSource)
  seats: [null, null],  // the tokens of the sides this page holds
  selection: [],     // squares clicked so far, as [r, c]
  gen: 0,            // bumps on every game opened: stale answers give up
  sending: false,    // a person's move is on its way to the server
  analysing: false,  // the analysis panel is on: each position shown is analysed
  analysis: null,    // the last analysis received
  flipped: false,    // the board drawn with the second player at the bottom
  past: null,        // the view of an earlier position being looked at, or null (the live one)
  heading: null,     // the ply a step back or forth asked for, until its answer comes
  asks: 0,           // bumps on every such step: an answer overtaken by a later step gives up
  focus: null,       // the square the keyboard is on ("r,c")
  clockAt: 0,        // performance.now() when the view (and its clock) came
  notice: null,      // {id, ply, text}: said on the status line until the game moves on
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
  $('spec').value = g.example;
  $('position').value = '';
  describeGame(g);
  loadAgents();
}

// The form's game and the words about it: the course and rule it follows.
function describeGame(g) {
  $('game-select').value = g.name;
  const hs = g.heuristics?.length ? `heuristics: ${g.heuristics.join(', ')} (default first)` : '';
  $('game-about').textContent = [g.about, hs].filter(Boolean).join(' — ');
}

// New game makes a game of its own on the server and goes to its address;
// the game open before goes on, for this page and any other watching it.
async function newGame() {
  const players = [agentFor(0), agentFor(1)];
  // The person's name for the records of the seats they play.
  const name = $('player-name').value.trim().replace(/[^\x20-\x7e]/g, '').slice(0, 60);
  try { localStorage.setItem('duel.name', name); } catch { /* storage off */ }
  const body = {
    game: $('spec').value.trim(),
    players,
    names: players.map((p) => (p === 'human' ? name : '')),
    delay: Math.max(0, Math.min(10000, parseInt($('watch-delay').value, 10) || 0)),
  };
  const pos = $('position').value.trim();
  if (pos) body.position = pos;
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
  setSeats(view.id, view.seats);
  setMyGameIds([...myGameIds().filter((id) => id !== view.id), view.id]);
  history.pushState({ id: view.id }, '', `/g/${encodeURIComponent(view.id)}`);
  follow(view);
  renderMyGames();
}

// ---- seats -----------------------------------------------------------------

function setSeats(id, tokens) {
  app.seats = storeSeats(id, tokens);
}
// A token this page holds for the game, the side to move's first.
const anySeat = () => app.seats[sideIndex(app.view ?? { to_move: 1 })] || app.seats[0] || app.seats[1] || '';
const holds = (idx) => !!app.seats[idx];
// The sides this page plays: people's seats it holds.
const mine = (v, idx) => playerOf(v, idx) === 'human' && (!v?.seated || holds(idx));
// Who plays a side: the game's own players (the form's for a game made
// before seats).
const playerOf = (v, idx) => (v?.agents ? v.agents[idx] : agentFor(idx));

// ---- following a game ------------------------------------------------------

// Opens the game `first` (a view) and follows it: its events bring every
// change, from this page or any other.
function follow(first) {
  app.stream?.close();
  app.view = null;
  app.seats = seatsOf(first.id);
  ++app.gen;
  resetSearch();
  app.analysis = null;
  clearAnalysis();
  restoreForm(first);
  faceThePerson(first);
  show(first);
  connect(first.id);
}

// The game's event stream (a page hidden in the background lets its
// connection go: a browser has only a few to one server, and every open
// page would hold one; coming back, the first event is the whole game).
function connect(id) {
  app.stream?.close();
  const gen = app.gen;
  const es = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  app.stream = es;
  es.addEventListener('view', (e) => {
    if (gen !== app.gen) return;
    show(JSON.parse(e.data));
  });
  es.addEventListener('search', (e) => {
    if (gen === app.gen) showSearch(JSON.parse(e.data));
  });
  es.addEventListener('analysis', (e) => {
    if (gen !== app.gen) return;
    app.analysis = JSON.parse(e.data);
    drawAnalysis();
  });
  es.addEventListener('gone', () => {
    if (gen !== app.gen) return;
    es.close();
    gone(id);
  });
  es.onerror = async () => {
    // The browser tries again by itself; a game the server no longer has ends it.
    try {
      await api('GET', `/api/games/${encodeURIComponent(id)}`);
    } catch (err) {
      if (gen === app.gen && err.status === 404) {
        es.close();
        gone(id);
      }
    }
  };
}

function gone(id) {
  if (app.view?.id !== id) return;
  app.view = null;
  delete document.body.dataset.gameId;
  delete document.body.dataset.version;
  setStatus('This game is no longer on the server. Choose a game and the players, then New game.', 'idle');
  render();
  renderMyGames();
}

// The form shows the open game's setup: its game, players and delay.
function restoreForm(v) {
  const g = app.games.find((x) => x.name === v.game);
  if (g) describeGame(g);
  $('spec').value = v.spec;
  if (v.agents) {
    $('first-agent').value = v.agents[0];
    $('second-agent').value = v.agents[1];
    $('watch-delay').value = String(v.delay ?? 0);
  }
  loadAgents();
}

// The board is drawn from the side this page plays (its own men or pieces
// at the bottom); a page that plays both or neither sees the game's usual
// diagram. Flip board turns it either way.
function faceThePerson(v) {
  const sides = [0, 1].filter((i) => mine(v, i));
  const bottom = sides.length === 1 ? sides[0] : naturalBottom(v);
  app.flipped = bottom !== naturalBottom(v);
  $('flip').setAttribute('aria-pressed', String(app.flipped));
}

function renderMyGames() {
  return listMyGames(app.view?.id, { open: (id) => goTo(id), del: deleteGame }, seatsOf);
}

async function goTo(id) {
  try {
    const view = await api('GET', `/api/games/${encodeURIComponent(id)}`);
    if (location.pathname !== `/g/${id}`) history.pushState({ id }, '', `/g/${encodeURIComponent(id)}`);
    follow(view);
  } catch (e) {
    showError(e);
  }
  renderMyGames();
}

async function deleteGame(id) {
  const seat = seatsOf(id).find(Boolean) || '';
  try {
    await api('DELETE', `/api/games/${encodeURIComponent(id)}?seat=${seat}`);
  } catch (e) {
    if (e.status !== 404) {
      showError(e);  // not deleted: the game goes on
      return;
    }
  }
  if (app.view?.id === id) {
    app.stream?.close();
    gone(id);
  }
  renderMyGames();
}

// ---- analysis --------------------------------------------------------------

let analyseTimer = null;
// Asks for the analysis of the position shown (after a short pause, so that
// stepping through a game asks once); the answer comes as an event.
function analyseShown() {
  if (!app.analysing || !app.view) return;
  clearTimeout(analyseTimer);
  const id = app.view.id;
  analyseTimer = setTimeout(async () => {
    if (!app.view || app.view.id !== id) return;
    try {
      await api('POST', `/api/games/${encodeURIComponent(id)}/analyse`,
        { ply: shownPly(), time: 2, lines: 3, seat: anySeat() });
    } catch (e) {
      showError(e);
    }
  }, 150);
}

// Draws the last analysis if it is of the position shown.
function drawAnalysis() {
  const a = app.analysis;
  if (!app.analysing || !app.view) return;
  const shown = app.past || app.view;
  if (!a || a.ply !== shownPly() || a.position !== shown.position) {
    document.querySelector('#board .arrows')?.remove();  // another position's
    return;
  }
  showAnalysis(a, $('board'), app.flipped, app.view.players);
}

function toggleAnalysis() {
  app.analysing = !app.analysing;
  $('analyse').setAttribute('aria-pressed', String(app.analysing));
  $('analysis').hidden = !app.analysing;
  if (app.analysing) {
    analyseShown();
  } else {
    clearAnalysis();
  }
}

// A pasted PGN or PDN becomes a game of its own (both seats this page's),
// shown at its end; the move list steps through it.
async function importRecord() {
  const record = $('record-text').value.trim();
  if (!record) {
    showError(new Error('paste a PGN (5x5 chess) or PDN (checkers) game first'));
    return;
  }
  setStatus('Importing the game…', 'starting');
  try {
    const view = await api('POST', '/api/games', { record });
    setSeats(view.id, view.seats);
    setMyGameIds([...myGameIds().filter((id) => id !== view.id), view.id]);
    history.pushState({ id: view.id }, '', `/g/${encodeURIComponent(view.id)}`);
    follow(view);
    renderMyGames();
  } catch (e) {
    showError(e);
  }
}

// ---- the game's state ------------------------------------------------------

// Takes a view from the server (an event, or the answer to this page's
// request) and draws it; an older one than the page has is ignored.
function show(view) {
  if (app.view && app.view.id === view.id && view.version !== undefined &&
      app.view.version !== undefined && view.version < app.view.version) return;
  const other = !app.view || app.view.id !== view.id;
  const moved = other || app.view.history.length !== view.history.length;
  app.view = view;
  if (other || (app.past && app.past.ply > view.history.length)) app.past = null;
  if (other) {
    app.heading = null;  // a step asked in the game before means nothing here
    app.asks += 1;
  }
  app.clockAt = performance.now();
  document.body.dataset.gameId = view.id;
  document.body.dataset.ply = String(view.history.length);
  document.body.dataset.version = String(view.version ?? '');
  if (moved) {
    app.selection = [];
    closeChooser();
  }
  render();
  status();
  if (moved && !app.past) analyseShown();
}

function status() {
  const v = app.view;
  if (!v) return;
  if (v.error && !v.terminal) {
    document.body.dataset.phase = 'paused';
    showError(new Error(v.error));
    return;
  }
  const [text, phase] = turnText(v);
  // A notice (a seat given away) stays until the game moves on, so that the
  // game's next event, which redraws this line, does not wipe it at once.
  const n = app.notice;
  const keep = n && n.id === v.id && n.ply === v.history.length && !v.terminal;
  if (!keep) app.notice = null;
  setStatus(keep ? `${n.text}. ${text}` : text, phase);
}

// The status line's text and the page's phase for the game's turn, and a
// standing draw offer: this page's, while it waits for an answer, or the
// opponent's to the side this page moves (the game's state, so that every
// event's redraw keeps saying it).
function turnText(v) {
  const [text, phase] = turnLine(v);
  const by = v.offers?.draw;  // the side offering a draw (1 or 2), or none
  if (v.terminal || !by) return [text, phase];
  if (mine(v, by - 1)) {
    return [`${text} — you offered a draw: waiting for ${v.players?.[2 - by] ?? 'the other side'}`, phase];
  }
  const idx = sideIndex(v);
  return [by === 2 - idx && mine(v, idx) ? `${text} — your opponent offers a draw` : text, phase];
}

function turnLine(v) {
  const idx = sideIndex(v);
  const who = v.players?.[idx] ?? `Player ${idx + 1}`;
  if (v.terminal) return [`Game over: ${resultText(v)}`, 'over'];
  if (v.thinking && v.waiting) return [`${who} (${playerOf(v, idx)}) waits for memory: ${v.waiting}`, 'thinking'];
  if (v.thinking) return [`${who} (${v.agent || 'program'}) is thinking…`, 'thinking'];
  if (mine(v, idx)) return [`${who} to move: click a piece or square`, 'human'];
  if (v.paused) return [`${who} (${playerOf(v, idx)}) to move: paused, press Go / watch`, 'paused'];
  if (playerOf(v, idx) === 'human') {
    return [`Waiting for ${who} to move${app.seats.some(Boolean) ? '' : ' (you are watching)'}`, 'waiting'];
  }
  return [`${who} (${playerOf(v, idx)}) to move…`, 'waiting'];
}

// A request for the game that answers with its view: shown at once (the
// events bring the same soon after).
async function act(path, body) {
  const v = app.view;
  if (!v) return null;
  try {
    const view = await api('POST', `/api/games/${encodeURIComponent(v.id)}/${path}`,
      { seat: anySeat(), ...body });
    if (view && view.history) show(view);
    return view;
  } catch (e) {
    if (e.data?.history) show(e.data);  // the game as it is now (a stale move)
    showError(e);
    return null;
  }
}

async function playMove(move) {
  const v = app.view;
  app.selection = [];
  app.sending = true;  // no clicks until the server answers
  closeChooser();
  setStatus(`Playing ${move.notation || move.text}…`, 'sending');
  render();
  await act('move', { move: move.text, ply: v.history.length, seat: app.seats[sideIndex(v)] });
  app.sending = false;
  render();
}

async function stop() {
  if (app.view) await act('stop', {});
}

// Takes back this page's last move (and the program's reply); between two
// people it asks the other, who accepts with their own Undo.
// The side this page acts for: the one person's seat it holds; holding
// both (a game between people on one page), the side to move.
function actingSide(v) {
  const sides = [0, 1].filter((i) => mine(v, i));
  if (sides.length === 1) return sides[0];
  return sideIndex(v);
}

// Takes back this page's last move (and the program's reply); between two
// people it asks the other, who accepts with their own Undo; a page holding
// both seats asks and accepts at once (the last move is taken back).
async function undo() {
  const v = app.view;
  if (!v) return;
  if (v.thinking) {
    showError(new Error('a program is thinking: press Stop first'));
    return;
  }
  if (v.seated && mine(v, 0) && mine(v, 1)) {
    const mover = 1 - sideIndex(v);  // who made the last move
    const asked = await act('undo', { seat: app.seats[mover] });
    if (asked?.offers?.takeback) await act('undo', { seat: app.seats[1 - mover] });
    return;
  }
  await act('undo', { seat: app.seats[actingSide(v)] || anySeat() });
}

async function resign() {
  const v = app.view;
  if (!v || v.terminal) return;
  await act('resign', { seat: app.seats[actingSide(v)] || anySeat() });
}

async function offerDraw() {
  const v = app.view;
  if (!v || v.terminal) return;
  const idx = actingSide(v);
  await act('draw', { seat: app.seats[idx] || anySeat() });
}

async function go() {
  if (!app.view || app.view.terminal) return;
  await act('go', {});
}

// ---- clicks ----------------------------------------------------------------

const { matching, humanToMove, onSquare, openChooser, closeChooser, onDrop, keyOf } = makeClicks(app, {
  mine: (v, idx) => mine(v, idx),
  playMove: (m) => playMove(m),
  render: () => render(),
  goLive: () => goLive(),
});

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
  drawAnalysis();
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
  renderPlayers(v, app.flipped, (i) => playerOf(v, i), app.clockAt);
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
// Steps taken faster than the server answers count from the last one asked
// (two quick clicks back go two plies back), and only the last answer shows.
async function showPly(ply) {
  const v = app.view;
  if (!v) return;
  const n = Math.max(0, Math.min(ply, v.history.length));
  if (n === v.history.length) {
    goLive();
    return;
  }
  const gen = app.gen;
  const ask = ++app.asks;
  app.heading = n;
  try {
    const past = await api('GET', `/api/games/${encodeURIComponent(v.id)}?ply=${n}`);
    if (gen !== app.gen || app.view?.id !== v.id || ask !== app.asks) return;
    app.heading = null;
    app.past = past;
    app.selection = [];
    closeChooser();
    document.body.dataset.viewing = String(n);
    render();
    analyseShown();
  } catch (e) {
    if (ask === app.asks) app.heading = null;
    showError(e);
  }
}

function goLive() {
  app.asks += 1;
  app.heading = null;
  if (!app.past) return;
  app.past = null;
  delete document.body.dataset.viewing;
  render();
  analyseShown();
}

const shownPly = () => (app.past ? app.past.ply : app.view?.history.length ?? 0);
// Where a step back or forth counts from: the ply on its way, else the one shown.
const stepFrom = () => app.heading ?? shownPly();

function updateButtons() {
  const v = app.view;
  const controls = !!v && (!v.seated || app.seats.some(Boolean));
  $('undo').disabled = !controls || v.thinking || !(v.history || []).length;
  $('stop').disabled = !controls || v.terminal;
  $('watch').disabled = !controls || v.terminal || !v.paused;
  const plays = !!v && [0, 1].some((i) => mine(v, i)) && !v.terminal;
  $('resign').disabled = !plays;
  $('analyse').disabled = !controls;
  $('draw').disabled = !plays;
  $('draw').textContent = v?.offers?.draw && !mine(v, v.offers.draw - 1) ? 'Accept draw' : 'Offer draw';
  const asked = v?.offers?.takeback && !mine(v, v.offers.takeback - 1);
  $('undo').textContent = asked ? 'Accept takeback' : 'Undo';
  renderShare(v, app.seats, (side) => giveAway(v.id, side));
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
  document.addEventListener('visibilitychange', () => {
    if (!app.view) return;
    if (document.hidden) {
      app.stream?.close();
      app.stream = null;
    } else if (!app.stream) {
      connect(app.view.id);
    }
  });
  $('resign').addEventListener('click', resign);
  $('analyse').addEventListener('click', toggleAnalysis);
  $('import').addEventListener('click', importRecord);
  $('draw').addEventListener('click', offerDraw);
  window.addEventListener('popstate', () => {
    const id = gameInPath();
    if (id && id !== app.view?.id) goTo(id);
  });
  $('nav-first').addEventListener('click', () => showPly(0));
  $('nav-prev').addEventListener('click', () => showPly(stepFrom() - 1));
  $('nav-next').addEventListener('click', () => showPly(stepFrom() + 1));
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
      ArrowLeft: () => showPly(stepFrom() - 1),
      ArrowRight: () => showPly(stepFrom() + 1),
      Home: () => showPly(0),
      End: goLive,
    };
    if (!keys[e.key] || (e.key !== 'Escape' && !app.view)) return;
    e.preventDefault();
    keys[e.key]();
  });
  setInterval(() => tickClocks(app.view, (i) => playerOf(app.view, i), app.clockAt), 100);
  setInterval(() => renderLive(goTo), 5000);
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


// The page opens on a board: the last game this browser made if the server
// still has it, else a new game of the first kind (a person against the
// engine), ready for the first click. A game's address (/g/ID) opens that
// game, to play if this browser holds a seat of it, else to watch.
async function firstBoard() {
  const asked = gameInPath();
  if (asked) {
    takePlayLink(asked);
    await goTo(asked);
    if (app.view) return;
  }
  await renderMyGames();  // drops the games the server no longer has
  const ids = myGameIds();
  if (!asked && ids.length) {
    await goTo(ids[ids.length - 1]);
    if (app.view) return;
  }
  await newGame();
  if (!app.view) setStatus('Choose a game and the players, then New game.', 'idle');
}

function gameInPath() {
  const m = /^\/g\/([^/]+)$/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]) : null;
}

function giveAway(id, side) {
  if (app.view?.id !== id || !app.seats[side]) return;
  const seats = [...app.seats];
  seats[side] = null;
  setSeats(id, seats);
  faceThePerson(app.view);
  app.notice = { id, ply: app.view.history.length,
                 text: `${app.view.players[side]}'s seat is in the link you copied: this page plays ` +
                       `${app.view.players[1 - side]}` };
  render();
  status();
}

async function start() {
  try { $('player-name').value = localStorage.getItem('duel.name') || ''; } catch { /* storage off */ }
  wire();
  resetSearch();
  render();
  try {
    await loadGames();
    await firstBoard();
    renderLive(goTo);
  } catch (e) {
    document.body.dataset.phase = 'idle';
    showError(e);
  }
}

start();
