/*
 * What an uploaded logo is, read from its bytes (docs/decisions.md, Workspace, "Logo upload"): the declared type
 * and the file name prove nothing. PNG, JPEG and WebP are recognised by their signatures; an SVG is text that
 * must be a plain drawing: anything that could run, fetch or embed (scripts, event attributes, links outside the
 * file, foreign objects, entities, style sheets) refuses it. We refuse rather than rewrite: a sanitiser that
 * drops parts changes the drawing without the owner seeing why, and a refusal says what to fix.
 */

export interface LogoKind {
  /** The content type it is stored and served with. */
  type: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';
  ext: 'png' | 'jpg' | 'webp' | 'svg';
}

/** The types a logo may be (also what the upload route documents). */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as const;

const startsWith = (data: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);

/** The raster kind the bytes start with, or null. */
export function rasterKind(data: Uint8Array): LogoKind | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { type: 'image/png', ext: 'png' };
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { type: 'image/jpeg', ext: 'jpg' };
  // RIFF <size> WEBP
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) return { type: 'image/webp', ext: 'webp' };
  return null;
}

/** Elements an SVG logo may hold: shapes, text, gradients, patterns, clips, masks, filters' common primitives. */
const SVG_ELEMENTS = new Set(
  [
    'svg', 'g', 'defs', 'title', 'desc', 'metadata', 'symbol', 'use', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
    'text', 'tspan', 'textpath', 'lineargradient', 'radialgradient', 'stop', 'clippath', 'mask', 'pattern', 'marker', 'filter',
    'fegaussianblur', 'feoffset', 'feblend', 'fecolormatrix', 'feflood', 'fecomposite', 'femerge', 'femergenode', 'fedropshadow',
  ],
);

/**
 * Why this text is not a safe SVG logo, or null when it is one. The checks are on the markup's names, so a
 * hidden `<script>` in any case, namespace prefix or CDATA trick is caught: every element must be on the list,
 * no attribute may start with `on`, every `href` must point inside the file (`#id`), and no DOCTYPE (entities),
 * processing instruction other than the XML declaration, or `url(` to anything but `#id` may appear.
 */
export function svgProblem(text: string): string | null {
  const body = text.replace(/^\uFEFF/, '').trim();
  if (!/^(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(body)) return 'it is not an SVG image (it must start with <svg)';
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) return 'it declares a DOCTYPE or entities';
  if (/<!\[CDATA\[/i.test(body)) return 'it holds a CDATA section';
  if (/<\?(?!xml\s)/i.test(body.replace(/^<\?xml[^>]*\?>/i, ''))) return 'it holds a processing instruction';
  const noComments = body.replace(/<!--[\s\S]*?-->/g, '');
  for (const m of noComments.matchAll(/<\/?\s*([A-Za-z_][\w.:-]*)/g)) {
    const name = m[1]!.toLowerCase().replace(/^svg:/, '');
    if (!SVG_ELEMENTS.has(name)) return `it holds a <${m[1]}> element, which a logo may not have (scripts, links, images, foreign content and styles are refused)`;
  }
  for (const m of noComments.matchAll(/\s([A-Za-z_][\w.:-]*)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/g)) {
    const attr = m[1]!.toLowerCase();
    const value = m[2]!.replace(/^["']|["']$/g, '').trim();
    if (attr.startsWith('on')) return `it has an event attribute (${m[1]})`;
    if ((attr === 'href' || attr.endsWith(':href')) && !/^#[\w.-]+$/.test(value)) return 'it links outside itself (an href that is not #id)';
    const urls = value.match(/url\s*\(/gi)?.length ?? 0;
    const inside = [...value.matchAll(/url\s*\(\s*['"]?#[\w.-]+['"]?\s*\)/gi)].length;
    if (urls !== inside) return 'it refers to something outside itself (url(...) that is not #id)';
    if (/javascript:|data:/i.test(value)) return 'it has a javascript: or data: value';
  }
  return null;
}
