// The documentation's pages (scripts/docs.ts: a short README routing to one page per audience):
// every link to a file or a heading resolves, sizes use one unit, no figure is typed where a
// generated one belongs, and no word from the project's own history (an issue number, "the seed")
// is left for a reader who cannot know it. The generated tables themselves are checked against the
// build by package-cdn.test.ts (page weight) and package-manifest.test.ts (element reference).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { IDLE_ENTRY_BUDGET_GZIP } from '../../scripts/build-sizes.js';
import { DOC_PAGES, readDoc, type DocPage } from '../../scripts/docs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The page without its code blocks (a `#` line in a shell block is not a heading, a `](x)` in code not a link). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (match[1] ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every Markdown link of a page outside code: [text](target). */
function linksOf(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

/** The problems of one page's links: files that do not exist, headings that are not there. */
export function danglingLinks(
  page: string,
  text: string,
  anchorsOfFile: (path: string) => Set<string> | null,
): string[] {
  const problems: string[] = [];
  for (const target of linksOf(text)) {
    if (/^[a-z]+:/i.test(target)) continue;
    const [path = '', fragment] = target.split('#');
    const file = path === '' ? page : normalize(join(dirname(page), path));
    if (!existsSync(join(ROOT, file))) {
      problems.push(`${page}: ${target} (no file ${file})`);
      continue;
    }
    if (fragment === undefined) continue;
    const anchors = anchorsOfFile(file);
    if (anchors && !anchors.has(fragment)) problems.push(`${page}: ${target} (no heading #${fragment} in ${file})`);
  }
  return problems;
}

const markdownAnchors = (file: string): Set<string> | null =>
  file.endsWith('.md')
    ? anchorsOf((DOC_PAGES as readonly string[]).includes(file) ? readDoc(file as DocPage) : '')
    : null;

test('every link in the docs (and ARCHITECTURE.md) reaches a file that exists, and a heading that exists', () => {
  const problems = [
    ...DOC_PAGES.flatMap((page) => danglingLinks(page, readDoc(page), markdownAnchors)),
    ...danglingLinks('ARCHITECTURE.md', readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'), markdownAnchors),
  ];
  assert.deepEqual(problems, []);
});

test('the check itself: a link to a missing page or heading is caught', () => {
  const text = '# Title\n\n## A section\n\nSee [here](#a-section), [there](#gone) and [a page](docs/nowhere.md).\n';
  assert.deepEqual(
    danglingLinks('README.md', text, (file) => (file === 'README.md' ? anchorsOf(text) : null)),
    ['README.md: #gone (no heading #gone in README.md)', 'README.md: docs/nowhere.md (no file docs/nowhere.md)'],
  );
});

test('the README routes to every page, and every page is reachable from it', () => {
  const readme = readDoc('README.md');
  for (const page of DOC_PAGES.filter((page) => page !== 'README.md')) {
    assert.ok(linksOf(readme).includes(page), `README.md links to ${page}`);
  }
  assert.ok(readme.split('\n').length < 200, 'the README stays short: the rest is on the pages');
});

test('sizes in one unit (B and KiB), and no measured size typed outside a generated table', () => {
  for (const page of DOC_PAGES) {
    // Outside the generated page-weight table, which gives B and KiB for each file.
    const text = prose(readDoc(page)).replace(/<!-- cdn-sizes:start[\s\S]*?<!-- cdn-sizes:end -->/g, '');
    const units = [...text.matchAll(/\b\d[\d.,]* ?(kB|KB|MB|mb|kb)\b/g)].map((match) => match[0]);
    assert.deepEqual(units, [], `${page}: write sizes in B or KiB`);
    // A gzip size other than the idle entry's target (12 KiB) or its tested budget would be a figure of one past build.
    const gzip = [...text.matchAll(/\b(\d+(?:\.\d+)?) ?KiB gzip\b/g)].map((match) => match[0]);
    assert.ok(
      gzip.every((figure) => figure === '12 KiB gzip' || figure === `${IDLE_ENTRY_BUDGET_GZIP / 1024} KiB gzip`),
      `${page}: ${gzip.join(', ')}: cite the generated table, not a build's size`,
    );
  }
});

test('no word from the project history a reader cannot know', () => {
  for (const page of DOC_PAGES) {
    const text = readDoc(page);
    for (const pattern of [/\bissue \d+/i, /\bthe seed\b/i, /<!-- SECTIONS -->/, /\bThree parts\b/]) {
      assert.doesNotMatch(text, pattern, `${page} says ${pattern}`);
    }
  }
});
