import type { Answer, Question, QuizResults } from '../domain/types';
import { QUIZ_MODES, type QuizMode } from '../domain/form-fields';

interface Ending {
  id: string;
  min_score?: number;
  max_score?: number;
}

interface Choice {
  label: string;
  score?: number;
  ending_id?: string;
}

const norm = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const choicesOf = (q: Question) => (q.properties.choices as Choice[] | undefined) ?? [];

function isCorrect(expected: unknown, given: unknown): boolean {
  if (Array.isArray(expected) || Array.isArray(given)) {
    const a = asList(expected).map(norm).sort();
    const b = asList(given).map(norm).sort();
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return norm(expected) === norm(given);
}

function endingForScore(endings: Ending[], score: number): string | null {
  const hit = endings.find((e) => (e.min_score === undefined || score >= e.min_score) && (e.max_score === undefined || score <= e.max_score));
  return hit?.id ?? null;
}

/**
 * Quiz results (docs/decisions.md, "Responses and uploads"): knowledge quizzes score correct answers by `points`, lead
 * qualification sums the chosen choices' `score`, match quizzes pick the most chosen `ending_id` (ties to
 * the first listed ending). `null` for standard forms.
 */
export function computeQuizResults(mode: string, quizSettings: unknown, questions: Question[], answers: Answer[]): QuizResults | null {
  if (!(QUIZ_MODES as readonly string[]).includes(mode)) return null;
  const endings = (((quizSettings as { endings?: Ending[] } | null)?.endings) ?? []).filter((e) => e && typeof e.id === 'string');
  const given = new Map(answers.map((a) => [a.question_id, a.value]));
  const base = { form_mode: mode as QuizMode, score: 0, correct_answers: 0, total_scorable_questions: 0, max_score: 0, matched_ending_id: null as string | null };

  if (mode === 'knowledge_quiz') {
    for (const q of questions.filter((x) => x.properties.correct_answer !== undefined)) {
      const points = (q.properties.points as number | undefined) ?? 1;
      base.total_scorable_questions += 1;
      base.max_score += points;
      if (given.has(q.id) && isCorrect(q.properties.correct_answer, given.get(q.id))) {
        base.correct_answers += 1;
        base.score += points;
      }
    }
    base.matched_ending_id = endingForScore(endings, base.score);
    return base;
  }

  if (mode === 'lead_qualification') {
    for (const q of questions.filter((x) => choicesOf(x).some((c) => typeof c.score === 'number'))) {
      const choices = choicesOf(q);
      const scores = choices.map((c) => c.score ?? 0);
      base.total_scorable_questions += 1;
      base.max_score += q.properties.allow_multiple === true ? scores.filter((s) => s > 0).reduce((a, b) => a + b, 0) : Math.max(0, ...scores);
      const picked = asList(given.get(q.id));
      for (const c of choices) if (picked.includes(c.label)) base.score += c.score ?? 0;
      if (picked.length) base.correct_answers += 1;
    }
    base.matched_ending_id = endingForScore(endings, base.score);
    return base;
  }

  const votes = new Map<string, number>();
  for (const q of questions.filter((x) => choicesOf(x).some((c) => c.ending_id))) {
    base.total_scorable_questions += 1;
    base.max_score += 1;
    for (const c of choicesOf(q)) {
      if (c.ending_id && asList(given.get(q.id)).includes(c.label)) votes.set(c.ending_id, (votes.get(c.ending_id) ?? 0) + 1);
    }
  }
  const order = [...endings.map((e) => e.id), ...[...votes.keys()].filter((id) => !endings.some((e) => e.id === id))];
  let best: string | null = null;
  for (const id of order) if ((votes.get(id) ?? 0) > (best ? votes.get(best)! : 0)) best = id;
  base.matched_ending_id = best;
  base.score = best ? votes.get(best)! : 0;
  base.correct_answers = base.score;
  return base;
}
