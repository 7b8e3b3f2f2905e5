/**
 * The seal's signature field, written by pdfkit: a certification signature (DocMDP, P 1: no changes allowed)
 * whose `/ByteRange` and `/Contents` are filled in by `sealPdf`, with a visible widget on the certificate page.
 * See docs/signing.md, "The seal".
 */

/** What `/ByteRange` holds until the seal is computed: four fields wide enough for any offset. */
export const BYTE_RANGE_PLACEHOLDER = '**********';

export interface SealAppearance {
  /** Lines drawn in the widget, e.g. `Sealed by example.com`, the time, the fingerprint. */
  lines: string[];
  /** Top-left corner and size in pdfkit's coordinates (points, y down) on the current page. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SealPlaceholderOptions {
  /** The claimed signing time (`/M`); PAdES keeps it out of the CMS. */
  signingTime: Date;
  /** Bytes reserved for the CMS blob. */
  signatureLength: number;
  /** Shown by viewers as the signer's name. */
  name: string;
  appearance: SealAppearance;
}

/** Latin-1 only, as the appearance uses the standard Helvetica: anything else prints as `?`. */
function literal(text: string): string {
  const latin = [...text].map((ch) => (ch.codePointAt(0)! <= 0xff ? ch : '?')).join('');
  return `(${latin.replace(/[\\()]/g, (ch) => `\\${ch}`).replace(/[\r\n]/g, ' ')})`;
}

/**
 * Adds the signature dictionary, the certification entry in the catalog (`/Perms /DocMDP`) and the visible
 * widget on the current page. Call on the last page, just before `end()`.
 */
export function addSealPlaceholder(doc: PDFKit.PDFDocument, options: SealPlaceholderOptions): void {
  const { appearance } = options;
  const signature = doc.ref({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    ByteRange: [0, BYTE_RANGE_PLACEHOLDER, BYTE_RANGE_PLACEHOLDER, BYTE_RANGE_PLACEHOLDER],
    Contents: Buffer.alloc(options.signatureLength),
    M: options.signingTime,
    Name: new String(options.name),
    Reason: new String('Sealed record of an electronic signing session'),
    Reference: [
      {
        Type: 'SigRef',
        TransformMethod: 'DocMDP',
        TransformParams: { Type: 'TransformParams', P: 1, V: '1.2' },
      },
    ],
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' }, App: { Name: 'Formloom' } },
  });
  signature.end(undefined);

  const font = doc.ref({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' });
  font.end(undefined);
  const { width, height } = appearance;
  const xobject = doc.ref({
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, width, height],
    Resources: { Font: { Helv: font } },
  });
  const size = 8;
  const lead = 11;
  const content = [
    'q 0.94 0.96 1 rg 0.2 0.3 0.55 RG 1 w',
    `0.5 0.5 ${width - 1} ${height - 1} re B`,
    '0.1 0.15 0.35 rg BT',
    ...appearance.lines.map((line, i) => `/Helv ${i === 0 ? size + 2 : size} Tf 1 0 0 1 8 ${height - 16 - i * lead} Tm ${literal(line)} Tj`),
    'ET Q',
  ].join('\n');
  xobject.end(content);

  const catalog = (doc as unknown as { _root: PDFKit.PDFKitReference & { data: Record<string, unknown> } })._root;
  const withForm = doc as unknown as { _acroform?: unknown; initForm(): void };
  if (!withForm._acroform) withForm.initForm();
  const form = catalog.data.AcroForm as { data: { Fields: unknown[]; DR?: unknown } };
  form.data = { Type: 'AcroForm', SigFlags: 3, Fields: form.data.Fields, DR: form.data.DR } as typeof form.data;
  const pageHeight = doc.page.height;
  const widget = doc.ref({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    F: 4 | 128, // print, locked
    Rect: [appearance.x, pageHeight - appearance.y - height, appearance.x + width, pageHeight - appearance.y],
    V: signature,
    T: new String('Seal'),
    P: doc.page.dictionary,
    AP: { N: xobject },
  });
  widget.end(undefined);
  (doc.page as unknown as { annotations: unknown[] }).annotations.push(widget);
  form.data.Fields.push(widget);
  catalog.data.Perms = { DocMDP: signature };
}
