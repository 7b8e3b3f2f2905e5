/*
 * Teams and what their members see: the team screen, a viewer's read-only screens, the audit log's sentences,
 * moving a form into a team and the forms list. One test file, one process, for what were five. Each part
 * declares its tests with the bounded `test` of helpers/bounded-test.ts as it is imported; the parts with no app
 * configuration of their own share one app and every part shares one browser connection (helpers/shared.ts), each
 * test under an owner, forms and a browser context of its own (docs/testing.md, "Merged test files").
 */
import './teams-and-sharing/teams';
import './teams-and-sharing/viewer-readonly';
import './teams-and-sharing/audit-sentences';
import './teams-and-sharing/forms-move';
import './teams-and-sharing/forms-list';
