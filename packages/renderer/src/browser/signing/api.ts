/*
 * The signer's public endpoints (docs/signing.md), by short code, from the signer's page. A
 * password-protected session's access token goes in `X-Access-Token`; it is kept for the tab's lifetime
 * (sessionStorage), so a reload does not ask for the password again within its hour.
 */

/** An answer the signer can act on, or a lost connection (`status` 0). */
export class SignerError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason = '',
    readonly field = '',
  ) {
    super(message);
  }
}

export interface SignerDocument {
  id: string;
  question_id: string;
  question_title: string;
}

export interface SignerContext {
  slot_number: number;
  slot_label: string;
  status: 'active' | 'fully_signed' | 'declined' | 'voided' | 'expired';
  requires_password: boolean;
  requires_email_verification: boolean;
  signing_order: 'sequential' | 'any';
  is_turn: boolean;
  slot_status: 'pending' | 'signed' | 'declined';
  copy_mode: 'ask' | 'always' | 'disabled';
  documents: SignerDocument[];
  still_to_sign: { slot_number: number; slot_label: string }[];
}

export interface Signer {
  slot_number: number;
  slot_label: string;
  first_name: string | null;
  last_name: string | null;
  status: string;
}

export interface SignerContract {
  slot_number: number;
  contracts: Array<{ question_id: string; title: string; document: string }>;
  signers: Signer[];
}

export class SignerApi {
  private readonly base: string;
  private readonly key: string;
  constructor(apiUrl: string, code: string) {
    this.base = `${apiUrl.replace(/\/+$/, '')}/s/${encodeURIComponent(code)}`;
    this.key = `formloom-signing:${code}`;
  }

  private memo: string | null = null;

  get token(): string | null {
    try {
      return sessionStorage.getItem(this.key) ?? this.memo;
    } catch {
      return this.memo;
    }
  }

  set token(value: string | null) {
    try {
      if (value) sessionStorage.setItem(this.key, value);
      else sessionStorage.removeItem(this.key);
    } catch {
      // Storage refused: the token lives as long as the page.
    }
    this.memo = value;
  }

  private headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = {};
    const t = this.token;
    if (t) h['x-access-token'] = t;
    if (json) h['content-type'] = 'application/json';
    return h;
  }

  private async call<T>(path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.base + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: this.headers(body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw new SignerError(0, 'The connection was lost: check it and try again.');
    }
    const data = await res.json().catch(() => null);
    if (res.ok) return data as T;
    // verify-password's 401 is the plain `{error: "..."}`; everything else the structured shape.
    const e = data?.error;
    if (typeof e === 'string') throw new SignerError(res.status, e);
    throw new SignerError(res.status, typeof e?.message === 'string' ? e.message : `Request failed (${res.status})`, e?.reason ?? '', e?.field ?? '');
  }

  context = () => this.call<SignerContext>('');
  document = () => this.call<SignerContract>('/document');
  verifyPassword = (password: string) => this.call<{ access_token: string }>('/verify-password', { password });
  sendCode = (email?: string) => this.call<{ sent_to: string }>('/send-code', email ? { email } : {});
  sign = (body: Record<string, unknown>) => this.call<{ session_status: string }>('/sign', body);
  decline = (reason: string) => this.call<{ session_status: string }>('/decline', reason ? { reason } : {});

  documentUrl = (id: string) => `${this.base}/signed-documents/${encodeURIComponent(id)}`;

  /** The sealed PDF, fetched with the access token (a plain link cannot send the header). */
  async download(id: string): Promise<Blob> {
    const res = await fetch(this.documentUrl(id), { headers: this.headers(false), credentials: 'omit' }).catch(() => null);
    if (!res?.ok) throw new SignerError(res?.status ?? 0, 'The document could not be downloaded: try again.');
    return res.blob();
  }
}
