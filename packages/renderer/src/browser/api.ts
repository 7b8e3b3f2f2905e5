import type { PaymentStart, PublicForm, StepResult, SubmittedResponse } from './types.js';
import type { AltchaChallenge } from './proof-of-work.js';
import type { OpenSlots, SlotHold, SlotQuery } from './booking-types.js';

/** An answer of the API the respondent can act on, or a lost connection (`status` 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = '',
    readonly reason = '',
    readonly questionIds: string[] = [],
  ) {
    super(message);
  }
  get offline() {
    return this.status === 0;
  }
}

async function answerOf<T>(res: Response): Promise<T> {
  const body = await res.json().catch(() => null);
  if (res.ok) return body as T;
  const e = body?.error ?? {};
  throw new ApiError(res.status, typeof e.message === 'string' ? e.message : `Request failed (${res.status})`, e.code, e.reason, e.question_ids ?? []);
}

/** The public endpoints the element calls (docs/respondents.md), under `apiUrl` (e.g. `https://forms.example.com/api/v1`). */
export class PublicApi {
  constructor(private readonly apiUrl: string) {}

  private url(path: string) {
    return `${this.apiUrl.replace(/\/+$/, '')}/public/forms/${path}`;
  }

  private async call<T>(path: string, init?: RequestInit): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.url(path), { ...init, credentials: 'omit' });
    } catch {
      throw new ApiError(0, 'The connection was lost');
    }
    return answerOf<T>(res);
  }

  form(slug: string) {
    return this.call<PublicForm>(encodeURIComponent(slug));
  }

  /** `idempotencyKey`: the same for every try of one completed submission (docs/respondents.md). */
  submit(slug: string, body: unknown, idempotencyKey?: string) {
    return this.call<SubmittedResponse>(`${encodeURIComponent(slug)}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body: JSON.stringify(body),
    });
  }

  patch(slug: string, id: string, token: string, body: unknown) {
    return this.call<SubmittedResponse>(`${encodeURIComponent(slug)}/responses/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-resume-token': token },
      body: JSON.stringify(body),
    });
  }

  /** The payment of a payment question of the partial response (docs/payments.md): the server computes the amount. */
  payment(slug: string, id: string, token: string, questionId: string) {
    return this.call<PaymentStart>(`${encodeURIComponent(slug)}/responses/${encodeURIComponent(id)}/payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-resume-token': token },
      body: JSON.stringify({ question_id: questionId }),
    });
  }

  /**
   * Runs an email step or data node of the partial response (docs/logic.md): the server mails once per response
   * and step, or calls the data source and answers the mapped values.
   */
  step(slug: string, id: string, token: string, questionId: string) {
    return this.call<StepResult>(`${encodeURIComponent(slug)}/responses/${encodeURIComponent(id)}/steps/${encodeURIComponent(questionId)}`, {
      method: 'POST',
      headers: { 'x-resume-token': token },
    });
  }

  /** The open slots of a booking question (docs/booking.md), times in UTC. */
  bookingSlots(slug: string, questionId: string, query: SlotQuery) {
    const qs = new URLSearchParams({ question_id: questionId, duration: String(query.duration), from: query.from, to: query.to });
    return this.call<{ data: OpenSlots }>(`${encodeURIComponent(slug)}/bookings/slots?${qs}`, { cache: 'no-store' }).then((r) => r.data);
  }

  /** Holds a slot while the respondent finishes; its `{id, start, end, timezone}` is the booking question's answer. */
  holdSlot(slug: string, questionId: string, body: { start: string; duration: number; timezone: string }) {
    return this.call<{ data: SlotHold }>(`${encodeURIComponent(slug)}/bookings/holds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question_id: questionId, ...body }),
    }).then((r) => r.data);
  }

  /**
   * Reports a view (the form was shown) or a start (the first answer) for the owner's funnel
   * (docs/responses-and-webhooks.md, "Funnel"). Fire and forget: `keepalive` lets it finish when the page
   * closes, and a failure never reaches the respondent.
   */
  visit(slug: string, event: 'view' | 'start'): void {
    void fetch(this.url(`${encodeURIComponent(slug)}/visits`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event }),
      credentials: 'omit',
      keepalive: true,
    }).catch(() => undefined);
  }

  /** A proof-of-work challenge for the form's next submission (`spam_protection.proof_of_work`). */
  challenge(slug: string) {
    return this.call<{ challenge: AltchaChallenge }>(`${encodeURIComponent(slug)}/challenge`, { cache: 'no-store' }).then((r) => r.challenge);
  }

  /** Uploads through XMLHttpRequest, the one browser API that reports upload progress. */
  upload(slug: string, questionId: string, file: File, onProgress: (f: number) => void): Promise<{ url: string; name: string }> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${this.url(encodeURIComponent(slug))}/uploads?question_id=${encodeURIComponent(questionId)}`);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onerror = () => reject(new ApiError(0, 'The connection was lost'));
      xhr.onload = () => {
        let body: any = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // not JSON: the status says enough
        }
        if (xhr.status === 201) return resolve(body);
        const e = body?.error ?? {};
        reject(new ApiError(xhr.status, e.message ?? `Upload failed (${xhr.status})`, e.code, e.reason));
      };
      const data = new FormData();
      data.append('file', file, file.name);
      xhr.send(data);
    });
  }
}
