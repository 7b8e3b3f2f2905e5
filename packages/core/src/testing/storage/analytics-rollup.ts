import type { ResponseRecord } from '../../domain/types';
import type { ResponseAnalytics } from '../../ports/storage/responses';
import { at, makeForm, makeQuestion, makeResponse, rejectsWithConflict, type StorageHarnessInstance, type StorageTest, uid } from './fixtures';
import type { StoredRow } from './probes';

const DAY = 86_400;

interface DayCounts {
  total: number;
  completed: number;
  seconds_sum: number;
  seconds_count: number;
}

/** A small deterministic generator (mulberry32), so a failing mix can be replayed from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)]! };
}

/** The per-day counts recomputed from every stored response of the form (the full recount). */
function recount(rows: StoredRow[]): Record<string, DayCounts> {
  const days: Record<string, DayCounts> = {};
  for (const r of rows) {
    const day = String(r.submitted_at).slice(0, 10);
    const d = (days[day] ??= { total: 0, completed: 0, seconds_sum: 0, seconds_count: 0 });
    d.total++;
    if (r.completed_at != null) {
      d.completed++;
      if (r.completion_seconds != null) {
        d.seconds_sum += Number(r.completion_seconds);
        d.seconds_count++;
      }
    }
  }
  return days;
}

/** Per question id: responses with a non-empty answer, and those whose furthest answered question it is. */
function recountQuestions(rows: StoredRow[], order: string[]): Record<string, { answered: number; furthest: number }> {
  const out: Record<string, { answered: number; furthest: number }> = {};
  for (const r of rows) {
    const answers = (typeof r.answers === 'string' ? JSON.parse(r.answers) : r.answers) as Array<{ question_id: string; value: unknown }>;
    const answered = [...new Set(answers.filter((a) => a.value !== null && a.value !== '').map((a) => a.question_id))];
    for (const q of answered) (out[q] ??= { answered: 0, furthest: 0 }).answered++;
    const furthest = answered.filter((q) => order.includes(q)).sort((a, b) => order.indexOf(b) - order.indexOf(a))[0];
    if (furthest) (out[furthest] ??= { answered: 0, furthest: 0 }).furthest++;
  }
  return out;
}

/** The stored per-question counters summed over days, zeros dropped. */
function questionCounters(rows: StoredRow[]): Record<string, { answered: number; furthest: number }> {
  const out: Record<string, { answered: number; furthest: number }> = {};
  for (const r of rows) {
    const e = (out[String(r.question_id)] ??= { answered: 0, furthest: 0 });
    e.answered += Number(r.answered);
    e.furthest += Number(r.furthest);
  }
  for (const k of Object.keys(out)) if (!out[k]!.answered && !out[k]!.furthest) delete out[k];
  return out;
}

/** The rollup's rows by day, numbers as numbers, rows of all zeros dropped (they count as absent). */
function rollup(rows: StoredRow[]): Record<string, DayCounts> {
  const days: Record<string, DayCounts> = {};
  for (const r of rows) {
    const d = { total: Number(r.total), completed: Number(r.completed), seconds_sum: Number(r.seconds_sum), seconds_count: Number(r.seconds_count) };
    if (d.total || d.completed || d.seconds_sum || d.seconds_count) days[String(r.day)] = d;
  }
  return days;
}

/** What `analytics` must answer for the whole life of a form with these per-day counts. */
function expectedAnalytics(days: Record<string, DayCounts>): ResponseAnalytics {
  const keys = Object.keys(days).sort();
  const sum = (k: keyof DayCounts) => keys.reduce((n, d) => n + days[d]![k], 0);
  return {
    total: sum('total'),
    completed: sum('completed'),
    average_completion_seconds: sum('seconds_count') ? sum('seconds_sum') / sum('seconds_count') : null,
    by_day: keys.map((date) => ({ date, total: days[date]!.total, completed: days[date]!.completed })),
    questions: [],
  };
}

async function checkInStep(
  t: Parameters<Parameters<StorageTest>[1]>[0],
  db: StorageHarnessInstance,
  formId: string,
  label: string,
  order: string[] = [],
) {
  const stored = await db.probes.responses({ form_id: formId });
  const counted = recount(stored);
  t.deepEqual(rollup(await db.probes.responseDays({ form_id: formId })), counted, `${label}: the rollup equals a full recount`);
  const questions = recountQuestions(stored, order);
  t.deepEqual(questionCounters(await db.probes.questionDays({ form_id: formId })), questions, `${label}: drop-off counters equal a recount`);
  let reached = 0;
  const dropOff = order
    .map((q) => q)
    .reverse()
    .map((q) => ({ question_id: q, reached: (reached += questions[q]?.furthest ?? 0), answered: questions[q]?.answered ?? 0 }))
    .reverse();
  t.deepEqual(await db.storage.responses.analytics(formId), { ...expectedAnalytics(counted), questions: dropOff }, `${label}: analytics reads it`);
}

/** responses: the analytics rollup stays in step with every write, under concurrency, and goes with its form. */
export function analyticsRollupTests(test: StorageTest): void {
  test('responses: the analytics rollup equals a full recount after a seeded random mix of writes', async (t, db) => {
    const seed = 0x5eed14;
    const rnd = random(seed);
    const [form, other] = [makeForm(), makeForm()];
    for (const f of [form, other]) await db.storage.forms.insert(f);
    const questions = [makeQuestion(0), makeQuestion(1), makeQuestion(2), makeQuestion(3)];
    await db.storage.questions.replaceForForm(form.id, questions);
    const order = questions.map((q) => q.id);
    const otherIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = makeResponse(other.id, i * DAY);
      await db.storage.responses.insert(r);
      otherIds.push(r.id);
    }
    const live: ResponseRecord[] = [];
    const make = (): ResponseRecord => {
      const seconds = rnd.int(5) * DAY + rnd.int(DAY);
      const done = rnd.next() < 0.6;
      return makeResponse(form.id, seconds, {
        completed_at: done ? at(seconds) : null,
        completion_seconds: done ? (rnd.next() < 0.8 ? 1 + rnd.int(600) : null) : rnd.next() < 0.5 ? 77 : null,
        resume_token_hash: done ? null : 'ab'.repeat(32),
        // Respondents who stop somewhere, skip a question ('' or null) or answer one that no longer exists.
        answers: order
          .slice(0, rnd.int(order.length + 1))
          .map((q) => ({ question_id: q, value: rnd.pick<unknown>(['yes', 'no', '', null, 3]) }))
          .concat(rnd.next() < 0.1 ? [{ question_id: 'q_gone', value: 'x' }] : []),
      });
    };
    const partials = () => live.filter((r) => r.completed_at === null);

    for (let step = 0; step < 120; step++) {
      const op = rnd.int(8);
      if (op <= 1) {
        const r = make();
        await db.storage.responses.insert(r);
        live.push(r);
      } else if (op === 2) {
        // Concurrent submissions, half of them in transactions of their own.
        const batch = Array.from({ length: 6 }, make);
        await Promise.all(batch.map((r, i) => (i % 2 ? db.storage.responses.insert(r) : db.storage.transaction((tx) => tx.responses.insert(r)))));
        live.push(...batch);
      } else if (op === 3 && partials().length) {
        // A completion, possibly on another day than the partial's.
        const p = rnd.pick(partials());
        const seconds = rnd.int(5) * DAY + rnd.int(DAY);
        const patch = { answers: order.map((q) => ({ question_id: q, value: 'done' })), completed_at: at(seconds), completion_seconds: rnd.int(900), quiz_results: null, unique_visitor: null, submitted_at: at(seconds) };
        const done = await db.storage.transaction((tx) => tx.responses.updatePartial(form.id, p.id, patch));
        t.true(done, 'a partial completes');
        Object.assign(p, patch);
        t.false(await db.storage.responses.updatePartial(form.id, p.id, patch), 'a second completion changes nothing');
      } else if (op === 4 && live.length) {
        const r = live.splice(rnd.int(live.length), 1)[0]!;
        t.true(await db.storage.transaction((tx) => tx.responses.delete(form.id, r.id)));
        t.false(await db.storage.responses.delete(form.id, r.id), 'deleting twice subtracts once');
      } else if (op === 5 && live.length) {
        const chosen = new Set<string>();
        for (let i = 0, n = 1 + rnd.int(5); i < n && live.length; i++) chosen.add(live.splice(rnd.int(live.length), 1)[0]!.id);
        const n = await db.storage.transaction((tx) => tx.responses.deleteMany(form.id, [...chosen, otherIds[0]!]));
        t.is(n, chosen.size, "another form's id is not deleted");
      } else if (op === 6 && live.length) {
        await rejectsWithConflict(t, db.storage.responses.insert({ ...make(), id: rnd.pick(live).id }), 'a taken id');
      } else {
        // A transaction that submits then fails leaves the rollup as it was.
        await t.throwsAsync(
          db.storage.transaction(async (tx) => {
            await tx.responses.insert(make());
            throw new Error('rolled back');
          }),
        );
      }
    }
    t.log(`seed ${seed}: ${live.length} responses left`);
    await checkInStep(t, db, form.id, 'after the mix', order);
    await checkInStep(t, db, other.id, 'the other form');

    const counted = recount(await db.probes.responses({ form_id: form.id }));
    const days = Object.keys(counted).sort();
    const ranged = await db.storage.responses.analytics(form.id, `${days[1]}T00:00:00.000Z`, `${days[2]}T23:59:59.999Z`);
    t.deepEqual(ranged.by_day.map((d) => d.date), [days[1], days[2]], 'whole days of a range');
    t.is(ranged.total, counted[days[1]!]!.total + counted[days[2]!]!.total);

    t.true(await db.storage.forms.delete(form.id));
    t.deepEqual(await db.probes.responseDays({ form_id: form.id }), [], 'deleting the form deletes its rollup');
    t.deepEqual(await db.probes.questionDays({ form_id: form.id }), [], 'and its drop-off counters');
    await checkInStep(t, db, other.id, 'the other form after the delete');
  });

  test('responses: concurrent submissions and completions of one form are all counted once', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    const partials = Array.from({ length: 20 }, (_, i) =>
      makeResponse(form.id, i * 60, { completed_at: null, completion_seconds: null, resume_token_hash: 'cd'.repeat(32) }),
    );
    await Promise.all(partials.map((r) => db.storage.responses.insert(r)));
    const complete = (r: ResponseRecord) =>
      db.storage.transaction((tx) =>
        tx.responses.updatePartial(form.id, r.id, {
          answers: r.answers, completed_at: at(DAY + 5), completion_seconds: 12, quiz_results: null, unique_visitor: null, submitted_at: at(DAY + 5),
        }),
      );
    // Each partial is completed twice at once (exactly one wins), while fresh submissions land on both days.
    const wins = await Promise.all([
      ...partials.flatMap((r) => [complete(r), complete(r)]),
      ...Array.from({ length: 20 }, (_, i) => db.storage.responses.insert(makeResponse(form.id, (i % 2) * DAY + i)).then(() => null)),
    ]);
    t.is(wins.filter((w) => w === true).length, 20);
    await checkInStep(t, db, form.id, 'after the race');
    const a = await db.storage.responses.analytics(form.id);
    t.deepEqual([a.total, a.completed], [40, 40]);
  });

  test('responses: rebuildAnalytics recounts one form or every form from the stored responses', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    for (let i = 0; i < 5; i++) await db.storage.responses.insert(makeResponse(form.id, i * 7_000, { completion_seconds: i }));
    await db.storage.responses.rebuildAnalytics(form.id);
    await checkInStep(t, db, form.id, 'rebuilt');
    await db.storage.responses.rebuildAnalytics();
    await checkInStep(t, db, form.id, 'rebuilt with every form');
    await db.storage.responses.rebuildAnalytics(uid('frm'));
    await checkInStep(t, db, form.id, 'an unknown form changes nothing');
  });
}
