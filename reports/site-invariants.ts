/**
 * The invariant pages of the docs site: reports/invariants.md (one long Markdown page, as GitHub
 * shows it) becomes an index page with its introduction and summary table, and one page per
 * invariant (`documents/invariant-J-1.html`, the name report.html links to: conformance/reporters/
 * doc-links.ts), each with its section and links to the previous and next invariant. The split is
 * made on the document TypeDoc parsed (its content parts), so every link keeps the target TypeDoc
 * resolved for it.
 *
 * Old links keep working: the index page keeps an element with each section's two anchors (`#j-1`
 * and `#J-1`), in its table row, and a small script sends such an address on to the invariant's
 * page; every link of the site and of the API docs to `invariants.md#j-1` is written to the page.
 */
import type { CommentDisplayPart } from "typedoc";
import { INVARIANTS, INVARIANT_IDS, type InvariantId } from "../spec/catalog.ts";
import { invariantSitePage } from "../conformance/reporters/doc-links.ts";

/** An invariant's page, relative to the site's `documents/` folder, where the index page is too. */
export const pageInDocuments = (id: InvariantId): string => invariantSitePage(id).replace(/^documents\//, "");

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const ID_ALTERNATION = [...INVARIANT_IDS]
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join("|");
const SECTION_HEADING = new RegExp(`^## (${ID_ALTERNATION})[ \\t]*$`, "gm");

export interface SplitDocument {
  readonly intro: CommentDisplayPart[];
  readonly sections: ReadonlyMap<InvariantId, CommentDisplayPart[]>;
}

/**
 * Splits a document's parts at its `## J-1` headings (reports/render.ts writes one per invariant):
 * what comes before the first is the introduction. Throws, naming the heading, when an invariant
 * has no section or two.
 */
export const splitSections = (parts: readonly CommentDisplayPart[], what: string): SplitDocument => {
  const intro: CommentDisplayPart[] = [];
  const sections = new Map<InvariantId, CommentDisplayPart[]>();
  let current = intro;
  for (const p of parts) {
    if (p.kind !== "text") {
      current.push(p);
      continue;
    }
    let from = 0;
    for (const m of p.text.matchAll(SECTION_HEADING)) {
      if (m.index > from) current.push({ kind: "text", text: p.text.slice(from, m.index) });
      const id = m[1] as InvariantId;
      if (sections.has(id))
        throw new Error(`${what} has two sections "## ${id}": the docs site would have two pages for it`);
      current = [];
      sections.set(id, current);
      from = m.index;
    }
    if (from < p.text.length) current.push({ kind: "text", text: p.text.slice(from) });
  }
  const missing = INVARIANT_IDS.filter((id) => !sections.has(id));
  if (missing.length > 0)
    throw new Error(
      `${what} has no section "## ${missing.join('", "## ')}" (reports/render.ts writes one per invariant): the docs site cannot have a page for it`,
    );
  return { intro, sections };
};

const nameOf = (id: InvariantId): string => INVARIANTS.find((i) => i.id === id)?.name ?? id;

/** The title an invariant's page has in the navigation and as its heading. */
export const pageTitle = (id: InvariantId): string => `${id} ${nameOf(id)}`;

/**
 * An invariant's page: its section, headed by the id and the name (with both anchors the long page
 * gave it), then links to the previous invariant, the index and the next one.
 */
export const invariantPage = (
  id: InvariantId,
  section: readonly CommentDisplayPart[],
  indexLink: CommentDisplayPart,
): CommentDisplayPart[] => {
  const [first, ...rest] = section;
  if (first?.kind !== "text" || !first.text.startsWith(`## ${id}`))
    throw new Error(`the section of ${id} does not start with its heading "## ${id}"`);
  const i = INVARIANT_IDS.indexOf(id);
  const prev = INVARIANT_IDS[i - 1];
  const next = INVARIANT_IDS[i + 1];
  return [
    {
      kind: "text",
      text: `# ${pageTitle(id)}\n\n<a id="${id.toLowerCase()}"></a>${first.text.slice(`## ${id}`.length)}`,
    },
    ...rest,
    {
      kind: "text",
      text: `\n\n---\n\n${prev === undefined ? "" : `← [${pageTitle(prev)}](${pageInDocuments(prev)}) · `}[All 19 invariants](`,
    },
    indexLink,
    { kind: "text", text: `)${next === undefined ? "" : ` · [${pageTitle(next)}](${pageInDocuments(next)}) →`}\n` },
  ];
};

/**
 * The index page: the introduction with the summary table's in-page links (`[J-1](#j-1)`) sent to
 * the invariants' pages, each row keeping the anchors `#j-1` and `#J-1` for old links, and a line
 * saying where the sections went.
 */
export const indexPage = (intro: readonly CommentDisplayPart[]): CommentDisplayPart[] => [
  ...intro.map((p) => {
    if (p.kind !== "text") return p;
    return {
      ...p,
      text: p.text.replace(
        new RegExp(`\\[(${ID_ALTERNATION})\\]\\(#(${ID_ALTERNATION.toLowerCase()})\\)`, "g"),
        (whole, id: string, anchor: string) => {
          if (id.toLowerCase() !== anchor) return whole;
          const inv = id as InvariantId;
          return `<span id="${anchor}"></span><span id="${inv}"></span>[${inv}](${pageInDocuments(inv)})`;
        },
      ),
    };
  }),
  {
    kind: "text",
    text: "\n\nIn this site each invariant's section is a page of its own: follow its id in the table, or the list under this page in the navigation.\n",
  },
];

/** The index page's script: an address with a section's anchor (`#j-1`, `#J-1`) goes on to that invariant's page. */
export const redirectScript = (): string => {
  const map = Object.fromEntries(
    INVARIANT_IDS.flatMap((id) => [
      [id, pageInDocuments(id)],
      [id.toLowerCase(), pageInDocuments(id)],
    ]),
  );
  return `<script>(function(){var p=${JSON.stringify(map)}[decodeURIComponent(location.hash.slice(1))];if(p)location.replace(p);})();</script>`;
};

/** The invariant an anchor into reports/invariants.md names (`j-1`, `J-1`), if any. */
export const invariantOfAnchor = (anchor: string | undefined): InvariantId | undefined =>
  anchor === undefined ? undefined : INVARIANT_IDS.find((id) => id.toLowerCase() === anchor.toLowerCase());
