// An example Formloom plugin (docs/plugins.md): it only uses the plugin interface of @formloom/core, and
// only its types, so it loads from a formloom.config.mjs without any build step of the host.
import type { FormloomPlugin, OutboxItem, PluginContext } from '@formloom/core';

export interface NotifyOptions {
  /** Subject line; `{title}` is replaced by the form's title. Default `New response to {title}`. */
  subject?: string;
  /** Sender; default the instance's mailer default. */
  from?: string;
}

interface Stats {
  queued: number;
  sent: number;
  last_error: string | null;
}

/** The outbox kind of this plugin's mails (kinds start with the plugin's name). */
export const NOTIFY_KIND = 'notify.mail';

/**
 * Emails a form's owner on each completed response. The listener only queues a durable outbox item, in the
 * response's own transaction, so a mail server that is down delays the mail (retried for about a day) and
 * never slows the respondent, and a crash never loses it; the
 * outbox handler sends it through the mailer port. `GET /api/v1/notify/status` reports what this instance
 * queued and sent.
 */
export function notifyPlugin(options: NotifyOptions = {}): FormloomPlugin<NotifyOptions> {
  // One record per instance (keyed by its event bus), so two instances never share counters.
  const stats = new WeakMap<object, Stats>();
  const statsOf = (ctx: PluginContext<NotifyOptions>) => {
    let s = stats.get(ctx.events);
    if (!s) stats.set(ctx.events, (s = { queued: 0, sent: 0, last_error: null }));
    return s;
  };

  return {
    name: 'notify',
    version: '0.1.0',
    options,
    // Inside the transaction that records the response: the mail is queued exactly when the response is
    // stored, so a crash between the commit and the delivery delays the mail and never loses it.
    inTransaction: {
      'response.submitted': async ({ form_id, response_id }, tx, ctx) => {
        await ctx.enqueue(NOTIFY_KIND, { form_id, response_id }, tx);
        statsOf(ctx).queued += 1;
      },
    },
    outboxHandlers: (ctx) => [
      {
        kind: NOTIFY_KIND,
        async handle(item: OutboxItem) {
          const { storage, mailer } = ctx.ports;
          const form = await storage.forms.findById(String(item.payload.form_id));
          if (!form) return { status: 'failed', error: 'the form was deleted' };
          const owner = await storage.users.findById(form.owner_id);
          if (!owner) return { status: 'failed', error: 'the form owner was deleted' };
          const subject = (ctx.options.subject ?? 'New response to {title}').replaceAll('{title}', form.title);
          try {
            await mailer.send({
              to: owner.email,
              subject,
              text: `Your form "${form.title}" received a response (${String(item.payload.response_id)}).\n`,
              ...(ctx.options.from ? { from: ctx.options.from } : {}),
            });
          } catch (e) {
            statsOf(ctx).last_error = e instanceof Error ? e.message : String(e);
            throw e; // the worker retries it on the outbox schedule
          }
          statsOf(ctx).sent += 1;
          return { status: 'delivered' };
        },
      },
    ],
    routes: (ctx) => [
      {
        method: 'get',
        path: '/notify/status',
        scope: 'forms',
        summary: 'What the notify plugin queued and sent since this instance started',
        tags: ['Notify'],
        success: { status: 200, description: '{plugin, version, queued, sent, last_error}' },
        errors: [401, 403],
        handler: async () => ({ body: { plugin: 'notify', version: '0.1.0', ...statsOf(ctx) } }),
      },
    ],
  };
}

export default notifyPlugin;
