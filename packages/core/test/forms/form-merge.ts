import test from 'ava';
import { mergeForms, type MergeForm, type MergeQuestion } from '../../src/forms/form-merge';

/* The builder's two-tab merge (src/forms/form-merge.ts; docs/decisions.md, "Two-tab conflicts"). */

const q = (id: string, title: string, more: Partial<MergeQuestion> = {}): MergeQuestion => ({ id, type: 'short_text', title, description: null, required: false, properties: {}, logic_jumps: [], ...more });
const form = (questions: MergeQuestion[], more: Record<string, unknown> = {}): MergeForm => ({ id: 'frm_1', title: 'Survey', welcome_title: null, updated_at: 't0', questions, ...more });
const titles = (f: MergeForm) => f.questions.map((x) => x.title);
const ids = (f: MergeForm) => f.questions.map((x) => x.id);
const edit = (f: MergeForm, id: string, patch: Partial<MergeQuestion>): MergeForm => ({ ...f, questions: f.questions.map((x) => (x.id === id ? { ...x, ...patch } : x)) });
const without = (f: MergeForm, id: string): MergeForm => ({ ...f, questions: f.questions.filter((x) => x.id !== id) });
const opts = { serverFields: ['id', 'updated_at'] };

const base = form([q('a', 'Name'), q('b', 'Age'), q('c', 'Comments')]);

test('changes to different fields and questions merge without a conflict', (t) => {
  const mine = edit({ ...base, title: 'Team survey' }, 'a', { title: 'Full name' });
  const theirs = edit(edit({ ...base, welcome_title: 'Hello', updated_at: 't1' }, 'c', { title: 'Anything else?' }), 'a', { required: true });
  const r = mergeForms(base, mine, theirs, opts);
  t.deepEqual(r.conflicts, []);
  t.is(r.form.title, 'Team survey');
  t.is(r.form.welcome_title, 'Hello');
  t.is(r.form.updated_at, 't1', 'server fields are theirs');
  t.deepEqual(titles(r.form), ['Full name', 'Age', 'Anything else?']);
  t.true(r.form.questions[0]!.required, 'their change to another field of the same question is kept');
  t.deepEqual(r.taken.map((c) => c.id).sort(), ['form:welcome_title', 'q:a:required', 'q:c:title']);
});

test('both sides edited the same field: a conflict, mine unless theirs is chosen', (t) => {
  const mine = edit(base, 'b', { title: 'Age in years' });
  const theirs = edit(base, 'b', { title: 'Your age' });
  const r = mergeForms(base, mine, theirs, opts);
  t.is(r.conflicts.length, 1);
  t.like(r.conflicts[0], { id: 'q:b:title', place: { kind: 'question', id: 'b', field: 'title' }, base: 'Age', mine: 'Age in years', theirs: 'Your age' });
  t.is(r.form.questions[1]!.title, 'Age in years');
  const chosen = mergeForms(base, mine, theirs, { ...opts, choose: (id) => (id === 'q:b:title' ? 'theirs' : 'mine') });
  t.is(chosen.form.questions[1]!.title, 'Your age');
  t.is(chosen.conflicts.length, 1, 'the conflicts listed do not depend on the choices');
});

test('the same change on both sides is no conflict; form fields conflict like question fields', (t) => {
  const mine = edit({ ...base, title: 'A' }, 'b', { title: 'Your age' });
  const theirs = edit({ ...base, title: 'B' }, 'b', { title: 'Your age' });
  const r = mergeForms(base, mine, theirs, opts);
  t.deepEqual(r.conflicts.map((c) => c.id), ['form:title']);
  t.is(r.form.questions[1]!.title, 'Your age');
  t.is(mergeForms(base, mine, theirs, { ...opts, choose: () => 'theirs' }).form.title, 'B');
});

test('properties merge key by key: choices on one side, a placeholder on the other', (t) => {
  const b0 = form([q('a', 'Colour', { type: 'multiple_choice', properties: { choices: [{ label: 'Red' }], allow_multiple: false } })]);
  const mine = edit(b0, 'a', { properties: { choices: [{ label: 'Red' }, { label: 'Blue' }], allow_multiple: false } });
  const theirs = edit(b0, 'a', { properties: { choices: [{ label: 'Red' }], allow_multiple: true } });
  const r = mergeForms(b0, mine, theirs, opts);
  t.deepEqual(r.conflicts, []);
  t.deepEqual(r.form.questions[0]!.properties, { choices: [{ label: 'Red' }, { label: 'Blue' }], allow_multiple: true });
  const both = edit(b0, 'a', { properties: { choices: [{ label: 'Green' }], allow_multiple: false } });
  t.deepEqual(mergeForms(b0, mine, both, opts).conflicts.map((c) => c.id), ['q:a:properties.choices']);
});

test('one side deleted a question the other edited: a conflict; mine keeps my side, theirs the other', (t) => {
  // They deleted it, I edited it.
  const mine = edit(base, 'c', { title: 'Any comments?' });
  const theirs = without(base, 'c');
  const r = mergeForms(base, mine, theirs, opts);
  t.like(r.conflicts[0], { id: 'q:c:deleted', place: { kind: 'deleted', id: 'c', deletedBy: 'theirs', changed: ['title'] } });
  t.deepEqual(titles(r.form), ['Name', 'Age', 'Any comments?'], 'mine: my edited question stays, at its place');
  t.deepEqual(ids(mergeForms(base, mine, theirs, { ...opts, choose: () => 'theirs' }).form), ['a', 'b']);

  // I deleted it, they edited it.
  const r2 = mergeForms(base, without(base, 'b'), edit(base, 'b', { required: true }), opts);
  t.like(r2.conflicts[0], { id: 'q:b:deleted', place: { kind: 'deleted', deletedBy: 'mine', changed: ['required'] } });
  t.deepEqual(ids(r2.form), ['a', 'c'], 'mine: deleted');
  const kept = mergeForms(base, without(base, 'b'), edit(base, 'b', { required: true }), { ...opts, choose: () => 'theirs' }).form;
  t.deepEqual(ids(kept), ['a', 'b', 'c'], 'theirs: their version back at its place');
  t.true(kept.questions[1]!.required);
});

test('a question deleted on one side and untouched on the other is deleted, with the jumps to it', (t) => {
  const b0 = form([q('a', 'Name', { logic_jumps: [{ conditions: [{ op: 'is_answered' }], to: 'c' }] }), q('b', 'Age'), q('c', 'Comments')], { start_logic_jumps: [{ conditions: [{ field: 'hidden:src', op: 'equals', value: 'x' }], to: 'c' }] });
  const mine = edit(b0, 'a', { title: 'Full name' });
  const r = mergeForms(b0, mine, without(b0, 'c'), opts);
  t.deepEqual(r.conflicts, []);
  t.deepEqual(ids(r.form), ['a', 'b']);
  t.deepEqual(r.form.questions[0]!.logic_jumps, [], 'a jump to the deleted question would be refused');
  t.deepEqual(r.form.start_logic_jumps, []);
  t.true(r.taken.some((c) => c.id === 'q:c:deleted'));
  // Deleted on both sides: gone, no conflict.
  t.deepEqual(ids(mergeForms(base, without(base, 'c'), without(base, 'c'), opts).form), ['a', 'b']);
});

test('reorders: one side moved, the other edited; both moved alike; both moved differently', (t) => {
  const moved = (f: MergeForm, order: string[]) => ({ ...f, questions: order.map((id) => f.questions.find((x) => x.id === id)!) });
  const r = mergeForms(base, edit(base, 'a', { title: 'Full name' }), moved(base, ['c', 'a', 'b']), opts);
  t.deepEqual(r.conflicts, []);
  t.deepEqual(titles(r.form), ['Comments', 'Full name', 'Age']);
  t.deepEqual(r.form.questions.map((x) => x.order), [undefined, undefined, undefined], 'no order field is invented');

  t.deepEqual(ids(mergeForms(base, moved(base, ['b', 'a', 'c']), moved(base, ['b', 'a', 'c']), opts).form), ['b', 'a', 'c']);

  const mine = moved(base, ['b', 'a', 'c']);
  const theirs = moved(base, ['c', 'b', 'a']);
  const both = mergeForms(base, mine, theirs, opts);
  t.like(both.conflicts[0], { id: 'order', place: { kind: 'order' }, mine: ['b', 'a', 'c'], theirs: ['c', 'b', 'a'] });
  t.deepEqual(ids(both.form), ['b', 'a', 'c']);
  t.deepEqual(ids(mergeForms(base, mine, theirs, { ...opts, choose: () => 'theirs' }).form), ['c', 'b', 'a']);
  // An order field follows the merged order.
  const ordered = form(base.questions.map((x, order) => ({ ...x, order })));
  t.deepEqual(mergeForms(ordered, ordered, moved(ordered, ['c', 'a', 'b']), opts).form.questions.map((x) => [x.id, x.order]), [['c', 0], ['a', 1], ['b', 2]]);
});

test('additions on both sides are all kept, after their predecessor on their side', (t) => {
  const mine = { ...base, questions: [q('a', 'Name'), q('new_1', 'Email'), q('b', 'Age'), q('c', 'Comments'), q('new_2', 'Phone')] };
  const theirs = { ...base, questions: [q('x', 'Company'), q('a', 'Name'), q('b', 'Age'), q('c', 'Comments'), q('y', 'Role')] };
  const r = mergeForms(base, mine, theirs, opts);
  t.deepEqual(r.conflicts, []);
  t.deepEqual(ids(r.form), ['x', 'a', 'new_1', 'b', 'c', 'new_2', 'y'], 'at the same place, this tab\'s addition comes first');
  t.deepEqual(r.taken.map((c) => c.id).sort(), ['q:x:added', 'q:y:added']);
  // Their addition after a question I deleted goes after that question's predecessor on their side.
  const r2 = mergeForms(base, without(base, 'b'), { ...base, questions: [q('a', 'Name'), q('b', 'Age'), q('z', 'City'), q('c', 'Comments')] }, opts);
  t.deepEqual(ids(r2.form), ['a', 'z', 'c']);
});

test('their new question, a jump of mine to a question they deleted, and server fields together', (t) => {
  const mine = edit(base, 'a', { logic_jumps: [{ conditions: [{ op: 'is_answered' }], to: 'b' }] });
  const theirs = { ...without(base, 'b'), id: 'frm_1', updated_at: 't2' };
  const r = mergeForms(base, mine, theirs, opts);
  t.deepEqual(r.conflicts, []);
  t.deepEqual(ids(r.form), ['a', 'c']);
  t.deepEqual(r.form.questions[0]!.logic_jumps, [], 'my jump to their deleted question goes');
  t.is(r.form.updated_at, 't2');
});
