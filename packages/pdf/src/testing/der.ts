/**
 * The CMS blob inside a signature's `/Contents` hex string, cut at the length its DER header states. The
 * placeholder is padded with zeros, but a signature may itself end in zero bytes: stripping trailing `00`
 * pairs would cut those too (about one seal in 256), so outside checks read the length instead.
 */
export function derFromContents(hex: string): Buffer {
  const raw = Buffer.from(hex, 'hex');
  if (raw.length < 2) return raw;
  const first = raw[1]!;
  if (first < 0x80) return raw.subarray(0, 2 + first);
  const n = first & 0x7f;
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + raw[2 + i]!;
  return raw.subarray(0, 2 + n + length);
}
