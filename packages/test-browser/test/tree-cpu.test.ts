import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import test from 'ava';
import { TreeCpu } from '../src/tree-cpu';

/*
 * The shared browser's CPU in the test report: a process's time counts even when the process that made it
 * never waits for it (Chromium's renderers, when the browser is closed), which the kernel's children's time
 * (cutime, what the report read before) leaves out.
 */

const cpuMsOf = (pid: number): number => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return -1;
  }
};

const poll = async (ok: () => boolean, what: string, ms = 60_000) => {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

test('a grandchild its parent never waits for is counted, up to its last reading; what is outside the tree is not', async (t) => {
  t.timeout(120_000);
  // The child starts a grandchild that spins, prints its pid, and lives on without ever waiting for it.
  const grandchild = `const e = Date.now() + 60000; while (Date.now() < e);`;
  const child = spawn(
    process.execPath,
    ['-e', `const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((r) => child.once('exit', r));
  const gpid = await new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d).trim()))));
  // Another child of this process, outside the child's tree: not counted for it.
  const outside = spawn(process.execPath, ['-e', 'const e = Date.now() + 60000; while (Date.now() < e);'], { stdio: 'ignore' });
  const tree = new TreeCpu(child.pid!).start(50);
  let last = 0;
  let outsideMs = 0;
  try {
    await poll(() => tree.descendantsMs() >= 300 && cpuMsOf(outside.pid!) >= 300, 'both spinning processes to use 300 ms of CPU');
    tree.stop();
    last = cpuMsOf(gpid);
    outsideMs = cpuMsOf(outside.pid!);
  } finally {
    tree.stop();
    // Both killed: the child never waits for the grandchild, so no children's time of ours holds its CPU.
    process.kill(gpid, 'SIGKILL');
    child.kill('SIGKILL');
    outside.kill('SIGKILL');
    await exited;
  }
  const counted = tree.descendantsMs();
  t.true(counted >= 300, `the grandchild's CPU is counted: ${counted} ms`);
  // No more than the grandchild's own: the other process, which used as much, is outside the child's tree.
  t.true(counted <= last, `${counted} ms counted, the grandchild used ${last} ms and the process outside ${outsideMs} ms`);
});
