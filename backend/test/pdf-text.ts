/**
 * The text of a PDF, for tests (dev dependency pdf-parse 1.1.1: Mozilla's pdf.js in CommonJS, no worker).
 * Its lib entry is required directly: the package's index runs a self-test when it has no parent module.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pdfParse = require('pdf-parse/lib/pdf-parse.js') as (data: Buffer) => Promise<{ text: string; numpages: number; info: Record<string, unknown> }>;

export async function pdfText(data: Buffer): Promise<{ text: string; pages: number; info: Record<string, unknown> }> {
  const out = await pdfParse(data);
  return { text: out.text, pages: out.numpages, info: out.info };
}
