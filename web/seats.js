// The seats this browser holds (docs/serve.md "Seats"): each game's two
// tokens in localStorage, a play link's token taken from the address, and
// the links that hand a seat or the game to someone else.
const $ = (id) => document.getElementById(id);

// The tokens of the sides this browser holds, by game: [first, second]
// (null for a side it does not hold). A play link (#seat=N.TOKEN) adds one.
const seatKey = (id) => `duel.seats.${id}`;
export function seatsOf(id) {
  try {
    const s = JSON.parse(localStorage.getItem(seatKey(id)) || 'null');
    return Array.isArray(s) && s.length === 2 ? s : [null, null];
  } catch {
    return [null, null];
  }
}
export function storeSeats(id, tokens) {
  const seats = tokens ? [...tokens] : [null, null];
  try {
    localStorage.setItem(seatKey(id), JSON.stringify(seats));
  } catch { /* storage off: this page's only */ }
  return seats;
}
export function takePlayLink(id) {
  const m = /^#seat=([12])\.([0-9a-f]{32})$/.exec(location.hash);
  if (!m) return;
  const seats = seatsOf(id);
  seats[Number(m[1]) - 1] = m[2];
  storeSeats(id, seats);
  history.replaceState(history.state, '', location.pathname);
}

// The links that give a person's seat of the open game to someone else.
// `seats`: the tokens this page holds; `onCopy(side)`: a play link was copied.
export function renderShare(v, seats, onCopy) {
  const box = $('share');
  const sides = v?.seated ? [0, 1].filter((i) => seats[i] && v.agents[i] === 'human') : [];
  box.hidden = !v || v.terminal || sides.length === 0;
  if (box.hidden) return;
  const base = `${location.origin}/g/${encodeURIComponent(v.id)}`;
  $('share-watch').value = base;
  $('share-play').replaceChildren(...sides.map((i) => {
    const label = document.createElement('label');
    label.textContent = `To play ${v.players[i]}: `;
    const input = document.createElement('input');
    input.readOnly = true;
    input.dataset.testid = `play-link-${i + 1}`;
    input.value = `${base}#seat=${i + 1}.${seats[i]}`;
    input.addEventListener('focus', () => input.select());
    // A link copied is a seat given away: this page no longer plays that
    // side (so its takebacks and draws are the other person's to accept).
    input.addEventListener('copy', () => onCopy(i));
    label.appendChild(input);
    return label;
  }));
}
