// The analysis panel (POST /api/games/{id}/analyse, its `analysis` event):
// the engine's evaluation as a bar and in words, its best move drawn on the
// board as an arrow, and its best lines, for the position shown, without a
// move being played.
import { escapeHtml } from './board.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

// The share of the bar that is the first player's: an estimate of ±10
// units or more fills it, a proven result too.
export function barShare(score) {
  if (!score) return 0.5;
  if (score.wins_in !== null && score.wins_in !== undefined) return score.wins_in > 0 ? 1 : 0;
  if (score.draw) return 0.5;
  const e = Math.max(-10, Math.min(10, Number(score.eval) || 0));
  return 0.5 + e / 20;
}

export function clearAnalysis() {
  $('lines').replaceChildren();
  $('eval-text').textContent = '';
  $('eval-bar').querySelector('.fill').style.height = '50%';
  $('eval-bar').setAttribute('aria-valuenow', '0');
  document.querySelector('#board .arrows')?.remove();
  delete document.body.dataset.analysed;
}

// Shows analysis `a` of the position drawn on `board` (turned when
// `flipped`); `names` are the sides' names, `first` the side at the bottom.
export function showAnalysis(a, board, flipped, names) {
  const best = a.lines?.[0];
  $('analysis').hidden = false;
  if (a.error) {
    $('eval-text').textContent = `Analysis failed: ${a.error}`;
    return;
  }
  if (a.thinking || !best) {
    $('eval-text').textContent = a.thinking ? 'Analysing…' : 'No move to analyse';
    $('lines').replaceChildren();
    document.querySelector('#board .arrows')?.remove();
    return;
  }
  // The bar fills from the bottom with the share of the side drawn there.
  const share = barShare(best.score);
  const bottom = flipped ? 1 - share : share;
  $('eval-bar').querySelector('.fill').style.height = `${(bottom * 100).toFixed(1)}%`;
  $('eval-bar').setAttribute('aria-valuenow', String(best.score.eval ?? (best.score.wins_in > 0 ? 100 : -100)));
  const unit = best.score.eval !== null ? ` ${best.score.unit} (${names[0]}'s view)` : '';
  $('eval-text').textContent = `${best.score_text}${unit}, depth ${a.depth}`;
  $('lines').replaceChildren(...a.lines.map((l) => {
    const li = document.createElement('li');
    li.innerHTML = `<span class="score">${escapeHtml(l.score_text)}</span> ` +
      `<span class="line">${escapeHtml((l.pv_notation || []).join(' '))}</span>`;
    return li;
  }));
  drawArrow(board, best.move.squares, flipped);
  document.body.dataset.analysed = String(a.ply);
}

// An arrow over `board` from a move's first square to its last (a ring for
// a move of one square: a queen placed, a cell filled).
function drawArrow(board, squares, flipped) {
  board.querySelector('.arrows')?.remove();
  if (!squares?.length) return;
  const rows = Number(board.style.getPropertyValue('--rows'));
  const cols = Number(board.style.getPropertyValue('--cols'));
  const at = ([r, c]) => (flipped ? [cols - 1 - c + 0.5, rows - 1 - r + 0.5] : [c + 0.5, r + 0.5]);
  const svg = document.createElementNS(SVG, 'svg');
  svg.classList.add('arrows');
  svg.dataset.testid = 'best-arrow';
  svg.setAttribute('viewBox', `0 0 ${cols} ${rows}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('aria-hidden', 'true');
  const [x1, y1] = at(squares[0]);
  const [x2, y2] = at(squares[squares.length - 1]);
  if (squares.length === 1 || (x1 === x2 && y1 === y2)) {
    const ring = document.createElementNS(SVG, 'circle');
    ring.setAttribute('cx', x1);
    ring.setAttribute('cy', y1);
    ring.setAttribute('r', 0.38);
    svg.appendChild(ring);
  } else {
    const defs = document.createElementNS(SVG, 'defs');
    defs.innerHTML = '<marker id="arrow-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" ' +
      'markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>';
    svg.appendChild(defs);
    const path = document.createElementNS(SVG, 'polyline');
    path.setAttribute('points', squares.map((sq) => at(sq).join(',')).join(' '));
    path.setAttribute('marker-end', 'url(#arrow-head)');
    svg.appendChild(path);
  }
  board.appendChild(svg);
}
