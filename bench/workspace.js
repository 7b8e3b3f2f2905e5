'use strict';
// `node bench/workspace.js` (after `npm run build`): the workspace family alone, without starting the API
// benchmark's apps (`BENCH_ONLY=workspace npm run bench` runs the same inside the full report).
// Prints each measure with PASS/FAIL against its target (docs/benchmarks.md, "Workspace").
const { phases } = require('./scenarios/workspace');

(async () => {
  for (const phase of phases) {
    const r = await phase.run({ log: (m) => process.stderr.write(`[bench] ${m}\n`) });
    process.stdout.write(`${r.table.title}\n`);
    const [first, ...rest] = r.table.columns;
    for (const row of r.table.rows) process.stdout.write(`  ${row[first.key]}: ${rest.map((c) => `${c.title} ${row[c.key]}`).join('  ')}\n`);
    for (const c of r.checks) process.stdout.write(`${c.pass ? 'PASS' : 'FAIL'}  ${c.check}: ${c.value} (target ${c.target})\n`);
    for (const e of r.errors) process.stdout.write(`ERROR ${e}\n`);
    if (r.errors.length) process.exitCode = 1;
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
