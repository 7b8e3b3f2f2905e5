/*
 * Colour arithmetic shared by the pages router (the page's own colours before the element runs) and the
 * element (the theme's derived colours): WCAG relative luminance and contrast, on `#rgb`/`#rrggbb` colours.
 * Pure: no DOM, no Node.
 */
export const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

function channels(hex: string): [number, number, number] {
  let s = hex.slice(1);
  if (s.length <= 4) s = [...s].map((c) => c + c).join('');
  return [0, 2, 4].map((i) => parseInt(s.slice(i, i + 2), 16)) as [number, number, number];
}

export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m);
  return (x! + 0.05) / (y! + 0.05);
}

/** The readable one of white and near-black on `bg`; large text (buttons) needs 3:1, other text 4.5:1. */
export const readableOn = (bg: string, large = false) => (contrast('#ffffff', bg) >= (large ? 3 : 4.5) ? '#ffffff' : '#111111');

const hex = (rgb: number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/**
 * A colour of `hue`'s family with at least `min` contrast on `bg`: `hue` mixed towards black (light
 * backgrounds) or white (dark ones) in small steps until it reads. Errors use it with red, so that they
 * are red in the form's own light or dark, whatever the device's setting.
 */
export function readableTint(hue: string, bg: string, min = 4.5): string {
  const base = channels(hue);
  const towards = luminance(bg) > 0.18 ? 0 : 255;
  for (let k = 0; k <= 20; k++) {
    const c = hex(base.map((v) => v + ((towards - v) * k) / 20));
    if (contrast(c, bg) >= min) return c;
  }
  return readableOn(bg);
}
