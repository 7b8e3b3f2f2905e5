import { h, uid } from '../dom.js';

/*
 * The signature: typed (a name, shown in a handwriting face) or drawn on a canvas with a mouse, pen or
 * finger through pointer events (touch included; `touch-action: none` keeps the page from scrolling while
 * drawing). Typing is the keyboard's way to sign: the canvas cannot be drawn on without a pointer.
 */

/** The canvas's own pixels; it is scaled to the width available, and pointer positions scaled back. */
const WIDTH = 600;
const HEIGHT = 200;

export interface SignaturePad {
  element: HTMLElement;
  /** The API's `signature`, or a message saying what is missing. */
  value(): { type: 'typed' | 'drawn'; value: string } | string;
  /** The control to focus when `value()` gave a message. */
  focusTarget(): HTMLElement;
}

export function signaturePad(): SignaturePad {
  const typedId = uid('typed');
  const typed = h('input', { id: typedId, class: 'fls-input fls-typed', type: 'text', autocomplete: 'off', maxlength: '200', value: '' });
  // What is typed, as it will stand on the document: in the signature face, on a signature line.
  const preview = h('p', { class: 'fls-signature-line', 'aria-hidden': 'true' });
  typed.addEventListener('input', () => (preview.textContent = typed.value));
  const canvas = h('canvas', { width: String(WIDTH), height: String(HEIGHT), class: 'fls-canvas', role: 'img', 'aria-label': 'Signature pad: draw your signature with a mouse, pen or finger' });
  const clear = h('button', { type: 'button', class: 'fls-link' }, 'Clear the drawing');
  let strokes = 0;
  const ctx = canvas.getContext('2d')!;
  ctx.lineWidth = 3;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = '#111';

  const point = (e: PointerEvent) => {
    const r = canvas.getBoundingClientRect();
    return [((e.clientX - r.left) * WIDTH) / r.width, ((e.clientY - r.top) * HEIGHT) / r.height] as const;
  };
  let drawing = false;
  canvas.addEventListener('pointerdown', (e) => {
    drawing = true;
    canvas.setPointerCapture(e.pointerId);
    const [x, y] = point(e);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 0.1, y + 0.1);
    ctx.stroke();
    strokes++;
    e.preventDefault();
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drawing) return;
    // Coalesced events give a smooth line from fast pens and fingers.
    for (const ev of e.getCoalescedEvents?.() ?? [e]) {
      const [x, y] = point(ev);
      ctx.lineTo(x, y);
    }
    ctx.stroke();
  });
  const stop = () => (drawing = false);
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  clear.addEventListener('click', () => {
    ctx.clearRect(0, 0, WIDTH, HEIGHT);
    strokes = 0;
  });

  const name = `fls-kind-${typedId}`;
  const option = (value: string, text: string, checked: boolean) => {
    const id = uid('kind');
    return h('span', { class: 'fls-option' }, h('input', { type: 'radio', name, id, value, checked, onchange: show }), h('label', { for: id }, text));
  };
  const typedPanel = h('div', { class: 'fls-panel' }, h('label', { for: typedId }, 'Type your full name'), typed, preview);
  const drawnPanel = h('div', { class: 'fls-panel', hidden: true }, h('p', { class: 'fls-hint' }, 'Draw your signature in the box.'), canvas, clear);
  const fieldset = h('fieldset', { class: 'fls-signature' }, h('legend', {}, 'Your signature'), h('div', { class: 'fls-options' }, option('typed', 'Type', true), option('drawn', 'Draw', false)), typedPanel, drawnPanel);
  const kind = () => (fieldset.querySelector<HTMLInputElement>('input[type=radio]:checked')?.value === 'drawn' ? 'drawn' : 'typed');
  function show() {
    typedPanel.hidden = kind() !== 'typed';
    drawnPanel.hidden = kind() !== 'drawn';
  }

  return {
    element: fieldset,
    value() {
      if (kind() === 'typed') return typed.value.trim() ? { type: 'typed', value: typed.value.trim() } : 'Type your name to sign';
      return strokes ? { type: 'drawn', value: canvas.toDataURL('image/png') } : 'Draw your signature in the box, or choose Type';
    },
    focusTarget: () => (kind() === 'typed' ? typed : fieldset.querySelector<HTMLInputElement>('input[value=drawn]')!),
  };
}
