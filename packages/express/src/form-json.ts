import { randomInt } from 'node:crypto';

/*
 * The JSON of `GET /forms/:id`, kept between reads (docs/benchmarks.md, "The cached read"). Reads of one cached
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
  private readonly slab = new Slab();

  /** `JSON.stringify(form)` as bytes, from the kept template when the form's revision has one; else null. */
  serialize(form: Record<string, unknown>): Buffer | null {
    const questions = form.questions;
    const count = form.response_count;
    if (typeof questions !== 'object' || questions === null || typeof count !== 'number' || !Number.isSafeInteger(count)) return null;
    let template = this.templates.get(questions);
    if (template === undefined) this.templates.set(questions, (template = this.templateOf(form)));
    if (!template) return null;
    const digits = String(count);
    const size = template.head.length + digits.length + template.tail.length;
    const out = this.slab.take(size);
    out.set(template.head, 0);
    const at = template.head.length + out.write(digits, template.head.length, 'latin1');
    out.set(template.tail, at);
    return out;
  }

  private templateOf(form: Record<string, unknown>): Template | null {
    const text = JSON.stringify({ ...form, response_count: this.mark });
    const slot = `"response_count":${this.mark}`;
    const at = text.indexOf(slot);
    // The mark must be found once only: otherwise serialize each read as before.
    if (at < 0 || text.indexOf(slot, at + 1) >= 0) return null;
    const countAt = at + '"response_count":'.length;
    const head = text.slice(0, countAt);
    const tail = text.slice(countAt + String(this.mark).length);
    // One buffer of its own: `Buffer.from` of a short string takes a slice of Node's shared 8 kB pool, and a
    // kept slice holds the whole slab (with 1,000 forms kept, 8 MB for 4 MB of JSON).
    const headBytes = Buffer.byteLength(head, 'utf8');
    const bytes = Buffer.allocUnsafeSlow(headBytes + Buffer.byteLength(tail, 'utf8'));
    bytes.write(head, 0, 'utf8');
    bytes.write(tail, headBytes, 'utf8');
    return { head: bytes.subarray(0, headBytes), tail: bytes.subarray(headBytes) };
  }
}

/**
 * Bodies of reads carved out of 64 kB slabs of this memo's own, as Node's shared pool does for buffers
 * under 4 kB. A form's JSON is usually a little over 4 kB: each read then had a backing store of its own,
 * allocated and freed outside the JavaScript heap (one slab for every dozen reads measured 17% more reads a
 * second at 50 connections: docs/benchmarks.md, "The cached read"). A slab lives as long as the last body cut
 * from it is being written.
 */
class Slab {
  private static readonly SIZE = 64 * 1024;
  private buf = Buffer.allocUnsafeSlow(Slab.SIZE);
  private used = 0;

  take(size: number): Buffer {
    if (size > Slab.SIZE / 4) return Buffer.allocUnsafe(size);
    if (this.used + size > Slab.SIZE) {
      this.buf = Buffer.allocUnsafeSlow(Slab.SIZE);
      this.used = 0;
    }
    const out = this.buf.subarray(this.used, this.used + size);
    // Eight-byte steps, as Node's pool, so that each body starts aligned.
    this.used += (size + 7) & ~7;
    return out;
  }
}
