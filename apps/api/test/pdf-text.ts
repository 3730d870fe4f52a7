import { PDFParse } from 'pdf-parse';

/** The text of a PDF, read back the way a person's viewer would (tests only). */
export async function pdfText(buf: Buffer | Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(buf) });
  try {
    const r = await parser.getText();
    return r.text;
  } finally {
    await parser.destroy();
  }
}
