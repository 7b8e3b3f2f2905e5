import { LitElement, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { createApi, unauthorizedNotice, type Api } from '../../data/client';
import { listForms, type Question, type QuestionType } from '../../data/forms';
import { formPath, navigate, BUILDER_TABS, type BuilderTab } from '../shell/routes';
import { FormStore, tempId } from './store';
import { builderStyles } from './builder-styles';
import { kindOf } from './kinds/registry';
import { EDITING_TABS, LOCKED_TABS, PANELS, roleAllowsTab, saveStatus, tabLabel } from './builder-parts';
import { touchedQuestions } from './history';
import { reorderEffects } from './logic/reorder-check';
import { FlReorderWarning } from './logic/reorder-warning';
import { unfinishedQuestions } from './draft-hold';
import { editSource, undoButtons, undoKey, undoKeyFor } from './undo-controls';
import '../controls/toast';
import type { FlToast } from '../controls/toast';
import type { FlQuestionList } from './question-list';
import './question-list';
import './question-editor';
import './preview-pane';
import './kinds/index';
import './readonly-questions';
import { conflictArea, mergedMessage } from './conflicts/conflict-panel';
import { mayEdit, mayPublish, roleOn, teamsWithRoles, type FormRole } from '../../data/form-role';

/**
 * `<formloom-builder form-id="...">`: edits one form (docs/workspace.md, "The builder"). Alone in a host
 * page it calls the API at `api-base` (default `/api/v1`) with the page's own cookies and switches tabs in
 * place; inside the workspace the shell passes its `api` and `base`, and tabs are URLs.
 * CSS custom properties: see docs/workspace.md, "Theming the workspace".
 */
export class FormloomBuilder extends LitElement {
  static override styles = [tokens, controls, builderStyles];
  static override properties = {
    formId: { attribute: 'form-id' },
    apiBase: { attribute: 'api-base' },
    pagesBase: { attribute: 'pages-base' },
    base: {},
    tab: {},
    sessionId: { attribute: 'session-id' },
    api: { attribute: false },
    ready: { state: true },
    error: { state: true },
    selected: { state: true },
    tick: { state: true },
    panelsLoaded: { state: true },
    problems: { state: true },
    otherForms: { state: true },
    formRole: { state: true },
  };
  formId = '';
  apiBase = '/api/v1';
  pagesBase: string | null = null;
  /** Set by the workspace shell: tabs become URLs under it. */
  base: string | null = null;
  tab: string = 'questions';
  /** The signing session open under the Signing tab (`/forms/:id/signing/:sessionId`). */
  sessionId: string | null = null;
  api: Api | null = null;
  ready = false;
  error = '';
  selected = '';
  tick = 0;
  panelsLoaded = new Set<string>();
  /** Publish-check problems by question id (set by the publish panel through `fl-problems`). */
  problems = new Map<string, string[]>();
  store: FormStore | null = null;
  private readonly keyOf = (id: string) => this.store?.keyOf(id) ?? id;
  /** The owner's other forms, for Fuse and composite questions. */
  otherForms: Array<{ id: string; title: string }> = [];
  /** The caller's role on the form (./../../data/form-role.ts): what the screen lets them do. */
  formRole: FormRole = 'owner';
  private teamName = '';

  constructor() {
    super();
    this.addEventListener('fl-problems', (e) => (this.problems = (e as CustomEvent).detail as Map<string, string[]>));
    // Undo and redo (./history.ts): the keys, and which field an edit comes from, so keystrokes in one
    // field make one step. Capture on the host runs before the field's own handler records the edit.
    for (const type of ['input', 'change']) {
      this.addEventListener(type, (e) => this.store && (this.store.history.ambient = editSource(e)), { capture: true });
      this.addEventListener(type, () => this.store && (this.store.history.ambient = null));
    }
    this.addEventListener('focusout', () => this.store?.history.seal());
    // The publish sheet's "Changes and versions" when the builder switches tabs in place (no workspace URLs).
    this.addEventListener('fl-goto-tab', (e) => this.goTab((e as CustomEvent).detail.tab as BuilderTab));
    this.addEventListener('fl-goto-question', (e) => {
      this.selected = (e as CustomEvent).detail.id as string;
      this.goTab('questions', e);
      void this.updateComplete.then(() => this.focusEditor());
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this.onUndoKey);
    if (!this.store) void this.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this.onUndoKey);
  }

  /** Ctrl/⌘+Z and redo keys where they are the builder's to take (`undoKeyFor`). */
  private readonly onUndoKey = (e: KeyboardEvent) => {
    const what = undoKey(e);
    if (!what || !this.store || !mayEdit(this.formRole) || !EDITING_TABS.includes(this.currentTab) || !undoKeyFor(this, e)) return;
    e.preventDefault();
    this.runHistory(what);
  };

  private get pages(): string {
    return (this.pagesBase ?? this.apiBase.replace(/\/api\/v1\/?$/, '')).replace(/\/+$/, '');
  }

  private async start() {
    // Alone in a host page: a 401 tells the host (`formloom-unauthorized`), which owns the sign-in.
    this.api ??= createApi(this.apiBase, { onUnauthorized: unauthorizedNotice(this) });
    const store = new FormStore(this.api, this.formId);
    store.addEventListener('change', (e) => {
      const renamed = (e as CustomEvent).detail.renamed as Map<string, string>;
      if (renamed.has(this.selected)) this.selected = renamed.get(this.selected)!;
      else if (!store.draft.questions.some((q) => q.id === this.selected)) this.selected = store.draft.questions[0]?.id ?? '';
      this.tick++;
    });
    // A save that met another tab's and merged without a conflict (./store.ts, `merge`): said, then saved.
    store.addEventListener('merged', (e) => this.toast?.show(mergedMessage((e as CustomEvent).detail)));
    store.addEventListener('state', () => this.tick++);
    // A new step, an undo or a redo: the "Deleted · Undo" offer no longer names the last step.
    store.history.addEventListener('change', () => {
      this.toast?.hide();
      this.tick++;
    });
    try {
      await store.load();
      if (store.formId !== this.formId) return;
      // A team form follows the caller's role in the team: known before the first render, so a viewer is never
      // shown a control the API would refuse.
      const teamId = (store.draft as { team_id?: string | null }).team_id ?? null;
      if (teamId) {
        const teams = await teamsWithRoles(this.api);
        this.formRole = roleOn({ team_id: teamId }, teams) ?? 'viewer';
        this.teamName = teams.find((t) => t.id === teamId)?.name ?? '';
      }
      store.readOnly = !mayEdit(this.formRole);
      this.store = store;
      this.selected = store.draft.questions[0]?.id ?? '';
      this.ready = true;
      performance.mark('formloom:builder-ready');
      // Fuse and composite questions name forms of the same account only: the same team's, or personal ones
      // for a personal form (docs/logic.md); another account's form would be refused at publish.
      void listForms(this.api, { per_page: 100, ...(teamId ? { team_id: teamId } : {}) }).then(
        (r) => (this.otherForms = r.forms.filter((x) => x.id !== this.formId && (x.team?.id ?? null) === teamId).map((x) => ({ id: x.id, title: x.title }))),
        () => undefined,
      );
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  override willUpdate(changed: Map<string, unknown>) {
    // Another form in the same element (a host page that reuses it): load that one.
    if (changed.has('formId') && this.store && this.store.formId !== this.formId) {
      this.store = null;
      this.ready = false;
      this.error = '';
      void this.start();
    }
    const tab = (BUILDER_TABS as readonly string[]).includes(this.tab) ? (this.tab as BuilderTab) : 'questions';
    if (tab !== 'questions' && !this.panelsLoaded.has(tab)) {
      void PANELS[tab][1]().then(() => (this.panelsLoaded = new Set([...this.panelsLoaded, tab])));
    }
  }

  private get currentTab(): BuilderTab {
    const tab = (BUILDER_TABS as readonly string[]).includes(this.tab) ? (this.tab as BuilderTab) : 'questions';
    return roleAllowsTab(this.formRole, tab) ? tab : 'questions';
  }

  private get toast(): FlToast | null {
    return this.renderRoot.querySelector('fl-toast');
  }

  /** Undoes or redoes one step, shows the question it changed, and says what was done. */
  private runHistory(what: 'undo' | 'redo') {
    const s = this.store!;
    s.history.seal();
    const step = what === 'undo' ? s.undo() : s.redo();
    const live = this.renderRoot.querySelector('#history-live');
    if (!step) {
      if (live) live.textContent = what === 'undo' ? 'Nothing to undo.' : 'Nothing to redo.';
      return;
    }
    if (live) live.textContent = `${what === 'undo' ? 'Undone' : 'Redone'}: ${step.label}.`;
    const ids = new Set(s.draft.questions.map((q) => q.id));
    const touched = touchedQuestions(step.delta).filter((id) => ids.has(id));
    if (touched.length && !touched.includes(this.selected)) this.selected = touched[0]!;
    else if (!ids.has(this.selected)) this.selected = s.draft.questions[0]?.id ?? '';
  }

  /** The header's Publish button: the sheet is loaded at its first use (it brings the QR code library). */
  private async openPublish() {
    await import('../publish/publish-sheet');
    const sheet = this.renderRoot.querySelector('fl-publish-sheet') as (HTMLElement & { store: FormStore; base: string | null; pagesBase: string; canPublish: boolean; open(): Promise<void> }) | null;
    if (!sheet || !this.store) return;
    Object.assign(sheet, { store: this.store, base: this.base, pagesBase: this.pages, canPublish: mayPublish(this.formRole) && this.currentTab !== 'publish' });
    await sheet.open();
  }

  /**
   * Publish (or "Publish changes", or "Share link" once all is live): the sheet with the link and QR code.
   * On the Publish tab, whose own button publishes, it only shares the link of a published form.
   */
  private publishButton(f: FormStore['draft'], tab: BuilderTab, canPublish: boolean) {
    const share = f.published && (!f.has_unpublished_changes || !canPublish || tab === 'publish');
    if (!share && (!canPublish || tab === 'publish')) return nothing;
    return html`<button class="btn primary publish" type="button" aria-describedby="publish-state" aria-haspopup="dialog" @click=${() => void this.openPublish()}>${share ? 'Share link' : f.published ? 'Publish changes' : 'Publish'}</button>`;
  }

  /** The header stays in view (sticky); what else sticks (the question list, the preview) goes below it. */
  private readonly barSize = new ResizeObserver((entries) => {
    for (const e of entries) this.style.setProperty('--_bar-h', `${Math.ceil(e.borderBoxSize[0]?.blockSize ?? (e.target as HTMLElement).offsetHeight)}px`);
  });

  override updated() {
    const bar = this.renderRoot.querySelector('.titlebar');
    if (bar && bar !== this.observedBar) {
      if (this.observedBar) this.barSize.unobserve(this.observedBar);
      this.barSize.observe(bar);
      this.observedBar = bar;
    }
  }

  private observedBar: Element | null = null;

  private goTab(tab: BuilderTab, e?: Event) {
    e?.preventDefault();
    if (this.base === null) this.tab = tab;
    else navigate(formPath(this.base, this.formId, tab));
  }

  private add(type: QuestionType) {
    const q = { id: tempId(), type, title: '', description: null, required: false, order: 0, properties: { ...kindOf(type).defaults }, logic_jumps: [], validations: {} } as Question;
    const at = this.store!.draft.questions.findIndex((x) => x.id === this.selected);
    this.store!.update((f) => {
      const qs = [...f.questions];
      qs.splice(at < 0 ? qs.length : at + 1, 0, q);
      return { ...f, questions: qs };
    }, { label: `Add a ${kindOf(type).label.toLowerCase()} question` });
    this.selected = q.id;
    void this.updateComplete.then(() => this.focusEditor());
  }

  /** Focuses the selected question's title, once the editor is on screen (a tab change may come first). */
  private focusEditor(tries = 10) {
    const editor = this.renderRoot.querySelector('fl-question-editor') as LitElement | null;
    if (!editor) {
      if (tries > 0) requestAnimationFrame(() => this.focusEditor(tries - 1));
      return;
    }
    void editor.updateComplete.then(() => editor.shadowRoot?.querySelector<HTMLInputElement>('.title-input')?.focus());
  }

  private duplicate(id: string) {
    const i = this.store!.draft.questions.findIndex((q) => q.id === id);
    const src = this.store!.draft.questions[i]!;
    const copy = { ...structuredClone(src), id: tempId(), title: `${src.title} (copy)`, logic_jumps: [] } as Question;
    this.store!.update((f) => ({ ...f, questions: [...f.questions.slice(0, i + 1), copy, ...f.questions.slice(i + 1)] }), { label: `Duplicate question ${i + 1}` });
    this.selected = copy.id;
  }

  private deleteQuestion(id: string) {
    const qs = this.store!.draft.questions;
    const i = qs.findIndex((q) => q.id === id);
    // Jumps to the deleted question would be refused by the server: they go with it.
    const dropJumps = (list: unknown) => (Array.isArray(list) ? list.filter((j: { to?: string; conditions?: Array<{ field?: string }> }) => j.to !== id && !(j.conditions ?? []).some((c) => c.field === id)) : list);
    // Only the questions whose jumps change are replaced, so undo leaves the others as they are by then.
    const fixJumps = (q: Question) => {
      const kept = dropJumps(q.logic_jumps) as unknown[];
      return Array.isArray(q.logic_jumps) && kept.length === q.logic_jumps.length ? q : { ...q, logic_jumps: kept };
    };
    const starts = this.store!.draft.start_logic_jumps;
    const keptStarts = dropJumps(starts) as unknown[] | null;
    this.store!.update((f) => ({
      ...f,
      ...(Array.isArray(starts) && keptStarts?.length !== starts.length ? { start_logic_jumps: keptStarts } : {}),
      questions: f.questions.filter((q) => q.id !== id).map(fixJumps),
    }), { label: `Delete question ${i + 1}` });
    const next = qs[i + 1] ?? qs[i - 1];
    this.selected = next?.id ?? '';
    // Deleted at once, with an offer to take it back (and Ctrl/⌘+Z).
    // The notice's Undo goes away once pressed: the focus goes to the question it brought back, not the page.
    const list = this.renderRoot.querySelector('fl-question-list') as FlQuestionList | null;
    this.toast?.show(`Question ${i + 1} deleted`, { label: 'Undo', run: () => { this.runHistory('undo'); list?.focusQuestion(id); } });
    list?.shadowRoot?.querySelector<HTMLElement>('#live')?.replaceChildren(`Question ${i + 1} deleted. Undo brings it back.`);
    list?.focusQuestion(next?.id ?? null);
  }

  private move(from: number, to: number) {
    // A move that changes what a jump does asks first (./logic/reorder-check.ts).
    const shifts = reorderEffects(this.store!.draft.questions, from, to);
    if (shifts.length) return void FlReorderWarning.ask(shifts).then((ok) => ok && this.applyMove(from, to));
    this.applyMove(from, to);
  }

  private applyMove(from: number, to: number) {
    this.store!.update((f) => {
      const qs = [...f.questions];
      const [q] = qs.splice(from, 1);
      qs.splice(to, 0, q!);
      return { ...f, questions: qs.map((x, i) => (x.order === i ? x : { ...x, order: i })) };
    }, { label: `Move question ${from + 1} to position ${to + 1}` });
  }

  private renderQuestions() {
    const s = this.store!;
    const f = s.draft;
    const index = f.questions.findIndex((q) => q.id === this.selected);
    const q = f.questions[index];
    if (!mayEdit(this.formRole)) {
      return html`<div class="edit readonly">
        <fl-readonly-questions class="sticky" .questions=${f.questions} selected=${this.selected} reader-role=${this.formRole} team=${this.teamName}
          @fl-select=${(e: CustomEvent) => (this.selected = e.detail.id)}></fl-readonly-questions>
        <fl-preview class="sticky" .form=${f} at=${q?.id ?? 'welcome'} pages-base=${this.pages} data-tick=${this.tick}></fl-preview>
      </div>`;
    }
    const unfinished = unfinishedQuestions(f);
    const endings = ((f.quiz_settings as { endings?: Array<{ id: string; title: string }> } | null)?.endings ?? []).filter((e) => e && e.id);
    return html`<div class="edit">
      <fl-question-list class="sticky" .questions=${f.questions} .keyOf=${this.keyOf} selected=${this.selected} .problems=${new Set(this.problems.keys())} .unfinished=${unfinished}
        @fl-select=${(e: CustomEvent) => { this.selected = e.detail.id; this.focusEditor(); }}
        @fl-add=${(e: CustomEvent) => this.add(e.detail.type)} @fl-move=${(e: CustomEvent) => this.move(e.detail.from, e.detail.to)}
        @fl-duplicate=${(e: CustomEvent) => this.duplicate(e.detail.id)} @fl-delete=${(e: CustomEvent) => this.deleteQuestion(e.detail.id)}></fl-question-list>
      <section class="card" aria-label="Question editor">
        ${q
          ? html`<fl-question-editor .question=${q} .api=${this.api} .formId=${f.id} .index=${index} .questions=${f.questions} .hiddenFields=${f.hidden_fields ?? []} .variables=${Object.keys((f.variables as Record<string, unknown> | null) ?? {})} mode=${f.mode}
              .endings=${endings} .forms=${this.otherForms} .problems=${this.problems.get(q.id) ?? []} unfinished=${unfinished.get(q.id) ?? ''}
              @fl-question=${(e: CustomEvent) => s.updateQuestion(e.detail.id, e.detail.patch)}></fl-question-editor>`
          : html`<div class="empty"><h2>Add your first question</h2><p class="muted">Pick a kind under the list and press “Add question”.</p></div>`}
      </section>
      <fl-preview class="sticky" .form=${f} at=${q?.id ?? 'welcome'} pages-base=${this.pages} data-tick=${this.tick}></fl-preview>
    </div>`;
  }

  private renderPanel(tab: Exclude<BuilderTab, 'questions'>) {
    const [tag] = PANELS[tab];
    if (!this.panelsLoaded.has(tab)) return html`<p class="muted" role="status">Loading…</p>`;
    const el = document.createElement(tag) as HTMLElement & { store: FormStore; pagesBase: string; tick: number; base: string | null; sessionId?: string | null };
    const existing = this.renderRoot.querySelector(tag) as typeof el | null;
    const panel = existing ?? el;
    panel.store = this.store!;
    panel.pagesBase = this.pages;
    panel.base = this.base;
    panel.tick = this.tick;
    (panel as typeof panel & { readOnly?: boolean }).readOnly = !mayEdit(this.formRole);
    if (tab === 'signing') panel.sessionId = this.sessionId;
    return panel;
  }

  override render() {
    if (this.error) return html`<div class="body"><h1>This form cannot be opened</h1><p class="error-text" role="alert">${this.error}</p></div>`;
    if (!this.ready || !this.store) return html`<div class="body"><p class="muted" role="status">Loading the form…</p></div>`;
    const s = this.store;
    const f = s.draft;
    const tab = this.currentTab;
    return html`<div class="top">
        <h1 class="sr-only">Edit form: ${f.title}</h1>
        <div class="titlebar">
          ${mayEdit(this.formRole)
            ? html`<label class="name"><span class="sr-only">Form title</span><input type="text" .value=${f.title} maxlength="500" placeholder="Name your form"
                @input=${(e: Event) => s.update((x) => ({ ...x, title: (e.target as HTMLInputElement).value }))} /></label>`
            : html`<p class="name readonly-title">${f.title}</p>`}
          <span class="badge ${f.published ? 'live' : ''}" id="publish-state">${f.published ? (f.has_unpublished_changes ? 'Published · changes not live' : 'Published') : 'Draft'}</span>
          ${this.publishButton(f, tab, mayPublish(this.formRole))}
          ${mayEdit(this.formRole) && EDITING_TABS.includes(tab) ? undoButtons(s, (what) => this.runHistory(what)) : nothing}
          ${mayEdit(this.formRole) ? saveStatus(s) : html`<span class="badge">View only</span>`}
          <p id="history-live" class="sr-only" role="status" aria-live="polite"></p>
        </div>
        <nav class="tabs" aria-label="Form sections">
          ${BUILDER_TABS.filter((t) => roleAllowsTab(this.formRole, t) && (t !== 'signing' || tab === 'signing' || f.questions.some((q) => q.type === 'contract'))).map((t) =>
            this.base === null
              ? html`<button type="button" aria-current=${t === tab ? 'page' : nothing} @click=${(e: Event) => this.goTab(t, e)}>${tabLabel(t)}</button>`
              : html`<a href=${formPath(this.base, this.formId, t)} aria-current=${t === tab ? 'page' : nothing} @click=${(e: Event) => this.goTab(t, e)}>${tabLabel(t)}</a>`,
          )}
        </nav>
      </div>
      ${conflictArea(s, this.tick, () => this.renderRoot.querySelector<HTMLElement>('.titlebar input, .titlebar .name')?.focus())}
      <div class="body">${!mayEdit(this.formRole) && LOCKED_TABS.includes(tab) ? html`<p class="viewer-note" role="note">You can view this form; ask an editor to change it.</p>` : nothing}
        ${tab === 'questions' ? this.renderQuestions() : this.renderPanel(tab)}</div>
      <fl-publish-sheet></fl-publish-sheet>
      <fl-toast></fl-toast>`;
  }
}
customElements.get('formloom-builder') || customElements.define('formloom-builder', FormloomBuilder);
