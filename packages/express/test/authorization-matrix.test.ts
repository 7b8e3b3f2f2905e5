/*
 * The authorization matrix (helpers/matrix.ts, docs/teams.md): every team and form endpoint against every kind of
 * caller, with keys on each database and with signed-in sessions on both. One process for what were three files:
 * each paid about 1.5 CPU-seconds before its first request (docs/testing.md, "Merged test files"). Each part
 * starts its own app, as its file did, and declares its tests when it is imported.
 */
import './authorization-matrix/postgres';
import './authorization-matrix/sqlite';
import './authorization-matrix/sessions';
