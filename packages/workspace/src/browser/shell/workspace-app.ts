import { LitElement, html, css, nothing } from 'lit';
import { unsafeStatic, html as staticHtml } from 'lit/static-html.js';
import { tokens, controls } from '../controls/styles';
import { createApi, type Api } from '../../data/client';
import { readSession, type SessionInfo } from '../../data/session';
import { authConfig, readAccount, signOut } from '../../data/auth';
import { signedIn } from '../../data/forms';
import { matchRoute, navigate, type Route } from './routes';
import { SCREENS } from './screens';

type AuthState = 'checking' | 'in' | 'out' | 'error';

/**
 * `<formloom-workspace base api-base pages-base>`: the owners' workspace as one element (docs/workspace.md).
 * It reads who is signed in, routes workspace URLs on the client, and shows one screen element at a time.
 * Links inside screens are plain `<a href>`: the shell catches same-origin clicks under `base`.
 */
export class FormloomWorkspace extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; min-height: 100vh; background: var(--_bg); }
      header { position: relative; display: flex; align-items: center; gap: 1rem; padding: 0.5rem 1rem; background: var(--_surface); border-bottom: 1px solid var(--_border); min-height: 3.25rem; }
      .brand { font-weight: 700; font-size: 1.05rem; color: var(--_text); text-decoration: none; display: flex; align-items: center; gap: 0.5rem; }
      .logo { width: 1.5rem; height: 1.5rem; border-radius: 6px; background: var(--_primary); display: inline-block; }
      nav { display: flex; gap: 0.25rem; margin-left: auto; align-items: center; }
      nav a { padding: 0.5rem 0.6rem; border-radius: var(--_radius); color: var(--_text); text-decoration: none; }
      nav a[aria-current='page'] { background: color-mix(in srgb, var(--_primary) 14%, transparent); }
      .who { color: var(--_muted); font-size: 0.875rem; max-width: 14rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .skip { position: absolute; left: -999px; top: 0.5rem; background: var(--_surface); color: var(--_text); border: 1px solid var(--_border); border-radius: var(--_radius); font: inherit; padding: 0.5rem; z-index: 10; }
      .skip:focus { left: 0.5rem; }
      main { display: block; }
      main:focus { outline: none; }
      .status { padding: 3rem 1rem; text-align: center; }
      .short { display: none; }
      .person { position: relative; }
      .person > button { background: none; border: 0; font: inherit; color: var(--_text); padding: 0.5rem 0.6rem; border-radius: var(--_radius); cursor: pointer; display: flex; align-items: center; gap: 0.25rem; }
      .person > button[aria-expanded='true'], .person > button:hover { background: color-mix(in srgb, var(--_primary) 14%, transparent); }
      .menu { position: absolute; right: 0; top: calc(100% + 0.25rem); z-index: 20; min-width: 12rem; max-width: calc(100vw - 1rem); background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_radius); box-shadow: 0 6px 24px rgb(0 0 0 / 0.12); padding: 0.25rem; list-style: none; margin: 0; }
      .menu a, .menu button { display: block; width: 100%; text-align: left; padding: 0.6rem 0.75rem; border: 0; background: none; font: inherit; color: var(--_text); text-decoration: none; border-radius: var(--_radius); cursor: pointer; box-sizing: border-box; }
      .menu a:hover, .menu button:hover, .menu a:focus-visible, .menu button:focus-visible { background: color-mix(in srgb, var(--_primary) 14%, transparent); }
      .menu .signed { color: var(--_muted); font-size: 0.8125rem; padding: 0.5rem 0.75rem; overflow-wrap: anywhere; border-bottom: 1px solid var(--_border); margin-bottom: 0.25rem; }
      @media (max-width: 480px) { .who { display: none; } .short { display: inline; } header { flex-wrap: wrap; row-gap: 0; } nav a, .person > button { padding: 0.5rem 0.45rem; } .person { position: static; } .menu { left: 0.5rem; right: 0.5rem; top: 100%; min-width: 0; max-width: none; } }
    `,
  ];
  static override properties = {
    base: {},
    apiBase: { attribute: 'api-base' },
    pagesBase: { attribute: 'pages-base' },
    route: { state: true },
    auth: { state: true },
    session: { state: true },
    loaded: { state: true },
    isAdmin: { state: true },
    menuOpen: { state: true },
    firstRun: { state: true },
  };
  base = '';
  apiBase = '/api/v1';
  pagesBase = '';
  route: Route = matchRoute(location.pathname, location.search, '');
  auth: AuthState = 'checking';
  session: SessionInfo | null = null;
  loaded = new Set<string>();
  /** The signed-in person administers the instance: the menu offers the admin area. */
  isAdmin = false;
  menuOpen = false;
  /** No account exists yet: the first screen is "Create the admin account" (docs/accounts.md). */
  firstRun = false;
  private api!: Api;
  private readonly onPop = () => this.syncRoute();
  private readonly onClick = (e: MouseEvent) => this.catchLink(e);
  /** A sign-in screen signed someone in (detail: the session) or out (detail: null). */
  private readonly onSession = (e: Event) => {
    this.session = (e as CustomEvent<SessionInfo | null>).detail;
    this.auth = this.session ? 'in' : 'out';
    this.firstRun = false;
    void this.checkAdmin();
  };
  /** The person's menu closes on Escape (focus back on its button) and on a click elsewhere. */
  private readonly onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && this.menuOpen) {
      this.menuOpen = false;
      this.renderRoot.querySelector<HTMLElement>('.person > button')?.focus();
    }
  };
  private readonly onOutside = (e: MouseEvent) => {
    if (this.menuOpen && !e.composedPath().some((n) => n instanceof HTMLElement && n.classList.contains('person'))) this.menuOpen = false;
  };
  private readonly onSessionChanged = () => void this.checkAuth();

  override connectedCallback(): void {
    super.connectedCallback();
    this.api = createApi(this.apiBase);
    window.addEventListener('popstate', this.onPop);
    this.addEventListener('click', this.onClick);
    this.addEventListener('fl-session', this.onSession);
    this.addEventListener('fl-session-changed', this.onSessionChanged);
    this.addEventListener('keydown', this.onKey);
    document.addEventListener('click', this.onOutside);
    this.syncRoute();
    void this.checkAuth();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPop);
    this.removeEventListener('click', this.onClick);
    this.removeEventListener('fl-session', this.onSession);
    this.removeEventListener('fl-session-changed', this.onSessionChanged);
    this.removeEventListener('keydown', this.onKey);
    document.removeEventListener('click', this.onOutside);
  }

  private syncRoute() {
    const before = this.route;
    this.menuOpen = false;
    this.route = matchRoute(location.pathname, location.search, this.base);
    // A new screen (not a tab of the same form) takes the focus, so keyboard and screen-reader users start there.
    if (this.hasUpdated && (before.name !== this.route.name || before.formId !== this.route.formId || before.teamId !== this.route.teamId)) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('main')?.focus());
    }
    const screen = SCREENS[this.route.name];
    if (!this.loaded.has(screen.tag)) {
      void screen.load().then(() => (this.loaded = new Set([...this.loaded, screen.tag])));
    }
    this.redirectIfNeeded();
  }

  private async checkAuth() {
    try {
      // Both at once: without a session (or with sessions off, in an embedding host) the host's own sign-in
      // may still apply, and asking in parallel keeps the first screen one round trip away.
      const [session, host] = await Promise.all([readSession(this.api), signedIn(this.api)]);
      this.session = session;
      this.auth = session || host ? 'in' : 'out';
      // Nobody signed in: an empty instance opens on creating its admin account rather than on a sign-in
      // no one could use (docs/accounts.md, "The first account").
      if (this.auth === 'out') this.firstRun = await authConfig(this.api).then((c) => !c.has_users, () => false);
    } catch {
      this.auth = 'error';
    }
    this.redirectIfNeeded();
    void this.checkAdmin();
  }

  /** Whether the signed-in person administers the instance (a failure just leaves the admin area out). */
  private async checkAdmin() {
    if (!this.session) return void (this.isAdmin = false);
    this.isAdmin = await readAccount(this.api).then((a) => a.is_admin, () => false);
  }

  private redirectIfNeeded() {
    if (this.auth !== 'out') return;
    if (SCREENS[this.route.name].needsAuth || (this.firstRun && this.route.name === 'signin')) navigate(`${this.base}/${this.firstRun ? 'signup' : 'signin'}`, true);
  }

  private async onSignOut() {
    this.menuOpen = false;
    try {
      await signOut(this.api);
    } catch {
      // The session may already be gone; the sign-in screen is right either way.
    }
    this.session = null;
    this.isAdmin = false;
    this.auth = 'out';
    navigate(`${this.base}/signin`, true);
  }

  private catchLink(e: MouseEvent) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.composedPath().find((n): n is HTMLAnchorElement => n instanceof HTMLAnchorElement);
    if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
    const path = a.pathname;
    const inside = path === `${this.base}/` || path.startsWith(`${this.base}/forms/`) || matchRoute(path, '', this.base).name !== 'not-found';
    if (!inside || path.startsWith(`${this.base}/f/`)) return;
    e.preventDefault();
    navigate(a.pathname + a.search + a.hash);
  }

  private renderScreen() {
    const screen = SCREENS[this.route.name];
    // While the sign-in is being checked the screen already loads its data: a 401 sends it to /signin anyway.
    if (screen.needsAuth && this.auth === 'out') return html`<p class="status muted" role="status">Loading…</p>`;
    if (screen.needsAuth && this.auth === 'error') {
      return html`<div class="status" role="alert"><p>The server could not be reached.</p><button class="btn" @click=${() => void this.checkAuth()}>Retry</button></div>`;
    }
    if (!this.loaded.has(screen.tag)) return html`<p class="status muted" role="status">Loading…</p>`;
    const tag = unsafeStatic(screen.tag);
    return staticHtml`<${tag} .api=${this.api} base=${this.base} pages-base=${this.pagesBase} form-id=${this.route.formId ?? nothing} team-id=${this.route.teamId ?? nothing} tab=${this.route.tab ?? nothing} session-id=${this.route.sessionId ?? nothing} .query=${this.route.query}></${tag}>`;
  }

  /** The person's menu (a disclosure, not an ARIA menu: plain links and a button, reached with Tab). */
  private renderMenu() {
    const r = this.route.name;
    const email = this.session!.user.email;
    return html`<div class="person">
      <button type="button" aria-expanded=${this.menuOpen ? 'true' : 'false'} aria-controls="person-menu" aria-label="Your menu: ${email}" @click=${() => (this.menuOpen = !this.menuOpen)}>
        <span class="who">${email}</span><span class="short">Menu</span><span aria-hidden="true">▾</span>
      </button>
      <ul class="menu" id="person-menu" ?hidden=${!this.menuOpen}>
        <li class="signed">Signed in as ${email}</li>
        <li><a href="${this.base}/account" aria-current=${r === 'account' ? 'page' : nothing}>Your account</a></li>
        ${this.isAdmin ? html`<li><a href="${this.base}/admin" aria-current=${r === 'admin' ? 'page' : nothing}>Admin area</a></li>` : nothing}
        <li><button type="button" @click=${() => void this.onSignOut()}>Sign out</button></li>
      </ul>
    </div>`;
  }

  override render() {
    const r = this.route.name;
    // A button rather than a link: `#main` is inside this shadow root, where a fragment cannot reach it.
    return html`<header>
        <button class="skip btn" type="button" @click=${() => (this.renderRoot.querySelector('main') as HTMLElement).focus()}>Skip to content</button>
        <a class="brand" href="${this.base}/"><span class="logo" aria-hidden="true"></span>Formloom</a>
        <nav aria-label="Workspace">
          ${this.auth === 'in' ? html`<a href="${this.base}/" aria-current=${r === 'forms' ? 'page' : nothing}>Forms</a>
            <a href="${this.base}/teams" aria-current=${r === 'teams' || r === 'team' ? 'page' : nothing}>Teams</a>
            <a href="${this.base}/voice" aria-current=${r === 'voice' ? 'page' : nothing}>Voice</a>` : nothing}
        </nav>
        ${this.session ? this.renderMenu() : nothing}
      </header>
      <main id="main" tabindex="-1">${this.renderScreen()}</main>`;
  }
}
customElements.get('formloom-workspace') || customElements.define('formloom-workspace', FormloomWorkspace);
