import { z } from 'zod';
import { defineRoute, definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { escapeHtml } from './mail-render';
import { NotificationSettings, notificationSettingsOut, notificationSettingsSchema, receiptSettingsOut, receiptSettingsSchema } from './notification-settings';
import { ResponseMails } from './response-mails';
import { DigestHandler } from './digest-handler';

export * from './mail-render';
export * from './notification-settings';
export * from './response-mails';
export * from './digest-handler';

const unsubscribeQuery = z.object({ form: z.string().max(100).default(''), user: z.string().max(100).default(''), sig: z.string().max(100).default('') });

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></main></body></html>`;

/**
 * Mails about responses (docs/notifications.md): each person with access chooses a mail on each new response
 * to a form; the form's owner may send respondents a copy of their answers. Both are queued in the response's
 * transaction and sent by the outbox.
 */
export const notificationsArea = definePlugin({
  name: 'notifications',
  version: CORE_VERSION,
  services: [NotificationSettings, ResponseMails, DigestHandler],
  outboxHandlers: (ctx) => [ctx.service(DigestHandler)],
  inTransaction: {
    'response.submitted': ({ form_id, response_id }, tx, ctx) => ctx.service(ResponseMails).queue(tx, form_id, response_id),
  },
  routes: (ctx) => [
    defineRoute({
      method: 'get', path: '/forms/:id/notifications', scope: 'forms', operationId: 'getFormNotifications', tags: ['Notifications'],
      summary: "The caller's own mail setting for the form's new responses",
      success: { status: 200, description: '{form_id, new_responses}', schema: notificationSettingsOut }, errors: [401, 403, 404],
      handler: async (req) => ({ body: await ctx.service(NotificationSettings).get(req.principal, String(req.params.id)) }),
    }),
    defineRoute({
      method: 'put', path: '/forms/:id/notifications', scope: 'forms', operationId: 'setFormNotifications', tags: ['Notifications'],
      summary: "Sets the caller's own mail setting for the form's new responses: 'instant' (a mail each), 'daily' (one digest a day, at midnight UTC, when there were responses) or 'off'; anyone who may read the form's responses",
      body: notificationSettingsSchema,
      success: { status: 200, description: '{form_id, new_responses}', schema: notificationSettingsOut }, errors: [400, 401, 403, 404],
      handler: async (req) => ({ body: await ctx.service(NotificationSettings).set(req.principal, String(req.params.id), req.body) }),
    }),
    defineRoute({
      method: 'get', path: '/forms/:id/receipt', scope: 'forms', operationId: 'getFormReceipt', tags: ['Notifications'],
      summary: "The form's respondent receipt: a copy of their answers mailed to the answer of an email question",
      success: { status: 200, description: '{form_id, enabled, question_id, reply_to, subject, message}', schema: receiptSettingsOut }, errors: [401, 403, 404],
      handler: async (req) => ({ body: await ctx.service(NotificationSettings).getReceipt(req.principal, String(req.params.id)) }),
    }),
    defineRoute({
      method: 'put', path: '/forms/:id/receipt', scope: 'forms', operationId: 'setFormReceipt', tags: ['Notifications'],
      summary: "Sets the form's respondent receipt (editors): 400 when turned on for a form without an email question; subject and message may recall answers",
      body: receiptSettingsSchema,
      success: { status: 200, description: '{form_id, enabled, question_id, reply_to, subject, message}', schema: receiptSettingsOut }, errors: [400, 401, 403, 404],
      handler: async (req) => ({ body: await ctx.service(NotificationSettings).setReceipt(req.principal, String(req.params.id), req.body) }),
    }),
    defineRoute({
      method: 'get', path: '/notifications/unsubscribe', scope: 'public', operationId: 'unsubscribePage', tags: ['Notifications'],
      summary: "A new-response mail's unsubscribe link (signed, works without signing in): stops that person's mails for that form and shows a page saying so",
      query: unsubscribeQuery,
      success: { status: 200, description: 'A page confirming it', media: ['text/html'] }, errors: [400, 404],
      handler: async (req) => {
        const { form_title } = await ctx.service(NotificationSettings).unsubscribe(req.query.form, req.query.user, req.query.sig);
        const html = page('Unsubscribed', `You will get no more mails about new responses to "${form_title}". You can turn them on again in the form's settings.`);
        return { contentType: 'text/html; charset=utf-8', stream: [Buffer.from(html)] };
      },
    }),
    defineRoute({
      method: 'post', path: '/notifications/unsubscribe', scope: 'public', operationId: 'unsubscribe', tags: ['Notifications'],
      summary: 'One-click unsubscribe (RFC 8058) with the same signed parameters as the link',
      query: unsubscribeQuery,
      success: { status: 200, description: '{unsubscribed: true}', schema: z.object({ unsubscribed: z.literal(true) }) }, errors: [400, 404],
      handler: async (req) => {
        await ctx.service(NotificationSettings).unsubscribe(req.query.form, req.query.user, req.query.sig);
        return { body: { unsubscribed: true as const } };
      },
    }),
  ],
});
