// Draws a game view's board (GET /api/games/{id}) as a grid of buttons.
// It knows how to draw pieces, not the rules: which squares can be clicked
// comes from the caller, which takes it from the server's moves[].squares.

const SVG_NS = 'http://www.w3.org/2000/svg';

// Our own simple piece drawings on a 100 x 100 box: a shared base plus a
// body per piece (no third-party art).
const BASE = '<rect x="24" y="78" width="52" height="10" rx="3"/>';
const CHESS_SHAPES = {
  p: `${BASE}<path d="M38 78 L42 50 L58 50 L62 78 Z"/><circle cx="50" cy="38" r="13"/>`,
  r: `${BASE}<rect x="33" y="42" width="34" height="36"/>` +
     '<path d="M27 22 h11 v8 h6 v-8 h12 v8 h6 v-8 h11 v20 h-46 Z"/>',
  n: `${BASE}<path d="M30 78 L70 78 C72 58 72 40 64 30 C58 22 50 17 41 15 L39 23` +
     ' C31 28 24 38 22 47 C20 55 27 59 33 55 C38 52 42 50 47 48 C41 58 34 66 30 78 Z"/>' +
     '<circle class="detail" cx="44" cy="29" r="3.5"/>',
  b: `${BASE}<path d="M35 78 C33 64 39 55 50 47 C61 55 67 64 65 78 Z"/>` +
     '<ellipse cx="50" cy="37" rx="12" ry="15"/><circle cx="50" cy="17" r="5.5"/>' +
     '<path class="detail-line" d="M55 29 L45 41"/>',
  q: `${BASE}<path d="M30 78 L22 36 L36 58 L37 30 L46 56 L50 24 L54 56 L63 30 L64 58 L78 36 L70 78 Z"/>` +
     '<circle cx="22" cy="32" r="5"/><circle cx="37" cy="26" r="5"/><circle cx="50" cy="20" r="5"/>' +
     '<circle cx="63" cy="26" r="5"/><circle cx="78" cy="32" r="5"/>',
  k: `${BASE}<path d="M32 78 C25 62 25 49 36 45 C42 43 48 47 50 53 C52 47 58 43 64 45` +
     ' C75 49 75 62 68 78 Z"/><rect x="46.5" y="12" width="7" height="30"/>' +
     '<rect x="39" y="19" width="22" height="7"/>',
};
const CHESS_NAMES = { p: 'pawn', r: 'rook', n: 'knight', b: 'bishop', q: 'queen', k: 'king' };

const CHECKER_MAN = '<circle cx="50" cy="50" r="34"/><circle class="detail-ring" cx="50" cy="50" r="23"/>';
const CHECKER_KING = CHECKER_MAN +
  '<path class="crown" d="M34 60 L31 38 L42 48 L50 34 L58 48 L69 38 L66 60 Z"/>';

function svg(inner, cls) {
  return `<svg class="piece ${cls}" viewBox="0 0 100 100" aria-hidden="true" focusable="false">${inner}</svg>`;
}

// Which drawing a view's game needs. Names only pick pictures, never rules.
export function familyOf(view) {
  if (!view) return 'chess';
  if (view.board && view.board.kind === 'line') return 'line';
  const g = String(view.game || '');
  if (g.startsWith('checkers')) return 'checkers';
  if (g.startsWith('nqueens')) return 'nqueens';
  return 'chess';
}

// A piece's SVG markup and its spoken name for a cell's text.
export function pieceFor(family, cell) {
  if (!cell) return { html: '', name: '' };
  if (family === 'checkers') {
    const side = cell.toLowerCase() === 'b' ? 'black' : 'white';
    const king = cell === cell.toUpperCase();
    return { html: svg(king ? CHECKER_KING : CHECKER_MAN, `checker ${side}`),
             name: `${side} ${king ? 'king' : 'man'}` };
  }
  if (family === 'nqueens' && cell === 'Q') {
    return { html: svg(CHESS_SHAPES.q, 'queen-only'), name: 'queen' };
  }
  if (family === 'line') {
    return { html: svg('<circle cx="50" cy="50" r="36"/>' +
                       `<text x="50" y="63" text-anchor="middle">${cell}</text>`, `stone p${cell}`),
             name: `player ${cell} piece` };
  }
  const shape = CHESS_SHAPES[cell.toLowerCase()];
  if (shape) {
    const side = cell === cell.toUpperCase() ? 'white' : 'black';
    return { html: svg(shape, `chess ${side}`), name: `${side} ${CHESS_NAMES[cell.toLowerCase()]}` };
  }
  return { html: `<span class="glyph">${escapeHtml(cell)}</span>`, name: cell };
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

// The square's name as a player says it.
function squareName(family, rows, cols, r, c) {
  if (family === 'line') return `cell ${c + 1}`;
  if (family === 'nqueens') return `row ${r + 1}, column ${c + 1}`;
  if (cols <= 26) return `${String.fromCharCode(97 + c)}${rows - r}`;
  return `row ${r + 1}, column ${c + 1}`;
}

const key = (sq) => `${sq[0]},${sq[1]}`;

// The labels on the board's edge for the square (r, c) drawn at (i, j):
// the rank (or row) on the left column, the file (or column) on the bottom
// row; checkers also numbers its 32 dark squares as PDN does (1 is b8).
function coordsFor(family, rows, cols, r, c, i, j) {
  if (family === 'line') return '';
  const numeric = family === 'nqueens' || cols > 26;
  let out = '';
  if (j === 0) out += `<span class="coord rank">${numeric ? r + 1 : rows - r}</span>`;
  if (i === rows - 1) out += `<span class="coord file">${numeric ? c + 1 : String.fromCharCode(97 + c)}</span>`;
  if (family === 'checkers' && (r + c) % 2 === 1) out += `<span class="coord num">${r * 4 + Math.floor(c / 2) + 1}</span>`;
  return out;
}

// Draws `view` into `root`. `marks` is {selected, targets, starts} as sets of
// "r,c" keys and `focus`, the one square the Tab key reaches ("r,c"; the
// arrow keys move it); `onClick(r, c)` is called for a click on any square. The
// square buttons are kept from one drawing to the next (same board size), so
// a click or the keyboard focus is never lost to a redraw. `flipped` turns
// the board half a turn (the second player at the bottom); squares keep
// their server coordinates, so moves do not change.
export function renderBoard(root, view, marks, onClick, flipped = false) {
  const family = familyOf(view);
  const { rows, cols, cells } = view.board;
  root.className = `board family-${family}`;
  root.style.setProperty('--cols', cols);
  root.style.setProperty('--rows', rows);
  root.setAttribute('aria-label', `${view.game} board, ${rows} by ${cols}`);
  root.onclick = (e) => {
    const b = e.target.closest('.sq');
    if (b && root.contains(b)) onClick(...b.dataset.square.split(',').map(Number));
  };
  const focusKey = marks.focus || [...marks.starts][0] || `${flipped ? rows - 1 : 0},${flipped ? cols - 1 : 0}`;

  const last = new Set((view.last_move?.squares || []).map(key));
  const attacked = new Set((view.marks || []).map(key));
  const check = view.check ? checkedKing(view) : null;

  const shape = `${family} ${rows}x${cols}${flipped ? ' flipped' : ''}`;
  const reuse = root.dataset.shape === shape;
  if (!reuse) {
    root.replaceChildren();
    root.dataset.shape = shape;
  }
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const r = flipped ? rows - 1 - i : i;
      const c = flipped ? cols - 1 - j : j;
      const k = `${r},${c}`;
      const cell = cells[r][c] || '';
      const piece = pieceFor(family, cell);
      let b = reuse ? root.children[i * cols + j] : null;
      if (!b) {
        b = document.createElement('button');
        b.type = 'button';
        b.dataset.square = k;
        root.appendChild(b);
      }
      b.className = 'sq';
      if (family !== 'line') b.classList.add((r + c) % 2 === 0 ? 'light' : 'dark');
      if (last.has(k)) b.classList.add('last');
      if (attacked.has(k)) b.classList.add('attacked');
      if (check === k) b.classList.add('check');
      if (marks.selected.has(k)) b.classList.add('selected');
      if (marks.targets.has(k)) b.classList.add('target');
      if (marks.starts.has(k)) b.classList.add('can-move');
      const where = squareName(family, rows, cols, r, c);
      const extra = [piece.name || 'empty'];
      if (check === k) extra.push('in check');
      if (attacked.has(k)) extra.push('attacked');
      if (marks.targets.has(k)) extra.push('move here');
      b.setAttribute('aria-label', `${where}, ${extra.join(', ')}`);
      b.setAttribute('aria-pressed', marks.selected.has(k) ? 'true' : 'false');
      b.tabIndex = k === focusKey ? 0 : -1;
      if (!reuse || b.dataset.piece !== cell) {
        b.dataset.piece = cell;
        b.innerHTML = piece.html + (family === 'line' ? `<span class="idx">${c + 1}</span>` : '') +
          coordsFor(family, rows, cols, r, c, i, j);
      }
    }
  }
}

// The square of the side to move's king ("r,c"), for the check mark.
function checkedKing(view) {
  const idx = sideIndex(view);
  const want = idx === 0 ? 'K' : 'k';
  const { cells } = view.board;
  for (let r = 0; r < cells.length; r++) {
    for (let c = 0; c < cells[r].length; c++) if (cells[r][c] === want) return `${r},${c}`;
  }
  return null;
}

// The side drawn at the bottom of the game's usual diagram, as an index
// into view.players: White in the chess games, White in checkers too
// (Black, who moves first, starts at the top: square 1 is b8).
export function naturalBottom(view) {
  return familyOf(view) === 'checkers' ? 1 : 0;
}

// The side to move as an index into view.players (to_move is 1 or 2).
export function sideIndex(view) {
  return view.to_move === 2 ? 1 : 0;
}

// A bar chart of nodes by depth on a log scale, as inline SVG.
export function renderChart(root, nodesByDepth, emptyText = 'no search yet') {
  const data = (nodesByDepth || []).map((n) => Number(n) || 0);
  const W = 320, H = 120, pad = 18;
  const el = (name, attrs, text) => {
    const e = document.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const s = el('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img',
                        'aria-label': data.length ? `nodes by depth: ${data.join(', ')}` : emptyText });
  if (!data.length) {
    s.appendChild(el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'chart-empty' }, emptyText));
    root.replaceChildren(s);
    return;
  }
  const top = Math.max(1, ...data.map((n) => Math.log10(n + 1)));
  const bw = (W - 2 * pad) / data.length;
  data.forEach((n, d) => {
    const h = (Math.log10(n + 1) / top) * (H - 2 * pad);
    const x = pad + d * bw;
    const bar = el('rect', { x: x + 1, y: H - pad - h, width: Math.max(1, bw - 2), height: h, class: 'bar' });
    bar.appendChild(el('title', {}, `depth ${d}: ${n.toLocaleString()} nodes`));
    s.appendChild(bar);
    if (data.length <= 24 || d % 2 === 0) {
      s.appendChild(el('text', { x: x + bw / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis' }, String(d)));
    }
  });
  s.appendChild(el('text', { x: 2, y: 11, class: 'axis' }, 'nodes (log) by depth'));
  root.replaceChildren(s);
}
