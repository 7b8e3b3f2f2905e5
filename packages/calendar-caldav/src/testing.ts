import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A real CalDAV server for tests: Debian's Radicale (`apt-get install radicale`; .ci/run installs it when
 * missing), started on a free port with a temporary storage folder and plain htpasswd users, and stopped by
 * `close()`. Each user gets one calendar, made with MKCALENDAR.
 */

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export interface RadicaleUser {
  username: string;
  password: string;
  /** The user's calendar collection (`http://127.0.0.1:<port>/<user>/calendar/`). */
  calendarUrl: string;
}

export class Radicale {
  private constructor(readonly url: string, private readonly child: ChildProcess, private readonly dir: string, readonly users: Record<string, RadicaleUser>) {}

  /** Starts Radicale with these users (name -> password), each with an empty calendar. */
  static async start(users: Record<string, string> = { owner: 'secret-pass' }): Promise<Radicale> {
    const dir = await mkdtemp(join(tmpdir(), 'formloom-radicale-'));
    const port = await freePort();
    await writeFile(join(dir, 'users'), Object.entries(users).map(([u, p]) => `${u}:${p}`).join('\n') + '\n');
    await writeFile(
      join(dir, 'config'),
      [
        '[server]', `hosts = 127.0.0.1:${port}`,
        '[auth]', 'type = htpasswd', `htpasswd_filename = ${join(dir, 'users')}`, 'htpasswd_encryption = plain', 'delay = 0',
        '[storage]', `filesystem_folder = ${join(dir, 'collections')}`,
        '[rights]', 'type = owner_only',
        '[web]', 'type = none',
        '[logging]', 'level = warning',
      ].join('\n') + '\n',
    );
    const child = spawn('radicale', ['--config', join(dir, 'config')], { stdio: ['ignore', 'ignore', 'pipe'] });
    // A test process that ends without close() (a crash, a time-out) takes its server with it.
    const stop = () => child.kill('SIGTERM');
    process.once('exit', stop);
    child.once('exit', () => process.removeListener('exit', stop));
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
    const exited = new Promise<never>((_, reject) => {
      child.once('error', (e) => reject(new Error(`radicale could not start (${e.message}); install it: apt-get install -y radicale`)));
      child.once('exit', (code) => reject(new Error(`radicale exited (${code}): ${stderr}`)));
    });
    exited.catch(() => undefined);
    const url = `http://127.0.0.1:${port}/`;
    // Up once it answers; bounded so a broken install fails the test instead of hanging it.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const up = await Promise.race([fetch(url, { method: 'OPTIONS' }).then(() => true, () => false), exited]);
      if (up) break;
      if (Date.now() > deadline) throw new Error(`radicale did not answer on ${url}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const made: Record<string, RadicaleUser> = {};
    for (const [username, password] of Object.entries(users)) {
      const auth = { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
      const calendarUrl = `${url}${username}/calendar/`;
      const body =
        '<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>' +
        `<D:displayname>${username}'s calendar</D:displayname><C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>` +
        '</D:prop></D:set></C:mkcalendar>';
      // The principal's collection first (Radicale makes it on first authenticated access).
      await fetch(`${url}${username}/`, { method: 'PROPFIND', headers: { ...auth, Depth: '0' } });
      const res = await fetch(calendarUrl, { method: 'MKCALENDAR', headers: { ...auth, 'Content-Type': 'application/xml' }, body });
      if (res.status !== 201) throw new Error(`MKCALENDAR ${calendarUrl}: ${res.status} ${await res.text()}`);
      made[username] = { username, password, calendarUrl };
    }
    return new Radicale(url, child, dir, made);
  }

  /** Writes a raw iCalendar object into a user's calendar (the owner's own appointments). */
  async putRaw(username: string, name: string, ics: string): Promise<void> {
    const u = this.users[username]!;
    const res = await fetch(`${u.calendarUrl}${name}.ics`, {
      method: 'PUT',
      headers: { Authorization: `Basic ${Buffer.from(`${u.username}:${u.password}`).toString('base64')}`, 'Content-Type': 'text/calendar' },
      body: ics,
    });
    if (!res.ok) throw new Error(`PUT ${name}: ${res.status} ${await res.text()}`);
  }

  /** The raw text of an event, or null when it is not there. */
  async getRaw(username: string, uid: string): Promise<string | null> {
    const u = this.users[username]!;
    const res = await fetch(`${u.calendarUrl}${encodeURIComponent(uid)}.ics`, { headers: { Authorization: `Basic ${Buffer.from(`${u.username}:${u.password}`).toString('base64')}` } });
    return res.ok ? res.text() : null;
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null) {
      const gone = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      await gone;
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
