/*
 * The question kinds whose code is not in the respondent's script but in a second bundle beside it, fetched
 * when a form has one (docs/respondents.md "Speed"; docs/decisions.md "Respondent page"): most forms never take
 * a payment or book a time, and their code (with Stripe's loader) was an eighth of the script. Shared by the
 * page (which loads the bundle) and the server (whose `/f/` page preloads it for such a form).
 */

/** Kinds answered with the on-demand bundle's controls. */
export const ON_DEMAND_KINDS: readonly string[] = ['payment', 'booking'];

interface QuestionLike {
  type?: unknown;
  properties?: unknown;
}

/** Whether a form's questions (a composite's component forms' questions included) need the on-demand bundle. */
export function needsOnDemand(questions: readonly QuestionLike[] | undefined): boolean {
  return (questions ?? []).some((q) => {
    if (ON_DEMAND_KINDS.includes(String(q?.type))) return true;
    const components = (q?.properties as { components?: Array<{ questions?: QuestionLike[] }> } | undefined)?.components;
    return Array.isArray(components) && components.some((c) => Array.isArray(c?.questions) && needsOnDemand(c.questions));
  });
}
