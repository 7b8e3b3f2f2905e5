import { ApiError, type Api } from '../../data/client';
import { getForm, updateForm, type Form, type Question } from '../../data/forms';
import { renameIds } from './form-ids';
import { History, type EditOptions, type Step } from './history';
import { graft, savable } from './draft-hold';
import { mergeForms, type MergeResult, type Side } from '../../../../core/src/forms/form-merge.js';

export { tempId, renameIds } from './form-ids';

/*
 * The form being edited and its autosave (docs/workspace.md, "Saving"). Every edit changes `draft` at once
 * (screens and the preview follow it) and schedules a save; saves go out one at a time with the ETag last
 * read as `If-Match`, so another tab's save since then is a conflict (412) shown to the owner, never an
 * overwrite. New questions carry temporary ids until the server names them; a save maps them back.
 *
 * Edits are recorded in `history` (./history.ts) unless they say `capture: 'never'`; what comes from
 * elsewhere (the server's answer to a save, `replace`, `reload`) is never recorded, and a save never touches
 * the stacks. Unfinished parts (a question without a title, an empty choice) stay in the browser until they
 * are finished (./draft-hold.ts): a save sends the draft without them.
 */

export type SaveState = 'saved' | 'saving' | 'pending' | 'failed' | 'conflict';

/** Fields of the full form that are never sent back (read-only, or changed by their own endpoints). */
export const READ_ONLY = ['id', 'slug', 'created_at', 'updated_at', 'has_unpublished_changes', 'published_version_id', 'response_count', 'published', 'team_id', 'questions', 'show_question_nav', 'version', 'publish_error'];
const SAVE_DELAY_MS = 700;
/** How long after each transient failure in a row a save is tried again by itself. */
const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15000];
/** No answer (status 0), too many requests, or a server or gateway that is briefly unavailable. */
const TRANSIENT = (status: number) => status === 0 || status === 429 || status === 502 || status === 503 || status === 504;

/** The body of `PUT /forms/:id` for a draft: every writable field and the whole question list. */
export function saveBody(draft: Form): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(draft)) if (!READ_ONLY.includes(k)) body[k] = v;
  body.questions = draft.questions.map(({ order: _order, ...q }) => q);
  return body;
}

export class FormStore extends EventTarget {
  draft!: Form;
  /** The form as the server last answered it to this tab: the common ancestor of a two-tab merge. */
  base!: Form;
  etag: string | null = null;
  /** After a 412 whose merge has conflicts: the server's form and tag, until the person chose (`resolve`). */
  conflict: { theirs: Form; etag: string | null; taken: MergeResult<Form>['taken'] } | null = null;
  /** A viewer's store: edits are ignored and nothing is ever saved (docs/teams.md, roles). */
  readOnly = false;
  state: SaveState = 'saved';
  error = '';
  /** Bumped on every edit, so a save can tell whether the draft moved on while it ran. */
  private revision = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | null = null;
  /** Transient failures in a row of the current draft (reset by a save that succeeds). */
  private retries = 0;
  /** Stable keys of questions across their renaming (temporary id -> server id), for keyed lists. */
  private keys = new Map<string, string>();

  constructor(
    readonly api: Api,
    readonly formId: string,
  ) {
    super();
  }

  /** The undo and redo stacks of this draft. */
  readonly history = new History();

  async load(): Promise<void> {
    const { form, etag } = await getForm(this.api, this.formId);
    this.draft = form;
    this.base = form;
    this.etag = etag;
    this.conflict = null;
    this.set('saved');
  }

  /**
   * Applies an edit now and saves it soon. The edit is a step of the history unless `capture` is 'never';
   * edits naming the same `group` in a row are one step (see ./history.ts).
   */
  update(change: (f: Form) => Form, opts: EditOptions = {}): void {
    const before = this.draft;
    if (this.readOnly) return;
    const after = change(before);
    if (after === before) return;
    if (opts.capture !== 'never') this.history.record(before, after, opts);
    this.apply(after);
  }

  /** Takes back the last step; returns it (null when there was none). */
  undo(): Step | null {
    const r = this.history.undo(this.draft);
    if (r) this.apply(r.form, r.step);
    return r?.step ?? null;
  }

  /** Makes the last undone step again. */
  redo(): Step | null {
    const r = this.history.redo(this.draft);
    if (r) this.apply(r.form, r.step);
    return r?.step ?? null;
  }

  private apply(next: Form, step?: Step) {
    this.draft = next;
    this.revision += 1;
    this.emitChange(new Map(), step);
    if (this.state === 'conflict') return;
    this.schedule(SAVE_DELAY_MS);
  }

  /** A key that stays the same for a question when the server renames its temporary id. */
  keyOf(id: string): string {
    return this.keys.get(id) ?? id;
  }

  updateQuestion(id: string, patch: Partial<Question>, opts: EditOptions = {}): void {
    this.update((f) => ({ ...f, questions: f.questions.map((q) => (q.id === id ? { ...q, ...patch } : q)) }), opts);
  }

  /** Saves what is pending now (also the retry after a failure). */
  async save(): Promise<void> {
    clearTimeout(this.timer);
    if (this.running) return this.running.then(() => (this.state === 'pending' ? this.save() : undefined));
    if (this.state === 'saved' || this.state === 'conflict' || this.readOnly) return;
    this.running = this.send().finally(() => (this.running = null));
    return this.running;
  }

  private async send(): Promise<void> {
    const sentRevision = this.revision;
    const sent = this.draft;
    const { form: body } = savable(sent);
    this.set('saving');
    try {
      const { form, etag } = await updateForm(this.api, this.formId, saveBody(body), this.etag);
      this.etag = etag;
      this.base = form;
      const ids = new Map<string, string>();
      body.questions.forEach((q, i) => form.questions[i] && q.id !== form.questions[i].id && ids.set(q.id, form.questions[i].id));
      this.history.rename(ids);
      if (this.revision === sentRevision) {
        // The server's answer, with what was held back (unfinished questions, empty choices) at its places.
        this.draft = renameIds(graft(sent, form), ids);
        this.emitChange(ids);
        this.set('saved');
      } else {
        // The owner kept typing: keep their newer draft, with the server's names for new questions.
        this.draft = { ...renameIds(this.draft, ids), has_unpublished_changes: form.has_unpublished_changes, updated_at: form.updated_at };
        this.emitChange(ids);
        this.schedule(SAVE_DELAY_MS);
      }
      this.retries = 0;
    } catch (e) {
      const err = e as ApiError;
      if (err.status === 412) return this.merge(err.message);
      // The owner kept editing while this save ran: the newer draft may well be valid, so it is sent next
      // instead of stopping at this failure (whose draft is already out of date).
      if (this.revision !== sentRevision) return this.schedule(0);
      this.error = err.message;
      this.set('failed');
      // A failure of the network or of a busy server passes: tried again, later each time, while shown.
      if (TRANSIENT(err.status) && this.retries < RETRY_DELAYS_MS.length) this.saveIn(RETRY_DELAYS_MS[this.retries++]!);
    }
  }

  /**
   * Another tab or person saved since this tab's last read (412): the server's form is merged with this
   * draft field by field (core/src/forms/form-merge.ts). Without conflicts the result is saved at once;
   * with some, the rest of the merge is in the draft and the builder asks (`conflict`, then `resolve`). The merge is not a step of the history.
   */
  private async merge(message: string): Promise<void> {
    let latest: { form: Form; etag: string | null };
    try {
      latest = await getForm(this.api, this.formId);
    } catch {
      // The form could not be read back (deleted, offline): only "Load the latest version" is left.
      this.error = message;
      return this.set('conflict');
    }
    const result = this.mergeWith(latest.form);
    if (result.conflicts.length) {
      // Their changes that touch nothing of mine show at once; what both changed stays mine until chosen.
      // Merging the result again with the same base and theirs finds the same conflicts (form-merge.ts).
      this.conflict = { theirs: latest.form, etag: latest.etag, taken: result.taken };
      this.draft = result.form;
      this.revision += 1;
      this.error = message;
      this.set('conflict');
      return this.emitChange();
    }
    this.adopt(result.form, latest.form, latest.etag);
    this.dispatchEvent(new CustomEvent('merged', { detail: result }));
  }

  /** The merge of this draft with `theirs` (the open conflict's by default), with the sides chosen so far. */
  mergeWith(theirs = this.conflict?.theirs ?? this.base, choose?: (id: string) => Side): MergeResult<Form> {
    return mergeForms(this.base, this.draft, theirs, { serverFields: READ_ONLY.filter((k) => k !== 'questions'), choose });
  }

  /** Ends the open conflict with the side chosen for each (mine where none is) and saves the result. */
  resolve(choose: (id: string) => Side): void {
    const c = this.conflict;
    if (!c) return;
    const result = this.mergeWith(c.theirs, choose);
    this.adopt(result.form, c.theirs, c.etag);
  }

  private adopt(merged: Form, theirs: Form, etag: string | null) {
    this.conflict = null;
    this.base = theirs;
    this.etag = etag;
    this.draft = merged;
    this.revision += 1;
    this.emitChange();
    this.schedule(0);
  }

  /** Marks the draft pending and saves it after `delayMs`. */
  private schedule(delayMs: number) {
    this.set('pending');
    this.saveIn(delayMs);
  }

  private saveIn(delayMs: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.save(), delayMs);
  }

  /** After another save, the form as it is now and its tag; the caller confirms first when edits would be lost. */
  async reload(): Promise<void> {
    clearTimeout(this.timer);
    await this.load();
    this.revision += 1;
    this.emitChange();
  }

  /** Takes the server's answer of another write (publish, theme, restore) as the new state. */
  replace(form: Form, etag: string | null): void {
    this.draft = form;
    this.base = form;
    if (etag) this.etag = etag;
    this.revision += 1;
    this.emitChange();
  }

  /** Waits until nothing is pending (before publishing, for instance); false when saving failed. */
  async flush(): Promise<boolean> {
    await this.save();
    return this.state === 'saved';
  }

  private set(state: SaveState) {
    this.state = state;
    if (state !== 'failed' && state !== 'conflict') this.error = '';
    this.dispatchEvent(new Event('state'));
  }

  /** `step`: the history step just undone or redone, when that is what changed the draft. */
  private emitChange(renamed = new Map<string, string>(), step?: Step) {
    for (const [from, to] of renamed) this.keys.set(to, this.keyOf(from));
    this.dispatchEvent(new CustomEvent('change', { detail: { renamed, step } }));
  }
}
