import { createHash } from 'node:crypto';
import type { FormloomPlugin, IntegrationField, IntegrationResult, IntegrationType, OutgoingAnswer } from '@formloom/core';
import { chatMessage, type ChatMessage } from './message';
import { discordMessage, googleChatMessage, slackMessage, teamsMessage } from './formats';

export { chatMessage, clip, type ChatLine, type ChatMessage } from './message';
export { discordMessage, googleChatMessage, slackMessage, teamsMessage } from './formats';

/*
 * Chat integrations (docs/integrations.md, "Slack, Discord, Microsoft Teams, Google Chat"): a message per
 * completed response, with the chosen answers, to the incoming-webhook URL an owner pastes. Four types, one
 * per service, sharing the settings and the way a message goes out; the URL is a secret (it is the key to
 * the channel), so it is stored sealed and never shown again.
 */

interface Service {
  type: string;
  title: string;
  description: string;
  help: string;
  placeholder: string;
  format(m: ChatMessage): unknown;
  /**
   * The URL a message is posted to (Discord: `wait=true`, so its answer is the message and not an empty 204;
   * Google Chat: the message's own id, so a repeat is refused).
   */
  target?(url: string, deliveryId: string): string;
  /** The service takes a key that makes a repeat create nothing (docs/plugins.md, "Deliveries that may have been sent"). */
  deduplicates?: boolean;
  /** The service's answer as an outcome, when it says more than its status (default `chatResult`). */
  result?(answer: OutgoingAnswer): IntegrationResult;
}

/**
 * Google Chat's client-assigned message id for a delivery: `client-` and lower-case letters, digits and
 * hyphens, at most 63 characters, unique in the space (its API, spaces.messages.create `messageId`). The
 * same delivery always gets the same id, so a retry of a message that already arrived is refused.
 */
export function googleChatMessageId(deliveryId: string): string {
  return `client-${createHash('sha256').update(deliveryId).digest('hex').slice(0, 56)}`;
}

/** Google Chat's 409 ALREADY_EXISTS for a message id the space has: the message is there, so it is delivered. */
export function googleChatResult(answer: OutgoingAnswer): IntegrationResult {
  if (answer.status === 409 && /ALREADY_EXISTS/.test(answer.body)) return { status: 409, ok: true, body: answer.body };
  return chatResult(answer);
}

const SERVICES: Service[] = [
  {
    type: 'slack',
    title: 'Slack',
    description: 'Posts a message to a Slack channel for each new response, with the answers you choose.',
    help: 'In Slack, add the "Incoming WebHooks" app (or create an app with incoming webhooks), choose the channel, and copy the webhook URL here. Mattermost and Rocket.Chat webhook URLs work too.',
    placeholder: 'https://hooks.slack.com/services/…',
    format: slackMessage,
  },
  {
    type: 'discord',
    title: 'Discord',
    description: 'Posts a message to a Discord channel for each new response, with the answers you choose.',
    help: 'In Discord, open the channel settings, then Integrations, then Webhooks, and create a webhook. Copy its URL here.',
    placeholder: 'https://discord.com/api/webhooks/…',
    format: discordMessage,
    target: (url) => {
      const u = new URL(url);
      u.searchParams.set('wait', 'true');
      return u.toString();
    },
  },
  {
    type: 'microsoft-teams',
    title: 'Microsoft Teams',
    description: 'Posts a card to a Microsoft Teams channel for each new response, with the answers you choose.',
    help: 'In Teams, open the channel\'s "Workflows" and choose "Post to a channel when a webhook request is received". Copy the URL the workflow shows here.',
    placeholder: 'https://prod-00.westeurope.logic.azure.com/workflows/…',
    format: teamsMessage,
  },
  {
    type: 'google-chat',
    title: 'Google Chat',
    description: 'Posts a card to a Google Chat space for each new response, with the answers you choose.',
    help: 'In Google Chat, open the space, then "Apps & integrations", then "Webhooks", and add a webhook. Copy its URL here.',
    placeholder: 'https://chat.googleapis.com/v1/spaces/…',
    format: googleChatMessage,
    target: (url, deliveryId) => {
      const u = new URL(url);
      u.searchParams.set('messageId', googleChatMessageId(deliveryId));
      return u.toString();
    },
    deduplicates: true,
    result: googleChatResult,
  },
];

const fieldsOf = (s: Service): IntegrationField[] => [
  { key: 'webhook_url', label: 'Webhook URL', type: 'url', secret: true, required: true, help: s.help, placeholder: s.placeholder },
  { key: 'title', label: 'Message title', type: 'text', maxLength: 150, help: 'The first line of each message. {form} stands for the form\'s title.', placeholder: 'New response to {form}' },
];

/** Seconds (or an HTTP date) of `Retry-After`, or Discord's JSON `retry_after` (seconds), as milliseconds. */
export function retryAfterMs(answer: OutgoingAnswer, now = Date.now()): number | undefined {
  const header = answer.headers['retry-after'];
  if (header) {
    const s = Number(header);
    if (Number.isFinite(s)) return Math.max(0, s * 1000);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  try {
    const s = (JSON.parse(answer.body) as { retry_after?: unknown }).retry_after;
    if (typeof s === 'number' && Number.isFinite(s)) return Math.max(0, s * 1000);
  } catch {
    // not JSON
  }
  return undefined;
}

/** What the service answered, for the delivery log: delivered on 2xx; its own words on a refusal. */
export function chatResult(answer: OutgoingAnswer): IntegrationResult {
  const ok = answer.status >= 200 && answer.status < 300;
  const wait = answer.status === 429 || answer.status === 503 ? retryAfterMs(answer) : undefined;
  return {
    status: answer.status,
    body: answer.body,
    ...(ok ? {} : { error: `HTTP ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}` }),
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}

function integrationOf(s: Service): IntegrationType {
  return {
    type: s.type,
    title: s.title,
    description: s.description,
    fields: fieldsOf(s),
    ...(s.deduplicates ? { deduplicates: true } : {}),
    // Messages to one host go at most 4 at once (the outbox's limit per destination).
    destination: (_config, secrets) => {
      try {
        return `${s.type}:${new URL(secrets.webhook_url ?? '').host}`;
      } catch {
        return null;
      }
    },
    async deliver(d, ctx) {
      const message = chatMessage(d, { title: typeof d.config.title === 'string' ? d.config.title : undefined });
      const url = d.secrets.webhook_url!;
      const answer = await ctx.http.postJson(s.target ? s.target(url, d.id) : url, s.format(message));
      return (s.result ?? chatResult)(answer);
    },
  };
}

/**
 * The chat integrations' plugin (Slack, Discord, Microsoft Teams, Google Chat): `plugins: [slackPlugin()]`;
 * the self-hosted app registers it by default.
 */
export function slackPlugin(): FormloomPlugin {
  return { name: 'slack', version: '0.1.0', integrations: SERVICES.map(integrationOf) };
}

/** The same plugin under the name of what it does. */
export const chatPlugin = slackPlugin;

/** The integration types this plugin provides. */
export const CHAT_TYPES = SERVICES.map((s) => s.type);
