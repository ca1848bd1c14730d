// The move list as players read it: moves in the game's notation (SAN in
// the chess games, `11-15` / `22x15` in checkers), numbered in pairs
// ("1. Nc3 d3"; "1... d3" when the second player moved first), each a
// button that shows the position after it. And the clocks' text.

// Draws `view`'s moves into the <ol> `root`; `shown` is the ply on the
// board (the number of moves played to reach it); `onPick(ply)` is called
// with a move's ply when it is clicked.
export function renderMoveList(root, view, shown, onPick) {
  const notes = view.notation || view.history || [];
  const secondFirst = view.first_to_move === 2;
  const rows = [];
  let row = null;
  notes.forEach((text, i) => {
    const ply = i + 1;
    const firstOfPair = secondFirst ? i % 2 === 1 : i % 2 === 0;
    if (!row || firstOfPair) {
      row = document.createElement('li');
      const n = Math.floor((secondFirst ? i + 1 : i) / 2) + 1;
      row.innerHTML = `<span class="num">${n}.</span>`;
      if (secondFirst && i === 0) row.insertAdjacentHTML('beforeend', '<span class="mv none">…</span>');
      rows.push(row);
    }
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mv';
    b.dataset.ply = String(ply);
    b.textContent = text;
    b.title = view.history?.[i] && view.history[i] !== text ? `${text} (${view.history[i]})` : text;
    if (ply === shown) {
      b.classList.add('current');
      b.setAttribute('aria-current', 'step');
    }
    b.addEventListener('click', () => onPick(ply));
    row.appendChild(b);
  });
  root.replaceChildren(...rows);
  const current = root.querySelector('.current');
  if (current && shown < notes.length) {
    scrollIntoList(root, current);
  } else {
    // The game now: the last move, at the end of a column (a wide screen)
    // or of the one-row strip under the board (a narrow one).
    root.scrollTop = root.scrollHeight;
    root.scrollLeft = root.scrollWidth;
  }
}

// Scrolls the list `root` the least that shows `el` whole, across (the
// strip) or down (the column): scrollIntoView's inline and block 'nearest',
// but the page itself never moves: stepping through the game does not pull
// a reader scrolled down to the search panel back up to the list.
function scrollIntoList(root, el) {
  const outer = root.getBoundingClientRect();
  const left = outer.left + root.clientLeft;  // the part shown: no border, no scroll bar
  const top = outer.top + root.clientTop;
  const right = left + root.clientWidth;
  const bottom = top + root.clientHeight;
  const r = el.getBoundingClientRect();
  if (r.left < left) root.scrollLeft -= left - r.left;
  else if (r.right > right) root.scrollLeft += Math.min(r.right - right, r.left - left);
  if (r.top < top) root.scrollTop -= top - r.top;
  else if (r.bottom > bottom) root.scrollTop += Math.min(r.bottom - bottom, r.top - top);
}

// Seconds as a clock shows them: "0:07.4", "12:03.0", "1:02:03".
export function clockText(seconds) {
  const s = Math.max(0, Number(seconds) || 0);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${String(Math.floor(sec)).padStart(2, '0')}`;
  return `${m}:${sec.toFixed(1).padStart(4, '0')}`;
}

// The time per move an agent spec sets (`time=T`), else null.
export function moveLimit(spec) {
  const m = /(^|[:,])\s*time\s*=\s*([0-9.]+)/.exec(spec || '');
  return m ? Number(m[2]) : null;
}
