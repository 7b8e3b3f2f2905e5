import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

/** forms.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('restoring a version makes its snapshot the draft; the live version stays; the next publish says version_restored', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: { title: 'First', theme_color: '#112233', questions: [{ type: 'short_text', title: 'Name' }, { type: 'email', title: 'Email' }] },
    });
    const id = created.body.id;
    t.is((await app.api('POST', `/forms/${id}/publish`, { key: u.key })).status, 200);
    const edited = await app.api('PUT', `/forms/${id}`, {
      key: u.key,
      body: { title: 'Second', theme_color: '#445566', questions: [{ type: 'yes_no', title: 'Agree?' }] },
    });
    t.is(edited.status, 200);
    t.is((await app.api('POST', `/forms/${id}/publish`, { key: u.key })).body.version.version, 2);
    const versions = (await app.api('GET', `/forms/${id}/versions`, { key: u.key })).body.versions;
    const v1 = versions.find((v: any) => v.version === 1);

    const restored = await app.api('POST', `/forms/${id}/versions/${v1.id}/restore`, { key: u.key });
    t.is(restored.status, 200);
    t.like(restored.body, { title: 'First', theme_color: '#112233', published: true, has_unpublished_changes: true });
    t.deepEqual(restored.body.questions.map((q: any) => q.title), ['Name', 'Email']);
    t.deepEqual((await app.api('GET', `/forms/${id}`, { key: u.key })).body.questions.map((q: any) => q.title), ['Name', 'Email']);
    t.is((await app.api('GET', `/public/forms/${created.body.slug}`)).body.title, 'Second', 'respondents still see version 2');

    const v3 = await app.api('POST', `/forms/${id}/publish`, { key: u.key });
    t.is(v3.body.version.version, 3);
    t.is(v3.body.version.changelog[0].type, 'version_restored');
    t.regex(v3.body.version.changelog[0].description, /Version 1/);
    t.false(v3.body.has_unpublished_changes);
    t.is((await app.api('GET', `/public/forms/${created.body.slug}`)).body.title, 'First');
    // The mark is spent: a later publish has no restore entry.
    await app.api('PUT', `/forms/${id}`, { key: u.key, body: { title: 'Third' } });
    const v4 = await app.api('POST', `/forms/${id}/publish`, { key: u.key });
    t.false(v4.body.version.changelog.some((e: any) => e.type === 'version_restored'));
  });

  it("404 for another form's version or an unknown one, 403 for another user's form, nothing changed", async (t, app) => {
    const u = await app.user();
    const other = await app.user();
    const a = (await app.api('POST', '/forms', { key: u.key, body: { title: 'A', questions: [{ type: 'short_text', title: 'Q' }] } })).body;
    const b = (await app.api('POST', '/forms', { key: u.key, body: { title: 'B', questions: [{ type: 'short_text', title: 'Q' }] } })).body;
    await app.api('POST', `/forms/${b.id}/publish`, { key: u.key });
    const vb = (await app.api('GET', `/forms/${b.id}/versions`, { key: u.key })).body.versions[0];
    t.is((await app.api('POST', `/forms/${a.id}/versions/${vb.id}/restore`, { key: u.key })).status, 404);
    t.is((await app.api('POST', `/forms/${a.id}/versions/ver_nope/restore`, { key: u.key })).status, 404);
    t.is((await app.api('POST', `/forms/${b.id}/versions/${vb.id}/restore`, { key: other.key })).status, 403);
    const after = (await app.api('GET', `/forms/${a.id}`, { key: u.key })).body;
    t.is(after.title, 'A');
    t.false(after.has_unpublished_changes);
  });
});
