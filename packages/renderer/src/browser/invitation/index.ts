/*
 * The invitation page's script (`/teams/invite/<token>`, docs/teams.md "Accepting in the browser"): the
 * invitee pastes their API key and presses Accept; the key goes only into the `Authorization` header of
 * `POST <api>/invitations/<token>/accept` on this origin. It is never stored; the field is cleared after
 * the call. The outcome (the team and role joined, or the API's error message) is announced in a live region.
 */

interface Accepted {
  role: string;
  team: { name: string };
}

async function accept(api: string, token: string, key: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${api.replace(/\/+$/, '')}/invitations/${encodeURIComponent(token)}/accept`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new Error('The connection was lost: check it and try again.');
  }
  const data = await res.json().catch(() => null);
  if (res.ok) {
    const a = data as Accepted;
    return `You joined the team ${a.team.name} as ${a.role}.`;
  }
  const e = data?.error;
  const message = typeof e === 'string' ? e : typeof e?.message === 'string' ? e.message : `The request failed (${res.status}).`;
  if (res.status === 401) throw new Error(`${message} Check the API key and try again.`);
  if (res.status === 404) throw new Error('This invitation is no longer valid: it expired, was cancelled or was already used.');
  throw new Error(message);
}

function start(): void {
  const root = document.getElementById('formloom-invitation');
  const form = root?.querySelector('form');
  const input = form?.querySelector<HTMLInputElement>('input[name="api_key"]');
  const button = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
  const status = root?.querySelector<HTMLElement>('[data-outcome]');
  const api = root?.dataset.api;
  const token = root?.dataset.token;
  if (!root || !form || !input || !button || !status || !api || !token) return;
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const key = input.value.trim();
    if (!key) {
      status.className = 'error';
      status.textContent = 'Paste your API key first.';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    button.disabled = true;
    status.className = '';
    status.textContent = 'Accepting…';
    accept(api, token, key).then(
      (message) => {
        input.value = '';
        form.hidden = true;
        status.className = 'success';
        status.textContent = message;
        status.focus();
      },
      (err: Error) => {
        input.value = '';
        input.setAttribute('aria-invalid', 'true');
        button.disabled = false;
        status.className = 'error';
        status.textContent = err.message;
        input.focus();
      },
    );
  });
  input.addEventListener('input', () => input.removeAttribute('aria-invalid'));
}

start();
