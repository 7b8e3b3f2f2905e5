'use strict';
// `node bench/speech-flite.js [rounds]` (after `npx tsc -b`): @formloom/speech-flite's child start time
// (fork to ready, wasm compile included) and its warm synthesis speed per voice, in x real time (seconds of
// audio per second), by wall clock and by the child's CPU time (read from /proc, so Linux only; steadier on a
// busy machine). One child, one request at a time: the speed of one stream. See docs/voice.md.
const { readFileSync } = require('node:fs');
const { createFliteEngine, FLITE_VOICES } = require('../packages/speech-flite/dist/src');

const rounds = Number(process.argv[2] ?? 3);
const TEXT = [
  'Thank you for taking part in our customer survey.',
  'Please read each question carefully, and answer as honestly as you can.',
  'Your answers are saved as you go, so you can come back later and finish where you left off.',
  'When you are done, press the submit button at the bottom of the page.',
  'If you have any questions about the contract, contact our support team before you sign it.',
  'We will send a copy of the signed document to the email address you gave us.',
].join(' ');

function cpuSeconds(pid) {
  // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 a second on Linux).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function speak(engine, voice) {
  let samples = 0;
  let rate = 16000;
  let first = 0;
  const started = performance.now();
  for await (const chunk of engine.synthesize({ text: TEXT, voice, speed: 1 })) {
    if (!first) first = performance.now() - started;
    samples += chunk.samples.length;
    rate = chunk.sampleRate;
  }
  return { audio: samples / rate, wall: (performance.now() - started) / 1000, first };
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
  const pid = engine.stats().children[0].pid;
  for (const { id } of FLITE_VOICES) {
    await speak(engine, id); // warm: this voice's first run
    let audio = 0;
    let wall = 0;
    const firsts = [];
    const cpuBefore = cpuSeconds(pid);
    for (let i = 0; i < rounds; i++) {
      const run = await speak(engine, id);
      audio += run.audio;
      wall += run.wall;
      firsts.push(Math.round(run.first));
    }
    const cpu = cpuSeconds(pid) - cpuBefore;
    console.log(
      `${id.padEnd(6)} ${(audio / rounds).toFixed(1)} s of audio: ${(audio / wall).toFixed(1)}x real time (wall), ` +
        `${(audio / cpu).toFixed(1)}x per CPU second of the child; first chunk after ${firsts.join(', ')} ms`
    );
  }
  await engine.close();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
