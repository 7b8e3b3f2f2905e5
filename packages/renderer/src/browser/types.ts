import type { Translate } from './i18n/index.js';
import type { BookingApi } from './booking-types.js';

/** The public view of a form the page is given (docs/decisions.md "Public read"). */
export interface PublicQuestion {
  id: string;
  type: string;
  title: string;
  description: string | null;
  required: boolean;
  order: number;
  logic_jumps?: unknown[];
  validations?: Record<string, unknown>;
  properties: Record<string, any>;
}

export interface PublicForm {
  form_id: string;
  slug: string;
  version: number;
  title: string;
  description: string | null;
  theme: Record<string, any>;
  snapshot: Record<string, any> & { questions: PublicQuestion[] };
  /** The language the respondent reads it in (form-language.ts); sent with the response. */
  language?: string;
}

export interface SubmittedResponse {
  id: string;
  completed_at: string | null;
  quiz_results: null | { score: number; max_score: number; correct_answers: number; total_scorable_questions: number; matched_ending_id: string | null; form_mode: string };
  resume_token?: string;
}

export type Answers = Record<string, unknown>;

/** What a question control is given and gives back. */
export interface ControlContext {
  /** The page's own words in the respondent's language (i18n/). */
  t: Translate;
  value: unknown;
  set(value: unknown): void;
  /** Moves on now (Enter). */
  next(): void;
  /**
   * A single tap (or its letter key) answered the question: moves on shortly, the same way for every
   * single-tap question (choices, yes/no, rating, opinion scale, dropdown), and only if this question is still
   * the one shown when the moment comes (docs/respondents.md "Moving on").
   */
  advance(): void;
  upload(file: File, onProgress: (fraction: number) => void): Promise<{ url: string; name: string }>;
  /** The question's title element (controls are labelled by it) and its description/error ids. */
  labelledBy: string;
  describedBy: string;
  required: boolean;
  /** `items` in this respondent's order for this question (`randomize`): the same each time it is shown. */
  shuffle<T>(items: readonly T[]): T[];
  /** A payment step: saves the answers so far and asks the server for this question's payment (docs/payments.md). */
  pay?(): Promise<PaymentStart>;
  /** A booking question's slots and holds (docs/booking.md). */
  booking?: BookingApi;
  /** The page's language (dates and times are written in it). */
  lang?: string;
}

/** What `POST .../responses/:id/payment` answers: the amount the server computed and what confirms it. */
export interface PaymentStart {
  payment_id: string;
  status: string;
  amount: number;
  currency: string;
  client_secret: string | null;
  processor: string;
  publishable_key: string;
}

export interface Control {
  el: HTMLElement;
  focus(): void;
  /** For steps that are not answers (a payment): what still stops moving on, or null. */
  ready?(): string | null;
  /** Letter shortcuts and the like; true when the key was used. */
  key?(e: KeyboardEvent): boolean;
}

/** What `POST .../responses/:id/steps/:questionId` answers (docs/logic.md). */
export interface StepResult {
  question_id: string;
  type: 'email_step' | 'data';
  status: 'queued' | 'no_recipient' | 'ok' | 'failed';
  variables?: Record<string, unknown>;
  hidden?: Record<string, string>;
}
