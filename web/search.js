// The search panel: the live or last search of a game (GET
// /api/games/{id}/search), with its score in the game's unit as the server
// words it ("White ahead by 0.35 pawns", "Black wins in 4 moves (7
// plies)"), the line in the game's notation and a nodes-by-depth chart.
import { renderChart } from './board.js';

const $ = (id) => document.getElementById(id);

export function resetSearch() {
  for (const id of ['search-agent', 'search-depth', 'search-score', 'search-nodes', 'search-nps',
                    'search-time', 'search-pv']) $(id).textContent = '–';
  $('search-score').removeAttribute('title');
  $('search-title').textContent = 'Search';
  renderChart($('nodes-chart'), []);
}

// The words, and the raw numbers as the title: `value` in points from the
// first player's view, `score` in the engine's units.
function scoreParts(i) {
  if (i.value === null || i.value === undefined) return { text: '–', title: '' };
  const sign = (x) => `${x > 0 ? '+' : ''}${x}`;
  const unit = i.unit && i.score?.eval !== null && i.score?.eval !== undefined ? ` ${i.unit}` : '';
  const title = `${sign(Number(i.value))} points of payoff for the first player (engine units ` +
                `${sign(i.raw_score)})${i.exact ? ', proven' : ''}`;
  return { text: `${i.score_text || sign(Number(i.value))}${unit}`, title };
}

export function showSearch(s) {
  $('search-title').textContent = s.thinking ? 'Search (thinking…)' : 'Last search';
  $('search-agent').textContent = s.agent || '–';
  const i = s.info;
  if (!i) return;
  const num = (x) => (x === null || x === undefined ? '–' : Number(x).toLocaleString('en-US'));
  $('search-depth').textContent = num(i.depth);
  const score = scoreParts(i);
  $('search-score').textContent = score.text;
  $('search-score').title = score.title;
  $('search-nodes').textContent = num(i.nodes);
  $('search-nps').textContent = num(Math.round(i.nps || 0));
  $('search-time').textContent = i.seconds === undefined ? '–' : `${Number(i.seconds).toFixed(2)} s`;
  const line = i.pv_notation?.length ? i.pv_notation : i.pv || [];
  $('search-pv').textContent = line.join(' ') || '–';
  // Nodes by depth come with each finished iteration; until the first, keep the last chart.
  if (!s.thinking || (i.nodes_by_depth || []).length) {
    renderChart($('nodes-chart'), i.nodes_by_depth);
  } else if (!$('nodes-chart').querySelector('rect')) {
    renderChart($('nodes-chart'), [], 'nodes by depth: after the first iteration');
  }
}
