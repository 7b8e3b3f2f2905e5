/*
 * The respondent's page in a real browser (docs/respondents.md), one process for all its parts: each part in
 * renderer/ declares its tests when it is imported and keeps its own app and browser contexts (under `npm test`
 * a connection to the run's shared browser); they share the process and its loaded modules (docs/testing.md,
 * "What it costs"). The embedded element, the journeys across forms and the booking page: renderer-journeys.test.ts.
 */
import './renderer/page';
import './renderer/assets';
import './renderer/controls';
import './renderer/taps';
import './renderer/phone';
import './renderer/steps';
import './renderer/recall';
import './renderer/randomize';
import './renderer/languages';
import './renderer/form-languages';
