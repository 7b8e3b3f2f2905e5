'use strict';
// runLoad(job): forks bench/load.js, hands it the job, resolves with its summary (see load.js for the shape).
const { fork } = require('node:child_process');
const path = require('node:path');

const LOAD_CHILD = path.join(__dirname, '..', 'load.js');

function runLoad(job) {
  return new Promise((resolve, reject) => {
    const child = fork(LOAD_CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answer = null;
    child.once('message', (msg) => (answer = msg));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (answer && answer.ok) resolve(answer.result);
      else reject(new Error(answer ? answer.error : `load generator exited with code ${code} and no result`));
    });
    child.send(job);
  });
}

module.exports = { runLoad };
