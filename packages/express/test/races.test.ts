/*
 * Operations racing the deletion of their parent (helpers/races.ts): a form's children, a team's, a voice
 * generation's; each answers its success or 404, never a 500. One process for what were three files: each paid
 * about 1.5 CPU-seconds before its first request (docs/testing.md, "Merged test files"). Each part keeps its own
 * apps (signing renderer, limits, the tone voice engine) and declares its tests when it is imported.
 */
import './races/forms';
import './races/teams';
import './races/voice';
