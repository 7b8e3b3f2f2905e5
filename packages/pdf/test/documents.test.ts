/*
 * The PDF documents: layout, scripts and right-to-left text, text extraction, seals, signatures, certificate serials, voided
 * documents, tampering and the signing certificate. One test file, one process, for what were nine (issue 35,
 * docs/testing.md "Merged test files"); the parts in documents/ declare their tests as they are imported. A
 * part whose `before` hook makes its renderer and document keeps them in a context of its own
 * (helpers/own-context.ts). The PAdES levels (pades-levels.test.ts) run one at a time against a timestamp
 * authority and keep their own file.
 */
import './documents/certificate-serial';
import './documents/markdown-layout';
import './documents/right-to-left';
import './documents/scripts';
import './documents/text-extraction';
import './documents/sealed-document';
import './documents/signatures-and-text';
import './documents/signing-certificate';
import './documents/tampering';
import './documents/voided-document';
