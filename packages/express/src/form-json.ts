import { randomInt } from 'node:crypto';

/*
 * The JSON of `GET /forms/:id`, kept between reads (docs/benchmarks.md, "Session 9"). Reads of one cached
 * revision share its presentation, whose `questions` array stands for it (FormService.get, formEtag), and
 * differ only in `response_count`: the JSON is kept as the bytes before and after the count, and a read
 * writes those around its own count instead of serializing the whole form again.
 */

interface Template {
  head: Buffer;
  tail: Buffer;
}

export class FormJsonMemo {
  private readonly templates = new WeakMap<object, Template | null>();
  /** A count no form holds (a form's count is a whole number under 2^53), to find where the count goes. */
  private readonly mark = randomInt(2 ** 40, 2 ** 47) + 0.5;

  /** `JSON.stringify(form)` as bytes, from the kept template when the form's revision has one; else null. */
  serialize(form: Record<string, unknown>): Buffer | null {
    const questions = form.questions;
    const count = form.response_count;
    if (typeof questions !== 'object' || questions === null || typeof count !== 'number' || !Number.isSafeInteger(count)) return null;
    let template = this.templates.get(questions);
    if (template === undefined) this.templates.set(questions, (template = this.templateOf(form)));
    if (!template) return null;
    return Buffer.concat([template.head, Buffer.from(String(count), 'latin1'), template.tail]);
  }

  private templateOf(form: Record<string, unknown>): Template | null {
    const text = JSON.stringify({ ...form, response_count: this.mark });
    const slot = `"response_count":${this.mark}`;
    const at = text.indexOf(slot);
    // The mark must be found once only: otherwise serialize each read as before.
    if (at < 0 || text.indexOf(slot, at + 1) >= 0) return null;
    const countAt = at + '"response_count":'.length;
    return { head: Buffer.from(text.slice(0, countAt), 'utf8'), tail: Buffer.from(text.slice(countAt + String(this.mark).length), 'utf8') };
  }
}
