/*
 * Signing's pages and seals (docs/signing.md): the signing page in a browser, the certificate page, the B-LTA
 * seal with a timestamp authority, a voided session's copies. The seals' and copies' tests run one at a time (a
 * timestamp authority taken down, one app's outbox), the signing page's two at a time (helpers/page-test.ts), so
 * they share a process of their own rather than hold back signing.test.ts's concurrent tests; the parts are in
 * signing/.
 */
import './signing/page';
import './signing/certificate-page';
import './signing/pades';
import './signing/void-copies';
