// The players' bars above and below the board, with their clocks, and the
// result in words.
import { escapeHtml, naturalBottom, sideIndex } from './board.js';
import { clockText, moveLimit } from './movelist.js';

const $ = (id) => document.getElementById(id);

// "Black wins: White has no move", "Draw: ...": the winner by the game's
// own side names, then why.
export function resultText(v) {
  if (!v.terminal) return '';
  const names = v.players || ['Player 1', 'Player 2'];
  const head = v.result === '1-0' ? `${names[0]} wins` : v.result === '0-1' ? `${names[1]} wins` : 'Draw';
  return v.reason ? `${head}: ${v.reason} (${v.result})` : `${head} (${v.result})`;
}

// A bar per side, the top one for the side drawn at the top: its name, who
// plays it and its clock: the time its moves took, with the turn now
// running; a side with a time per move also counts that down.
// `agentFor(idx)` is the spec a side plays with ("human" for a person);
// `flipped`: the board is turned from the game's usual diagram, so the
// side usually at the bottom is at the top.
export function renderPlayers(v, flipped, agentFor, clockAt) {
  const names = v.players || ['Player 1', 'Player 2'];
  const top = flipped ? naturalBottom(v) : 1 - naturalBottom(v);
  for (const [id, idx] of [['player-top', top], ['player-bottom', 1 - top]]) {
    const el = $(id);
    el.dataset.side = String(idx + 1);
    el.classList.toggle('to-move', !v.terminal && sideIndex(v) === idx);
    el.innerHTML = `<span class="name">${escapeHtml(names[idx])}</span>` +
      `<span class="who">${escapeHtml(who(v, idx, agentFor))}</span>` +
      `<span class="clock" data-testid="clock-${idx + 1}" role="timer" aria-label="${escapeHtml(names[idx])}'s clock"></span>`;
  }
  updateClocks(v, agentFor, clockAt);
}

// Who plays a side: a person by the name the game has for them, a program
// by its spec.
function who(v, idx, agentFor) {
  const agent = agentFor(idx);
  const name = v.names?.[idx];
  return agent === 'human' && name && name !== 'person' ? name : agent;
}

// The clocks' text now; `clockAt` is performance.now() when `v` came.
export function updateClocks(v, agentFor, clockAt) {
  if (!v || !v.clock) return;
  const isHuman = (i) => agentFor(i) === 'human';
  const idx = sideIndex(v);
  const running = !v.terminal && (v.thinking || isHuman(idx));
  const turn = running ? v.clock.turn + (performance.now() - clockAt) / 1000 : 0;
  for (const side of [0, 1]) {
    const el = document.querySelector(`[data-testid="clock-${side + 1}"]`);
    if (!el) continue;
    const mine = side === idx && running;
    const used = v.clock.used[side] + (mine ? turn : 0);
    const limit = isHuman(side) ? null : moveLimit(agentFor(side));
    let text = clockText(used);
    if (limit !== null) text += mine ? ` · ${Math.max(0, limit - turn).toFixed(1)} s left` : ` · ${limit} s/move`;
    el.textContent = text;
    el.classList.toggle('running', mine);
  }
}
