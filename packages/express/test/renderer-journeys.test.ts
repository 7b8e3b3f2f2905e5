/*
 * The respondent's page embedded on other sites and over time (docs/respondents.md, docs/logic.md, docs/booking.md),
 * one process for all its parts: each part in renderer-journeys/ declares its tests when it is imported and keeps
 * its own app and browser contexts; they share the process and its loaded modules (docs/testing.md, "What it costs").
 * The page's questions, controls and languages: renderer.test.ts.
 */
import './renderer-journeys/defects';
import './renderer-journeys/embed';
import './renderer-journeys/flows';
import './renderer-journeys/fuse';
import './renderer-journeys/composite';
import './renderer-journeys/booking';
