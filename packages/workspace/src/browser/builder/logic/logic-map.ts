import { LitElement, html, svg, css, nothing } from 'lit';
import { tokens, controls } from '../../controls/styles';
import type { LogicJump } from '../../../../../core/src/logic/jumps.js';
import { jumpWords, type MapQuestion } from './map-words';
import { readableText } from '../recall-ids';

export type { MapQuestion } from './map-words';

const ROW = 52; // px per question: the arcs are drawn between row centres
const LANE = 14; // px between nested arcs

interface Arc {
  from: number;
  to: number;
  lane: number;
  label: string;
}

/**
 * `<fl-logic-map>`: the form as a graph of its jumps (docs/workspace.md, "Logic"). The questions are an ordered
 * list, top to bottom, ending with the thank-you screen; each jump is an arc from its question to its target
 * on the left, nested so no two arcs share a lane where they overlap. The list is the accessible view (each
 * question says its jumps in words); the drawing is decoration for sighted people (`aria-hidden`). Pressing a
 * question announces `fl-goto-question` with its id, which opens that question in the editor.
 */
export class FlLogicMap extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; min-width: 0; }
      .map { display: grid; grid-template-columns: auto minmax(0, 1fr); align-items: start; }
      svg { display: block; overflow: visible; }
      ol { list-style: none; margin: 0; padding: 0; min-width: 0; }
      li { height: ${ROW}px; display: flex; align-items: center; min-width: 0; }
      li button { width: 100%; min-width: 0; text-align: start; display: grid; gap: 0.1rem; padding: 0.3rem 0.6rem; border: 1px solid var(--_border); border-radius: var(--_radius);
        background: var(--_surface, transparent); color: var(--_text); font: inherit; cursor: pointer; }
      li button:hover { border-color: var(--_accent, currentColor); }
      li.end span.node { display: block; padding: 0.3rem 0.6rem; border: 1px dashed var(--_border); border-radius: var(--_radius); width: 100%; box-sizing: border-box; }
      .title { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .jumps { font-size: 0.8rem; color: var(--_muted, inherit); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .arc { fill: none; stroke: var(--_accent, #2557d6); stroke-width: 2; }
      .head { fill: var(--_accent, #2557d6); }
      .start { stroke-dasharray: 4 3; }
    `,
  ];
  static override properties = { questions: { attribute: false }, startJumps: { attribute: false }, current: {} };
  questions: MapQuestion[] = [];
  startJumps: LogicJump[] = [];
  /** The question whose editor opened the map (marked in the list). */
  current = '';

  /** Arcs with lanes: an arc takes the lowest lane no overlapping arc uses, short arcs first (they sit inside). */
  private arcs(): Arc[] {
    const index = new Map(this.questions.map((q, i) => [q.id, i]));
    const end = this.questions.length;
    const raw: Arc[] = [];
    this.questions.forEach((q, i) => {
      for (const j of Array.isArray(q.logic_jumps) ? q.logic_jumps : []) {
        const to = j?.to === 'end' ? end : index.get(j?.to ?? '');
        if (to !== undefined && to !== i) raw.push({ from: i, to, lane: 0, label: '' });
      }
    });
    raw.sort((a, b) => Math.abs(a.to - a.from) - Math.abs(b.to - b.from));
    const placed: Arc[] = [];
    for (const a of raw) {
      const lo = Math.min(a.from, a.to);
      const hi = Math.max(a.from, a.to);
      let lane = 0;
      while (placed.some((p) => p.lane === lane && Math.min(p.from, p.to) < hi && Math.max(p.from, p.to) > lo)) lane++;
      placed.push({ ...a, lane });
    }
    return placed;
  }

  private open(id: string) {
    this.dispatchEvent(new CustomEvent('fl-goto-question', { detail: { id }, bubbles: true, composed: true }));
  }

  override render() {
    const arcs = this.arcs();
    const lanes = arcs.reduce((m, a) => Math.max(m, a.lane + 1), 0);
    const width = 12 + lanes * LANE;
    const height = (this.questions.length + 1) * ROW;
    const y = (i: number) => i * ROW + ROW / 2;
    const names = new Map(this.questions.map((q, i) => [q.id, `Q${i + 1}`]));
    return html`<div class="map">
      <svg aria-hidden="true" width=${width} height=${height} viewBox="0 0 ${width} ${height}">
        ${arcs.map((a) => {
          const x = width - 6 - (a.lane + 1) * LANE;
          const y1 = y(a.from);
          const y2 = y(a.to);
          const back = a.to < a.from;
          return svg`<path class="arc ${back ? 'back' : ''}" d="M ${width} ${y1} H ${x + 6} Q ${x} ${y1} ${x} ${y1 + (back ? -6 : 6)} V ${y2 + (back ? 6 : -6)} Q ${x} ${y2} ${x + 6} ${y2} H ${width - 4}" />
            <path class="head" d="M ${width} ${y2} l -7 -4 v 8 z" />`;
        })}
      </svg>
      <ol aria-label="Questions and their jumps">
        ${this.questions.map((q, i) => {
          const words = jumpWords(q, i, this.questions, names);
          return html`<li><button type="button" aria-current=${q.id === this.current ? 'true' : nothing} @click=${() => this.open(q.id)}>
            <span class="title">Q${i + 1} · ${readableText(q.title, this.questions) || 'Untitled question'}</span>
            <span class="jumps">${words}</span></button></li>`;
        })}
        <li class="end"><span class="node">Thank-you screen</span></li>
      </ol>
    </div>`;
  }
}
customElements.get('fl-logic-map') || customElements.define('fl-logic-map', FlLogicMap);
