import { clip, type ChatMessage } from './message';

/*
 * The message in each service's incoming-webhook format, within the limits each documents (a longer
 * message is cut, never refused):
 * - Slack: Block Kit (`text` as the notification's fallback; at most 50 blocks, 3,000 characters a section,
 *   150 a header); Mattermost and Rocket.Chat take the same format.
 * - Discord: one embed (`title` 256, at most 25 fields, name 256 and value 1,024 characters, 6,000 in all),
 *   mentions turned off so an answer cannot ping a channel.
 * - Microsoft Teams: an Adaptive Card 1.4 in a message, as Workflows' "Post to a channel when a webhook
 *   request is received" and the older incoming webhooks take it.
 * - Google Chat: a card v2 with a `text` fallback.
 */

/** Slack's mrkdwn escapes only these three. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const htmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Markdown link text without the characters that would end it. */
const mdText = (s: string) => s.replace(/[[\]()]/g, ' ');

export function slackMessage(m: ChatMessage): unknown {
  const blocks: unknown[] = [{ type: 'header', text: { type: 'plain_text', text: clip(m.title, 150), emoji: false } }];
  const room = 50 - 1 - (m.link ? 1 : 0) - 1;
  const shown = m.lines.slice(0, room);
  for (const l of shown) {
    const value = l.url ? `<${l.url}|${slackEscape(clip(l.text, 200))}>` : slackEscape(l.text);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(`*${slackEscape(clip(l.label, 200))}*\n${value}`, 3000) } });
  }
  if (m.lines.length > shown.length) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `and ${m.lines.length - shown.length} more answers` }] });
  if (m.link) blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'See the response' }, url: m.link }] });
  return { text: clip(m.title, 3000), blocks };
}

export function discordMessage(m: ChatMessage): unknown {
  let budget = 6000 - Math.min(m.title.length, 256) - 20;
  const fields: Array<{ name: string; value: string; inline: boolean }> = [];
  for (const l of m.lines.slice(0, 25)) {
    const name = clip(l.label, 256);
    const value = clip(l.url ? `[${mdText(clip(l.text, 200))}](${l.url})` : l.text, 1024);
    if (name.length + value.length > budget) break;
    budget -= name.length + value.length;
    fields.push({ name, value, inline: false });
  }
  const embed: Record<string, unknown> = { title: clip(m.title, 256), fields, timestamp: m.submittedAt, footer: { text: clip(m.formTitle, 200) } };
  if (m.link) embed.url = m.link;
  if (fields.length < m.lines.length) embed.description = `${m.lines.length - fields.length} more answers are in Formloom.`;
  return { embeds: [embed], allowed_mentions: { parse: [] } };
}

export function teamsMessage(m: ChatMessage): unknown {
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      { type: 'TextBlock', text: clip(m.title, 500), weight: 'Bolder', size: 'Medium', wrap: true },
      { type: 'FactSet', facts: m.lines.map((l) => ({ title: clip(l.label, 200), value: clip(l.url ? `[${mdText(clip(l.text, 200))}](${l.url})` : l.text, 2000) })) },
    ],
    ...(m.link ? { actions: [{ type: 'Action.OpenUrl', title: 'See the response', url: m.link }] } : {}),
  };
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] };
}

export function googleChatMessage(m: ChatMessage): unknown {
  const widgets = m.lines.slice(0, 100).map((l) => ({
    decoratedText: { topLabel: clip(l.label, 200), text: l.url ? `<a href="${htmlEscape(l.url)}">${htmlEscape(clip(l.text, 200))}</a>` : htmlEscape(clip(l.text, 2000)), wrapText: true },
  }));
  const sections: unknown[] = [{ widgets: widgets.length ? widgets : [{ textParagraph: { text: 'No answers were chosen for this integration.' } }] }];
  if (m.link) sections.push({ widgets: [{ buttonList: { buttons: [{ text: 'See the response', onClick: { openLink: { url: m.link } } }] } }] });
  return { text: clip(m.title, 4000), cardsV2: [{ cardId: 'formloom-response', card: { header: { title: clip(m.title, 200), subtitle: clip(m.formTitle, 200) }, sections } }] };
}
