import { nextIndex, startIndex, visiblePath } from '../../../core/src/logic/jumps.js';
import type { LogicContext } from '../../../core/src/logic/conditions.js';
import { computeVariables } from '../../../core/src/logic/actions.js';
import type { ApiError, PublicApi } from './api.js';
import { answerProblem } from './answer-check.js';
import { h } from './dom.js';
import { answerable, controlFor } from './questions/index.js';
import { button, questionIds, questionScreen, redirectAfter, screen, showProblem, thankYou } from './screens.js';
import * as store from './store.js';
import { footer, topLogo } from './theme.js';
import type { Answers, Control, PublicForm, PublicQuestion, SubmittedResponse } from './types.js';
import { ResponseWriter } from './response-writer.js';
import { PageChrome } from './page-chrome.js';
import { bookingRunner, paymentRunner, runServerStep, type StepPage } from './server-runners.js';
import { continuation, fuseEnded, isFuse, RUN_STEPS, type FuseResult } from './fuse-flow.js';
import { prefill } from './prefill.js';
import { SpamCheck } from './spam-check.js';
import type { Translate } from './i18n/index.js';
import { newSeed, shuffled } from './shuffle.js';
import { recaller, recalledQuestion, type Fill } from './recall-text.js';
import { expandComposites, foldComposites, namedIndex, passSteps, shownPath, type FlowQuestion } from './composite-flow.js';

/** How long a tapped answer shows as picked before the page moves on. */
const ADVANCE_MS = 250;

/**
 * The orchestrator (docs/respondents.md): one question at a time, navigation through the logic jumps,
 * partial saves and the final submission. Rendering is left to the question controls and the checks to
 * the shared logic; this class only moves between them.
 */
export class FormView {
  private readonly questions: FlowQuestion[];
  private answers: Answers = {};
  private hidden: Record<string, string>;
  private index = 0;
  private history: number[] = [];
  /** The respondent's session seed: the order of randomized choices (docs/respondents.md). */
  private seed: string;
  private startedAt = new Date().toISOString();
  /** Whether this page's view was reported (never in the builder's preview), and its start (the funnel). */
  private counted = false;
  /** The page's language, for the dates a control writes (booking slots). */
  private lang = 'en';
  private started = false;
  private readonly main = h('div', { class: 'fl-main' });
  /** The progress bar and the question navigation (page-chrome.ts). */
  private readonly chrome: PageChrome;
  private control: Control | null = null;
  private busy = false;
  /** Counts the screens shown: a pending move-on belongs to the screen it was started on. */
  private shown = 0;
  private advanceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set once the response is completed: nothing on the page can send it again (docs/respondents.md). */
  private done = false;
  private readonly spam: SpamCheck;
  /** The response on the server: made at the first save, then changed (response-writer.ts). */
  private readonly writer: ResponseWriter;
  /** What the steps the server runs need of this page (server-runners.ts). */
  private readonly stepPage: StepPage;
  /** Variables a data node set (docs/logic.md), over the form's initial values. */
  private dataVars: Record<string, unknown> = {};
  /** Fills the recalls of a text from the answers so far (recall-text.ts). */
  private readonly fill: Fill;
  /** What a Fuse step answered: the page goes on in the Fuse form (fuse-flow.ts). */
  private fused: FuseResult | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly host: HTMLElement,
    private readonly api: PublicApi,
    private readonly form: PublicForm,
    search: string,
    /** 1 on the `/f/` page (the form is the page), 2 embedded (below the host page's own `<h1>`). */
    private readonly level: 1 | 2,
    private readonly t: Translate,
    /**
     * Whether showing a screen may move the focus into the form: on the `/f/` page and in an opened popup
     * from the start; embedded in a host page only once the respondent is using the form, so that loading
     * the host page never scrolls it to the form nor takes the focus away from what they were doing.
     */
    private focusOk: boolean,
  ) {
    this.chrome = new PageChrome(t, form.theme);
    // Composite questions are answered in place: their components' questions join the flow (composite-flow.ts).
    this.questions = expandComposites([...form.snapshot.questions].sort((a, b) => a.order - b.order), form.language);
    const given = prefill(this.questions, form.snapshot.hidden_fields, search);
    this.answers = given.answers;
    this.hidden = given.hidden;
    this.seed = store.sessionSeed(form.slug, newSeed);
    const theme = form.theme;
    this.spam = new SpamCheck(api, form.slug, form.snapshot.spam_protection);
    this.writer = new ResponseWriter(api, form.slug, this.spam, (completed) => this.body(completed));
    this.fill = recaller(() => ({ answers: this.answers, hidden: this.hidden, variables: this.variables() }), t, root.lang);
    this.stepPage = {
      api,
      slug: form.slug,
      level,
      t,
      writer: this.writer,
      fill: this.fill,
      present: (i, section, heading) => {
        const screenNo = this.newScreen();
        this.index = i;
        this.control = null;
        this.chrome.nav.hidden = true;
        this.main.replaceChildren(section);
        if (this.focusOk) heading.focus();
        this.emit('formloom:page', { index: i, question_id: this.questions[i]!.id, total: this.questions.length });
        return () => this.shown === screenNo;
      },
      payload: () => this.payload(),
      setBusy: (busy) => (this.busy = busy),
      learned: (r) => {
        if (isFuse(r)) return void (this.fused = r);
        if (r.hidden) this.hidden = { ...this.hidden, ...r.hidden };
        if (r.variables) this.dataVars = { ...this.dataVars, ...r.variables };
      },
      after: (i) => (this.fused ? this.fuseEnded(this.fused) : this.afterStep(i)),
    };
    this.lang = root.lang || 'en';
    root.replaceChildren(topLogo(theme, form.title) ?? '', this.chrome.progress, this.chrome.banner, this.main, this.chrome.nav, footer(theme, t('powered_by')) ?? '', this.spam.trap ?? '');
    root.addEventListener('keydown', (e) => this.onKey(e));
    for (const type of ['pointerdown', 'keydown', 'focusin']) root.addEventListener(type, () => (this.focusOk = true));
  }

  /** Whether a reload resumes the partial response: incremental forms, and forms with steps the server runs. */
  private get keepsProgress(): boolean {
    return this.form.snapshot.incremental_submission === true || this.questions.some((q) => RUN_STEPS.has(q.type));
  }

  private get ctx(): LogicContext {
    return { answers: this.answers, hidden: this.hidden };
  }

  /** The variables after the rules' actions of the questions left so far (all of the path once submitted). */
  private variables(): Record<string, unknown> {
    const passed = this.done ? undefined : new Set(this.history.map((i) => this.questions[i]?.id ?? ''));
    return computeVariables(this.questions, this.form.snapshot.start_logic_jumps, this.ctx, { ...(this.form.snapshot.variables ?? {}), ...this.dataVars }, passed);
  }

  start(): void {
    const snap = this.form.snapshot;
    if (snap.closed) return this.show(screen(this.level, this.t('closed'), this.t('closed_text')));
    // The funnel's first step (the preview never calls start, so the builder's own views are not counted).
    this.api.visit(this.form.slug, 'view');
    this.counted = true;
    if (snap.limit_one_response && store.completed.get(this.form.slug)) {
      this.done = true;
      return this.show(screen(this.level, this.t('answered'), this.t('answered_text')));
    }
    // Started by a Fuse in another form: answered in the continuation it made, from the start (fuse-flow.ts).
    const fused = continuation(this.form.slug);
    if (fused) {
      [this.writer.partial, this.hidden] = [{ id: fused.id, token: fused.token }, { ...this.hidden, ...fused.hidden }];
      return this.begin();
    }
    const saved = this.keepsProgress ? store.resume.get(this.form.slug) : null;
    if (saved) {
      this.writer.partial = { id: saved.id, token: saved.token };
      this.answers = { ...this.answers, ...saved.answers };
      this.history = saved.history;
      if (saved.seed) this.seed = saved.seed;
      if (saved.hidden) this.hidden = { ...this.hidden, ...saved.hidden };
      if (saved.vars) this.dataVars = saved.vars;
      return this.go(Math.min(saved.index, this.questions.length - 1));
    }
    const t = this.form.theme;
    if (t.welcome_title || t.welcome_description) {
      const f = this.fill;
      return this.show(screen(this.level, f(t.welcome_title) || this.form.title, f(t.welcome_description) || null, button(t.welcome_button_text && t.welcome_button_text !== 'Start' ? f(t.welcome_button_text) : this.t('start'), () => this.begin())));
    }
    this.begin();
  }

  /** Shows question `i` as it is, for the builder's preview (preview.ts). */
  showQuestion(i: number): void {
    this.go(i);
  }

  private begin(): void {
    // A form without questions is sent by its button only: the page never submits on its own (issue 34).
    if (!this.questions.length) return this.show(screen(this.level, this.form.title, this.form.description, button(this.t('submit'), () => void this.finish())));
    this.go(startIndex(this.questions, this.form.snapshot.start_logic_jumps, this.ctx));
  }

  /** Forgets any pending move-on: the screen it belonged to is being replaced. */
  private newScreen(): number {
    clearTimeout(this.advanceTimer);
    return ++this.shown;
  }

  private show(el: HTMLElement): void {
    this.newScreen();
    this.control = null;
    this.chrome.nav.hidden = true;
    this.main.replaceChildren(el);
    if (this.focusOk) el.querySelector<HTMLElement>('.fl-title, button')?.focus();
  }

  private emit(name: string, detail: unknown): void {
    this.host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** Shows the question at `i`, with an optional problem to fix. */
  private go(i: number, problem: string | null = null): void {
    const to = passSteps(this.questions, i, this.ctx);
    if (to !== i) return to >= this.questions.length ? void this.finish() : this.go(to, problem);
    // A step the server runs is performed on the live page, never in the builder's preview (not counted).
    if (RUN_STEPS.has(this.questions[i]?.type ?? '') && this.counted) return void runServerStep(this.stepPage, this.questions[i]!, i);
    const screenNo = this.newScreen();
    this.index = i;
    const recalled = recalledQuestion(this.questions[i]!, this.fill);
    const q = recalled.q;
    const ids = questionIds();
    this.control = controlFor(q, {
      t: this.t,
      value: recalled.shown(this.answers[q.id] ?? null),
      set: (v) => {
        this.answers[q.id] = recalled.stored(v);
        showProblem(this.main, ids.err, null);
        if (this.counted && !this.started) {
          // The funnel's second step: the first answer given on this page.
          this.started = true;
          this.api.visit(this.form.slug, 'start');
        }
      },
      next: () => void this.next(),
      // The answer shows as picked for a moment, then the page moves on, unless the respondent already moved
      // (OK, the arrows): a late move-on would act on the screen after, skipping its question.
      advance: () => {
        clearTimeout(this.advanceTimer);
        this.advanceTimer = setTimeout(() => this.shown === screenNo && void this.next(), ADVANCE_MS);
      },
      upload: (file, onProgress) => this.api.upload(this.form.slug, q.id, file, onProgress),
      labelledBy: ids.title,
      describedBy: `${q.description ? ids.desc : ''} ${ids.err}`.trim(),
      required: q.required && answerable(q.type),
      shuffle: (items) => shuffled(items, `${this.seed}:${q.id}`),
      pay: q.type === 'payment' ? paymentRunner(this.api, this.form.slug, this.writer, () => this.payload(), q.id) : undefined,
      booking: q.type === 'booking' && this.counted ? bookingRunner(this.api, this.form.slug) : undefined,
      lang: this.lang,
    });
    const section = questionScreen(this.t, this.level, q, this.questions[i]!.part, q.required && answerable(q.type), this.control.el, ids, this.isLast(), () => void this.next());
    this.main.replaceChildren(section);
    showProblem(this.main, ids.err, problem);
    this.paintChrome();
    if (this.focusOk) this.control.focus();
    this.emit('formloom:page', { index: i, question_id: q.id, total: this.questions.length });
  }

  /** True when no question can follow the current one whatever the jumps say. */
  private isLast(): boolean {
    return passSteps(this.questions, nextIndex(this.questions, this.index, this.ctx), this.ctx) >= this.questions.length;
  }

  /** Progress along the respondent's own path, and the navigation (page-chrome.ts). */
  private paintChrome(): void {
    const path = shownPath(this.questions, visiblePath(this.questions, this.form.snapshot.start_logic_jumps, this.ctx));
    this.chrome.paint(path, this.questions[this.index]!.id, this.history.length > 0, () => this.back(), () => void this.next());
  }

  private onKey(e: KeyboardEvent): void {
    const t = e.composedPath()[0] as HTMLElement;
    // A screen (welcome, ...) answers Enter with its button wherever the focus is, as a question does.
    if (!this.control && e.key === 'Enter' && !(t instanceof HTMLButtonElement) && !(t instanceof HTMLAnchorElement)) {
      const action = this.main.querySelector<HTMLButtonElement>('.fl-screen .fl-button');
      if (action) {
        e.preventDefault();
        action.click();
      }
      return;
    }
    const typing = t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && !['radio', 'checkbox', 'file'].includes(t.type));
    if (!typing && this.control?.key?.(e)) e.preventDefault();
  }

  private back(): void {
    if (this.done) return;
    const prev = this.history.pop();
    if (prev !== undefined) this.go(prev);
  }

  /** Checks the current answer, saves progress on incremental forms and moves along the jumps. */
  private async next(): Promise<void> {
    if (this.busy || this.done || !this.control) return;
    const q = this.questions[this.index]!;
    const problem = answerable(q.type) ? answerProblem(q, this.answers[q.id], this.t) : (this.control.ready?.() ?? null);
    if (problem) return this.go(this.index, problem);
    const to = nextIndex(this.questions, this.index, this.ctx);
    if (to >= this.questions.length) return this.finish();
    if (this.form.snapshot.incremental_submission) await this.save(to);
    this.history.push(this.index);
    this.go(to);
  }

  /** A step the server ran (server-runners.ts) is done: the page moves on from question `i`. */
  private afterStep(i: number): void | Promise<void> {
    const to = nextIndex(this.questions, i, this.ctx);
    if (to >= this.questions.length) return this.finish();
    // Kept also without incremental saving: a reload goes on from here with the same response, so the step is
    // not run again for a new one (an email step mails once per response).
    if (this.keepsProgress) store.resume.set(this.form.slug, { ...this.writer.partial!, seed: this.seed, answers: this.answers, index: to, history: [...this.history], hidden: this.hidden, vars: this.dataVars });
    this.go(to);
  }

  /** The response is completed at a Fuse: on into the Fuse form, or this form's end when it takes none. */
  private fuseEnded(r: FuseResult): void {
    const end = { id: this.writer.partial?.id, quiz_results: null } as SubmittedResponse;
    this.done = true;
    this.emit('formloom:submit', { response_id: end.id, quiz_results: null });
    fuseEnded(r, this.host, this.form.slug, this.level === 1, () => this.show(thankYou(this.t, this.level, this.form, end, null, this.fill)));
  }

  /** The answers to send: those on the respondent's path through the jumps, answered and answerable. */
  private payload() {
    const path = new Set(visiblePath(this.questions, this.form.snapshot.start_logic_jumps, this.ctx));
    const answers = this.questions
      .filter((q) => path.has(q.id) && answerable(q.type) && this.answers[q.id] !== null && this.answers[q.id] !== undefined && this.answers[q.id] !== '')
      .map((q) => ({ question_id: q.id, value: typeof this.answers[q.id] === 'string' ? (this.answers[q.id] as string).trim() : this.answers[q.id] }));
    return foldComposites(this.questions, answers);
  }

  private body(completed: boolean) {
    const hidden = Object.keys(this.hidden).length ? { hidden: this.hidden } : {};
    return { answers: this.payload(), visitor_id: store.visitorId(), completed, started_at: this.startedAt, metadata: { referrer: document.referrer || undefined }, ...hidden, ...(this.form.language ? { language: this.form.language } : {}) };
  }

  /** Saves the partial response (POST once, then PATCH); a lost connection is retried at the next step. */
  private async save(nextIndexValue: number): Promise<void> {
    try {
      const saved = await this.writer.save(this.payload());
      this.chrome.banner.hidden = true;
      store.resume.set(this.form.slug, { ...saved, seed: this.seed, answers: this.answers, index: nextIndexValue, history: [...this.history, this.index], hidden: this.hidden, vars: this.dataVars });
    } catch (e) {
      if ((e as ApiError).offline) this.chrome.offline(null);
    }
  }

  private async finish(): Promise<void> {
    if (this.busy || this.done) return;
    this.busy = true;
    try {
      const saved = this.writer.partial;
      const r: SubmittedResponse = saved
        ? await this.api.patch(this.form.slug, saved.id, saved.token, { answers: this.payload(), completed: true })
        : await this.writer.submitNew(true);
      this.done = true;
      this.chrome.banner.hidden = true;
      store.resume.set(this.form.slug, null);
      if (this.form.snapshot.limit_one_response) store.completed.set(this.form.slug);
      this.chrome.fill(100);
      const snap = this.form.snapshot;
      const retake = snap.quiz_settings?.allow_retake === true && !snap.limit_one_response ? () => this.retake() : null;
      this.show(thankYou(this.t, this.level, this.form, r, retake, this.fill));
      this.emit('formloom:submit', { response_id: r.id, quiz_results: r.quiz_results });
      redirectAfter(this.form.snapshot, this.fill, r.id);
    } catch (e) {
      this.failed(e as ApiError);
    } finally {
      this.busy = false;
    }
  }

  /** A new attempt at the quiz: a fresh response, from the first question, with only the URL's prefill. */
  private retake(): void {
    const given = prefill(this.questions, this.form.snapshot.hidden_fields, location.search);
    this.answers = given.answers;
    this.history = [];
    this.writer.partial = null;
    this.done = false;
    this.startedAt = new Date().toISOString();
    this.begin();
  }

  /** What a failed submission tells the respondent, keeping every answer for a retry. */
  private failed(e: ApiError): void {
    if (e.offline) return this.chrome.offline(() => void this.finish());
    if (e.status === 401 && this.writer.partial) {
      // The saved partial response is gone or not ours any more: submit the answers as a new response.
      this.writer.forget();
      return void this.finish();
    }
    if (e.status === 404) return this.show(screen(this.level, this.t('unpublished'), this.t('unpublished_text')));
    if (e.status === 409 && e.reason === 'form_closed') return this.show(screen(this.level, this.t('closed'), this.t('closed_text')));
    if (e.status === 409 && e.reason === 'already_responded') {
      store.completed.set(this.form.slug);
      this.done = true;
      return this.show(screen(this.level, this.t('answered'), this.t('answered_text')));
    }
    // A booking whose held time was taken: that answer is gone; the question asks for another time.
    if (e.status === 409 && e.reason === 'slot_unavailable') for (const id of e.questionIds) this.answers[id] = null;
    const at = namedIndex(this.questions, e.questionIds);
    if (at >= 0) return this.go(at, e.message.replace(/^answers(\.\d+\.value)?: /, ''));
    this.chrome.offline(() => void this.finish(), e.message);
  }
}
