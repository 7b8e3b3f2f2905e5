import { LitElement, css, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError, type Api } from '../../data/client';
import { backupUrl, listBackups, takeBackup, type BackupList } from '../../data/admin';
import { errorLine, messageOf } from '../auth/auth-card';
import { sectionStyles, when } from '../account/account-styles';
import { adminStyles } from './admin-styles';

/** A size as people read it: "820 KB", "3.4 MB". */
export function readableSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let n = bytes / 1024;
  let i = 0;
  for (; n >= 1024 && i < units.length - 1; i++) n /= 1024;
  return `${n >= 10 ? Math.round(n) : n.toFixed(1)} ${units[i]}`;
}

/**
 * `<fl-admin-backups>`: the server's backup archives (docs/backup-and-restore.md): "Back up now" while it runs,
 * each archive to download, and how often they are taken. Restoring stays a command: it replaces the database
 * under a stopped server, which a page cannot do safely.
 */
export class FlAdminBackups extends LitElement {
  static override styles = [tokens, controls, sectionStyles, adminStyles, css`.stack { display: grid; gap: 0.9rem; } .stack p { margin: 0; } h2 { margin: 0.5rem 0 0; font-size: 1rem; }`];
  static override properties = { api: { attribute: false }, list: { state: true }, missing: { state: true }, error: { state: true }, said: { state: true }, busy: { state: true } };
  api!: Api;
  list: BackupList | null = null;
  missing = false;
  error: string | null = null;
  said: string | null = null;
  busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.list = await listBackups(this.api);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) this.missing = true;
      else this.error = messageOf(e);
    }
  }

  private async backUp() {
    this.busy = true;
    this.error = null;
    this.said = null;
    try {
      const made = await takeBackup(this.api);
      this.said = `Backup taken: ${readableSize(made.backup.bytes)}.${made.pruned.length ? ` ${made.pruned.length === 1 ? 'The oldest one was' : `${made.pruned.length} older ones were`} deleted to keep ${this.list?.schedule.keep ?? ''}.` : ''}`;
      await this.load();
    } catch (e) {
      this.error = messageOf(e);
    } finally {
      this.busy = false;
    }
  }

  private schedule(list: BackupList) {
    const every = list.schedule.every_hours;
    const often = every === null ? 'No backups are scheduled.' : every === 24 ? 'A backup is taken every day.' : every === 1 ? 'A backup is taken every hour.' : `A backup is taken every ${every} hours.`;
    return html`<p>${often} The newest ${list.schedule.keep} are kept.
      ${every === null ? html`To schedule them, set <code>FORMLOOM_BACKUP_INTERVAL_HOURS</code> when starting the server.` : nothing}</p>`;
  }

  override render() {
    if (this.missing) return html`<p>Backups are not available on this server.</p>`;
    const list = this.list;
    return html`${this.said ? html`<p class="ok-text" role="status">${this.said}</p>` : nothing}
      ${errorLine(this.error)}
      ${list === null
        ? this.error ? nothing : html`<p class="muted" role="status">Loading…</p>`
        : list.database === 'postgres'
          ? html`<div class="stack"><p>This server keeps its data in PostgreSQL. Back it up with PostgreSQL's own tool, which copies everything at once while the server runs:</p>
              <p><code>pg_dump -Fc -d &lt;database&gt; -f formloom.dump</code></p></div>`
          : html`<div class="stack"><p class="muted">A backup holds every form, response, uploaded file and signed document, taken while the server runs. To bring one back, stop the server and run <code>formloom restore &lt;file&gt;</code>.</p>
              ${this.schedule(list)}
              <p><button class="btn primary" type="button" ?disabled=${this.busy} @click=${() => void this.backUp()}>${this.busy ? 'Backing up…' : 'Back up now'}</button></p>
              <h2>Backups on this server</h2>
              ${list.backups.length === 0
                ? html`<p>No backups yet.</p>`
                : html`<ul class="rows">${list.backups.map((b) => html`<li>
                    <span class="what"><strong>${when(b.created_at)}</strong><span class="meta">${readableSize(b.bytes)}</span></span>
                    <span class="row"><a class="btn small" href=${backupUrl(this.api, b.name)} download=${b.name}>Download<span class="sr-only"> the backup of ${when(b.created_at)}</span></a></span>
                  </li>`)}</ul>`}</div>`}`;
  }
}
customElements.get('fl-admin-backups') || customElements.define('fl-admin-backups', FlAdminBackups);
