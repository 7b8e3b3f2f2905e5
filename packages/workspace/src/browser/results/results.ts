import { LitElement, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { resultsStyles } from './results-styles';
import { ApiError, createApi, unauthorizedNotice, type Api } from '../../data/client';
import { getForm, listTeams, type Question } from '../../data/forms';
import { exportUrl, getAnalytics, getFunnel, getQuestionSummaries, listResponses, type Analytics, type Funnel, type QuestionSummaries } from '../../data/results';
import './results-summary';
import './results-table';
import './filter-bar';
import { EMPTY_FILTER, type FilterState } from './filter-bar';
import { apiFilter, readFilterState, writeFilterState } from './filter-url';
import { PER_PAGE, type FlResultsTable, type ResponsePage } from './results-table';
import { withComponents } from './composite-columns';
import { readableFunnel, readableTitles } from './readable-titles';

/** How often an open results screen asks whether responses arrived (any instance may have stored them). */
const POLL_MS = 10_000;
const DELETE_ROLES = new Set(['owner', 'admin', 'editor']);
/** Typing pauses this long before the table searches: a search reads every response of the range. */
const SEARCH_DEBOUNCE_MS = 350;

type View = 'summary' | 'responses';

/** What each download holds (docs/responses-and-webhooks.md, "Export formats"). */
const EXPORT_FORMATS = { csv: 'CSV', xlsx: 'a spreadsheet: answers as respondents saw them, with raw values', json: 'JSON: answers as labels and raw values' };

/**
 * `<formloom-results form-id="...">`: a form's results (docs/workspace.md, "Results"): the summary first,
 * then the responses table. Alone in a host page it calls the API at `api-base` (default `/api/v1`); as the
 * builder's "Results" tab it gets the builder's store. While open it polls the analytics totals, which
 * every instance keeps in the database, and refreshes when they change.
 */
export class FormloomResults extends LitElement {
  static override styles = [tokens, controls, resultsStyles];
  static override properties = {
    formId: { attribute: 'form-id' },
    apiBase: { attribute: 'api-base' },
    api: { attribute: false },
    store: { attribute: false },
    view: { state: true },
    questions: { state: true },
    analytics: { state: true },
    summaries: { state: true },
    canDelete: { state: true },
    filters: { state: true },
    funnel: { state: true },
    search: { state: true },
    error: { state: true },
    fresh: { state: true },
  };
  formId = '';
  apiBase = '/api/v1';
  api: Api | null = null;
  /** Set when the builder shows this as its tab: its API and form id. */
  store: { api: Api; formId: string } | null = null;
  view: View = 'summary';
  questions: Question[] | null = null;
  /** The form's languages, default first (docs/languages.md): the filter bar offers them when there are several. */
  languages: string[] = [];
  analytics: Analytics | null = null;
  summaries: QuestionSummaries | null = null;
  canDelete = false;
  /** The filter bar's state (filter-bar.ts), kept in the URL (filter-url.ts). */
  filters: FilterState = EMPTY_FILTER;
  funnel: Funnel | null = null;
  /** The filters `analytics` was read with: the poll compares totals of the same filters only. */
  private analyticsKey = '';
  /** The applied search (the box's text once typing paused). */
  search = '';
  error: { status: number; message: string } | null = null;
  fresh = '';
  private timer: ReturnType<typeof setInterval> | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  private started = false;

  override connectedCallback(): void {
    super.connectedCallback();
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    if (this.started) void this.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.timer) clearInterval(this.timer);
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.timer = null;
  }

  override willUpdate(): void {
    if (this.store) {
      this.api = this.store.api;
      this.formId = this.store.formId;
    }
    if (!this.started && this.formId) {
      this.started = true;
      // Alone in a host page: a 401 tells the host (`formloom-unauthorized`), which owns the sign-in.
      this.api ??= createApi(this.apiBase, { onUnauthorized: unauthorizedNotice(this) });
      void this.start();
    }
  }

  /** What the summary, the table and the exports are asked for (the search is the table's alone). */
  private get applied() {
    return apiFilter(this.filters);
  }

  /** The first page read ahead by `start`, handed to the table once. */
  private firstPage: Promise<ResponsePage | null> | null = null;

  private takeFirstPage() {
    const page = this.firstPage;
    this.firstPage = null;
    return page;
  }

  private async start() {
    const fromUrl = readFilterState(location.search);
    this.filters = fromUrl.state;
    if (fromUrl.view === 'responses') this.view = 'responses';
    // The form, the summary's numbers and the table's first page are read at once: one round trip to open.
    const summary = this.refresh();
    const unfiltered = Object.keys(this.applied).length === 0;
    this.firstPage = unfiltered ? listResponses(this.api!, this.formId, { per_page: PER_PAGE }).catch(() => null) : null;
    try {
      const { form } = await getForm(this.api!, this.formId);
      const offered = form as unknown as { language?: string | null; languages?: string[] | null };
      this.languages = offered.language && offered.languages?.length ? [offered.language, ...offered.languages] : [];
      // A composite's components are its columns (composite-columns.ts).
      this.questions = readableTitles(await withComponents(this.api!, form));
      if (!form.team_id) this.canDelete = true;
      else {
        const teams = await listTeams(this.api!).catch(() => null);
        const role = teams?.teams.find((t) => t.id === form.team_id)?.your_role;
        this.canDelete = role !== undefined && DELETE_ROLES.has(role);
      }
      await summary;
      performance.mark('formloom:results-ready');
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown) {
    const status = e instanceof ApiError ? e.status : 0;
    this.error = { status, message: (e as Error).message };
  }

  private async refresh() {
    const filter = this.applied;
    try {
      const [analytics, summaries, funnel] = await Promise.all([
        getAnalytics(this.api!, this.formId, filter),
        getQuestionSummaries(this.api!, this.formId, filter),
        getFunnel(this.api!, this.formId, filter.version).catch(() => null),
      ]);
      // A later change of the filters answered first: this answer is out of date.
      if (JSON.stringify(filter) !== JSON.stringify(this.applied)) return;
      this.analytics = analytics;
      this.analyticsKey = JSON.stringify(filter);
      this.summaries = { ...summaries, questions: readableTitles(summaries.questions, (q) => q.question_id) };
      this.funnel = funnel && readableFunnel(funnel);
      this.error = null;
    } catch (e) {
      this.fail(e);
    }
  }

  /** Refreshes when the totals changed since the last read (a new, completed or deleted response). */
  private async poll() {
    if (!this.analytics || document.hidden || this.error) return;
    const before = this.analytics;
    const key = JSON.stringify(this.applied);
    try {
      const now = await getAnalytics(this.api!, this.formId, this.applied);
      // The filters changed meanwhile (or since `before` was read): a difference is theirs, not new responses.
      if (key !== JSON.stringify(this.applied) || this.analytics !== before || key !== this.analyticsKey) return;
      if (now.total_responses === before.total_responses && now.completed_responses === before.completed_responses) return;
      const added = now.total_responses - before.total_responses;
      // The page read ahead at open is out of date now.
      this.firstPage = null;
      await this.refresh();
      await (this.renderRoot.querySelector('fl-results-table') as FlResultsTable | null)?.load();
      if (added > 0) this.fresh = `${added} new response${added === 1 ? '' : 's'}`;
    } catch (e) {
      this.fail(e);
    }
  }

  /** A change in the filter bar: kept in the URL, then the summary is read again (the table follows its `filters`). */
  private setFilters(next: FilterState) {
    const before = JSON.stringify(this.applied);
    this.filters = next;
    this.fresh = '';
    writeFilterState(next, this.view);
    if (JSON.stringify(this.applied) !== before) {
      this.firstPage = null;
      void this.refresh();
    }
  }

  private setView(view: View) {
    this.view = view;
    writeFilterState(this.filters, view);
  }

  private typed(e: Event) {
    const text = (e.target as HTMLInputElement).value.trim();
    if (this.searchTimer) clearTimeout(this.searchTimer);
    // Enter (a `search` event from the box) applies at once; typing waits for a pause.
    const apply = () => {
      this.searchTimer = null;
      this.search = text;
    };
    if (e.type === 'search') apply();
    else this.searchTimer = setTimeout(apply, SEARCH_DEBOUNCE_MS);
  }

  private renderError(err: { status: number; message: string }) {
    const text =
      err.status === 404
        ? 'This form does not exist any more. It may have been deleted in another tab or by someone else.'
        : err.status === 403
          ? 'You do not have access to the results of this form.'
          : err.message;
    return html`<div class="wrap"><div class="card" role="alert"><h2>Results are not available</h2><p>${text}</p>
      ${err.status === 0 || err.status >= 500 ? html`<button class="btn" type="button" @click=${() => { this.error = null; this.started = false; this.requestUpdate(); }}>Retry</button>` : nothing}</div></div>`;
  }

  override render() {
    if (this.error && (!this.questions || this.error.status === 404)) return this.renderError(this.error);
    if (!this.questions) return html`<div class="wrap"><p class="muted" role="status">Loading results…</p></div>`;
    const applied = this.applied;
    const filters = { ...applied, ...(this.search ? { search: this.search } : {}) };
    const versions = this.funnel?.versions ?? [];
    const filtered = Object.keys(applied).length > 0;
    return html`<div class="wrap">
      <h1 class="sr-only">Results</h1>
      ${this.error ? html`<p class="error-text" role="alert">${this.error.status === 404 ? 'This form does not exist any more. It may have been deleted in another tab.' : this.error.message}</p>` : nothing}
      <div class="views" role="group" aria-label="Results view">
        <button type="button" aria-pressed=${this.view === 'summary' ? 'true' : 'false'} @click=${() => this.setView('summary')}>Summary</button>
        <button type="button" aria-pressed=${this.view === 'responses' ? 'true' : 'false'} @click=${() => this.setView('responses')}>Responses${this.analytics ? ` (${this.analytics.total_responses})` : ''}</button>
      </div>
      <div role="search" aria-label="Filter results">
        <fl-filter-bar .questions=${this.questions} .versions=${versions} .languages=${this.languages} .state=${this.filters} @fl-filter=${(e: CustomEvent<FilterState>) => this.setFilters(e.detail)}></fl-filter-bar>
      </div>
      <div class="bar">
        ${this.view === 'responses'
          ? html`<label class="field">Search answers<input type="search" .value=${this.search} maxlength="200" @input=${this.typed} @search=${this.typed} /></label>`
          : nothing}
        ${(['csv', 'xlsx', 'json'] as const).map(
          (format) => html`<a class="btn" href=${exportUrl(this.api!, this.formId, this.view === 'responses' ? filters : applied, format)} download
            title=${`${filtered || this.search ? 'The responses these filters show' : 'Every response'}, as ${EXPORT_FORMATS[format]}`}>Download ${format.toUpperCase()}</a>`,
        )}
        <span class="live muted" role="status" aria-live="polite">${filtered && this.analytics ? `${this.analytics.total_responses} matching response${this.analytics.total_responses === 1 ? '' : 's'}` : ''}${this.fresh ? ` ${this.fresh}` : ''}</span>
      </div>
      ${this.view === 'summary'
        ? html`<fl-results-summary .analytics=${this.analytics} .summaries=${this.summaries} .funnel=${this.funnel} ?filtered=${filtered} @fl-show-responses=${() => this.setView('responses')}></fl-results-summary>`
        : html`<fl-results-table .prefetched=${this.takeFirstPage()} .api=${this.api} form-id=${this.formId} .questions=${this.questions} .filters=${filters} ?can-delete=${this.canDelete}
            @fl-responses-changed=${() => void this.refresh()}></fl-results-table>`}
    </div>`;
  }
}
customElements.get('formloom-results') || customElements.define('formloom-results', FormloomResults);
