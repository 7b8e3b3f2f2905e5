'use strict';
// Exact order statistics over small samples (timings of sequential requests, deliveries, ...).

/** The nearest-rank percentile `p` (0-100) of `values` (unsorted is fine); null when empty. */
function percentile(values, p) {
  const v = values.filter((x) => x != null).sort((a, b) => a - b);
  if (!v.length) return null;
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
}

const round = (n, d = 2) => (n == null ? null : Math.round(n * 10 ** d) / 10 ** d);

/** { n, min, p50, p95, p99, max, mean } of `values`, rounded to `d` decimals. */
function describe(values, d = 2) {
  const v = values.filter((x) => x != null);
  if (!v.length) return { n: 0, min: null, p50: null, p95: null, p99: null, max: null, mean: null };
  return {
    n: v.length,
    min: round(Math.min(...v), d),
    p50: round(percentile(v, 50), d),
    p95: round(percentile(v, 95), d),
    p99: round(percentile(v, 99), d),
    max: round(Math.max(...v), d),
    mean: round(v.reduce((a, b) => a + b, 0) / v.length, d),
  };
}

/** Milliseconds on the monotonic clock (CLOCK_MONOTONIC: the same in every process of the machine). */
const monoMs = () => Number(process.hrtime.bigint()) / 1e6;

module.exports = { percentile, describe, round, monoMs };
