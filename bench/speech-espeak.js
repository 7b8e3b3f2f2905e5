'use strict';
// `node bench/speech-espeak.js [characters]` (after `npx tsc -b`): synthesis speed of @formloom/speech-espeak
// in x real time (seconds of audio per second), per voice, cold (a fresh engine: child process start, WebAssembly
// compile and 24 MB of voice data, then the text) and warm (the same text again on the started engine).
// One child process, so the figure is per core. Wall time suffers on a busy machine; the CPU figure counts
// this process, its threads and its child processes. The voice family of `npm run bench` measures the same way for every English
// voice (bench/scenarios/voice/speed.js). See docs/voice.md ("Speech engines").
const { createEspeakEngine } = require('../packages/speech-espeak/dist/src');
const { synthesize } = require('./lib/engine-speed');

const characters = Number(process.argv[2] ?? 2000);
const TEXTS = {
  'en-us+klatt4':
    'Thank you for filling in our survey. Your answers help us improve the service for everyone. ' +
    'Please read the contract carefully before you sign it, and ask us if anything is unclear. ',
  de:
    'Vielen Dank, dass Sie an unserer Umfrage teilgenommen haben. Ihre Antworten helfen uns sehr. ' +
    'Bitte lesen Sie den Vertrag sorgfältig, bevor Sie ihn unterschreiben. ',
  'fr-fr':
    'Merci d’avoir répondu à notre questionnaire. Vos réponses nous aident à améliorer le service. ' +
    'Veuillez lire attentivement le contrat avant de le signer. ',
};

function textOf(base) {
  let text = '';
  while (text.length < characters) text += base;
  return text.slice(0, text.lastIndexOf('.', characters) + 1 || characters);
}

// Shared with the voice family (bench/lib/engine-speed.js): CPU of this process, its threads and children.
const speak = (engine, voice, text) => synthesize(engine, voice, text);

async function run() {
  const rows = [];
  for (const [voice, base] of Object.entries(TEXTS)) {
    const text = textOf(base);
    const engine = createEspeakEngine({ processes: 1 });
    const cold = await speak(engine, voice, text);
    const warm = await speak(engine, voice, text);
    await engine.close();
    rows.push({ voice, characters: text.length, cold, warm });
  }
  const fmt = (x) => x.toFixed(1).padStart(7);
  console.log(`eSpeak NG, one child process, ${characters} characters per voice (load average ${require('node:os').loadavg()[0].toFixed(1)})`);
  console.log('voice          chars  audio s | cold: x wall  x cpu  first ms | warm: x wall  x cpu  first ms');
  for (const { voice, characters: n, cold, warm } of rows) {
    console.log(
      `${voice.padEnd(14)} ${String(n).padStart(5)} ${fmt(cold.audioS)} |      ${fmt(cold.audioS / cold.wallS)}${fmt(
        cold.audioS / cold.cpuS,
      )} ${fmt(cold.firstMs)} |      ${fmt(warm.audioS / warm.wallS)}${fmt(warm.audioS / warm.cpuS)} ${fmt(warm.firstMs)}`,
    );
  }
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
