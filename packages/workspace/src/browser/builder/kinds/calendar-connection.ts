import { LitElement, css, html, nothing } from 'lit';
import { controls, tokens } from '../../controls/styles';
import type { Api } from '../../../data/client';
import { connectCalendar, disconnectCalendar, getCalendar, testCalendar, type CalendarConnection } from '../../../data/calendar';

/**
 * `<fl-calendar-connection>`: the owner's CalDAV calendar, where booking questions read busy times and write
 * bookings (docs/booking.md, "Connecting a calendar"). Connected: which calendar, "Test connection" and
 * "Disconnect"; not connected: the server's URL, user name and password, tested before they are kept. The password
 * is never shown again (the server keeps it sealed).
 */
export class FlCalendarConnection extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; }
      .box { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; display: grid; gap: 0.6rem; }
      h2 { margin: 0; font-size: 0.9375rem; }
      p { margin: 0; }
      .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
      .ok { color: var(--_success, #17803d); }
      .bad { color: var(--_danger); }
      form { display: grid; gap: 0.6rem; }
    `,
  ];
  static override properties = { api: { attribute: false }, state: { state: true }, busy: { state: true }, message: { state: true }, failed: { state: true } };
  api: Api | null = null;
  state: CalendarConnection | null = null;
  busy = false;
  message = '';
  failed = false;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    if (!this.api) return;
    try {
      this.state = await getCalendar(this.api);
    } catch (e) {
      this.say((e as Error).message, true);
    }
  }

  private say(message: string, failed = false) {
    this.message = message;
    this.failed = failed;
  }

  private async run(work: () => Promise<void>) {
    this.busy = true;
    try {
      await work();
    } catch (e) {
      this.say((e as Error).message, true);
    } finally {
      this.busy = false;
    }
  }

  private submit(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const body = { url: String(data.get('url') ?? '').trim(), username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') };
    void this.run(async () => {
      this.say('Connecting…');
      this.state = await connectCalendar(this.api!, body);
      this.say('');
      this.changed();
    });
  }

  /** The builder checks the form again (the readiness beside the question). */
  private changed() {
    this.dispatchEvent(new CustomEvent('fl-calendar-changed', { bubbles: true, composed: true }));
  }

  override render() {
    const s = this.state;
    if (!this.api) return nothing;
    const status = html`<p role="status" aria-live="polite" class=${this.failed ? 'bad' : 'muted'}>${this.message}</p>`;
    if (!s) return html`<div class="box"><h2>Calendar</h2>${status}</div>`;
    if (!s.available) return html`<div class="box"><h2>Calendar</h2><p>This server has no calendar adapter; ask its operator to add <code>@formloom/calendar-caldav</code>.</p></div>`;
    if (s.connected) {
      return html`<div class="box"><h2>Calendar</h2>
        <p class="ok">Connected to <strong>${s.calendar_name ?? s.calendar_url}</strong> as ${s.username}.</p>
        <p class="muted">Bookings are checked against its busy times and written into it.</p>
        <div class="row">
          <button class="btn small" type="button" ?disabled=${this.busy} @click=${() => void this.run(async () => {
            this.say('Testing…');
            const r = await testCalendar(this.api!);
            this.say(`It works: ${r.calendar_name ?? r.calendar_url} answered.`);
          })}>Test connection</button>
          <button class="btn small danger" type="button" ?disabled=${this.busy} @click=${() => void this.run(async () => {
            await disconnectCalendar(this.api!);
            this.state = { ...s, connected: false, url: null, username: null, calendar_url: null, calendar_name: null };
            this.say('Disconnected.');
            this.changed();
          })}>Disconnect</button>
        </div>${status}</div>`;
    }
    return html`<div class="box"><h2>Connect your calendar</h2>
      ${s.booking_allowed ? nothing : html`<p class="bad">Booking questions need the Pro plan or higher.</p>`}
      <p class="muted">A CalDAV calendar (Nextcloud, Fastmail, iCloud with an app password, Radicale…): its address, your user name and password. It is tested before it is kept.</p>
      <form @submit=${(e: SubmitEvent) => this.submit(e)}>
        <label class="field">CalDAV address<input name="url" type="url" required placeholder="https://cloud.example.com/remote.php/dav" autocomplete="url" /></label>
        <label class="field">User name<input name="username" type="text" required autocomplete="username" /></label>
        <label class="field">Password<input name="password" type="password" required autocomplete="current-password" /></label>
        <div class="row"><button class="btn primary small" type="submit" ?disabled=${this.busy || !s.booking_allowed}>Connect and test</button></div>
      </form>${status}</div>`;
  }
}
customElements.get('fl-calendar-connection') || customElements.define('fl-calendar-connection', FlCalendarConnection);
