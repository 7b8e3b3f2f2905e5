import type { SignedDocumentRenderer } from '@formloom/core';
import type * as PdfModule from '@formloom/pdf';
import { createSeal, type SealSettings } from './signing-seal';

/**
 * The signed-contract renderer, with `@formloom/pdf` (PDFKit, fonts, pkijs: about 15 MB resident) loaded at
 * its first use rather than at start (docs/benchmarks.md, "Where the memory goes"). The sealing certificate is
 * loaded, or created in the data dir, at that first use too; `ready()` does it at once (the app calls it when the
 * operator gave a P12 of their own, so a wrong file or password still stops the start).
 */
export function lazySignedDocuments(settings: SealSettings): SignedDocumentRenderer & { ready(): Promise<void> } {
  let pdf: typeof PdfModule | undefined;
  let renderer: Promise<SignedDocumentRenderer> | undefined;
  // A synchronous require: `checkSignature` is synchronous, and CommonJS loads the module in place.
  const load = (): typeof PdfModule => (pdf ??= require('@formloom/pdf') as typeof PdfModule);
  const get = (): Promise<SignedDocumentRenderer> => {
    renderer ??= createSeal(load(), settings);
    // A failed load is tried again at the next use instead of failing every later one.
    renderer.catch(() => (renderer = undefined));
    return renderer;
  };
  return {
    renderSigned: async (input) => (await get()).renderSigned(input),
    renderVoided: async (input) => (await get()).renderVoided(input),
    seal: async (document) => (await get()).seal(document),
    verify: async (bytes) => (await get()).verify(bytes),
    checkSignature: (signature) => load().checkSignature(signature),
    trustAnchor: async () => {
      const r = await get();
      return r.trustAnchorPem ?? (await r.trustAnchor?.()) ?? null;
    },
    caCrl: async () => (await (await get()).caCrl?.()) ?? null,
    unsupportedCharacters: async (text) => (await (await get()).unsupportedCharacters?.(text)) ?? [],
    ready: async () => void (await get()),
  };
}
