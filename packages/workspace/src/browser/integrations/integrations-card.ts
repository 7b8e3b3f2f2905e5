import { html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { FormCard, formCardStyles } from './form-card';
import { getForm } from '../../data/forms';
import { listIntegrations, listIntegrationTypes, type Integration, type IntegrationType } from '../../data/integrations';
import type { MappableQuestion } from './integration-editor';
import './integration-editor';

/**
 * `<fl-integrations-card>` on the Integrations tab (docs/integrations.md): the form's integrations (Slack,
 * Discord, Teams, Google Chat, Zapier / Make / n8n subscriptions, and any plugin's) with their state, and the
 * integrations this server offers, each added and configured with the settings form its plugin describes
 * (`<fl-integration-editor>`). Shown whatever the plan; viewers read, editors change.
 */
export class FlIntegrationsCard extends FormCard {
  static override styles = [
    tokens,
    controls,
    formCardStyles,
    css`
      .stack > * { min-width: 0; }
      ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5rem; }
      li.item { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: center; padding: 0.5rem 0; border-bottom: 1px solid var(--_border); }
      li.item:last-child { border-bottom: 0; }
      .name { font-weight: 600; overflow-wrap: anywhere; }
      .state { font-size: 0.8rem; padding: 0.1rem 0.45rem; border-radius: 999px; border: 1px solid var(--_border); margin-left: 0.35rem; white-space: nowrap; }
      .state.paused { color: var(--_danger); border-color: var(--_danger); }
      .offers { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.5rem; }
      .offer { display: grid; gap: 0.35rem; align-content: start; border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; }
      .offer .btn { justify-self: start; }
    `,
  ];
  static override properties = {
    types: { state: true },
    items: { state: true },
    questions: { state: true },
    open: { state: true },
  };
  types: IntegrationType[] | null = null;
  items: Integration[] = [];
  questions: MappableQuestion[] = [];
  /** The integration being edited, or a type being added; null: the list. */
  open: { type: IntegrationType | null; integration: Integration | null } | null = null;

  protected override load() {
    return this.run(async () => {
      const [types, list, form] = await Promise.all([listIntegrationTypes(this.api!), listIntegrations(this.api!, this.formId), getForm(this.api!, this.formId)]);
      this.types = types.types;
      this.items = list.integrations;
      this.questions = form.form.questions.map((q) => ({ id: q.id, title: q.title }));
    });
  }

  private typeOf(type: string) {
    return this.types?.find((t) => t.type === type) ?? null;
  }

  private async close(deleted = false) {
    this.open = null;
    this.notice = deleted ? 'Integration deleted.' : '';
    await this.load();
    await this.updateComplete;
    (this.renderRoot.querySelector('h3') as HTMLElement | null)?.focus();
  }

  private renderList() {
    const offers = (this.types ?? []).filter((t) => t.addable);
    return html`<section class="card stack" aria-labelledby="h-int">
        <h3 id="h-int" tabindex="-1">Connected services</h3>
        ${this.items.length
          ? html`<ul aria-label="This form's integrations">${this.items.map((i) => html`<li class="item">
              <div><span class="name">${i.name}</span>
                <span class="state ${i.status}">${i.status === 'paused' ? 'Paused' : 'On'}</span>
                ${this.typeOf(i.type) ? (this.typeOf(i.type)!.title !== i.name ? html`<div class="muted">${this.typeOf(i.type)!.title}</div>` : nothing) : html`<div class="muted">${i.type} (not installed on this server)</div>`}</div>
              <button class="btn small" type="button" aria-label="${this.canEdit ? 'Set up' : 'View'} ${i.name}" @click=${() => (this.open = { type: this.typeOf(i.type), integration: i })}>${this.canEdit ? 'Set up' : 'View'}</button>
            </li>`)}</ul>`
          : html`<p class="muted">No services connected yet. Each new response can go to a chat channel, a sheet or an automation.</p>`}
      </section>
      ${this.canEdit && offers.length
        ? html`<section class="card stack" aria-labelledby="h-add">
            <h3 id="h-add">Add an integration</h3>
            <div class="offers">${offers.map((t) => html`<div class="offer">
              <strong>${t.title}</strong><p class="muted">${t.description}</p>
              <button class="btn small" type="button" @click=${() => (this.open = { type: t, integration: null })}>Add ${t.title}</button>
            </div>`)}</div>
            ${(this.types ?? []).some((t) => !t.addable) ? html`<p class="muted">Zapier, Make and n8n connect from their side with an API key; their subscriptions appear above.</p>` : nothing}
          </section>`
        : nothing}`;
  }

  override render() {
    return this.frame(!!this.types, 'Loading integrations…', () => this.open
        ? html`<fl-integration-editor .api=${this.api} .formId=${this.formId} .canEdit=${this.canEdit} .type=${this.open.type} .integration=${this.open.integration}
            .questions=${this.questions} @close=${(e: CustomEvent) => void this.close(!!e.detail?.deleted)}
            @changed=${(e: CustomEvent) => { if (e.detail) this.items = [...this.items.filter((i) => i.id !== e.detail.id), e.detail]; }}></fl-integration-editor>`
        : this.renderList());
  }
}
customElements.get('fl-integrations-card') || customElements.define('fl-integrations-card', FlIntegrationsCard);
