/**
 * Where report.html sends a reader for an invariant: its documentation, as a link relative to the
 * report's folder.
 *
 * Why relative, and to what: the kit has no published docs location (package.json has no
 * `homepage`; the README points at the docs site in the repository's `reports/site/`), so the only
 * targets a reader can open are files on the machine that wrote the report, found from the kit's own
 * folder (conformance/kit-root.ts):
 *
 * - in a clone, where the docs site is built and committed, the invariant's own page of the site
 *   (`reports/site/documents/invariant-J-1.html`, made by reports/site.ts);
 * - in an installed package, which ships `spec/*.md` but not `reports/` (package.json `files`), the
 *   invariant's clause in `spec/INVARIANTS.md`, with the anchor GitHub and Markdown viewers give
 *   its heading (a browser shows the file as text).
 *
 * The choice is made per invariant by whether its page exists, so a link never names a missing file
 * (and there is none when the kit's folder lacks both).
 * A report moved away from the kit (a CI artifact) keeps the links, which then lead nowhere; the
 * reason column and the one-line meaning beside them still say what the invariant is.
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import { KIT_ROOT } from "../kit-root.ts";

/** The docs site's folder in a clone (reports/site.ts builds it there). */
export const SITE_DIR_IN_KIT = "reports/site";
/** An invariant's page, relative to the site's folder (reports/site.ts puts each one there). */
export const invariantSitePage = (id: InvariantId): string => `documents/invariant-${id}.html`;
/** The normative clauses, which the package ships. */
export const INVARIANT_CLAUSES = "spec/INVARIANTS.md";

export interface DocLink {
  /** Relative to the report's folder (a file: URL when no relative path exists, e.g. another drive). */
  readonly href: string;
  readonly where: "site" | "clauses";
}

/** By invariant; null when neither the page nor the clauses exist (a kit folder missing files it ships). */
export type DocLinks = Readonly<Record<InvariantId, DocLink | null>>;

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export const headingAnchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** Each invariant's heading anchor in spec/INVARIANTS.md (`## INV-J-1 Complete at birth …`); none for a missing file or heading. */
export const clauseAnchors = (markdown: string): Partial<Record<InvariantId, string>> => {
  const out: Partial<Record<InvariantId, string>> = {};
  for (const m of markdown.matchAll(/^## (INV-([A-Z]+-?\d+)\b.*)$/gm)) {
    const id = INVARIANT_IDS.find((i) => i === m[2]);
    if (id !== undefined && out[id] === undefined) out[id] = headingAnchor(m[1] ?? "");
  }
  return out;
};

const linkTo = (fromDir: string, target: string): string => {
  const r = relative(fromDir, target);
  if (isAbsolute(r)) return pathToFileURL(target).href;
  return r.split(sep).map(encodeURIComponent).join("/");
};

/** The documentation link of every invariant, for a report written in `reportDir`, from the kit in `kitRoot`. */
export const invariantDocLinks = (reportDir: string, kitRoot: string = KIT_ROOT): DocLinks => {
  const clauses = join(kitRoot, INVARIANT_CLAUSES);
  const anchors = existsSync(clauses) ? clauseAnchors(readFileSync(clauses, "utf8")) : null;
  const entries = INVARIANT_IDS.map((id): [InvariantId, DocLink | null] => {
    const page = join(kitRoot, SITE_DIR_IN_KIT, invariantSitePage(id));
    if (existsSync(page)) return [id, { href: linkTo(reportDir, page), where: "site" }];
    if (anchors === null) return [id, null];
    const anchor = anchors[id];
    return [id, { href: `${linkTo(reportDir, clauses)}${anchor === undefined ? "" : `#${anchor}`}`, where: "clauses" }];
  });
  return Object.fromEntries(entries) as Record<InvariantId, DocLink | null>;
};
