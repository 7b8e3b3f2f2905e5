import express, { type Request, type Response } from 'express';
import { BookingManage, FormloomError, type Formloom } from '@formloom/core';
import { assertNoNulCharacters } from './input-guard';
import { clientIp, type RateLimits } from './rate-limit';
import { NO_FRAMING, setPageHeaders } from './security-headers';
import { RTL, bookingPageLanguage, bookingPageLocale, bookingPageWords } from './booking-page-words';

/*
 * The page of a booking's cancel and reschedule links, `/bookings/<id>?token=...` (docs/booking.md, "Cancel and
 * reschedule"): the booking, a Cancel button, and the open times to move it to, a week at a time. Plain HTML
 * forms posting back to the page, no script: it works on any phone and by keyboard. The token is the
 * booking's credential: no Referer carries it off, no cache keeps the page, never framed. In the language of the
 * link (`lang=`, set in the respondent's mails: booking-page-words.ts), else English.
 */

const escape = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE =
  'html,body{background:#fafafa;color:#18181b}body{font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:2rem 1rem;line-height:1.5}' +
  'h1{font-size:1.4rem;margin:0 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}p{margin:.5rem 0}' +
  'button,a.button{font:inherit;padding:.6rem 1.1rem;border-radius:6px;border:1px solid #4338ca;background:#4338ca;color:#fff;cursor:pointer;text-decoration:none;display:inline-block;min-height:44px;box-sizing:border-box}' +
  'button.secondary,a.secondary{background:#fff;color:#4338ca}:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}' +
  'fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:.4rem}' +
  '.times{display:grid;grid-template-columns:repeat(auto-fill,minmax(7rem,1fr));gap:.4rem}.times label{display:flex;gap:.4rem;align-items:center;border:1px solid #a1a1aa;border-radius:6px;padding:.5rem;min-height:44px;box-sizing:border-box;white-space:nowrap}' +
  '.nav{display:flex;justify-content:space-between;gap:.5rem;margin:.75rem 0}.when{font-size:1.15rem;font-weight:600}.error{color:#b91c1c;font-weight:600}.done{color:#166534;font-weight:600}.muted{color:#52525b}';

function shell(res: Response, nonce: string, lang: string, title: string, body: string) {
  res.type('html').send(`<!doctype html><html lang="${lang}"${RTL.includes(lang) ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title><meta name="robots" content="noindex, nofollow">
<style nonce="${nonce}">${STYLE}</style></head><body><main>${body}</main></body></html>`);
}

const when = (start: string, end: string, zone: string, locale: string) => {
  const day = new Intl.DateTimeFormat(locale, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(start));
  const t = new Intl.DateTimeFormat(locale, { timeZone: zone, hour: '2-digit', minute: '2-digit' });
  return `${day}, ${t.format(new Date(start))} – ${t.format(new Date(end))}`;
};

const WEEK = 7 * 86_400_000;

async function render(formloom: Formloom, req: Request, res: Response, id: string, token: string, lang: string, notice: { text: string; ok: boolean } | null) {
  const manage = formloom.service(BookingManage);
  const b = (await manage.view(id, { token })).data;
  const nonce = setPageHeaders(res, NO_FRAMING);
  const self = `${req.baseUrl}/${encodeURIComponent(id)}`;
  const w = bookingPageWords(lang);
  const locale = bookingPageLocale(lang);
  const langParam = lang === 'en' ? '' : `&lang=${lang}`;
  const hidden = `<input type="hidden" name="token" value="${escape(token)}">${lang === 'en' ? '' : `<input type="hidden" name="lang" value="${lang}">`}`;
  let body = `<h1>${escape(b.question_title || b.form_title)}</h1>`;
  if (notice) body += `<p class="${notice.ok ? 'done' : 'error'}" role="${notice.ok ? 'status' : 'alert'}">${escape(notice.text)}</p>`;
  body += `<p class="when">${escape(when(b.start, b.end, b.timezone, locale))}</p><p class="muted">${escape(w.timesIn.replace('{zone}', b.timezone))} ${escape(b.form_title)}.</p>`;
  if (b.status !== 'confirmed') {
    body += `<p>${escape(b.status === 'cancelled' ? w.cancelled : w.inactive)}</p>`;
    return shell(res, nonce, lang, w.title, body);
  }
  if (b.can_cancel) {
    body += `<h2>${escape(w.cancelHeading)}</h2><form method="post" action="${escape(self)}">${hidden}<input type="hidden" name="do" value="cancel"><button class="secondary" type="submit">${escape(w.cancelButton)}</button></form>`;
  }
  if (b.can_reschedule) {
    const now = Date.now();
    const fromParam = typeof req.query.from === 'string' ? Date.parse(req.query.from) : NaN;
    const from = Number.isFinite(fromParam) && fromParam > now ? fromParam : now;
    body += `<h2 id="move">${escape(w.moveHeading)}</h2>`;
    try {
      const slots = (await manage.slots(id, { token, from: new Date(from).toISOString(), to: new Date(from + WEEK).toISOString() })).data.slots;
      const byDay = new Map<string, Array<{ start: string; end: string }>>();
      const dayOf = new Intl.DateTimeFormat(locale, { timeZone: b.timezone, weekday: 'long', day: 'numeric', month: 'long' });
      const timeOf = new Intl.DateTimeFormat(locale, { timeZone: b.timezone, hour: '2-digit', minute: '2-digit' });
      for (const s of slots) byDay.set(dayOf.format(new Date(s.start)), [...(byDay.get(dayOf.format(new Date(s.start))) ?? []), s]);
      const link = (at: number, text: string) => `<a class="button secondary" href="${escape(`${self}?token=${encodeURIComponent(token)}${langParam}&from=${encodeURIComponent(new Date(at).toISOString())}#move`)}">${escape(text)}</a>`;
      body += `<div class="nav">${from > now + 60_000 ? link(Math.max(now, from - WEEK), w.earlier) : '<span></span>'}${link(from + WEEK, w.later)}</div>`;
      body += byDay.size
        ? `<form method="post" action="${escape(self)}">${hidden}<input type="hidden" name="do" value="reschedule">` +
          [...byDay].map(([day, list]) => `<fieldset><legend>${escape(day)}</legend><div class="times">${list.map((s) => `<label><input type="radio" name="start" value="${escape(s.start)}" required>${escape(timeOf.format(new Date(s.start)))}</label>`).join('')}</div></fieldset>`).join('') +
          `<button type="submit">${escape(w.moveButton)}</button></form>`
        : `<p>${escape(w.noTimes)}</p>`;
    } catch (e) {
      body += `<p class="error">${escape(e instanceof FormloomError ? e.message : w.unavailable)}</p>`;
    }
  }
  shell(res, nonce, lang, w.title, body);
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
    await render(formloom, req, res, String(req.params.id), token, bookingPageLanguage(req.query.lang), null);
  });
  router.post('/:id', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    await guard(req, res);
    const id = String(req.params.id);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = typeof body.token === 'string' ? body.token : '';
    const lang = bookingPageLanguage(body.lang);
    const w = bookingPageWords(lang);
    const manage = formloom.service(BookingManage);
    let notice: { text: string; ok: boolean };
    try {
      if (body.do === 'cancel') {
        await manage.cancel(id, { token });
        notice = { text: w.cancelledNotice, ok: true };
      } else if (body.do === 'reschedule' && typeof body.start === 'string') {
        const moved = (await manage.reschedule(id, { token, start: body.start })).data;
        // The new booking has its own link (in the mail just sent); this page shows the old one as cancelled.
        notice = { text: w.moved.replace('{when}', when(moved.start, moved.end, moved.timezone, bookingPageLocale(lang))), ok: true };
      } else {
        notice = { text: w.pickFirst, ok: false };
      }
    } catch (e) {
      if (!(e instanceof FormloomError) || e.status === 404) throw e;
      notice = { text: e.message, ok: false };
    }
    await render(formloom, req, res, id, token, lang, notice);
  });
  return router;
}
