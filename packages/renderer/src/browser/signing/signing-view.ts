import { h } from '../dom.js';
import { SignerError, type SignerApi, type SignerContext, type SignerContract } from './api.js';
import { markdown } from './markdown.js';
import { outcome } from './outcome.js';
import { signForm } from './sign-form.js';
import { busy, button, errorLine, field, section } from './ui.js';

/**
 * The signer's page (`/s/<short_code>`, docs/signing.md "The signer's page"): the link's state decides the
 * screen: the password, the contract with whose turn it is and the signing form, or the outcome.
 */
export class SigningView {
  constructor(
    private readonly root: HTMLElement,
    private readonly api: SignerApi,
  ) {}

  /** Replaces the screen under the page's title and moves focus to its first heading. */
  private show(...nodes: (Node | null)[]) {
    const title = this.root.querySelector('h1');
    const before = this.root.querySelector('h2')?.textContent;
    this.root.replaceChildren(...(title ? [title] : []), ...nodes.filter((n): n is Node => !!n));
    this.root.setAttribute('aria-busy', 'false');
    // The same screen again (looking again while the seal runs) keeps the reader where they are.
    const heading = this.root.querySelector<HTMLElement>('h2');
    if (heading && heading.textContent !== before) heading.focus();
  }

  async load(): Promise<void> {
    let ctx: SignerContext;
    try {
      ctx = await this.api.context();
    } catch (e) {
      return this.failed(e as SignerError);
    }
    // The password first when it guards something: the contract, or the sealed copies to download.
    const open = ctx.status === 'active' && ctx.slot_status === 'pending';
    if (ctx.requires_password && !this.api.token && (open || ctx.documents.length)) return this.password();
    if (!open) return this.show(outcome(this.api, ctx, () => void this.load()));
    let doc: SignerContract;
    try {
      doc = await this.api.document();
    } catch (e) {
      if ((e as SignerError).status === 401) {
        this.api.token = null;
        return this.password();
      }
      return this.failed(e as SignerError);
    }
    this.contract(ctx, doc);
  }

  private failed(e: SignerError) {
    const text = e.status === 404 ? 'This signing link is not valid.' : e.message;
    this.show(section(e.status === 404 ? 'Link not found' : 'Something went wrong', h('p', { role: 'alert' }, text), e.status === 404 ? null : button('Try again', () => void this.load())));
  }

  private password() {
    const error = errorLine();
    const pw = field('Password', { type: 'password', autocomplete: 'current-password', required: true }, 'The sender protected this contract with a password.');
    const form = h('form', { class: 'fls-form', novalidate: true }, pw.element, error.element, h('div', { class: 'fls-actions' }, button('Continue', null, 'fls-button', 'submit')));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      error.clear();
      if (!pw.input.value) return error.show('Enter the password', pw.input);
      void busy(form, () => this.api.verifyPassword(pw.input.value))
        .then((r) => {
          this.api.token = r.access_token;
          return this.load();
        })
        .catch((err: SignerError) => {
          pw.input.value = '';
          error.show(err.status === 401 ? 'Wrong password: try again' : err.message, pw.input);
        });
    });
    this.show(section('Enter the password', form));
    pw.input.focus();
  }

  private contract(ctx: SignerContext, doc: SignerContract) {
    const me = doc.signers.find((s) => s.slot_number === ctx.slot_number);
    const waitingFor = doc.signers.filter((s) => s.slot_number < ctx.slot_number && s.status === 'pending').map((s) => s.slot_label);
    const state = (s: { status: string; slot_number: number }) =>
      s.slot_number === ctx.slot_number ? 'you' : s.status === 'pending' ? 'not signed yet' : s.status;
    const signers = h('ol', { class: 'fls-signers' }, doc.signers.map((s) =>
      h('li', { class: s.slot_number === ctx.slot_number ? 'fls-me' : '' }, h('strong', {}, s.slot_label), ` ${[s.first_name, s.last_name].filter(Boolean).join(' ')}`, h('span', { class: 'fls-state' }, ` (${state(s)})`)),
    ));
    const turn = ctx.is_turn
      ? section(`Sign as ${ctx.slot_label}`, signForm(this.api, ctx, me, () => void this.load()))
      : section(
          'Not your turn yet',
          h('p', { class: 'fls-notice', role: 'status' }, waitingFor.length ? `${waitingFor.join(', ')} must sign before you. We will email you when it is your turn, or check again later.` : 'Earlier signers must sign before you.'),
          button('Check again', () => void busy(this.root, () => this.load())),
        );
    this.show(
      ctx.is_turn ? null : turn,
      ...doc.contracts.map((c) => h('article', { class: 'fls-contract', 'aria-label': c.title }, h('h2', { tabindex: '-1' }, c.title), markdown(c.document))),
      ctx.signing_order === 'sequential' || doc.signers.length > 1 ? section(ctx.signing_order === 'sequential' ? 'Signers, in signing order' : 'Signers', signers) : null,
      ctx.is_turn ? turn : null,
    );
  }
}
