// The course page (/course/, docs/course-server.md): sign-in by the link's
// token, a student's uploads, results and the ladder, and the teacher's
// students, submissions, runs and deadline. Every request goes through
// send() (call() for JSON); every error lands in the message area (#message),
// nothing fails silently. Names and texts from the server are put in the
// page as text (textContent), never as markup.
import { storeSeats } from '/seats.js';
import { myGameIds, setMyGameIds } from '/mygames.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;     // submissions and runs while any is queued or running
const LADDER_MS = 15000;  // the ladder while the page is shown

const state = {
  me: null,          // GET /api/course/me
  token: null,       // a token the person pasted (shown in the curl line); never one from a link
  subs: [],          // the submissions listed (a teacher's: everyone's)
  runs: [],          // the teacher's runs
  detailId: null,    // the submission shown in #detail
  detail: null,
  timer: 0,          // the next poll
};

// ---- messages ----------------------------------------------------------------

function showError(err) {
  const text = err && err.message ? err.message : String(err);
  $('message-text').textContent = `Error: ${text}`;
  $('message').hidden = false;
  document.body.dataset.error = text;
}
function clearError() {
  $('message').hidden = true;
  delete document.body.dataset.error;
}
const notice = (text) => { $('notice').textContent = text; };

window.addEventListener('error', (e) => showError(e.message));
window.addEventListener('unhandledrejection', (e) => showError(e.reason));

// An event handler whose failure is shown; its button is off while it runs.
function guard(fn) {
  return async (e) => {
    const b = e?.submitter || (e?.currentTarget instanceof HTMLButtonElement ? e.currentTarget : null);
    if (b) b.disabled = true;
    try {
      await fn(e);
    } catch (err) {
      showError(err);
    } finally {
      if (b) b.disabled = false;
    }
  };
}

// ---- the server ----------------------------------------------------------------

// A request's answer as text, or an Error with the server's one-line
// message ({"error": ...}); a 401 (no session, or it ended) also shows the
// sign-in form.
async function send(path, init = {}) {
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new Error(`cannot reach the server (${e.message})`);
  }
  const text = await res.text();
  if (res.ok) return text;
  let message = '';
  try { message = JSON.parse(text).error; } catch { /* not JSON */ }
  const err = new Error(message || `${res.status} ${res.statusText}`);
  err.status = res.status;
  if (res.status === 401) showSignIn();
  throw err;
}

// A JSON request and its JSON answer.
async function call(method, path, body, init = {}) {
  if (body !== undefined) init = { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const text = await send(path, { method, ...init });
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path}: the server's answer is not JSON`);
  }
}

// ---- small pieces ----------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}
const button = (text, onclick, attrs = {}) => el('button', { type: 'button', onclick: guard(onclick), ...attrs }, text);

// A table with a header row, in a box that scrolls across on a narrow screen.
function table(headers, rows, attrs = {}) {
  return el('div', { class: 'scroll' },
    el('table', attrs,
      el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, rows)));
}

const when = (sec) => (sec ? new Date(sec * 1000).toLocaleString() : '');
const points = (p) => String(Math.round((p ?? 0) * 100) / 100);
const active = (s) => !!s && (s.status === 'queued' || s.status === 'running');
const ratingText = (p) => `${Math.round(p.rating)} ± ${Math.round(2 * p.deviation)}`;
const scoreText = (s) => (s === 1 ? '1-0' : s === 0 ? '0-1' : '½-½');
const isCs3243 = () => state.me?.course === 'cs3243';
// The board's game spec for this course's records.
const boardGame = () => (state.me.course === 'csci561' ? 'checkers' : isCs3243() ? 'gardner-cs3243' : state.me.course);
const programFile = () => (isCs3243() ? 'AB.py' : 'homework.py');

function statusText(s) {
  if (s.status === 'queued') return s.place > 0 ? `queued (place ${s.place})` : 'queued';
  if (s.status === 'failed') return `failed${s.error ? `: ${s.error}` : ''}`;
  if (s.status === 'done' && s.summary && s.summary.playable === false) {
    return `done: cannot play${s.summary.reason ? ` (${s.summary.reason})` : ''}`;
  }
  return s.status;
}

// "2026-12-10T23:59" for a datetime-local input, in local time.
function localInput(sec) {
  const d = new Date(sec * 1000);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

// ---- sign-in ----------------------------------------------------------------

async function signIn(token, pasted) {
  await call('POST', '/api/course/signin', { token });
  state.token = pasted ? token : null;  // a link's token is never shown
}

function showSignIn() {
  clearTimeout(state.timer);
  Object.assign(state, { me: null, subs: [], runs: [], detailId: null, detail: null, timer: 0 });
  document.body.dataset.polling = 'off';
  for (const id of ['upload', 'teacher', 'submissions', 'detail', 'ladder']) $(id).hidden = true;
  $('signin').hidden = false;
  $('signout').hidden = true;
  $('who').textContent = '';
  document.body.dataset.phase = 'signin';
  notice('Not signed in.');
}

async function pasteToken(e) {
  e.preventDefault();
  const token = $('token-input').value.trim();
  if (!/^[0-9a-fA-F]{32}$/.test(token)) {
    throw new Error('a token is the 32 letters and digits after #token= in your sign-in link');
  }
  await signIn(token.toLowerCase(), true);
  $('token-input').value = '';
  clearError();
  await start(null);
}

async function signOut() {
  await call('POST', '/api/course/signout');
  state.token = null;
  showSignIn();
  notice('Signed out.');
}

// ---- the course ----------------------------------------------------------------

// Shows the course to whoever the session is (else the sign-in form), and
// submission `openId` if given.
async function start(openId) {
  let me;
  try {
    me = await call('GET', '/api/course/me');
  } catch (e) {
    if (e.status === 401) return;  // the sign-in form is shown
    throw e;
  }
  state.me = me;
  document.title = `${me.title} — Duel`;
  $('title').textContent = me.title || me.course;
  $('who').textContent = `${me.name} (${me.student})${me.teacher ? ', teacher' : ''}`;
  $('signout').hidden = false;
  $('signin').hidden = true;
  document.body.dataset.phase = me.teacher ? 'teacher' : 'student';
  document.body.dataset.course = me.course;
  $('upload').hidden = me.teacher;
  $('teacher').hidden = !me.teacher;
  $('submissions').hidden = false;
  $('subs-h').textContent = me.teacher ? 'All submissions' : 'Your submissions';
  $('ladder').hidden = !me.ladder;
  $('nickname-form').hidden = me.teacher;
  $('nickname-input').value = me.nickname || '';
  showSettings();
  notice(`Signed in as ${me.name}.`);
  await Promise.all([loadSubs(), me.teacher ? loadTeacher() : null, me.ladder ? loadLadder() : null]);
  if (openId) {
    try {
      await openDetail(openId);
    } catch (e) {
      history.replaceState(null, '', location.pathname + location.search);
      showError(e);
    }
  }
  schedule();
}

// The deadline, the files asked for and the curl line.
function showSettings() {
  const me = state.me;
  const late = me.deadline && Date.now() / 1000 > me.deadline;
  const text = me.deadline
    ? `Deadline: ${when(me.deadline)}${late ? ' (passed: a submission now is marked late)' : '; later submissions are marked late'}.`
    : 'No deadline is set.';
  $('deadline-text').textContent = text;
  $('teacher-deadline').textContent = text;
  $('deadline-input').value = me.deadline ? localInput(me.deadline) : '';
  $('expects').textContent = `Upload ${me.expects}.${me.max_upload_bytes ? ` At most ${Math.floor(me.max_upload_bytes / 1024)} KiB in all.` : ''}`;
  $('upload-file').accept = isCs3243() ? '.py,.zip' : '.py,.cpp,.java,.zip';
  $('curl').textContent = `curl -H "Authorization: Bearer ${state.token || 'YOUR_TOKEN'}" ` +
    `-F file=@${programFile()} ${location.origin}/api/course/submissions`;
  $('run-competition').hidden = me.course !== 'csci561';
}

// ---- submissions ----------------------------------------------------------------

async function loadSubs() {
  const list = await call('GET', '/api/course/submissions');
  state.subs = list;
  const teacher = state.me.teacher;
  $('subs').tBodies[0].replaceChildren(...list.map((s) => el('tr', {
    dataset: { id: s.id, status: s.status }, class: s.id === state.detailId ? 'selected' : null,
  },
  el('td', {}, `#${s.id}`),
  el('td', { class: 't-student' }, s.student),
  el('td', {}, when(s.created)),
  el('td', {}, (s.files || []).join(', ')),
  el('td', { class: `status ${s.status}`, dataset: { testid: 'sub-status' } }, statusText(s),
    s.late ? el('span', { class: 'late' }, ' late') : null),
  el('td', { dataset: { testid: 'sub-points' } }, s.status === 'done' ? points(s.points) : '—'),
  el('td', { class: 'actions' },
    button('Show', () => openDetail(s.id), { 'aria-label': `Show submission ${s.id}`, dataset: { testid: 'sub-show' } }),
    teacher ? el('a', { class: 'button', href: `/api/course/submissions/${s.id}/download`, download: '' }, 'Download') : null,
    teacher ? button('Rejudge', () => rejudge(s.id), { disabled: active(s), 'aria-label': `Rejudge submission ${s.id}` }) : null))));
  $('subs-empty').hidden = list.length > 0;
  document.body.classList.toggle('teacher', teacher);
}

async function upload(e) {
  e.preventDefault();
  const input = $('upload-file');
  const files = [...input.files];
  if (!files.length) throw new Error(`choose a file first: ${state.me.expects}`);
  const total = files.reduce((n, f) => n + f.size, 0);
  if (state.me.max_upload_bytes && total > state.me.max_upload_bytes) {
    throw new Error(`the upload is ${Math.ceil(total / 1024)} KiB: at most ${Math.floor(state.me.max_upload_bytes / 1024)} KiB`);
  }
  const form = new FormData();
  for (const f of files) form.append('file', f, f.name);
  notice(`Uploading ${files.map((f) => f.name).join(', ')}…`);
  let data;
  try {
    data = await call('POST', '/api/course/submissions', undefined, { body: form });
  } catch (err) {
    notice('The upload was refused.');
    throw err;
  }
  input.value = '';
  clearError();
  notice(`Submitted #${data.id} (${data.files.join(', ')}): ${statusText(data)}.`);
  await loadSubs();
  await openDetail(data.id);
}

// ---- one submission ----------------------------------------------------------------

async function openDetail(id, quiet = false) {
  const d = await call('GET', `/api/course/submissions/${encodeURIComponent(id)}`);
  const first = state.detailId !== d.id;
  if (!first && active(state.detail) && !active(d)) {
    notice(`Submission #${d.id} judged: ${statusText(d)}${d.status === 'done' ? `, ${points(d.points)} points` : ''}.`);
  }
  state.detailId = d.id;
  state.detail = d;
  renderDetail(d);
  for (const tr of $('subs').tBodies[0].rows) tr.classList.toggle('selected', Number(tr.dataset.id) === d.id);
  history.replaceState(null, '', `${location.pathname}${location.search}#submission=${d.id}`);
  if (first && !quiet) {
    $('detail').scrollIntoView({ block: 'start', behavior: 'smooth' });
    $('detail').focus({ preventScroll: true });
  }
  schedule();
}

function renderDetail(d) {
  const teacher = state.me.teacher;
  $('detail').hidden = false;
  $('detail').dataset.id = d.id;
  $('detail').dataset.status = d.status;
  $('detail-h').textContent = `Submission #${d.id}${teacher ? ` by ${d.student}` : ''}`;
  const parts = [el('p', { class: 'facts' },
    `${when(d.created)} · ${(d.files || []).join(', ')} · ${d.language} · `,
    el('strong', { dataset: { testid: 'detail-status' } }, statusText(d)),
    d.late ? el('span', { class: 'late' }, ' · late') : null,
    d.status === 'done' ? ` · ${points(d.points)} points` : '')];
  if (teacher) {
    parts.push(el('div', { class: 'buttons' },
      el('a', { class: 'button', href: `/api/course/submissions/${d.id}/download`, download: '' }, 'Download'),
      button('Rejudge', () => rejudge(d.id), { disabled: active(d) })));
  }
  if (d.status === 'queued') parts.push(el('p', {}, d.place > 0 ? `Waiting to be judged: place ${d.place} in the queue.` : 'Waiting to be judged.'));
  if (d.status === 'running') parts.push(progressView(d.progress || []));
  if (d.status === 'failed') parts.push(el('p', { class: 'bad' }, `The judge could not finish: ${d.error || 'no reason given'}. Ask your teacher.`));
  const r = d.result;
  if (r && typeof r === 'object') {
    if (active(d)) parts.push(el('p', { class: 'hint' }, 'Below: the result of the judging before.'));
    if (r.error) parts.push(el('p', { class: 'bad', dataset: { testid: 'result-error' } }, `Your program cannot play: ${r.error}`));
    if (r.timed_out) parts.push(el('p', { class: 'bad', dataset: { testid: 'result-timeout' } }, 'Over the time limit for feedback.'));
    if (r.message) parts.push(el('pre', { class: 'output', dataset: { testid: 'result-message' } }, r.message));
    parts.push(...(isCs3243() ? cs3243Result(d, r) : csci561Result(d, r)));
  }
  $('detail-body').replaceChildren(...parts);
}

// The tests a running judge finished so far.
function progressView(list) {
  const singles = list.filter((x) => x.kind === 'single').length;
  const games = list.filter((x) => x.kind === 'game').length;
  return el('div', { class: 'progress', dataset: { testid: 'progress' } },
    el('p', {}, `Judging now: ${singles} single move${singles === 1 ? '' : 's'} and ${games} game${games === 1 ? '' : 's'} finished so far.`),
    el('ul', {}, list.map((x) => el('li', {}, x.kind === 'single'
      ? `Single move ${x.position + 1}: ${x.point ? 'point' : `no point${x.reason ? ` (${x.reason})` : ''}`}`
      : `Game ${x.key}: ${x.reason || 'finished'}`))));
}

function csci561Result(d, r) {
  const out = [el('p', { class: 'score' },
    `${points(r.points)} points = ${r.single_points ?? 0} single-move points + ${r.game_points ?? 0} game points`)];
  if (r.calibration) out.push(el('p', {}, `Calibration: ${r.calibration}`));
  const singles = r.singles || [];
  out.push(el('h3', {}, `Single moves: ${singles.filter((x) => x.point).length} of ${singles.length}`));
  out.push(table(['Move', 'Point', 'Move played', 'Why no point', 'Detail', 'output.txt', 'CPU'],
    singles.map((x) => el('tr', { class: x.point ? 'point' : 'no-point' },
      el('td', {}, x.position + 1),
      el('td', {}, x.point ? 'point' : 'no point'),
      el('td', {}, x.move || '—'),
      el('td', {}, x.reason),
      el('td', { class: 'detail' }, x.detail),
      el('td', {}, x.output ? el('pre', { class: 'output' }, x.output) : 'none written'),
      el('td', {}, `${(x.cpu ?? 0).toFixed(3)} s`))), { dataset: { testid: 'singles' } }));
  const games = r.games || [];
  out.push(el('h3', {}, `Games: ${games.length}`));
  out.push(table(['#', 'Opponent', 'Colour', 'Result', 'Reason', 'Plies', 'Time left', 'Board'],
    games.map((g, k) => el('tr', { class: g.result },
      el('td', {}, k + 1),
      el('td', {}, g.opponent),
      el('td', {}, g.colour),
      el('td', {}, g.result),
      el('td', { class: 'detail' }, g.reason),
      el('td', {}, g.plies),
      el('td', {}, g.time_left !== undefined ? `${Number(g.time_left).toFixed(2)} s` : ''),
      el('td', {}, button('Open on the board', () => openRecord(`/api/course/submissions/${d.id}/games/${k}/record`),
        { 'aria-label': `Open game ${k + 1} on the board`, dataset: { testid: 'game-board' } })))),
    { dataset: { testid: 'games' } }));
  out.push(el('h3', {}, 'Feedback'));
  out.push(el('pre', { class: 'feedback', dataset: { testid: 'feedback' } }, r.feedback || '(no feedback file)'));
  return out;
}

function cs3243Result(d, r) {
  const out = [el('p', { class: 'score' }, `${points(r.points)} of ${points(r.max_points)} marks`)];
  // The five test cases in the hand-out's order (an array; an object from an
  // older judging is read too).
  const opponents = Array.isArray(r.opponents)
    ? r.opponents.map((o) => [o.opponent, o]) : Object.entries(r.opponents || {});
  out.push(el('h3', {}, 'Opponents'));
  out.push(table(['Opponent', 'Wins', 'Draws', 'Losses', 'Marks'],
    opponents.map(([name, o]) => el('tr', { dataset: { opponent: name } },
      el('th', { scope: 'row' }, name), el('td', {}, o.wins), el('td', {}, o.draws), el('td', {}, o.losses),
      el('td', {}, points(o.marks)))), { dataset: { testid: 'opponents' } }));
  if ((r.notes || []).length) {
    out.push(el('h3', {}, 'Notes'), el('ul', { dataset: { testid: 'notes' } }, r.notes.map((n) => el('li', {}, typeof n === 'string' ? n : JSON.stringify(n)))));
  }
  const games = r.games || [];
  if (games.length) {
    out.push(el('h3', {}, `Games: ${games.length}`));
    out.push(table(['#', 'Opponent', 'Outcome', 'Reason', 'Moves', 'Board'],
      games.map((g, k) => {
        const moves = g.moves || [];
        const cell = el('td', {});
        cell.append(button('Open on the board', () => openRecord(`/api/course/submissions/${d.id}/games/${k}/record`, () => {
          cell.replaceChildren(el('span', { class: 'moves', dataset: { testid: 'moves' } }, moves.length ? moves.join(' ') : 'no moves'));
          notice(`Game ${k + 1} has no record on the server; its moves are listed instead.`);
        }), { 'aria-label': `Open game ${k + 1} on the board` }));
        return el('tr', { class: g.outcome || g.result },
          el('td', {}, k + 1), el('td', {}, g.opponent), el('td', {}, g.outcome || g.result || ''),
          el('td', { class: 'detail' }, g.reason), el('td', {}, moves.length || g.plies || 0), cell);
      }), { dataset: { testid: 'games' } }));
  }
  const lost = r.lost || [];
  out.push(el('h3', {}, lost.length ? `Games lost: ${lost.length}` : 'No game lost'));
  if (lost.length) {
    out.push(table(['Opponent', 'Game', 'Reason'], lost.map((x) => el('tr', {},
      el('td', {}, x.opponent), el('td', {}, x.game), el('td', { class: 'detail' }, x.reason))), { dataset: { testid: 'lost' } }));
  }
  return out;
}

// A game's record (PDN or PGN) made a game of the board viewer, then opened
// there; `onMissing(err)` instead when the record is not on the server (404).
async function openRecord(path, onMissing) {
  notice('Opening the game on the board…');
  let text;
  try {
    text = await send(path);
  } catch (e) {
    if (e.status === 404 && onMissing) {
      onMissing(e);
      return;
    }
    throw e;
  }
  const view = await call('POST', '/api/games', { game: boardGame(), record: text });
  storeSeats(view.id, view.seats);
  setMyGameIds([...myGameIds().filter((x) => x !== view.id), view.id]);
  location.assign(`/g/${encodeURIComponent(view.id)}`);
}

// ---- the ladder ----------------------------------------------------------------

async function loadLadder() {
  const l = await call('GET', '/api/course/ladder');
  const teacher = state.me.teacher;
  $('ladder-about').textContent = l.rating ? `Ratings: ${l.rating}.` : '';
  $('ladder-table').tBodies[0].replaceChildren(...l.players.map((p) => el('tr', {
    class: p.you ? 'you' : null, 'aria-current': p.you ? 'true' : null, dataset: { rank: p.rank },
  },
  el('td', {}, p.rank),
  el('th', { scope: 'row', class: 'name' }, p.name, teacher && p.student ? ` (${p.student})` : '', p.you ? ' (you)' : ''),
  el('td', { class: 'rating', title: `${p.rating.toFixed(1)}, deviation ${p.deviation.toFixed(1)}` }, ratingText(p)),
  el('td', {}, p.games),
  el('td', {}, `${p.wins}/${p.draws}/${p.losses}`))));
  $('ladder-empty').hidden = l.players.length > 0;
  $('ladder-games-h').textContent = teacher ? 'Games (newest first)' : 'Your program\'s games (newest first)';
  $('ladder-games').replaceChildren(...(l.games.length ? l.games.map((g) => el('li', { dataset: { id: g.id } },
    el('span', { class: 'what' }, `#${g.id} `, el('span', { class: 'first' }, g.first), ' – ', el('span', { class: 'second' }, g.second),
      `: ${scoreText(g.score)}`, g.reason ? el('span', { class: 'reason' }, ` (${g.reason})`) : null),
    button('Open on the board', () => openRecord(`/api/course/ladder/games/${g.id}/record`),
      { 'aria-label': `Open ladder game ${g.id} on the board` }))) : [el('li', { class: 'hint' }, 'None yet.')]));
}

async function saveNickname(e) {
  e.preventDefault();
  const nickname = $('nickname-input').value.trim();
  const r = await call('PUT', '/api/course/nickname', { nickname });
  state.me.nickname = r.nickname;
  clearError();
  notice(r.nickname ? `The ladder shows you as ${r.nickname}.` : 'The ladder shows your name.');
  await loadLadder();
}

// ---- the teacher ----------------------------------------------------------------

async function loadTeacher() {
  const [students, runs] = await Promise.all([call('GET', '/api/course/students'), call('GET', '/api/course/runs')]);
  state.runs = runs;
  $('students').tBodies[0].replaceChildren(...students.map((s) => {
    const l = s.latest;
    return el('tr', { dataset: { id: s.id } },
      el('th', { scope: 'row' }, s.id),
      el('td', {}, s.name, s.nickname ? ` (${s.nickname})` : ''),
      el('td', {}, s.email),
      el('td', {}, l ? [`#${l.id}, ${when(l.created)} `, button('Show', () => openDetail(l.id), { 'aria-label': `Show submission ${l.id}` })] : 'none'),
      el('td', {}, l ? [statusText(l), l.late ? el('span', { class: 'late' }, ' late') : null] : ''),
      el('td', {}, l && l.status === 'done' ? points(l.points) : '—'));
  }));
  $('runs').tBodies[0].replaceChildren(...(runs.length ? runs.map((x) => el('tr', { dataset: { id: x.id, status: x.status } },
    el('td', {}, `#${x.id}`),
    el('td', {}, x.kind),
    el('td', {}, when(x.created)),
    el('td', { class: `status ${x.status}` }, x.status, x.error ? `: ${x.error}` : ''),
    el('td', {}, (x.students || []).map((p) => p[0]).join(', ')),
    el('td', {}, x.status === 'done'
      ? el('a', { href: `/api/course/runs/${x.id}/grades.csv`, download: `grades-run-${x.id}.csv`, dataset: { testid: 'grades-link' } }, 'grades.csv')
      : '—'))) : [el('tr', {}, el('td', { colspan: 6, class: 'hint' }, 'No run yet.'))]));
}

async function startRun(kind) {
  const r = await call('POST', '/api/course/runs', { kind });
  clearError();
  notice(`Run #${r.id} (${kind}) started for ${r.students.length} student${r.students.length === 1 ? '' : 's'}: ${r.students.map((p) => p[0]).join(', ')}.`);
  await loadTeacher();
  schedule();
}

async function rejudge(id) {
  const r = await call('POST', '/api/course/rejudge', id === 'all' ? { all: true } : { submission: id });
  clearError();
  notice(id === 'all' ? `${r.queued} submission${r.queued === 1 ? '' : 's'} queued to be judged again.` : `Submission #${id} queued to be judged again.`);
  await refresh();
}

async function setDeadline(value) {
  await call('PUT', '/api/course/deadline', { deadline: value });
  state.me = await call('GET', '/api/course/me');
  showSettings();
  clearError();
  notice(value === null ? 'No deadline now.' : `Deadline set to ${when(value)}.`);
}

async function submitDeadline(e) {
  e.preventDefault();
  const v = $('deadline-input').value;
  const t = v ? new Date(v).getTime() : NaN;
  if (!Number.isFinite(t)) throw new Error('pick a date and time for the deadline first');
  await setDeadline(t / 1000);
}

// ---- keeping up ----------------------------------------------------------------

const busy = () => state.subs.some(active) || active(state.detail) || state.runs.some(active);

// Polls every POLL_MS while a submission or run is queued or running.
function schedule() {
  clearTimeout(state.timer);
  state.timer = 0;
  const on = !!state.me && busy();
  document.body.dataset.polling = on ? 'on' : 'off';
  if (on) state.timer = setTimeout(poll, POLL_MS);
}

// Everything listed, again; the submission shown if it was being judged.
async function refresh() {
  if (!state.me) return;
  await loadSubs();
  if (state.me.teacher) await loadTeacher();
  if (state.detailId !== null) {
    const s = state.subs.find((x) => x.id === state.detailId);
    if (s && (active(s) || active(state.detail) || s.status !== state.detail?.status)) await openDetail(s.id, true);
  }
  if (state.me.ladder && !busy()) await loadLadder();  // judging over: the ladder's turn
  schedule();
}

async function poll() {
  state.timer = 0;
  try {
    await refresh();
  } catch (e) {
    showError(e);
    schedule();
  }
}

// ---- start ----------------------------------------------------------------

function bind() {
  $('message-close').addEventListener('click', clearError);
  $('signin-form').addEventListener('submit', guard(pasteToken));
  $('signout').addEventListener('click', guard(signOut));
  $('upload-form').addEventListener('submit', guard(upload));
  $('nickname-form').addEventListener('submit', guard(saveNickname));
  $('ladder-refresh').addEventListener('click', guard(loadLadder));
  $('deadline-form').addEventListener('submit', guard(submitDeadline));
  $('deadline-clear').addEventListener('click', guard(() => setDeadline(null)));
  $('run-grading').addEventListener('click', guard(() => startRun('grading')));
  $('run-competition').addEventListener('click', guard(() => startRun('competition')));
  $('rejudge-all').addEventListener('click', guard(() => rejudge('all')));
  setInterval(() => {
    if (state.me?.ladder && !document.hidden) loadLadder().catch(showError);
  }, LADDER_MS);
}

// The address's part after #: a sign-in link's token (signed in with, then
// taken out of the address and the history at once, whether it worked or
// not), or a submission to show.
async function followHash(loaded) {
  const link = /^#token=([^&]*)/.exec(location.hash);
  const open = /^#submission=(\d+)$/.exec(location.hash);
  if (link) {
    history.replaceState(null, '', location.pathname + location.search);
    Object.assign(state, { detailId: null, detail: null });
    $('detail').hidden = true;
    try {
      await signIn(decodeURIComponent(link[1]).trim(), false);
      clearError();
    } catch (e) {
      showError(new Error(`the sign-in link did not work: ${e.message}`));
    }
    await start(null);
  } else if (!loaded) {
    await start(open ? Number(open[1]) : null);
  } else if (open && state.me && Number(open[1]) !== state.detailId) {
    try {
      await openDetail(Number(open[1]));
    } catch (e) {
      const shown = state.detailId === null ? '' : `#submission=${state.detailId}`;
      history.replaceState(null, '', `${location.pathname}${location.search}${shown}`);
      throw e;
    }
  }
}

async function boot() {
  bind();
  window.addEventListener('hashchange', guard(() => followHash(true)));
  await followHash(false);
}

boot().catch((e) => {
  showError(e);
  if (!state.me) notice('The course could not be shown.');
});
