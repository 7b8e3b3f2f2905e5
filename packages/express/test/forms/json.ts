import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createFormloom } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter } from '../../src';
import { FormJsonMemo } from '../../src/form-json';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * `GET /forms/:id` writes JSON kept between reads of one revision (form-json.ts): what a client reads is the
 * form as it is, its count included, byte for byte what serializing it would give.
 */

/** forms.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('reads of a kept form carry the current count, the same JSON as serializing it, and follow an edit', async (t, app) => {
    const { key } = await app.user();
    const created = await app.api('POST', '/forms', {
      key,
      body: { title: 'Kept "quoted" title', published: true, questions: [{ type: 'short_text', title: 'Name, with "quotes" and ü' }] },
    });
    const form = created.body as { id: string; slug: string; questions: Array<{ id: string }> };
    const read = () => app.api('GET', `/forms/${form.id}`, { key });
    const first = await read();
    t.is(first.status, 200);
    t.is(first.text, JSON.stringify(first.body));
    t.is(first.body.response_count, 0);
    t.is(first.headers.get('content-type'), 'application/json; charset=utf-8');
    t.is(Number(first.headers.get('content-length')), Buffer.byteLength(first.text));
    for (let i = 0; i < 3; i++) {
      const sent = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0]!.id, value: `n${i}` }] } });
      t.is(sent.status, 201);
    }
    const after = await read();
    t.is(after.body.response_count, 3);
    t.is(after.text, JSON.stringify({ ...first.body, response_count: 3 }), 'only the count changed');
    t.is(after.headers.get('etag'), first.headers.get('etag'));
    const renamed = await app.api('PUT', `/forms/${form.id}`, { key, body: { title: 'Renamed' } });
    t.is(renamed.status, 200);
    const edited = await read();
    t.is(edited.body.title, 'Renamed');
    t.is(edited.body.response_count, 3);
    t.is(edited.text, JSON.stringify(edited.body));
    t.not(edited.headers.get('etag'), first.headers.get('etag'));
  });
});

test('a host app with its own JSON formatting gets it on the kept form too', async (t) => {
  const db = await createTestDatabase('sqlite');
  const formloom = createFormloom({ storage: db.storage, config: { secretKey: 'test-secret-key' } });
  const host = express();
  host.set('json spaces', 2);
  host.use('/api/v1', createFormloomRouter({ formloom, rateLimits: false }));
  const server = host.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(async () => {
    await new Promise((r) => server.close(r));
    await db.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const user = await formloom.accounts.createUser({ email: 'spaces@example.com' });
  const { api_key } = await formloom.accounts.createKey(user.id);
  const auth = { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' };
  const created = (await (await fetch(`${base}/forms`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Spaced' }) })).json()) as { id: string };
  for (let i = 0; i < 2; i++) {
    const text = await (await fetch(`${base}/forms/${created.id}`, { headers: auth })).text();
    t.is(text, JSON.stringify(JSON.parse(text), null, 2));
  }
});

test('the kept JSON is JSON.stringify of the read, for every count; a read it cannot place is left to res.json', (t) => {
  const memo = new FormJsonMemo();
  const questions = [{ id: 'q1', title: '"response_count":1 in a title', options: { response_count: 7 } }];
  const form = { id: 'frm_1', title: 'T \u2028 ü', response_count: 0, questions, published: true };
  for (const count of [0, 1, 42, 1234567]) {
    const read = { ...form, response_count: count };
    t.is(memo.serialize(read)?.toString('utf8'), JSON.stringify(read));
  }
  t.is(memo.serialize({ ...form, response_count: 1.5 }), null, 'not a count');
  t.is(memo.serialize({ id: 'frm_2', response_count: 3 }), null, 'no questions to stand for the revision');
});

test('bodies cut from the memo\'s slabs stay intact while later reads are written, at every size', (t) => {
  const memo = new FormJsonMemo();
  // From a few bytes to past a quarter of a slab (those get a buffer of their own), many reads per slab.
  const forms = [10, 900, 4_000, 4_500, 15_000, 17_000, 40_000].map((n, i) => ({
    id: `frm_${i}`,
    title: 'é'.repeat(n % 7) + 'x'.repeat(n),
    response_count: 0,
    questions: [{ id: `q${i}`, title: 'ü' }],
  }));
  const sent: Array<{ body: Buffer; expected: string }> = [];
  for (let round = 0; round < 60; round++) {
    for (const form of forms) {
      const read = { ...form, response_count: round * 1_000 + form.title.length };
      sent.push({ body: memo.serialize(read)!, expected: JSON.stringify(read) });
    }
  }
  for (const { body, expected } of sent) t.is(body.toString('utf8'), expected);
});
