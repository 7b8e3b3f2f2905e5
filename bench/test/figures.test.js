'use strict';
// The bench's record of current figures (bench/lib/figures.js): which run's figure is kept, and the table it
// writes into docs/benchmarks.md.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('ava');
const { BUSY_PCT, MARK, mergeRun, renderFigures, replaceBlock, readFigures, writeFigures } = require('../lib/figures');

const INGEST = 'POST /public/forms/:slug/responses';

/** A run's JSON report as bench/run.js writes it, with the given ingest ratios and other CPU. */
function reportOf({ database = 'sqlite', date = '2026-12-07T01:00:00.000Z', at10 = '0.5x', at50 = '0.4x', otherPct = 1, target = '>= 0.8x' } = {}) {
  const ok = (v) => Number.parseFloat(v) >= Number.parseFloat(target.slice(3));
  return {
    date,
    database,
    checks: [
      { family: 'ingest', check: `${INGEST} @10: req/s vs ceiling`, value: at10, target, pass: ok(at10) },
      { family: 'ingest', check: `${INGEST} @50: req/s vs ceiling`, value: at50, target, pass: ok(at50) },
      { family: 'memory', check: 'resident memory at rest', value: '95.0 MB', target: '< 100 MB', pass: true },
    ],
    phases: {},
    other_cpu: [
      { what: `formloom ${INGEST} @10`, pct: otherPct },
      { what: `ceiling ${INGEST} @50`, pct: 0.5 },
    ],
  };
}

const ingestAt10 = (figures, db = 'sqlite') => figures.checks[`${db}|ingest|${INGEST} @10: req/s vs ceiling`];

test('a quiet run replaces the record; a busy run does not replace a quiet figure, but fills what is missing', (t) => {
  const figures = { checks: {} };
  t.deepEqual(mergeRun(figures, reportOf({ at10: '0.6x' }), { commit: 'aaaa1111' }), { recorded: 3, kept: 0 });
  t.like(ingestAt10(figures), { value: '0.6x', pass: false, commit: 'aaaa1111', date: '2026-12-07 01:00', other_cpu_pct: 1 });

  const busy = reportOf({ at10: '0.9x', otherPct: BUSY_PCT + 20, date: '2026-12-07T02:00:00.000Z' });
  t.deepEqual(mergeRun(figures, busy, { commit: 'bbbb2222' }), { recorded: 1, kept: 2 });
  t.is(ingestAt10(figures).value, '0.6x', 'the quiet figure stays');
  // The memory check has no measurement of its own in other_cpu: it counts as quiet and is recorded.
  t.is(figures.checks['sqlite|memory|resident memory at rest'].commit, 'bbbb2222');

  mergeRun(figures, reportOf({ at10: '0.85x', date: '2026-12-07T03:00:00.000Z' }), { commit: 'cccc3333' });
  t.like(ingestAt10(figures), { value: '0.85x', pass: true, commit: 'cccc3333' });
});

test('a busy run replaces a busy figure, and a changed target replaces any figure', (t) => {
  const figures = { checks: {} };
  mergeRun(figures, reportOf({ at10: '0.6x', otherPct: 50 }));
  mergeRun(figures, reportOf({ at10: '0.7x', otherPct: 60 }));
  t.is(ingestAt10(figures).value, '0.7x');
  mergeRun(figures, reportOf({ at10: '0.2x' }));
  mergeRun(figures, reportOf({ at10: '0.75x', otherPct: 60, target: '>= 0.7x' }));
  t.like(ingestAt10(figures), { value: '0.75x', target: '>= 0.7x', pass: true });
});

test('the table merges connection counts into one row, a column per database, and marks busy figures', (t) => {
  const figures = { checks: {} };
  mergeRun(figures, reportOf({ at10: '0.461x', at50: '0.326x' }));
  mergeRun(figures, reportOf({ database: 'postgres', at10: '0.9x', at50: '0.95x', otherPct: 25 }));
  const block = renderFigures(figures);
  t.true(block.startsWith(MARK.start) && block.endsWith(MARK.end));
  const lines = block.split('\n');
  t.true(lines.includes('| family | check | target | SQLite | PostgreSQL |'));
  const row = lines.find((l) => l.includes('req/s vs ceiling'));
  t.is(row, `| ingest | ${INGEST} @10; @50: req/s vs ceiling | >= 0.8x | 0.461x; 0.326x **FAIL** <sub>2026-12-07</sub> | 0.9x; 0.95x PASS <sub>2026-12-07, busy 25%</sub> |`);
  t.is(lines.filter((l) => l.startsWith('| memory |')).length, 1);
});

test('the docs keep their text around the markers; without markers nothing is written', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'figures-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const files = { figures: path.join(dir, 'figures.json'), docs: path.join(dir, 'benchmarks.md') };
  fs.writeFileSync(files.docs, `# Benchmarks\n\nintro\n\n${MARK.start}\nold table\n${MARK.end}\n\n## Running it\n`);
  const figures = readFigures(files.figures);
  t.deepEqual(figures, { checks: {} });
  mergeRun(figures, reportOf());
  writeFigures(figures, files);
  const docs = fs.readFileSync(files.docs, 'utf8');
  t.true(docs.startsWith('# Benchmarks\n\nintro\n\n<!-- current-figures:start'));
  t.true(docs.endsWith(`${MARK.end}\n\n## Running it\n`));
  t.false(docs.includes('old table'));
  t.is(Object.keys(readFigures(files.figures).checks).length, 3);
  t.throws(() => replaceBlock('# no markers', 'x'), { message: /no current-figures markers/ });
});
