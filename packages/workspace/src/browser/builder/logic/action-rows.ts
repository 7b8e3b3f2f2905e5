import { html, nothing, type TemplateResult } from 'lit';
import type { VariableAction } from '../../../../../core/src/logic/actions.js';

/**
 * The variable actions of one logic rule (docs/workspace.md, "Logic"): "Set" a variable to a number or text,
 * or "Add" a number to it (negative to subtract), e.g. a score recalled on the thank-you screen as
 * {var.score}. Variables are declared in Settings; a name typed here that is not declared yet is allowed
 * (it starts empty, which "Add" counts as 0).
 */
export function actionRows(actions: VariableAction[], jump: number, variables: string[], set: (next: VariableAction[]) => void): TemplateResult {
  const edit = (k: number, patch: Partial<VariableAction>) => set(actions.map((a, i) => (i === k ? normalize({ ...a, ...patch }) : a)));
  const listId = `vars-${jump}`;
  return html`${actions.length ? html`<p class="sub">Also</p>` : nothing}
    ${actions.map((a, k) => {
      const name = `Action ${k + 1} of jump ${jump + 1}`;
      return html`<div class="cond" role="group" aria-label=${name}>
        <label class="field">Action<select aria-label="${name}: action" @change=${(e: Event) => edit(k, { op: (e.target as HTMLSelectElement).value as 'set' | 'add' })}>
          <option value="add" ?selected=${a.op === 'add'}>Add to</option><option value="set" ?selected=${a.op === 'set'}>Set</option></select></label>
        <label class="field">Variable<input aria-label="${name}: variable" list=${listId} .value=${a.variable} pattern="[A-Za-z_][A-Za-z0-9_]{0,63}"
          @input=${(e: Event) => edit(k, { variable: (e.target as HTMLInputElement).value })} /></label>
        <label class="field">${a.op === 'add' ? 'Number' : 'Value'}<input aria-label="${name}: ${a.op === 'add' ? 'number' : 'value'}" type=${a.op === 'add' ? 'number' : 'text'} .value=${String(a.value ?? '')}
          @input=${(e: Event) => edit(k, { value: (e.target as HTMLInputElement).value })} /></label>
        <button class="btn icon small danger" type="button" aria-label="Remove action ${k + 1} of jump ${jump + 1}" @click=${() => set(actions.filter((_x, i) => i !== k))}>✕</button>
      </div>`;
    })}
    <datalist id=${listId}>${variables.map((v) => html`<option value=${v}></option>`)}</datalist>
    <div><button class="btn small" type="button" ?disabled=${actions.length >= 20}
      @click=${() => set([...actions, { op: 'add', variable: variables[0] ?? 'score', value: 1 }])}>Add an action</button></div>`;
}

/** "Add" takes a number; "Set" keeps a number typed as one and text otherwise. */
function normalize(a: VariableAction): VariableAction {
  const t = String(a.value ?? '');
  const n = t.trim() !== '' && Number.isFinite(Number(t)) ? Number(t) : null;
  return { ...a, value: a.op === 'add' ? (n ?? 0) : (n ?? t) };
}
