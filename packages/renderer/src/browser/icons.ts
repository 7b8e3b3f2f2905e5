/* Small inline SVG icons (no icon font, no requests): drawn with currentColor, hidden from assistive tech. */
const NS = 'http://www.w3.org/2000/svg';

function icon(paths: string[], cls: string): SVGSVGElement {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', cls);
  for (const d of paths) {
    const p = document.createElementNS(NS, 'path');
    p.setAttribute('d', d);
    svg.append(p);
  }
  return svg;
}

/** A circled exclamation mark, beside every error message. */
export const errorIcon = () => icon(['M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Z', 'M11 7h2v7h-2zM11 15.5h2v2h-2z'], 'fl-icon');

/** A check mark, on selected options. */
export const checkIcon = () => icon(['M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6L20.1 8.4 18.7 7z'], 'fl-icon fl-check');

/** An arrow into a tray, in the upload drop zone. */
export const uploadIcon = () => icon(['M11 15h2V7.8l3.1 3.1 1.4-1.4L12 4 6.5 9.5l1.4 1.4L11 7.8z', 'M5 17h14v2H5z'], 'fl-icon');
