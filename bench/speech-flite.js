'use strict';
// `node bench/speech-flite.js [rounds]` (after `npx tsc -b`): @formloom/speech-flite's child start time
// (fork to ready, wasm compile included) and its warm synthesis speed per voice, in x real time (seconds of
// audio per second), by wall clock and by CPU time (this process and the child, read from /proc, so Linux
// only; steadier on a busy machine). One child, one request at a time: the speed of one stream. The voice family of `npm run
// bench` measures every English voice the same way, over HTTP too (bench/scenarios/voice/speed.js).
// See docs/voice.md.
const { createFliteEngine, FLITE_VOICES } = require('../packages/speech-flite/dist/src');
const { synthesize } = require('./lib/engine-speed');

const rounds = Number(process.argv[2] ?? 3);
const TEXT = [
  'Thank you for taking part in our customer survey.',
  'Please read each question carefully, and answer as honestly as you can.',
  'Your answers are saved as you go, so you can come back later and finish where you left off.',
  'When you are done, press the submit button at the bottom of the page.',
  'If you have any questions about the contract, contact our support team before you sign it.',
  'We will send a copy of the signed document to the email address you gave us.',
].join(' ');

// Shared with the voice family (bench/lib/engine-speed.js), whose CPU clock counts Flite's child processes.
async function speak(engine, voice) {
  const run = await synthesize(engine, voice, TEXT);
  return { audio: run.audioS, wall: run.wallS, cpu: run.cpuS, first: run.firstMs };
}

async function main() {
  const starts = [];
  for (let i = 0; i < rounds; i++) {
    const engine = createFliteEngine({ poolSize: 1 });
    await engine.start();
    const { lastStartMs, lastCompileMs } = engine.stats();
    starts.push(`${lastStartMs} ms (compile ${lastCompileMs} ms)`);
    await engine.close();
  }
  console.log(`child start, fork to ready: ${starts.join(', ')}`);

  const engine = createFliteEngine({ poolSize: 1 });
  await engine.start();
  for (const { id } of FLITE_VOICES) {
    await speak(engine, id); // warm: this voice's first run
    let audio = 0;
    let wall = 0;
    let cpu = 0;
    const firsts = [];
    for (let i = 0; i < rounds; i++) {
      const run = await speak(engine, id);
      audio += run.audio;
      wall += run.wall;
      cpu += run.cpu;
      firsts.push(Math.round(run.first));
    }
    console.log(
      `${id.padEnd(6)} ${(audio / rounds).toFixed(1)} s of audio: ${(audio / wall).toFixed(1)}x real time (wall), ` +
        `${(audio / cpu).toFixed(1)}x per CPU second (this process and the child); first chunk after ${firsts.join(', ')} ms`
    );
  }
  await engine.close();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
