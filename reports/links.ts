/**
 * A link checker for the docs: every relative link of the generated HTML site and of the Markdown
 * pages must name an existing file, and its anchor an existing id in it (an `id` attribute of an HTML
 * or SVG file; a heading's GitHub anchor or an explicit `id` of a Markdown file; `#L42` a line of a
 * source file). External links (http, https, mailto) are not fetched.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, extname, join, relative } from "node:path";
import { slug } from "./render.ts";

export interface BrokenLink {
  /** The page holding the link. */
  readonly page: string;
  readonly href: string;
  readonly why: string;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

const decodeEntities = (s: string): string =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

export const listFilesUnder = (dir: string, keep: (f: string) => boolean): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listFilesUnder(join(dir, e.name), keep) : keep(e.name) ? [join(dir, e.name)] : [],
    )
    .sort();

/** The `id` (and `name`) attributes of an HTML or SVG file. */
const htmlIds = (text: string): Set<string> =>
  new Set([...text.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((m) => decodeEntities(m[1] ?? "")));

/** Markdown without fenced code blocks and inline code spans (links there are not links). */
const withoutCode = (md: string): string =>
  md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");

/** The anchors of a Markdown file as GitHub renders it: heading slugs (numbered when repeated) and explicit ids. */
export const markdownAnchors = (md: string): Set<string> => {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const noFences = md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const m of noFences.matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const text = (m[1] ?? "")
      .replace(/`([^`]*)`/g, "$1")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "");
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    out.add(n === 0 ? base : `${base}-${n}`);
    seen.set(base, n + 1);
  }
  for (const m of md.matchAll(/\sid="([^"]+)"/g)) out.add(m[1] ?? "");
  return out;
};

/** Whether `anchor` exists in `file`, by the file's kind. */
const anchorExists = (file: string, anchor: string, cache: Map<string, Set<string>>): boolean => {
  const line = /^L(\d+)$/.exec(anchor);
  const ext = extname(file).toLowerCase();
  if (ext === ".md") {
    let ids = cache.get(file);
    if (ids === undefined) cache.set(file, (ids = markdownAnchors(readFileSync(file, "utf8"))));
    return ids.has(anchor);
  }
  if (ext === ".html" || ext === ".svg") {
    let ids = cache.get(file);
    if (ids === undefined) cache.set(file, (ids = htmlIds(readFileSync(file, "utf8"))));
    return ids.has(anchor);
  }
  if (line !== null) return Number(line[1]) >= 1 && Number(line[1]) <= readFileSync(file, "utf8").split("\n").length;
  return false;
};

const checkTarget = (page: string, raw: string, root: string, cache: Map<string, Set<string>>): BrokenLink | null => {
  const href = decodeEntities(raw.trim());
  if (href === "" || href === "#" || EXTERNAL.test(href)) return null;
  const hash = href.indexOf("#");
  const pathPart = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? null : decodeURIComponent(href.slice(hash + 1));
  const path = decodeURIComponent(pathPart.split("?")[0] ?? "");
  let target = path === "" ? page : join(dirname(page), path);
  if (!existsSync(target)) return { page: relative(root, page), href, why: "no such file" };
  if (statSync(target).isDirectory()) {
    if (anchor === null) return null;
    target = join(target, "index.html");
    if (!existsSync(target)) return { page: relative(root, page), href, why: "a directory with an anchor" };
  }
  if (anchor !== null && anchor !== "" && !anchorExists(target, anchor, cache))
    return { page: relative(root, page), href, why: `no anchor #${anchor} in ${relative(root, target)}` };
  return null;
};

/** Every broken relative link (href and src attributes) of the HTML pages under `dir`. */
export const checkHtmlLinks = (dir: string, root = dir): BrokenLink[] => {
  const cache = new Map<string, Set<string>>();
  return listFilesUnder(dir, (f) => f.endsWith(".html")).flatMap((page) =>
    [...readFileSync(page, "utf8").matchAll(/\s(?:href|src)="([^"]*)"/g)].flatMap(
      (m) => checkTarget(page, m[1] ?? "", root, cache) ?? [],
    ),
  );
};

/** Every broken relative link of some Markdown files (Markdown links and raw href attributes). */
export const checkMarkdownLinks = (files: readonly string[], root: string): BrokenLink[] => {
  const cache = new Map<string, Set<string>>();
  return files.flatMap((page) => {
    const md = withoutCode(readFileSync(page, "utf8"));
    const targets = [
      ...md.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
      ...md.matchAll(/\shref="([^"]*)"/g),
    ].map((m) => m[1] ?? "");
    return targets.flatMap((t) => checkTarget(page, t, root, cache) ?? []);
  });
};

/** How many links a set of HTML pages holds (to show the check checked something). */
export const countHtmlLinks = (dir: string): number =>
  listFilesUnder(dir, (f) => f.endsWith(".html")).reduce(
    (n, page) => n + [...readFileSync(page, "utf8").matchAll(/\s(?:href|src)="([^"]*)"/g)].length,
    0,
  );
