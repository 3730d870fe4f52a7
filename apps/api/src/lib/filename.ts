/**
 * Bidirectional controls: the marks (LRM, RLM, ALM), the embeddings and overrides (LRE, RLE, PDF,
 * LRO, RLO) and the isolates (LRI, RLI, FSI, PDI). A right-to-left override in "invoice\u202Efdp.exe"
 * shows as "invoiceexe.pdf": in a file name it only ever serves to disguise (issue 28).
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** C0 and C1 control characters (line breaks, NUL, escape …). */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The one clean-up of a file name the portal hands out or stores — every download's
 * Content-Disposition, every e-mail attachment, every uploaded name: no bidirectional or other
 * control characters. (Path separators and length are the uploader's concern: cleanFileName.)
 */
export function safeFileName(name: string): string {
  return name.replace(BIDI_CONTROLS, '').replace(CONTROLS, '');
}
