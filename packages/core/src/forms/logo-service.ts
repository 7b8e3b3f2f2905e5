import { createHash } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { badRequest, FormloomError, notFound } from '../errors';
import type { Principal } from '../domain/types';
import { openBlobStream, type BlobReadStream, type BlobStore } from '../ports/blob-store';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { named } from '../api-schemas';
import { authorizeForm } from './form-access';
import { LOGO_TYPES, rasterKind, svgProblem, type LogoKind } from './logo-content';

/** The largest logo accepted (docs/decisions.md, Workspace, "Logo upload"): enough for a sharp logo, small enough for a fast first screen. */
export const LOGO_MAX_BYTES = 1024 * 1024;

/** A stored logo's blob key: `logos/<form id>/<first 32 hex of its SHA-256>.<ext>`. */
const LOGO_KEY = /^logos\/([A-Za-z0-9_]+)\/([0-9a-f]{32})\.(png|jpg|webp|svg)$/;

/** The body of `POST /forms/:id/logos`: one part named `file`. */
export const logoBodySchema = z.object({
  file: z
    .file()
    .describe(
      `The logo, the body's only file part: a PNG, JPEG, WebP or SVG image of at most ${LOGO_MAX_BYTES} bytes (413). Its bytes decide what it is, not its name or declared type: anything else is 415. An SVG must be a plain drawing: scripts, event attributes, links or references outside the file, foreign objects, style elements, DOCTYPE and entities are refused (415, reason \`unsafe_svg\`), not rewritten`,
    ),
});

export const logoOut = named(
  'Logo',
  z.object({
    url: z.string().describe("Where respondents load it: put it in the theme's `top_logo_url` or `branding_logo_url`. The name carries a hash of the content, so it is served `immutable`"),
    content_type: z.enum(LOGO_TYPES),
    size: z.number().int().describe('Bytes'),
  }),
);

const unsupported = (message: string, reason: string) =>
  new FormloomError('UNSUPPORTED_MEDIA_TYPE', message, { reason, allowed_types: [...LOGO_TYPES] });

/**
 * Logos an owner uploads for a form's theme (docs/workspace.md "Theme"), kept in the blob store under the form's
 * `logos/` folder and named by their content: the same file uploaded twice is one blob, and a URL never shows
 * other bytes than it did, so browsers and proxies may keep it for a year. A logo stays while its form exists
 * (a published version may still show one the draft no longer names); the form's deletion removes the folder.
 */
@injectable()
export class LogoService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
  ) {}

  /** Checks that `principal` may edit the form's theme: before a byte of the body is read. */
  async authorize(principal: Principal, formId: string): Promise<void> {
    await authorizeForm(this.storage, principal, formId, 'edit');
  }

  /** A declared part type that cannot be a logo is refused before reading (the bytes are checked again). */
  assertDeclaredType(type: string): void {
    const t = type.split(';')[0]!.trim().toLowerCase();
    if (t && t !== 'application/octet-stream' && !(LOGO_TYPES as readonly string[]).includes(t)) {
      throw unsupported(`A logo must be a PNG, JPEG, WebP or SVG image, not ${t}`, 'not_an_image');
    }
  }

  /**
   * Reads the file (at most `LOGO_MAX_BYTES`: 413 at once past it), decides its kind from its bytes and stores
   * it. Returns the blob key, kind and size; nothing is stored for a refused file.
   */
  async store(formId: string, source: AsyncIterable<Uint8Array>): Promise<{ key: string; kind: LogoKind; size: number }> {
    const pieces: Uint8Array[] = [];
    let size = 0;
    for await (const piece of source) {
      size += piece.byteLength;
      if (size > LOGO_MAX_BYTES) throw new FormloomError('PAYLOAD_TOO_LARGE', `A logo may be at most ${LOGO_MAX_BYTES / 1024 / 1024} MB`, { reason: 'file_too_large' });
      pieces.push(piece.slice());
    }
    if (size === 0) throw badRequest('file: the file is empty', { field: 'file' });
    const data = Buffer.concat(pieces, size);
    const kind = rasterKind(data) ?? this.svgKind(data);
    const hash = createHash('sha256').update(data).digest('hex').slice(0, 32);
    const key = `logos/${formId}/${hash}.${kind.ext}`;
    await this.blobs.put(key, data, kind.type);
    return { key, kind, size };
  }

  private svgKind(data: Buffer): LogoKind {
    const head = data.subarray(0, 512).toString('utf8');
    if (!/<svg[\s>]/i.test(head) || data.includes(0)) {
      throw unsupported('A logo must be a PNG, JPEG, WebP or SVG image: this file is none of them (its content was checked, not its name)', 'not_an_image');
    }
    const problem = svgProblem(data.toString('utf8'));
    if (problem) throw unsupported(`This SVG cannot be a logo: ${problem}. Export it as a plain drawing, or as PNG`, 'unsafe_svg');
    return { type: 'image/svg+xml', ext: 'svg' };
  }

  /** A stored logo for serving, by form id and file name (`<hash>.<ext>`); 404 when there is none. */
  async open(formId: string, file: string): Promise<BlobReadStream> {
    const key = `logos/${formId}/${file}`;
    if (!LOGO_KEY.test(key)) throw notFound('Logo');
    const blob = await openBlobStream(this.blobs, key);
    if (!blob) throw notFound('Logo');
    return blob;
  }
}
