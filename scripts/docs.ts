// The documentation's pages: a short README that routes to one page per audience (docs/). Scripts
// that splice generated tables into them, and tests that check what they say, find each section
// here: the page-weight table and the element reference are in docs/embedding.md.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DOC_PAGES = [
  'README.md',
  'docs/embedding.md',
  'docs/companion.md',
  'docs/emulator.md',
  'docs/development.md',
] as const;

export type DocPage = (typeof DOC_PAGES)[number];

/** The page with the generated page-weight table (scripts/build-sizes.ts --readme). */
export const SIZES_PAGE: DocPage = 'docs/embedding.md';
/** The page with the generated element reference (scripts/build-manifest.ts --readme). */
export const REFERENCE_PAGE: DocPage = 'docs/embedding.md';

/** A page's path on disk. */
export function docPath(page: DocPage): string {
  return fileURLToPath(new URL(`../${page}`, import.meta.url));
}

export function readDoc(page: DocPage): string {
  return readFileSync(docPath(page), 'utf8');
}

/** Every page, one after the other: for checks of what the documentation says, wherever it says it. */
export function readDocs(): string {
  return DOC_PAGES.map(readDoc).join('\n');
}
