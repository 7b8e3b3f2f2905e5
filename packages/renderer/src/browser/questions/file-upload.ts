import { h, uid } from '../dom.js';
import { ApiError } from '../api.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';

/** The server's default limit (docs/decisions.md "Answer values"). */
const DEFAULT_MAX_MB = 10;

const accepts = (types: string[], file: File) =>
  types.length === 0 || types.some((t) => (t.endsWith('/*') ? file.type.startsWith(t.slice(0, -1)) : file.type === t || file.name.toLowerCase().endsWith(t.toLowerCase())));

/**
 * file_upload: picks a file, checks its size and type against the question's limits (shown beside the
 * field), uploads it through the public upload endpoint with a progress bar; the answer is `{url, name}`.
 */
export function fileControl(q: PublicQuestion, ctx: ControlContext): Control {
  const maxMb = Number(q.properties.max_size_mb ?? DEFAULT_MAX_MB);
  const types = (q.properties.allowed_types ?? []) as string[];
  const hintId = uid('hint');
  const input = h('input', {
    type: 'file',
    class: 'fl-file',
    accept: types.length ? types.join(',') : undefined,
    'aria-labelledby': ctx.labelledBy,
    'aria-describedby': `${hintId} ${ctx.describedBy}`,
    'aria-required': ctx.required ? 'true' : undefined,
  });
  const progress = h('progress', { max: 1, value: 0, hidden: true, 'aria-label': 'Upload progress' });
  const status = h('p', { class: 'fl-file-status', role: 'status' });
  const current = ctx.value as { name?: string } | null;
  if (current?.name) status.textContent = `Uploaded: ${current.name}`;
  const problem = (text: string) => {
    status.textContent = '';
    input.value = '';
    input.setCustomValidity(text);
    ctx.set({ error: text });
  };
  input.addEventListener('change', async () => {
    input.setCustomValidity('');
    const file = input.files?.[0];
    if (!file) return ctx.set(null);
    if (file.size > maxMb * 1024 * 1024) return problem(`This file is too large: files may be at most ${maxMb} MB`);
    if (!accepts(types, file)) return problem(`This type of file is not accepted (${types.join(', ')})`);
    progress.hidden = false;
    progress.value = 0;
    status.textContent = `Uploading ${file.name}…`;
    ctx.set({ pending: true });
    try {
      const uploaded = await ctx.upload(file, (f) => (progress.value = f));
      progress.value = 1;
      status.textContent = `Uploaded: ${uploaded.name}`;
      ctx.set(uploaded);
    } catch (e) {
      progress.hidden = true;
      const err = e as ApiError;
      if (err.status === 413) problem(`This file is too large: files may be at most ${maxMb} MB`);
      else if (err.status === 415) problem('This type of file is not accepted');
      else problem(err.offline ? 'The connection was lost during the upload: choose the file again to retry' : err.message);
    }
  });
  const hint = h('p', { id: hintId, class: 'fl-hint' }, `Up to ${maxMb} MB${types.length ? `; ${types.join(', ')}` : ''}`);
  return { el: h('div', { class: 'fl-upload' }, input, hint, progress, status), focus: () => input.focus() };
}
