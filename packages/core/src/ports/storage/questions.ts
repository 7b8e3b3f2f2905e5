import type { Question } from '../../domain/types';

/** A form's questions. Question ids are unique within their form only (a duplicated form keeps them). */
export interface QuestionRepository {
  /** The form's questions ordered by `order` (ties by id); `[]` for a form with none or no such form. */
  listByForm(formId: string): Promise<Question[]>;
  /**
   * Makes `questions` the form's exact question set: ids present are updated, new ids inserted, the form's
   * other questions deleted. Atomic on its own (readers see the old set or the new one); call it inside a
   * transaction to make it atomic with the form's update too.
   * @throws `FormloomError` BAD_REQUEST when an id appears twice in `questions`; nothing is written.
   */
  replaceForForm(formId: string, questions: Question[]): Promise<void>;
}
