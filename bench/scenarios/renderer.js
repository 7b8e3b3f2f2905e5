'use strict';
// The respondent's page as a bench family (`BENCH_ONLY=renderer npm run bench`): bench/renderer.js's
// measurements and budgets against the running Formloom app, in a headless Chromium of its own.
const { measureRenderer, launch } = require('../renderer');

async function rendererPhase(h) {
  const browser = await launch();
  try {
    const { checks, result } = await measureRenderer(h.formloom, browser, Number(process.env.RENDER_RUNS || 15));
    const ms = (d) => `${d.p50} / ${d.p95}`;
    return {
      table: {
        title: `Respondent's page: ${result.runs} cold loads at 390 px; ${result.sizes.js_files} script(s), ${(result.sizes.js_gzip_bytes / 1024).toFixed(1)} kB gzipped (${(result.sizes.js_brotli_bytes / 1024).toFixed(1)} kB brotli)`,
        columns: [
          { key: 'what', title: 'from navigation start (ms)' },
          { key: 'v', title: 'p50 / p95', right: true },
        ],
        rows: [
          { what: 'DOMContentLoaded', v: ms(result.dom_content_loaded_ms) },
          { what: 'first contentful paint', v: ms(result.first_contentful_paint_ms) },
          { what: 'first question in the DOM', v: ms(result.first_render_ms) },
        ],
      },
      checks,
      result,
      errors: [],
    };
  } finally {
    await browser.close();
  }
}

module.exports = { family: 'renderer', phases: [{ name: 'renderer first question', run: rendererPhase }] };
