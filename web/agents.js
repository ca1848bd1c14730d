// Who plays each side, as the form says: the agent specs sent to the
// server, and the agent kinds it offers for the game (the inputs' list).
import { api } from './api.js';

const $ = (id) => document.getElementById(id);

const agentInput = (idx) => $(idx === 0 ? 'first-agent' : 'second-agent');

// The spec a side plays with ("human" for a person), with the page's time
// per move added to searching agents that set no limit of their own.
export function agentFor(idx) {
  const spec = agentInput(idx).value.trim() || 'human';
  if (spec === 'human') return spec;
  const [kind, rest = ''] = spec.split(/:(.*)/s);
  const t = parseFloat($('move-time').value);
  const limited = /(^|,)\s*(depth|time|nodes)\s*=/.test(rest);
  if (['engine', 'alphabeta', 'minimax'].includes(kind) && !limited && t > 0) {
    return `${kind}:${rest ? `${rest},` : ''}time=${t}`;
  }
  return spec;
}

export const isHuman = (idx) => agentFor(idx) === 'human';

export async function loadAgents() {
  const spec = $('spec').value.trim();
  if (!spec) return;
  try {
    const list = await api('GET', `/api/agents?game=${encodeURIComponent(spec)}`);
    const dl = $('agent-list');
    dl.replaceChildren();
    for (const a of [{ example: 'human', about: 'you, by clicking' }, ...list]) {
      const o = document.createElement('option');
      o.value = a.example;
      o.label = a.about || a.kind || '';
      dl.appendChild(o);
    }
  } catch {
    // A spec still being typed: New game reports what is wrong with it.
  }
}
