import { h } from '../dom.js';
import type { SignerApi, SignerContext, SignerDocument, SignerError } from './api.js';
import { markdown } from './markdown.js';
import { button, section } from './ui.js';

/** How often, and how many times, the page looks again while the signed document is being sealed. */
const SEAL_POLL_MS = 1500;
const SEAL_POLLS = 40;
let polls = 0;

/**
 * The end of the road for this link: signed (waiting for others), every party signed (with the sealed
 * PDFs to download when `copy_mode` lets signers have them), declined, voided or expired.
 */
export function outcome(api: SignerApi, ctx: SignerContext, reload: () => void): HTMLElement {
  switch (ctx.status) {
    case 'fully_signed':
      return completed(api, ctx, reload);
    case 'declined':
      return section(ctx.slot_status === 'declined' ? 'You declined to sign' : 'This contract was declined', h('p', {}, 'Nobody can sign it any more. The sender has been told.'));
    case 'voided':
      return section('This contract was cancelled', h('p', {}, 'The sender voided this signing session: it can no longer be signed.'));
    case 'expired':
      return section('This signing link has expired', h('p', {}, 'Ask the sender for a new one.'));
    default: {
      const still = ctx.still_to_sign.map((s) => s.slot_label);
      return section(
        'You have signed',
        h('p', { role: 'status' }, 'Thank you. The signed document is ready once everyone has signed.'),
        still.length ? h('p', { class: 'fls-still' }, h('strong', {}, 'Still to sign: '), still.join(', ')) : null,
        reread(api),
        button('Check again', reload),
      );
    }
  }
}

/** The contract as signed, loaded when the signer opens it (each reading is recorded as a view). */
function reread(api: SignerApi): HTMLElement {
  const body = h('div', { class: 'fls-reread' });
  const details = h('details', { class: 'fls-details' }, h('summary', {}, 'Read the contract again'), body);
  let loaded = false;
  details.addEventListener('toggle', () => {
    if (!details.open || loaded) return;
    loaded = true;
    body.textContent = 'Loading…';
    api.document().then(
      (doc) => body.replaceChildren(...doc.contracts.map((c) => h('article', { class: 'fls-contract', 'aria-label': c.title }, h('h3', {}, c.title), markdown(c.document)))),
      (err: SignerError) => {
        loaded = false;
        body.replaceChildren(h('p', { class: 'fls-error', role: 'alert' }, err.message));
      },
    );
  });
  return details;
}

function completed(api: SignerApi, ctx: SignerContext, reload: () => void): HTMLElement {
  const title = 'Everyone has signed';
  if (ctx.copy_mode === 'disabled') return section(title, h('p', {}, 'The contract is complete. The sender keeps the signed document.'));
  if (ctx.documents.length) {
    polls = 0;
    return section(
      title,
      h('p', { role: 'status' }, 'The contract is complete and sealed.'),
      h('ul', { class: 'fls-downloads' }, ctx.documents.map((d) => h('li', {}, download(api, ctx, d)))),
      ctx.slot_status === 'signed' ? reread(api) : null,
    );
  }
  // The last signature landed; the seal job (the outbox) has not finished yet.
  if (polls++ < SEAL_POLLS) setTimeout(reload, SEAL_POLL_MS);
  return section(title, h('p', { role: 'status' }, 'The signed document is being sealed: the download appears here in a moment.'), polls > SEAL_POLLS ? button('Check again', reload) : null);
}

/** A link to the sealed PDF; with a password, the page fetches it with the access token and saves it. */
function download(api: SignerApi, ctx: SignerContext, d: SignerDocument): HTMLElement {
  const name = `${d.question_title}.pdf`;
  const a = h('a', { class: 'fls-button fls-download', href: api.documentUrl(d.id), download: name }, `Download "${d.question_title}" (signed PDF)`);
  if (ctx.requires_password) {
    a.addEventListener('click', (e) => {
      e.preventDefault();
      void api.download(d.id).then(
        (blob) => {
          const url = URL.createObjectURL(blob);
          const tmp = h('a', { href: url, download: name });
          tmp.click();
          setTimeout(() => URL.revokeObjectURL(url), 60_000);
        },
        (err: Error) => a.after(h('p', { class: 'fls-error', role: 'alert' }, err.message)),
      );
    });
  }
  return a;
}
