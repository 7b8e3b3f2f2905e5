'use strict';
// Speech recognition for the voice family's intelligibility figure, with the pocketsphinx command line of
// the host (bench only: nothing in the tests or CI needs it). Debian bookworm's 0.8+5prealpha has
// `pocketsphinx_continuous -infile <16 kHz mono 16-bit wav>`, with its US English model in
// /usr/share/pocketsphinx/model/en-us (package pocketsphinx-en-us); pocketsphinx 5 (Debian trixie, pip)
// has `pocketsphinx single <wav>` printing one JSON object per utterance, with its model built in.
const { execFile, execFileSync } = require('node:child_process');
const fs = require('node:fs');

const MODEL_DIR = process.env.BENCH_POCKETSPHINX_MODEL || '/usr/share/pocketsphinx/model/en-us';
const INSTALL_HINT = 'apt-get install pocketsphinx pocketsphinx-en-us';

function onPath(cmd) {
  try {
    return execFileSync('/bin/sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * The recogniser the host has: { kind: 'continuous' | 'single', bin, args(wav) } or { missing: reason }.
 * The 0.8 command needs the model files (the default paths compiled into Debian's build).
 */
function findPocketsphinx() {
  const continuous = onPath('pocketsphinx_continuous');
  if (continuous) {
    const hmm = `${MODEL_DIR}/en-us`;
    const lm = `${MODEL_DIR}/en-us.lm.bin`;
    const dict = `${MODEL_DIR}/cmudict-en-us.dict`;
    const absent = [hmm, lm, dict].filter((f) => !fs.existsSync(f));
    if (absent.length) return { missing: `pocketsphinx_continuous is installed but its English model is not (${absent[0]}): ${INSTALL_HINT}` };
    return { kind: 'continuous', bin: continuous, args: (wav) => ['-infile', wav, '-hmm', hmm, '-lm', lm, '-dict', dict, '-logfn', '/dev/null'] };
  }
  const single = onPath('pocketsphinx');
  if (single) return { kind: 'single', bin: single, args: (wav) => ['single', wav] };
  return { missing: `no pocketsphinx_continuous or pocketsphinx command: ${INSTALL_HINT}` };
}

/** The words pocketsphinx hears in a 16 kHz mono 16-bit WAV file, as one line of text. */
function transcribe(ps, wavPath, { timeoutMs = 300000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(ps.bin, ps.args(wavPath), { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${ps.bin} failed on ${wavPath}: ${err.message}\n${stderr.slice(-2000)}`));
      const lines = stdout.split('\n').map((l) => l.trim()).filter(Boolean);
      const words =
        ps.kind === 'single'
          ? lines.map((l) => {
              try {
                return JSON.parse(l).t || '';
              } catch {
                return '';
              }
            })
          : lines.filter((l) => !/^(INFO|WARN|ERROR|FATAL)/.test(l));
      resolve(words.join(' ').replace(/\s+/g, ' ').trim());
    });
  });
}

module.exports = { findPocketsphinx, transcribe, INSTALL_HINT };
