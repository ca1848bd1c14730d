// The board's pointer and keyboard input beyond plain clicks: a piece
// dragged to a square, and the arrow keys moving the focus over the squares
// as drawn (Enter or Space then clicks the focused square, as any button).
// Which drags may start and what a drop does come from the caller, who holds
// the game's moves; this file knows only where the pointer and keys go.

const DRAG_PX = 5;  // a press that moves less is a click

const squareOf = (el) => el?.closest?.('.sq')?.dataset.square.split(',').map(Number) ?? null;

// `canDrag(r, c)` tells whether a drag may start on a square; `onDrop(from,
// to)` gets the squares of a finished drag (to is null off the board);
// `onEscape()` is called for Esc with the focus on the board.
export function attachBoardInput(root, { canDrag, onDrop, onEscape }) {
  let drag = null;  // {from, x, y, ghost, el, id}

  const clear = () => {
    if (!drag) return;
    drag.ghost?.remove();
    drag.el.classList.remove('dragging');
    drag = null;
    root.classList.remove('drag-on');
  };

  root.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || drag) return;
    const el = e.target.closest('.sq');
    const from = squareOf(el);
    if (!from || !el.dataset.piece || !canDrag(...from)) return;
    drag = { from, x: e.clientX, y: e.clientY, ghost: null, el, id: e.pointerId };
  });

  root.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_PX) return;
      const piece = drag.el.querySelector('.piece');
      if (!piece) return;
      const size = drag.el.getBoundingClientRect().width;
      drag.ghost = piece.cloneNode(true);
      drag.ghost.classList.add('drag-ghost');
      drag.ghost.style.width = drag.ghost.style.height = `${size}px`;
      document.body.appendChild(drag.ghost);
      drag.el.classList.add('dragging');
      root.classList.add('drag-on');
      root.setPointerCapture?.(e.pointerId);
    }
    const half = drag.ghost.getBoundingClientRect().width / 2;
    drag.ghost.style.left = `${e.clientX - half}px`;
    drag.ghost.style.top = `${e.clientY - half}px`;
    e.preventDefault();
  });

  root.addEventListener('pointerup', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const { from, ghost } = drag;
    clear();
    if (!ghost) return;  // a click: the click handler has it
    // The click that follows a drag is not a click on a square.
    const swallow = (ev) => { ev.stopPropagation(); ev.preventDefault(); };
    root.addEventListener('click', swallow, { capture: true, once: true });
    setTimeout(() => root.removeEventListener('click', swallow, { capture: true }), 0);
    const under = document.elementFromPoint(e.clientX, e.clientY);
    onDrop(from, under && root.contains(under) ? squareOf(under) : null);
  });

  root.addEventListener('pointercancel', clear);

  root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onEscape();
      return;
    }
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    const squares = [...root.children];
    const at = squares.indexOf(e.target.closest('.sq'));
    if (at < 0) return;
    const cols = Number(getComputedStyle(root).getPropertyValue('--cols')) || 1;
    const rows = Math.ceil(squares.length / cols);
    const i = Math.min(rows - 1, Math.max(0, Math.floor(at / cols) + step[0]));
    const j = Math.min(cols - 1, Math.max(0, (at % cols) + step[1]));
    const to = squares[i * cols + j];
    for (const b of squares) b.tabIndex = b === to ? 0 : -1;
    to.focus();
    root.dispatchEvent(new CustomEvent('square-focus', { detail: to.dataset.square }));
  });
}
