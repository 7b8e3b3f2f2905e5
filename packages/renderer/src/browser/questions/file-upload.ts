import { h, uid } from '../dom.js';
import { ApiError } from '../api.js';
import { uploadIcon } from '../icons.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';

/** The server's default limit (docs/decisions.md "Answer values"). */
const DEFAULT_MAX_MB = 10;

const accepts = (types: string[], file: File) =>
  types.length === 0 || types.some((t) => (t.endsWith('/*') ? file.type.startsWith(t.slice(0, -1)) : file.type === t || file.name.toLowerCase().endsWith(t.toLowerCase())));

const WORDS: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
  'image/svg+xml': 'SVG',
  'image/*': 'images',
  'application/pdf': 'PDF',
  'text/plain': 'text',
  'text/csv': 'CSV',
  'audio/*': 'audio',
  'video/*': 'video',
  'application/zip': 'ZIP',
};

/** "PNG or JPEG up to 5 MB": the allowed types as a respondent says them. */
export function allowedInWords(types: string[], maxMb: number, or: string, upTo: (mb: number) => string): string {
  const names = [...new Set(types.map((t) => WORDS[t.toLowerCase()] ?? (t.startsWith('.') ? t.slice(1).toUpperCase() : t.split('/').pop()!.toUpperCase())))];
  const list = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${or} ${names[names.length - 1]}`;
  return `${list ? `${list} ` : ''}${upTo(maxMb)}`.replace(/^./, (c) => c.toUpperCase());
}

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * file_upload: a drop zone (tap to choose, or drag a file onto it) that says what is allowed in words,
 * checks size and type before sending, uploads through the public upload endpoint with a progress bar,
 * then shows the file (a preview for images) with a Remove button. The answer is `{url, name}`.
 */
export function fileControl(q: PublicQuestion, ctx: ControlContext): Control {
  const maxMb = Number(q.properties.max_size_mb ?? DEFAULT_MAX_MB);
  const types = (q.properties.allowed_types ?? []) as string[];
  const hintId = uid('hint');
  const input = h('input', {
    type: 'file',
    class: 'fl-sr fl-file',
    accept: types.length ? types.join(',') : undefined,
    'aria-labelledby': ctx.labelledBy,
    'aria-describedby': `${hintId} ${ctx.describedBy}`,
    'aria-required': ctx.required ? 'true' : undefined,
  });
  const words = allowedInWords(types, maxMb, ctx.t('or'), (mb) => ctx.t('up_to', { mb }));
  const hint = h('span', { id: hintId, class: 'fl-hint' }, words);
  // "or drag it here" is hidden on touch screens (formloom.css): a phone has nothing to drag.
  const zone = h('label', { class: 'fl-drop' }, input, uploadIcon(), h('span', {}, h('strong', {}, ctx.t('choose_file')), h('span', { class: 'fl-or-drag' }, ` ${ctx.t('or_drag')}`)), hint);
  const card = h('div', { class: 'fl-file-card', hidden: true });
  const status = h('p', { class: 'fl-file-status fl-sr', role: 'status' });
  let preview: string | null = null;
  const wrap = h('div', { class: 'fl-upload' });
  /**
   * Whether the focus is in this control. Hiding the focused drop zone (a file was chosen) or replacing the
   * focused Remove button (the upload finished) would drop the focus to the top of the page (issue 34):
   * the control puts it on what replaced them instead.
   */
  const hasFocus = () => {
    const active = (wrap.getRootNode() as Document | ShadowRoot).activeElement;
    return !!active && wrap.contains(active);
  };

  const showCard = (name: string, detail: string, file: File | null, progress: HTMLProgressElement | null) => {
    const focused = hasFocus();
    if (preview) URL.revokeObjectURL(preview);
    preview = file && file.type.startsWith('image/') ? URL.createObjectURL(file) : null;
    const remove = h('button', { type: 'button', class: 'fl-remove' }, ctx.t('remove'));
    remove.addEventListener('click', () => {
      input.value = '';
      ctx.set(null);
      card.hidden = true;
      zone.hidden = false;
      status.textContent = `${name}: ${ctx.t('remove')}`;
      input.focus();
    });
    card.replaceChildren(
      preview ? h('img', { src: preview, alt: '' }) : '',
      h('div', { class: 'fl-file-meta' }, h('div', { class: 'fl-file-name' }, name), h('div', { class: 'fl-hint' }, detail), progress ?? ''),
      remove,
    );
    card.hidden = false;
    zone.hidden = true;
    if (focused) remove.focus();
  };
  const problem = (text: string) => {
    const focused = hasFocus();
    input.value = '';
    card.hidden = true;
    zone.hidden = false;
    ctx.set({ error: text });
    if (focused) input.focus();
  };
  const take = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > maxMb * 1024 * 1024) return problem(ctx.t('error_too_large', { mb: maxMb }));
    if (!accepts(types, file)) return problem(`${ctx.t('error_type')}: ${words}`);
    const progress = h('progress', { max: 1, value: 0, 'aria-label': ctx.t('upload_progress') });
    showCard(file.name, `${size(file.size)} · ${ctx.t('uploading')}`, file, progress);
    status.textContent = `${file.name}: ${ctx.t('uploading')}`;
    ctx.set({ pending: true });
    try {
      const uploaded = await ctx.upload(file, (f) => (progress.value = f));
      status.textContent = `${uploaded.name}: ${ctx.t('uploaded')}`;
      showCard(uploaded.name, `${size(file.size)} · ${ctx.t('uploaded')}`, file, null);
      ctx.set(uploaded);
    } catch (e) {
      const err = e as ApiError;
      if (err.status === 413) problem(ctx.t('error_too_large', { mb: maxMb }));
      else if (err.status === 415) problem(ctx.t('error_type'));
      else problem(err.offline ? ctx.t('error_upload_lost') : err.message);
    }
  };
  input.addEventListener('change', () => void take(input.files?.[0]));
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('fl-over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('fl-over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('fl-over');
    void take(e.dataTransfer?.files?.[0]);
  });
  const current = ctx.value as { name?: string; url?: string } | null;
  if (current?.name && current.url) showCard(current.name, ctx.t('uploaded'), null, null);
  wrap.append(zone, card, status);
  return { el: wrap, focus: () => (zone.hidden ? card.querySelector('button')?.focus() : input.focus()) };
}
