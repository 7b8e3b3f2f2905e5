import { html, nothing, type TemplateResult } from 'lit';
import { DOWNLOAD_FORMATS, audioUrl, type Generation } from '../../data/voice';
import { plural, when } from './voice-styles';

/** What a clip is called on screen: its Library title, else its voice and length. */
export function clipName(g: Generation): string {
  return g.title?.trim() || `${g.voice.name}, ${plural(g.characters, 'character')}`;
}

const STATUS: Record<Generation['status'], string> = { ready: 'ready', rendering: 'being made', partial: 'some lines failed', failed: 'failed' };

/**
 * One generation: name, what it cost, the player and a download link per format (docs/voice.md, "Audio
 * formats"), and the actions the caller passes (retake, delete). The audio is the API's own URL: the session
 * cookie goes with it, as with every call of the workspace.
 */
export function generationView(g: Generation, actions: TemplateResult | typeof nothing = nothing, heading: 'h2' | 'h3' = 'h3'): TemplateResult {
  const name = clipName(g);
  const title = heading === 'h2' ? html`<h2 tabindex="-1">${name}</h2>` : html`<h3>${name}</h3>`;
  const credits = g.reused ? 'reused: 0 credits' : g.credits.charged === 0 && g.status === 'failed' ? 'credited back' : plural(g.credits.charged, 'credit');
  return html`<article class="gen" aria-label=${name}>
    ${title}
    <p class="meta">
      ${g.voice.name} · ${g.language} · ${plural(g.characters, 'character')} · ${credits}${g.audio?.duration_seconds != null ? html` · ${g.audio.duration_seconds.toFixed(1)} s` : nothing}
      · ${when(g.created_at)}
      ${g.status !== 'ready' ? html` <span class="badge ${g.status === 'failed' ? 'failed' : ''}">${STATUS[g.status]}</span>` : nothing}
    </p>
    ${g.audio
      ? html`<audio controls preload="none" src=${audioUrl(g, g.audio.format)} aria-label=${`Play ${name}`}></audio>
          <ul class="downloads" aria-label=${`Download ${name}`}>
            <li class="meta" aria-hidden="true">Download</li>
            ${DOWNLOAD_FORMATS.map(([f, label]) => html`<li><a href=${audioUrl(g, f)} download aria-label=${`${label} (download)`}>${label}</a></li>`)}
          </ul>`
      : html`<p class="meta">${g.status === 'rendering' ? 'The audio is being made.' : g.status === 'failed' ? 'No audio: nothing was charged.' : 'The audio was deleted after its retention period.'}</p>`}
    ${g.lines?.length
      ? html`<details><summary>Script lines</summary><ol>${g.lines.map((l) => html`<li>${l.text === null ? `Pause, ${((l.end_ms ?? 0) - (l.start_ms ?? 0)) / 1000} s` : `${l.speaker ? `${l.speaker}: ` : ''}${l.text}`}${l.status === 'failed' ? ' (failed, credited back)' : ''}</li>`)}</ol></details>`
      : nothing}
    ${actions}
  </article>`;
}
