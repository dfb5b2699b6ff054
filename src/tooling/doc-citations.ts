import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// The docs name the tests that cover a case as `path` "test title" (docs/security.md): a title that no
// longer exists points a reader at nothing. This collects the citations and the titles the test files hold.

export type Citation = { doc: string; line: number; file: string; title: string | null };

const CITED_FILE = /`((?:src|e2e)\/[^`\s]+\.(?:test\.tsx?|spec\.ts))`/g;

/**
 * A title ends at a quote followed by the next title (`, "`), the end of the group (`;`, `,`, `)`) or of the
 * cell; so a title may itself hold quoted words ("… starts with "solid"").
 */
const QUOTED = /"(.+?)"(?=\s*(?:[;,)]|$))/g;

/** Every test file cited in a markdown text, each with the titles quoted after it (null: the file alone). */
export function citationsIn(doc: string, markdown: string): Citation[] {
  const found: Citation[] = [];
  markdown.split('\n').forEach((text, i) => {
    const files = [...text.matchAll(CITED_FILE)];
    files.forEach((m, k) => {
      const start = m.index + m[0].length;
      const next = files[k + 1]?.index ?? text.length;
      // A table cell ends the group too.
      const cell = text.indexOf('|', start);
      const group = text.slice(start, cell >= 0 && cell < next ? cell : next).trim();
      const titles = [...group.matchAll(QUOTED)].map((q) => q[1]!);
      const base = { doc, line: i + 1, file: m[1]! };
      if (titles.length === 0) found.push({ ...base, title: null });
      for (const title of titles) found.push({ ...base, title });
    });
  });
  return found;
}

const RUNNERS = new Set(['it', 'test', 'describe']);

/** The identifier a call chain starts from (`describe.skipIf(x)` -> describe) and whether it is a step. */
function runnerOf(callee: ts.Expression): string | null {
  let e = callee;
  for (;;) {
    if (ts.isCallExpression(e)) e = e.expression;
    else if (ts.isPropertyAccessExpression(e)) {
      if (e.name.text === 'step') return null;
      e = e.expression;
    } else break;
  }
  return ts.isIdentifier(e) && RUNNERS.has(e.text) ? e.text : null;
}

/**
 * The titles of every it/test/describe call in a test file's source, as written: escapes resolved, a
 * template's `${...}` kept as in the source (the docs cite it so), `%s` of `.each` too.
 */
export function testTitlesIn(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const titles: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && runnerOf(node.expression)) {
      const first = node.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
        titles.push(first.text);
      } else if (first && ts.isTemplateExpression(first)) {
        titles.push(first.getText(sf).slice(1, -1));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return titles;
}

/** Spaces collapsed and typographic apostrophes made plain, so a citation matches however it was typed. */
const normal = (s: string) =>
  s
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** Whether a cited title names one of the titles: the same text, or its start when cut short with "…". */
export function titleMatches(cited: string, titles: string[]): boolean {
  const c = normal(cited);
  if (c.endsWith('…')) {
    const start = c.slice(0, -1).trimEnd();
    return titles.some((t) => normal(t).startsWith(start));
  }
  return titles.some((t) => normal(t) === c);
}

/** Each citation in `docs/*.md` of `root` that names a missing test file or a title its file lacks. */
export function brokenCitations(root: string): string[] {
  const docsDir = join(root, 'docs');
  const titlesOf = new Map<string, string[] | null>();
  const titles = (file: string) => {
    if (!titlesOf.has(file)) {
      let source: string | null = null;
      try {
        source = readFileSync(join(root, file), 'utf8');
      } catch {
        // Reported below as a missing file.
      }
      titlesOf.set(file, source === null ? null : testTitlesIn(file, source));
    }
    return titlesOf.get(file)!;
  };
  const broken: string[] = [];
  for (const name of readdirSync(docsDir).filter((n) => n.endsWith('.md'))) {
    for (const c of citationsIn(`docs/${name}`, readFileSync(join(docsDir, name), 'utf8'))) {
      const where = `${c.doc}:${c.line}`;
      const known = titles(c.file);
      if (known === null) broken.push(`${where}: ${c.file} does not exist`);
      else if (c.title !== null && !titleMatches(c.title, known))
        broken.push(`${where}: ${c.file} has no test "${c.title}"`);
    }
  }
  return [...new Set(broken)];
}
