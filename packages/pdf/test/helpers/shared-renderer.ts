import { createPdfDocumentRenderer, createSelfSignedP12 } from '../../src';

export type Renderer = ReturnType<typeof createPdfDocumentRenderer>;

let shared: Renderer | undefined;

/**
 * One renderer for the parts of documents.test.ts whose checks do not depend on whose seal it is (layout,
 * scripts, right-to-left text, signatures, tampering, voided documents), made at the first call. Each renderer
 * costs an RSA-2048 key (about 0.2 CPU-seconds) and its own parse of the 16 fonts as documents use them; an
 * instance's renderer also serves many documents for its whole life, so sharing one is what production does.
 * The parts that check the seal's name or password (sealed-document), another instance's seal, or a renderer's
 * first documents (text-extraction) keep a renderer of their own.
 */
export function sharedRenderer(): Renderer {
  shared ??= createPdfDocumentRenderer({ p12: createSelfSignedP12({ commonName: 'Formloom Documents Test' }) });
  return shared;
}
