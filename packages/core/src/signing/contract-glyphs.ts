import { badRequest } from '../errors';
import type { SignedDocumentRenderer } from '../ports/signed-documents';

/** A question as given to POST/PATCH /forms (only what the check reads). */
interface GivenQuestion {
  type?: unknown;
  properties?: Record<string, unknown> | null;
}

/**
 * What is sealed is what was signed (docs/signing.md, "Scripts and fonts"): a contract whose text has characters
 * that no font of the signed-document renderer draws is refused when the form is saved, 400 naming them, rather
 * than sealed with replacement glyphs. Skipped when the renderer cannot tell (no `unsupportedCharacters`).
 */
export async function assertContractsRenderable(renderer: SignedDocumentRenderer, questions: readonly GivenQuestion[] | undefined): Promise<void> {
  if (!questions || !renderer.unsupportedCharacters) return;
  for (const [i, question] of questions.entries()) {
    if (question.type !== 'contract') continue;
    const text = [question.properties?.document, ...(Array.isArray(question.properties?.signer_slots) ? question.properties.signer_slots.map((s: { label?: unknown }) => s?.label) : [])]
      .filter((part): part is string => typeof part === 'string')
      .join('\n');
    const missing = await renderer.unsupportedCharacters(text);
    if (missing.length === 0) continue;
    const named = missing.slice(0, 20).map((c) => `${c} (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
    throw badRequest(`questions[${i}].properties.document: these characters cannot be printed in the signed PDF: ${named.join(', ')}`, {
      field: `questions[${i}].properties.document`,
      reason: 'unsupported_characters',
      characters: missing,
    });
  }
}
