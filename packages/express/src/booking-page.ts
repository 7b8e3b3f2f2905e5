import express, { type Request, type Response } from 'express';
import { BookingManage, FormloomError, type Formloom } from '@formloom/core';
import { assertNoNulCharacters } from './input-guard';
import { clientIp, type RateLimits } from './rate-limit';
import { NO_FRAMING, setPageHeaders } from './security-headers';

/*
 * The page of a booking's cancel and reschedule links, `/bookings/<id>?token=...` (docs/booking.md, "Cancel and
 * reschedule"): the booking, a Cancel button, and the open times to move it to, a week at a time. Plain HTML
 * forms posting back to the page, no script: it works on any phone and by keyboard. The token is the
 * booking's credential: no Referer carries it off, no cache keeps the page, never framed.
 */

const escape = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE =
  'html,body{background:#fafafa;color:#18181b}body{font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:2rem 1rem;line-height:1.5}' +
  'h1{font-size:1.4rem;margin:0 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}p{margin:.5rem 0}' +
  'button,a.button{font:inherit;padding:.6rem 1.1rem;border-radius:6px;border:1px solid #4338ca;background:#4338ca;color:#fff;cursor:pointer;text-decoration:none;display:inline-block;min-height:44px;box-sizing:border-box}' +
  'button.secondary,a.secondary{background:#fff;color:#4338ca}:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}' +
  'fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:.4rem}' +
  '.times{display:grid;grid-template-columns:repeat(auto-fill,minmax(6rem,1fr));gap:.4rem}.times label{display:flex;gap:.4rem;align-items:center;border:1px solid #a1a1aa;border-radius:6px;padding:.5rem;min-height:44px;box-sizing:border-box;white-space:nowrap}' +
  '.nav{display:flex;justify-content:space-between;gap:.5rem;margin:.75rem 0}.when{font-size:1.15rem;font-weight:600}.error{color:#b91c1c;font-weight:600}.done{color:#166534;font-weight:600}.muted{color:#52525b}';

function shell(res: Response, nonce: string, title: string, body: string) {
  res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title><meta name="robots" content="noindex, nofollow">
<style nonce="${nonce}">${STYLE}</style></head><body><main>${body}</main></body></html>`);
}

const when = (start: string, end: string, zone: string) => {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(start));
  const t = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' });
  return `${day}, ${t.format(new Date(start))} – ${t.format(new Date(end))}`;
};

const WEEK = 7 * 86_400_000;

async function render(formloom: Formloom, req: Request, res: Response, id: string, token: string, notice: { text: string; ok: boolean } | null) {
  const manage = formloom.service(BookingManage);
  const b = (await manage.view(id, { token })).data;
  const nonce = setPageHeaders(res, NO_FRAMING);
  const self = `${req.baseUrl}/${encodeURIComponent(id)}`;
  const hidden = `<input type="hidden" name="token" value="${escape(token)}">`;
  let body = `<h1>${escape(b.question_title || b.form_title)}</h1>`;
  if (notice) body += `<p class="${notice.ok ? 'done' : 'error'}" role="${notice.ok ? 'status' : 'alert'}">${escape(notice.text)}</p>`;
  body += `<p class="when">${escape(when(b.start, b.end, b.timezone))}</p><p class="muted">Times in ${escape(b.timezone)}. ${escape(b.form_title)}.</p>`;
  if (b.status !== 'confirmed') {
    body += `<p>This booking is ${b.status === 'cancelled' ? 'cancelled' : 'no longer active'}.</p>`;
    return shell(res, nonce, 'Your booking', body);
  }
  if (b.can_cancel) {
    body += `<h2>Cancel</h2><form method="post" action="${escape(self)}">${hidden}<input type="hidden" name="do" value="cancel"><button class="secondary" type="submit">Cancel this booking</button></form>`;
  }
  if (b.can_reschedule) {
    const now = Date.now();
    const fromParam = typeof req.query.from === 'string' ? Date.parse(req.query.from) : NaN;
    const from = Number.isFinite(fromParam) && fromParam > now ? fromParam : now;
    body += '<h2 id="move">Move to another time</h2>';
    try {
      const slots = (await manage.slots(id, { token, from: new Date(from).toISOString(), to: new Date(from + WEEK).toISOString() })).data.slots;
      const byDay = new Map<string, Array<{ start: string; end: string }>>();
      const dayOf = new Intl.DateTimeFormat('en-GB', { timeZone: b.timezone, weekday: 'long', day: 'numeric', month: 'long' });
      const timeOf = new Intl.DateTimeFormat('en-GB', { timeZone: b.timezone, hour: '2-digit', minute: '2-digit' });
      for (const s of slots) byDay.set(dayOf.format(new Date(s.start)), [...(byDay.get(dayOf.format(new Date(s.start))) ?? []), s]);
      const link = (at: number, text: string) => `<a class="button secondary" href="${escape(`${self}?token=${encodeURIComponent(token)}&from=${encodeURIComponent(new Date(at).toISOString())}#move`)}">${text}</a>`;
      body += `<div class="nav">${from > now + 60_000 ? link(Math.max(now, from - WEEK), '‹ Earlier') : '<span></span>'}${link(from + WEEK, 'Later ›')}</div>`;
      body += byDay.size
        ? `<form method="post" action="${escape(self)}">${hidden}<input type="hidden" name="do" value="reschedule">` +
          [...byDay].map(([day, list]) => `<fieldset><legend>${escape(day)}</legend><div class="times">${list.map((s) => `<label><input type="radio" name="start" value="${escape(s.start)}" required>${escape(timeOf.format(new Date(s.start)))}</label>`).join('')}</div></fieldset>`).join('') +
          '<button type="submit">Move my booking</button></form>'
        : '<p>No free times in these days. Try later days.</p>';
    } catch (e) {
      body += `<p class="error">${escape(e instanceof FormloomError ? e.message : 'The free times cannot be shown just now.')}</p>`;
    }
  }
  shell(res, nonce, 'Your booking', body);
}

/** `GET` and `POST /bookings/:id` (mounted at `/bookings`): the page of the booking mails' links. */
export function bookingPageRoutes(formloom: Formloom, limits: RateLimits) {
  const router = express.Router();
  const guard = async (req: Request, res: Response) => {
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    await limits.enforce('publicReads', clientIp(req), res);
    assertNoNulCharacters({ params: req.params, query: req.query });
  };
  router.get('/:id', async (req, res) => {
    await guard(req, res);
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    await render(formloom, req, res, String(req.params.id), token, null);
  });
  router.post('/:id', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    await guard(req, res);
    const id = String(req.params.id);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = typeof body.token === 'string' ? body.token : '';
    const manage = formloom.service(BookingManage);
    let notice: { text: string; ok: boolean };
    try {
      if (body.do === 'cancel') {
        await manage.cancel(id, { token });
        notice = { text: 'Your booking is cancelled. A confirmation is on its way by email.', ok: true };
      } else if (body.do === 'reschedule' && typeof body.start === 'string') {
        const moved = (await manage.reschedule(id, { token, start: body.start })).data;
        // The new booking has its own link (in the mail just sent); this page shows the old one as cancelled.
        notice = { text: `Moved to ${when(moved.start, moved.end, moved.timezone)}. The new details and links are on their way by email.`, ok: true };
      } else {
        notice = { text: 'Pick a time first.', ok: false };
      }
    } catch (e) {
      if (!(e instanceof FormloomError) || e.status === 404) throw e;
      notice = { text: e.message, ok: false };
    }
    await render(formloom, req, res, id, token, notice);
  });
  return router;
}
