import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import ExcelJS from 'exceljs';
import { PAGE_YES_NO } from '@formloom/core';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * Yes/no in the form's language (issue 37; docs/responses-and-webhooks.md, "Export formats"): the XLSX and JSON
 * exports write a yes/no as the respondent's page showed it, in the form's `language` unless the owner wrote
 * their own words, with the raw value beside it; the CSV keeps true/false. The core's table of words is the
 * renderer's: each language pack the page loads says the same.
 */

test("the export's yes/no words are the page's, language by language", (t) => {
  const bundle = join(__dirname, '../../../../renderer/dist/bundle');
  const packs = readdirSync(bundle).filter((f) => /^formloom-lang-[a-z]+\.[\w-]+\.json$/.test(f));
  t.is(packs.length, Object.keys(PAGE_YES_NO).length - 1, 'every language but English has a pack');
  for (const file of packs) {
    const lang = /^formloom-lang-([a-z]+)\./.exec(file)![1]!;
    const words = JSON.parse(readFileSync(join(bundle, file), 'utf8')) as Record<string, string>;
    t.deepEqual(PAGE_YES_NO[lang], { yes: words.yes, no: words.no }, lang);
  }
});

/** exports.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it("XLSX and JSON write yes/no in the form's language, the owner's words first, the raw value beside; the CSV keeps true/false", async (t, app) => {
    const u = await app.user();
    const make = async (extra: Record<string, unknown>) => {
      const res = await app.api('POST', '/forms', { key: u.key, body: { title: 'Umfrage', published: true, ...extra, questions: [{ type: 'yes_no', title: 'Kommen Sie?' }] } });
      t.is(res.status, 201, JSON.stringify(res.body));
      const form = res.body as { id: string; slug: string; questions: Array<{ id: string }> };
      for (const value of [true, false]) {
        const sent = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0]!.id, value }] } });
        t.is(sent.status, 201, JSON.stringify(sent.body));
      }
      return form;
    };
    const get = (id: string, format: string) => fetch(`${app.url}/api/v1/forms/${id}/responses/export${format}`, { headers: { authorization: `Bearer ${u.key}` } });
    const json = async (id: string) =>
      ((await (await get(id, '?format=json')).json()) as Array<{ answers: Array<{ label: unknown; value: unknown }> }>).map((r) => [r.answers[0]!.label, r.answers[0]!.value]);

    const german = await make({ language: 'de' });
    t.deepEqual(await json(german.id), [['Ja', true], ['Nein', false]]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await (await get(german.id, '?format=xlsx')).arrayBuffer()) as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const at = (title: string) => header.indexOf(title) + 1;
    t.deepEqual([2, 3].map((r) => [sheet.getRow(r).getCell(at('Kommen Sie?')).value, sheet.getRow(r).getCell(at('Kommen Sie? (raw)')).value]), [['Ja', true], ['Nein', false]]);
    const csv = await (await get(german.id, '')).text();
    t.deepEqual(csv.trim().split('\r\n').slice(1).map((l) => l.split(',').at(-1)), ['true', 'false'], 'the CSV keeps true/false');

    t.deepEqual(await json((await make({ language: 'pt-BR' })).id), [['Sim', true], ['Não', false]], 'a regional tag speaks its language');
    t.deepEqual(await json((await make({ language: 'ja', strings: { yes: 'OK' } })).id), [['OK', true], ['いいえ', false]], "the owner's word first");
    t.deepEqual(await json((await make({})).id), [['Yes', true], ['No', false]], 'no language: English');
  });
});
