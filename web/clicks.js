// A person's move by clicks or a drag: the page matches the squares picked
// against the prefixes of the view's moves[].squares (every rule stays in
// the server), and asks which one when several moves share them (a
// promotion, two jump paths).
import { escapeHtml, familyOf, pieceFor, sideIndex } from './board.js';

const $ = (id) => document.getElementById(id);

// The click handlers for the page's state `app` (view, past, sending,
// selection, focus); `hooks`: mine(view, side), playMove(move), render(),
// goLive().
export function makeClicks(app, { mine, playMove, render, goLive }) {
  const sameSq = (a, b) => a[0] === b[0] && a[1] === b[1];
  const keyOf = (sq) => `${sq[0]},${sq[1]}`;

  // The legal moves whose squares start with `prefix`.
  function matching(prefix) {
    return (app.view?.moves || []).filter((m) =>
      m.squares.length >= prefix.length && prefix.every((sq, i) => sameSq(sq, m.squares[i])));
  }

  function humanToMove() {
    const v = app.view;
    return v && !app.past && !app.sending && !v.terminal && !v.thinking && mine(v, sideIndex(v));
  }

  function onSquare(r, c) {
    app.focus = `${r},${c}`;
    if (app.past) {
      goLive();  // a click on an earlier position goes back to the game
      return;
    }
    if (!humanToMove()) return;
    const sq = [r, c];
    let sel = [...app.selection, sq];
    if (app.selection.length && sameSq(app.selection[app.selection.length - 1], sq)) {
      sel = app.selection.slice(0, -1);  // a second click on the last square takes it back
    } else if (!matching(sel).length) {
      sel = matching([sq]).length ? [sq] : [];  // start again from this square, or clear
    }
    app.selection = sel;
    const cands = sel.length ? matching(sel) : [];
    const done = cands.filter((m) => m.squares.length === sel.length);
    if (done.length && done.length === cands.length) {
      if (done.length === 1) {
        playMove(done[0]);
        return;
      }
      openChooser(done);
    }
    render();
  }

  function openChooser(moves) {
    const box = $('chooser-moves');
    box.replaceChildren();
    const family = familyOf(app.view);
    moves.forEach((m) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.testid = 'choice';
      b.dataset.move = m.text;
      // A chess promotion names its piece last: draw it beside the text.
      const last = m.text.slice(-1);
      const idx = sideIndex(app.view);
      const p = family === 'chess' && /[qrbnk]/i.test(last)
        ? pieceFor(family, idx === 0 ? last.toUpperCase() : last.toLowerCase()) : { html: '' };
      b.innerHTML = `${p.html}<span>${escapeHtml(m.notation || m.text)}</span>`;
      b.addEventListener('click', () => playMove(m));
      box.appendChild(b);
    });
    $('chooser').hidden = false;
    box.querySelector('button')?.focus();
  }

  function closeChooser() {
    $('chooser').hidden = true;
  }

  // A piece dragged from `from` to `to`: the move with those ends (the
  // chooser when several have them: promotions, two jump paths); else as if
  // the two squares were clicked (the first landing of a longer jump).
  function onDrop(from, to) {
    if (!humanToMove() || !to || sameSq(from, to)) {
      render();
      return;
    }
    const ends = matching([from]).filter((m) => sameSq(m.squares[m.squares.length - 1], to));
    if (ends.length === 1) {
      playMove(ends[0]);
      return;
    }
    app.selection = [from];
    if (ends.length > 1) {
      openChooser(ends);
      render();
      return;
    }
    onSquare(...to);
  }

  return { matching, humanToMove, onSquare, openChooser, closeChooser, onDrop, keyOf };
}
