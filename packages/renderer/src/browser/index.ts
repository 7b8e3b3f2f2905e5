import { FormloomForm } from './element.js';

// Defining the element is this module's whole purpose (it is the page's and embed.js's entry), and a second
// copy loaded by a host page must not throw.
if (!customElements.get('formloom-form')) customElements.define('formloom-form', FormloomForm);

export { FormloomForm };
