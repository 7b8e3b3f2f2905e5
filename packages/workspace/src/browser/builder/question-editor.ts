import { LitElement, html, css, nothing } from 'lit';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import { tokens, controls } from '../controls/styles';
import { checkField, compact, numberField, textField } from '../controls/fields';
import { KINDS, QUIZ_TYPES, VALIDATION_KEYS, kindOf } from './kinds/index';
import type { Question, QuestionType } from '../../data/forms';
import type { LogicQuestion } from './logic-editor';
import './logic-editor';
import './quiz-answer';
import './recall-picker';

const VALIDATION_LABELS: Record<string, [string, 'number' | 'text']> = {
  min_length: ['Shortest answer (characters)', 'number'],
  max_length: ['Longest answer (characters)', 'number'],
  pattern: ['Pattern the answer must match (regular expression)', 'text'],
  pattern_message: ['Message when it does not match', 'text'],
  min_value: ['Smallest value', 'number'],
  max_value: ['Largest value', 'number'],
  min_selections: ['Fewest choices', 'number'],
  max_selections: ['Most choices', 'number'],
};

/**
 * `<fl-question-editor>`: everything about one question: title, description, required, its kind's own
 * properties (one editor element per kind), validations, quiz answer and points, and logic jumps. Announces
 * each change as `fl-question` with a patch of the question.
 */
export class FlQuestionEditor extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 1rem; }
      .hint { font-weight: 400; font-size: 0.8125rem; }
      details { border-top: 1px solid var(--_border); padding-top: 0.75rem; }
      summary { cursor: pointer; font-weight: 600; min-height: 2.25rem; display: flex; align-items: center; gap: 0.4rem; list-style: none; }
      summary::-webkit-details-marker { display: none; }
      summary::before { content: '▸'; color: var(--_muted); transition: transform 0.1s; }
      details[open] > summary::before { transform: rotate(90deg); }
      summary:focus-visible { outline: 2px solid var(--_primary); outline-offset: 2px; }
      .section { display: grid; gap: 0.75rem; padding-top: 0.5rem; }
      .problems { border: 1px solid var(--_danger); border-radius: var(--_radius); padding: 0.6rem 0.8rem; color: var(--_danger); }
      .problems p { margin: 0; }
      .title-input { font-size: 1.125rem !important; font-weight: 600 !important; }
    `,
  ];
  static override properties = {
    question: { attribute: false },
    index: { type: Number },
    questions: { attribute: false },
    hiddenFields: { attribute: false },
    variables: { attribute: false },
    mode: {},
    endings: { attribute: false },
    forms: { attribute: false },
    problems: { attribute: false },
    unfinished: {},
    api: { attribute: false },
    formId: {},
  };
  /** The form's id (the booking editor's call quote). */
  formId = '';
  question!: Question;
  /** The builder's API client, for kind editors that talk to the server (the booking editor's calendar). */
  api: import('../../data/client').Api | null = null;
  index = 0;
  questions: Question[] = [];
  hiddenFields: string[] = [];
  /** The form's declared variable names, for the logic's actions. */
  variables: string[] = [];
  mode = 'standard';
  endings: Array<{ id: string; title: string }> = [];
  forms: Array<{ id: string; title: string }> = [];
  problems: string[] = [];
  /** Why the question is kept in the browser for now (draft-hold.ts), e.g. "Needs a title"; '' when saved. */
  unfinished = '';

  private emit(patch: Partial<Question>) {
    this.dispatchEvent(new CustomEvent('fl-question', { detail: { id: this.question.id, patch }, bubbles: true, composed: true }));
  }

  /**
   * Enter in the title goes on to the next thing to write, as in a document: the first choice of a choice
   * question (selected while it is a placeholder), else the description.
   */
  private titleKey(e: KeyboardEvent) {
    if (e.key !== 'Enter' || e.isComposing || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    e.preventDefault();
    const kindEditor = this.renderRoot.querySelector(kindOf(this.question.type).editor ?? ':not(*)');
    const choices = kindEditor?.shadowRoot?.querySelector('fl-choice-list') as (HTMLElement & { focusChoice(i?: number): boolean }) | null | undefined;
    if (choices?.focusChoice(0)) return;
    this.renderRoot.querySelector<HTMLTextAreaElement>('textarea')?.focus();
  }

  private changeType(type: QuestionType) {
    // Properties of one kind mean nothing to another: the new kind starts from its defaults.
    this.emit({ type, properties: { ...kindOf(type).defaults }, validations: {} });
  }

  private logicLists(): { tested: LogicQuestion[]; targets: LogicQuestion[] } {
    const asLogic = (q: Question): LogicQuestion => ({
      id: q.id,
      title: q.id === this.question.id ? 'This question' : q.title || 'Untitled question',
      type: q.type,
      ...(Array.isArray(q.properties?.choices) ? { choices: (q.properties.choices as Array<{ label: string }>).map((c) => c.label) } : {}),
    });
    const i = this.questions.findIndex((q) => q.id === this.question.id);
    return { tested: this.questions.slice(0, i + 1).map(asLogic), targets: this.questions.slice(i + 1).map(asLogic) };
  }

  private renderValidations() {
    const keys = VALIDATION_KEYS[this.question.type];
    if (!keys) return nothing;
    const v = this.question.validations ?? {};
    const set = (k: string, value: unknown) => this.emit({ validations: compact({ ...v, [k]: value }) });
    return html`<details ?open=${Object.keys(v).length > 0}><summary>Validation</summary><div class="section grid2">
      ${keys.map((k) => {
        const [label, kind] = VALIDATION_LABELS[k] ?? [k, 'text'];
        return kind === 'number' ? numberField(label, v[k], (x) => set(k, x), { integer: k !== 'min_value' && k !== 'max_value', min: 0 }) : textField(label, v[k], (x) => set(k, x));
      })}
    </div></details>`;
  }

  private renderQuiz() {
    if (this.mode !== 'knowledge_quiz' || !QUIZ_TYPES.includes(this.question.type)) return nothing;
    const p = this.question.properties ?? {};
    const set = (k: string, value: unknown) => this.emit({ properties: compact({ ...p, [k]: value }) });
    return html`<details open><summary>Quiz scoring</summary><div class="section">
      <fl-quiz-answer .question=${this.question} @fl-answer=${(e: CustomEvent) => set('correct_answer', e.detail)}></fl-quiz-answer>
      ${numberField('Points for a correct answer', p.points, (x) => set('points', x), { min: 0 })}
    </div></details>`;
  }

  override render() {
    const q = this.question;
    const kind = kindOf(q.type);
    const { tested, targets } = this.logicLists();
    const editor = kind.editor ? unsafeStatic(kind.editor) : null;
    return html`
      ${this.problems.length ? html`<div class="problems" role="alert">${this.problems.map((m) => html`<p>${m}</p>`)}</div>` : nothing}
      <label class="field">Question ${this.index + 1}
        <input class="title-input" type="text" .value=${q.title} maxlength="2000" placeholder="Type the question" aria-describedby=${this.unfinished ? 'unfinished' : nothing}
          @input=${(e: Event) => this.emit({ title: (e.target as HTMLInputElement).value })} @keydown=${(e: KeyboardEvent) => this.titleKey(e)} />
      </label>
      <fl-recall .value=${q.title} at=${q.id} label="question ${this.index + 1}'s title"></fl-recall>
      ${this.unfinished ? html`<p id="unfinished" class="muted hint" style="margin:-0.6rem 0 0">${this.unfinished}: it is saved once it has one, and it must have one to publish.</p>` : nothing}
      ${textField('Description', q.description, (v) => this.emit({ description: v }), { multiline: true, rows: 2, placeholder: 'Optional help shown under the question' })}
      <fl-recall .value=${q.description} at=${q.id} label="the description"></fl-recall>
      <div class="grid2">
        <label class="field">Kind
          <select @change=${(e: Event) => this.changeType((e.target as HTMLSelectElement).value as QuestionType)}>
            ${KINDS.map((k) => html`<option value=${k.type} ?selected=${k.type === q.type}>${k.label}</option>`)}
          </select>
        </label>
        ${kind.answerable ? checkField('Required', q.required, (v) => this.emit({ required: v })) : nothing}
      </div>
      ${editor
        ? staticHtml`<${editor} .question=${q} .api=${this.api} .formId=${this.formId} .questions=${this.questions} mode=${this.mode} .endings=${this.endings} .forms=${this.forms}
            @fl-properties=${(e: CustomEvent) => { e.stopPropagation(); this.emit({ properties: e.detail as Record<string, unknown> }); }}></${editor}>`
        : nothing}
      ${this.renderValidations()}
      ${this.renderQuiz()}
      <details ?open=${(q.logic_jumps ?? []).length > 0}><summary>Logic jumps</summary><div class="section">
        <fl-logic-editor .jumps=${q.logic_jumps ?? []} self=${q.id} .tested=${tested} .targets=${targets} .hiddenFields=${this.hiddenFields} .allQuestions=${this.questions} .variables=${this.variables}
          @fl-jumps=${(e: CustomEvent) => { e.stopPropagation(); this.emit({ logic_jumps: e.detail as unknown[] }); }}></fl-logic-editor>
      </div></details>`;
  }
}
customElements.get('fl-question-editor') || customElements.define('fl-question-editor', FlQuestionEditor);
