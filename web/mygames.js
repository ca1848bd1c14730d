// "Your games": the games this browser made, listed from the server.
import { api } from './api.js';
import { resultText } from './players.js';

const $ = (id) => document.getElementById(id);

const describe = (v) => `${v.id}: ${v.spec}, ${v.terminal ? resultText(v) : `${v.history.length} move${v.history.length === 1 ? '' : 's'}`}`;

// Brings the row of the game `v` (the one on the board) up to date.
export function updateMyGame(v) {
  const what = document.querySelector(`#my-games li[data-game="${CSS.escape(v.id)}"] .what`);
  if (what) what.textContent = describe(v);
}

// Their ids, kept in localStorage so that a reload (or another tab) finds
// them; a game the server no longer has leaves the list.
const MY_GAMES_KEY = 'duel.games';
export function myGameIds() {
  try {
    const ids = JSON.parse(localStorage.getItem(MY_GAMES_KEY) || '[]');
    return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
export function setMyGameIds(ids) {
  try {
    localStorage.setItem(MY_GAMES_KEY, JSON.stringify(ids.slice(-20)));
  } catch { /* storage off: the list is this page's only */ }
}

// Lists them with Open and Delete buttons (`open(id)`, `del(id)`); the one
// with id `current` is marked open.
export async function renderMyGames(current, { open: onOpen, del: onDelete }) {
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
    li.classList.toggle('open', current === v.id);
    const what = document.createElement('span');
    what.className = 'what';
    what.textContent = describe(v);
    const open = document.createElement('button');
    open.type = 'button';
    open.textContent = 'Open';
    open.dataset.action = 'open';
    open.addEventListener('click', () => onOpen(v.id));
    const del = document.createElement('button');
    del.type = 'button';
    del.textContent = 'Delete';
    del.dataset.action = 'delete';
    del.addEventListener('click', () => onDelete(v.id));
    li.append(what, open, del);
    return li;
  }));
}

// "Live games": every game the server holds, to watch; `onOpen(id)` opens one.
export async function renderLive(onOpen) {
  try {
    const live = await api('GET', '/api/live');
    $('live').hidden = live.length === 0;
    $('live-list').replaceChildren(...live.map((g) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `/g/${encodeURIComponent(g.id)}`;
      a.textContent = `${g.id}: ${g.game}, ${g.names.join(' – ')}, ${g.terminal ? 'over' : `move ${g.ply}`}` +
        ` (${g.viewers} watching)`;
      a.addEventListener('click', (e) => {
        e.preventDefault();
        onOpen(g.id);
      });
      li.appendChild(a);
      return li;
    }));
  } catch { /* the list is a convenience */ }
}
