import { h, uid } from '../dom.js';
import { SignerError, type SignerApi, type SignerContext, type Signer } from './api.js';
import { signaturePad } from './signature-pad.js';
import { busy, button, errorLine, field } from './ui.js';

/** The consent the API records with the signature (the same sentence as the core's `ESIGN_CONSENT`). */
const ESIGN_CONSENT = 'I agree to sign electronically and to receive the records electronically.';

/*
 * The signing form: the signer's name, the signature (typed or drawn), the emailed code when the session
 * requires one, the copy choice (`copy_mode` `ask`), and declining with a reason. `done` runs once the
 * signature or the decline is recorded (or the session turns out no longer active).
 */
export function signForm(api: SignerApi, ctx: SignerContext, me: Signer | undefined, done: () => void): HTMLElement {
  const error = errorLine();
  const first = field('First name', { autocomplete: 'given-name', maxlength: '200', value: me?.first_name ?? '' });
  const last = field('Last name', { autocomplete: 'family-name', maxlength: '200', value: me?.last_name ?? '' });
  // The signature starts empty: the signer writes it, it is not filled in for them.
  const pad = signaturePad();
  const code = ctx.requires_email_verification ? emailCode(api) : null;
  const copyId = uid('copy');
  const copy = h('input', { type: 'checkbox', id: copyId });
  const consentId = uid('consent');
  const consent = h('input', { type: 'checkbox', id: consentId, required: true });
  const form = h(
    'form',
    { class: 'fls-form', novalidate: true, 'aria-label': 'Sign' },
    h('div', { class: 'fls-names' }, first.element, last.element),
    pad.element,
    code?.element,
    ctx.copy_mode === 'ask' ? h('p', { class: 'fls-check' }, copy, h('label', { for: copyId }, 'Email me a copy of the signed document')) : null,
    h('p', { class: 'fls-check fls-consent' }, consent, h('label', { for: consentId }, ESIGN_CONSENT)),
    error.element,
    h('div', { class: 'fls-actions' }, button('Sign', null, 'fls-button', 'submit'), button('Decline to sign…', () => openDecline(), 'fls-link')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    error.clear();
    const signature = pad.value();
    if (typeof signature === 'string') return error.show(signature, pad.focusTarget());
    const emailCode = code?.input.value.trim();
    if (code && !/^\d{6}$/.test(emailCode ?? '')) return error.show('Enter the 6-digit code we emailed you (press "Email me a code" first)', code.input);
    if (!consent.checked) return error.show('Tick the box to agree to sign electronically', consent);
    const body: Record<string, unknown> = { signature, esign_consent: true };
    if (first.input.value.trim()) body.first_name = first.input.value.trim();
    if (last.input.value.trim()) body.last_name = last.input.value.trim();
    if (code) body.email_code = emailCode;
    if (code?.email.input.value.trim()) body.email = code.email.input.value.trim();
    if (ctx.copy_mode === 'ask') body.send_copy = copy.checked;
    void busy(form, () => api.sign(body))
      .then(done)
      .catch((err: SignerError) => {
        if (err.reason === 'session_not_active' || err.reason === 'slot_not_pending') return done();
        if (err.reason === 'not_your_turn') return error.show('It is not your turn yet: earlier signers must sign first.');
        error.show(err.message, err.reason === 'invalid_email_code' || err.reason === 'email_code_required' ? code?.input : undefined);
      });
  });

  const reason = h('textarea', { id: uid('reason'), class: 'fls-input', rows: '3', maxlength: '1000' });
  const declineError = errorLine();
  const decline = h(
    'form',
    { class: 'fls-form', hidden: true, 'aria-label': 'Decline to sign' },
    h('label', { for: reason.id }, 'Why do you decline? (optional, shared with the sender)'),
    reason,
    declineError.element,
    h('div', { class: 'fls-actions' }, button('Decline', null, 'fls-button fls-danger', 'submit'), button('Cancel', () => closeDecline(), 'fls-link')),
  );
  decline.addEventListener('submit', (e) => {
    e.preventDefault();
    declineError.clear();
    void busy(decline, () => api.decline(reason.value.trim()))
      .then(done)
      .catch((err: SignerError) => (err.reason === 'session_not_active' || err.reason === 'slot_not_pending' ? done() : declineError.show(err.message)));
  });
  function openDecline() {
    form.hidden = true;
    decline.hidden = false;
    reason.focus();
  }
  function closeDecline() {
    decline.hidden = true;
    form.hidden = false;
    form.querySelector<HTMLButtonElement>('.fls-link')!.focus();
  }
  return h('div', {}, form, decline);
}

/** The emailed 6-digit code: a button to send it, the code's field, and an email field when none is on file. */
function emailCode(api: SignerApi) {
  const status = h('p', { class: 'fls-hint', role: 'status' });
  const error = errorLine();
  const codeField = field('6-digit code from the email', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', pattern: '[0-9]{6}' });
  const input = codeField.input;
  const email = field('Your email address', { type: 'email', autocomplete: 'email', maxlength: '320' });
  email.element.hidden = true;
  const send = button('Email me a code', () => {
    error.clear();
    void busy(send.parentElement!, () => api.sendCode(email.input.value.trim() || undefined))
      .then((r) => {
        status.textContent = `We sent a code to ${r.sent_to}. It is valid for 10 minutes.`;
        input.focus();
      })
      .catch((err: SignerError) => {
        if (err.field === 'email') email.element.hidden = false;
        error.show(err.message, err.field === 'email' ? email.input : undefined);
      });
  }, 'fls-button fls-secondary');
  const element = h('fieldset', { class: 'fls-code' }, h('legend', {}, 'Confirm your email address'), email.element, send, status, error.element, codeField.element);
  return { element, input, email };
}
