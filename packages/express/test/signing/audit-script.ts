import test from '../helpers/bounded-test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachDb } from '../helpers/app';
import { contractForm, lazyRenderer } from '../helpers/signing';

/* The script in docs/signing.md ("The audit chain's canonical form") recomputes a session's chain from the
   API's answer alone: the test takes the block out of the docs as written and runs it with node. */

const docs = readFileSync(join(__dirname, '../../../../../docs/signing.md'), 'utf8');
const script = /```js\n(\/\/ check-audit\.mjs[\s\S]*?)```/.exec(docs)?.[1];

function runScript(input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-audit-script-'));
  writeFileSync(join(dir, 'check-audit.mjs'), script!);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, 'check-audit.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

test('docs/signing.md holds the script, about 30 lines', (t) => {
  t.truthy(script);
  const lines = script!.trim().split('\n').length;
  t.true(lines >= 20 && lines <= 35, `${lines} lines`);
});

forEachDb(test, (t) => {
  t('the docs script recomputes the chain from the API answer, and names the first entry changed', async (tt, app) => {
    const { user, form } = await contractForm(app);
    const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { signers: [{ slot_number: 1, first_name: 'Zoë', last_name: 'Ångström', email: 'zoe@example.com' }, { slot_number: 2 }] },
    })).body;
    const [a, b] = created.signer_links.map((l: { short_code: string }) => l.short_code);
    await app.api('GET', `/s/${a}/document`, { headers: { 'user-agent': 'Test "quoted" agent/1.0' } });
    const signed = await app.api('POST', `/s/${a}/sign`, { body: { signature: { type: 'typed', value: 'Zoë Ångström' } } });
    tt.is(signed.status, 200, signed.text);
    tt.is((await app.api('POST', `/s/${b}/decline`, { body: { reason: 'Not today — 日本語 \u{1F600}' } })).status, 200);
    const answer = await app.api('GET', `/signing-sessions/${created.id}/audit`, { key: user.key });
    tt.is(answer.status, 200);

    const ok = await runScript(answer.text);
    tt.is(ok.code, 0, ok.stderr);
    const head = answer.body.entries[answer.body.entries.length - 1].hash;
    tt.is(ok.stdout.trim(), `${answer.body.entries.length} entries, chain intact, head ${head}`);

    const tampered = JSON.parse(answer.text);
    tampered.entries[3].details.reason = 'changed';
    const bad = await runScript(JSON.stringify(tampered));
    tt.is(bad.code, 1);
    tt.regex(bad.stderr, /^entry 4 \(declined\): hash [0-9a-f]{64} but the fields hash to [0-9a-f]{64}/);

    const dropped = JSON.parse(answer.text);
    dropped.entries.splice(1, 1);
    const gap = await runScript(JSON.stringify(dropped));
    tt.is(gap.code, 1);
    tt.regex(gap.stderr, /^entry 2 \(\w+\): seq is 3, expected 2/);
  });
}, { signedDocuments: lazyRenderer() });
