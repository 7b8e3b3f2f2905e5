import { LitElement, css } from 'lit';
import { tokens, controls } from '../../controls/styles';
import { compact } from '../../controls/fields';
import type { Question } from '../../../data/forms';

/**
 * Base of the editors of one question kind's own properties. `question` is given; a change is announced as
 * `fl-properties` with the whole new properties object (cleared values removed), and the builder saves it.
 */
export class KindEditor extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 0.75rem; }
      .hint { font-weight: 400; font-size: 0.8125rem; }
      fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; margin: 0; display: grid; gap: 0.5rem; }
      legend { font-weight: 600; font-size: 0.875rem; padding: 0 0.25rem; }
      .item { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; }
      .item .btns { display: flex; gap: 0.25rem; }
    `,
  ];
  static override properties = { question: { attribute: false } };
  question!: Question;

  protected get props(): Record<string, unknown> {
    return this.question.properties ?? {};
  }

  /** Sets one property (null removes it) and announces the new properties. */
  protected set(key: string, value: unknown): void {
    this.emit(compact({ ...this.props, [key]: value }));
  }

  protected emit(properties: Record<string, unknown>): void {
    this.dispatchEvent(new CustomEvent('fl-properties', { detail: properties, bubbles: true, composed: true }));
  }
}
