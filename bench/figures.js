'use strict';
// Records saved bench reports into bench/figures.json and rewrites the table of current figures that opens
// docs/benchmarks.md (bench/lib/figures.js). `npm run bench` does this itself after each run; this is for a
// report saved elsewhere (another machine, a run with BENCH_RECORD=0) or for the table alone:
//   node bench/figures.js /tmp/formloom-bench-2026-12-07T01-00-00-000Z.json   # merge one or more reports
//   node bench/figures.js                                                     # rewrite the table from the record
const fs = require('node:fs');
const { readFigures, mergeRun, writeFigures } = require('./lib/figures');
const figures = readFigures();
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { recorded, kept } = mergeRun(figures, report, { commit: report.commit ?? null });
  process.stdout.write(`${file}: ${recorded} figure(s) recorded, ${kept} busy one(s) left out (a quiet figure is recorded)\n`);
}
writeFigures(figures);
process.stdout.write(`bench/figures.json and docs/benchmarks.md's current figures written (${Object.keys(figures.checks).length} checks)\n`);
