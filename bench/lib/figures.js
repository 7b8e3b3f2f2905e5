'use strict';
// The bench's record of its latest figures (docs/benchmarks.md, "Current figures"): every run merges its checks
// into bench/figures.json, one entry per database and check, and writes the table that opens docs/benchmarks.md
// from it, between marker comments. A run on a busy machine (another process took >= 10% of the CPU during one of
// the family's measurements) does not replace a figure measured quietly: a busy figure says little about the app.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const FILES = { figures: path.join(ROOT, 'bench/figures.json'), docs: path.join(ROOT, 'docs/benchmarks.md') };
const MARK = { start: '<!-- current-figures:start (written by the bench: bench/lib/figures.js) -->', end: '<!-- current-figures:end -->' };
/** "other CPU %" at or above which a measurement is disturbed (the run's own warning uses the same bar). */
const BUSY_PCT = 10;
const DATABASES = ['sqlite', 'postgres'];
const DATABASE_TITLES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const keyOf = (database, family, check) => `${database}|${family}|${check}`;

/** The commit the bench ran (with `+` when the work tree had changes), or null outside a git checkout. */
function commitOf(root = ROOT) {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=8', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${head}+` : head;
  } catch {
    return null;
  }
}

/**
 * The highest "other CPU %" of each family's measurements in a run's JSON report (`other_cpu` names each
 * measurement: "<app> <scenario> @<connections>" or "<phase> ..."), so each check carries how quiet its run was.
 */
function otherCpuByFamily(report) {
  const byFamily = {};
  // A compared scenario's checks are named "<scenario> @<connections>: ...".
  const scenarioFamilies = {};
  for (const c of report.checks || []) {
    const m = /^(.*) @\d+: /.exec(c.check);
    if (m) scenarioFamilies[m[1]] = c.family;
  }
  const phaseFamily = Object.fromEntries(Object.entries(report.phases || {}).map(([name, ph]) => [name, ph.family]));
  for (const { what, pct } of report.other_cpu || []) {
    let family = null;
    for (const [name, fam] of Object.entries(phaseFamily)) if (what === name || what.startsWith(`${name} `)) family = fam;
    if (!family) for (const [scenario, fam] of Object.entries(scenarioFamilies)) if (what.includes(` ${scenario} @`)) family = fam;
    if (family && pct != null) byFamily[family] = Math.max(byFamily[family] ?? 0, pct);
  }
  return byFamily;
}

/**
 * Merges a run's checks into `figures` (mutated and returned). A check replaces the recorded one unless the
 * recorded one was quiet and the new one is not, and its target is the same; a changed target always replaces it
 * (the old figure measured something else).
 */
function mergeRun(figures, report, { commit = null } = {}) {
  const otherCpu = otherCpuByFamily(report);
  const date = String(report.date || new Date().toISOString()).slice(0, 16).replace('T', ' ');
  const out = { kept: 0, recorded: 0 };
  figures.checks ??= {};
  for (const c of report.checks || []) {
    const key = keyOf(report.database, c.family, c.check);
    const pct = otherCpu[c.family] ?? null;
    const entry = { database: report.database, family: c.family, check: c.check, value: c.value, target: c.target, pass: !!c.pass, date, commit, other_cpu_pct: pct };
    const old = figures.checks[key];
    const busy = (e) => e.other_cpu_pct != null && e.other_cpu_pct >= BUSY_PCT;
    if (old && old.target === entry.target && !busy(old) && busy(entry)) {
      out.kept++;
      continue;
    }
    figures.checks[key] = entry;
    out.recorded++;
  }
  return out;
}

/**
 * Checks that differ only in their connection count ("... @10: req/s vs ceiling", "... @50: ...") share a row,
 * their values joined by "; " in connection order, so the table fits a screen.
 */
function rowKeyOf(check) {
  const m = /^(.*) @(\d+)(: .*)?$/.exec(check);
  return m ? { prefix: m[1], suffix: m[3] || '', conns: Number(m[2]) } : { prefix: check, suffix: '', conns: null };
}

const verdict = (entries) => (entries.every((e) => e.pass) ? 'PASS' : '**FAIL**');
const cellOf = (entries) => {
  if (!entries.length) return '';
  const values = entries.map((e) => e.value).join('; ');
  const dates = [...new Set(entries.map((e) => e.date.slice(0, 10)))].join(', ');
  const pcts = entries.map((e) => e.other_cpu_pct).filter((p) => p != null);
  const busy = pcts.length && Math.max(...pcts) >= BUSY_PCT ? `, busy ${Math.round(Math.max(...pcts))}%` : '';
  return `${values} ${verdict(entries)} <sub>${dates}${busy}</sub>`;
};

/** The markdown block: one row per family and check (connection counts merged), a column per database. */
function renderFigures(figures) {
  const rows = new Map(); // family, check without its connection count -> { targets, conns, byDb: { db: [entries] } }
  for (const e of Object.values(figures.checks || {})) {
    const { prefix, suffix, conns } = rowKeyOf(e.check);
    const k = `${e.family}|${prefix}|${suffix}`;
    if (!rows.has(k)) rows.set(k, { family: e.family, prefix, suffix, targets: new Set(), conns: new Set(), byDb: {} });
    const r = rows.get(k);
    r.targets.add(e.target);
    if (conns != null) r.conns.add(conns);
    (r.byDb[e.database] ??= []).push({ ...e, conns });
  }
  const dbs = DATABASES.filter((db) => [...rows.values()].some((r) => r.byDb[db]));
  const lines = [
    MARK.start,
    'Written by the bench from its latest run of each check (`bench/figures.json`; "Reading the output", below). A figure',
    `from a run where other processes took ${BUSY_PCT}% of the CPU or more is marked "busy", and does not replace a quiet one.`,
    '',
    `| family | check | target | ${dbs.map((db) => DATABASE_TITLES[db]).join(' | ')} |`,
    `|---|---|---|${dbs.map(() => '---|').join('')}`,
  ];
  const esc = (s) => String(s).replace(/\|/g, '\\|');
  const sorted = [...rows.values()].sort((a, b) => a.family.localeCompare(b.family) || `${a.prefix}${a.suffix}`.localeCompare(`${b.prefix}${b.suffix}`));
  for (const r of sorted) {
    const conns = [...r.conns].sort((a, b) => a - b);
    const check = conns.length ? `${r.prefix} @${conns.join('; @')}${r.suffix}` : r.prefix;
    const cells = dbs.map((db) => cellOf((r.byDb[db] || []).sort((a, b) => (a.conns ?? 0) - (b.conns ?? 0))));
    lines.push(`| ${r.family} | ${esc(check)} | ${esc([...r.targets].join('; '))} | ${cells.map(esc).join(' | ')} |`);
  }
  lines.push(MARK.end);
  return lines.join('\n');
}

/** Replaces the marked block of `text`; throws when the markers are missing (the docs were edited by hand). */
function replaceBlock(text, block) {
  const start = text.search(/<!-- current-figures:start[^>]*-->/);
  const end = text.indexOf(MARK.end);
  if (start < 0 || end < start) throw new Error('docs/benchmarks.md has no current-figures markers');
  return text.slice(0, start) + block + text.slice(end + MARK.end.length);
}

const readFigures = (file = FILES.figures) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { checks: {} });

/** Writes figures.json (keys sorted, for stable diffs) and the docs' table. */
function writeFigures(figures, files = FILES) {
  const checks = Object.fromEntries(Object.keys(figures.checks).sort().map((k) => [k, figures.checks[k]]));
  fs.writeFileSync(files.figures, `${JSON.stringify({ checks }, null, 2)}\n`);
  fs.writeFileSync(files.docs, replaceBlock(fs.readFileSync(files.docs, 'utf8'), renderFigures({ checks })));
}

/** What bench/run.js calls after a run: merge, write, and say what happened. */
function recordRun(report, { files = FILES, commit = commitOf() } = {}) {
  const figures = readFigures(files.figures);
  const counts = mergeRun(figures, report, { commit });
  writeFigures(figures, files);
  return counts;
}

module.exports = { BUSY_PCT, MARK, mergeRun, renderFigures, replaceBlock, readFigures, writeFigures, recordRun, otherCpuByFamily, rowKeyOf, commitOf };
