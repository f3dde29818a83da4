/**
 * The docs site (reports/site/, built by `npm run docs`) is committed: it must be current, and every
 * link in it must resolve — to an existing page or file, and to an existing anchor — as must every
 * link of the Markdown pages (README, the guide, the generated reports, the spec's prose).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CommentDisplayPart } from "typedoc";
import { INVARIANTS, INVARIANT_IDS, type InvariantId } from "../spec/catalog.ts";
import { invariantSitePage } from "../conformance/reporters/doc-links.ts";
import { checkHtmlLinks, checkMarkdownLinks, countHtmlLinks, listFilesUnder, markdownAnchors } from "./links.ts";
import { REPO_ROOT } from "./paths.ts";
import {
  digestInputs,
  folderPagePath,
  linkInvariantIds,
  readableTranscripts,
  relinkMediaPage,
  renderFolderPage,
  renderSourcePage,
  siteInputs,
  SITE_DIR,
  SITE_INPUTS,
} from "./site.ts";
import { indexPage, invariantOfAnchor, invariantPage, redirectScript, splitSections } from "./site-invariants.ts";

const SITE = join(REPO_ROOT, SITE_DIR);
const read = (f: string): string => readFileSync(join(SITE, f), "utf8");
const show = (xs: readonly { page: string; href: string; why: string }[]): string =>
  xs
    .slice(0, 20)
    .map((b) => `${b.page}: ${b.href} (${b.why})`)
    .join("\n");

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("the docs site (reports/site/)", () => {
  it("is current: built from the files it was built from (run `npm run docs`)", () => {
    const recorded = JSON.parse(readFileSync(join(REPO_ROOT, SITE_INPUTS), "utf8")) as Record<string, string>;
    const missing = siteInputs().filter((f) => !(f in recorded));
    expect(missing, `inputs the site was not built from: run npm run docs`).toEqual([]);
    const now = digestInputs(Object.keys(recorded));
    const changed = Object.keys(recorded).filter((f) => recorded[f] !== now[f]);
    expect(changed, `the site is stale, these inputs changed since it was built: run npm run docs`).toEqual([]);
  });

  it("every link of every page resolves, anchors included", () => {
    expect(countHtmlLinks(SITE)).toBeGreaterThan(5000);
    const broken = checkHtmlLinks(SITE);
    expect(broken, show(broken)).toEqual([]);
  });

  it("has the guide, the error codes, the kill matrix, the spec's prose, and the invariants: an index page and a page per invariant", () => {
    const docs = listFilesUnder(join(SITE, "documents"), (f) => f.endsWith(".html")).map((f) =>
      f.slice(SITE.length + 1),
    );
    for (const d of [
      "Implementer_s_guide",
      "The_19_invariants",
      "Error_codes",
      "Kill_matrix",
      "Spec__operations",
      "Spec__wire_protocol",
      "Spec__decisions",
    ])
      expect(docs).toContain(`documents/${d}.html`);
    // The names report.html links to (conformance/reporters/doc-links.ts): one page per invariant, and no other.
    expect(docs.filter((d) => d.startsWith("documents/invariant-")).sort()).toEqual(
      INVARIANT_IDS.map(invariantSitePage).sort(),
    );
    const index = read("documents/The_19_invariants.html");
    for (const inv of INVARIANTS) {
      // The index keeps both anchors of each old section (and a script sends them on), and links the page.
      expect(index).toContain(
        `<span id="${inv.id.toLowerCase()}"></span><span id="${inv.id}"></span><a href="invariant-${inv.id}.html">${inv.id}</a>`,
      );
      const page = read(invariantSitePage(inv.id));
      expect(page).toContain(`>${inv.id} ${inv.name}<a href="#`); // its heading
      expect(page).toContain(`id="${inv.id.toLowerCase()}"`);
      expect(page).toContain(`id="${inv.id}"`);
      expect(page).toContain(inv.statement.slice(0, 60));
      // Only its own section: no other invariant's statement.
      for (const other of INVARIANTS.filter((o) => o.id !== inv.id))
        expect(page, `${inv.id} holds ${other.id}'s statement`).not.toContain(`<p>${other.statement.slice(0, 60)}`);
    }
    expect(index).toContain(redirectScript());
    // The one long page is gone: the index holds no section.
    expect(index).not.toContain("Checked by.");
  });

  it("code blocks: transcripts wrap between members under a hanging indent, other code scrolls, tables scroll inside the column", () => {
    const page = read(invariantSitePage("J-1"));
    expect(page).toContain(
      '<pre class="transcript"><code class="text"><span class="line">&gt; {&quot;type&quot;:&quot;command&quot;,<wbr>&quot;id&quot;:',
    );
    expect(page).not.toContain('<pre><code class="text">');
    expect(page).toContain('href="../assets/custom.css"');
    const css = read("assets/custom.css");
    expect(css).toMatch(/\.tsd-typography pre \{[^}]*white-space: pre;[^}]*overflow-x: auto;/);
    expect(css).toMatch(/\.tsd-typography pre\.transcript \{[^}]*white-space: pre-wrap;/);
    expect(css).toMatch(/\.tsd-typography pre\.transcript \.line \{[^}]*padding-left: 2ch;[^}]*text-indent: -2ch;/);
    expect(css).toMatch(/\.tsd-typography table \{[^}]*overflow-x: auto;/);
  });

  it("cross-links by invariant id: the spec's prose and the API docs link each id to its section", () => {
    expect(read("documents/Spec__operations.html")).toContain('<a href="invariant-J-4.html">J-4</a>');
    expect(read("index.html")).toContain('<a href="documents/invariant-AD-3.html">AD-3</a>');
    const api = listFilesUnder(join(SITE, "variables"), (f) => f.endsWith(".html"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    expect(api).toMatch(/<a href="\.\.\/documents\/invariant-(?:J-|S-|AD-|I)\d\.html">/);
    // Markdown links to a section of reports/invariants.md go to the page, nowhere to the index's anchors.
    expect(read("documents/Error_codes.html")).toContain('href="invariant-J-1.html"');
    const all = listFilesUnder(SITE, (f) => f.endsWith(".html"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    expect(all).not.toMatch(/The_19_invariants\.html#(?:j|s|ad|i)-?\d"/);
    // Another invariant's id links to its page; the page's own id does not link to itself.
    const s4 = read(invariantSitePage("S-4"));
    expect(s4).toMatch(/<a href="invariant-(?!S-4)[A-Z]+-?\d\.html">/);
    expect(s4).not.toContain('<a href="invariant-S-4.html">S-4</a>');
  });

  it("shows one title per page (no doubled heading)", () => {
    for (const page of [
      "index.html",
      "documents/The_19_invariants.html",
      invariantSitePage("AD-3"),
      "documents/Implementer_s_guide.html",
      "documents/Spec__wire_protocol.html",
    ]) {
      expect(read(page).match(/<h1[\s>]/g)?.length, page).toBe(1);
    }
  });

  it("documents zod schemas by their fields and JSON Schema, not as ZodObject<…>", () => {
    const variable = read("variables/spec.Certificate.html");
    expect(variable).not.toContain("ZodObject");
    expect(variable).toContain("Certificate.schema.json");
    const alias = read("types/spec.Certificate.html");
    expect(alias).toContain("Fields");
    expect(alias).toContain("<code>certificate_version</code>");
    expect(read("variables/spec_wire.HelloResult.html")).not.toContain("ZodObject");
  });

  it("links source files to pages with line anchors", () => {
    const inv = read(invariantSitePage("J-1"));
    const m = /href="\.\.\/source\/(model\/predicates\.ts)\.html#L(\d+)"/.exec(inv);
    expect(m).not.toBeNull();
    expect(read(`source/${m?.[1] ?? ""}.html`)).toContain(`id="L${m?.[2] ?? ""}"`);
  });
});

describe("links of the Markdown pages", () => {
  it("every relative link of README, the guide, the generated reports and the spec's prose resolves", () => {
    const files = [
      join(REPO_ROOT, "README.md"),
      // docs/guide/IMPLEMENTING.src.md is the guide's source: its links are written for where it is
      // rendered, docs/IMPLEMENTING.md (reports/guide.ts), which is checked here instead.
      ...listFilesUnder(join(REPO_ROOT, "docs"), (f) => f.endsWith(".md") && !f.endsWith(".src.md")),
      ...listFilesUnder(join(REPO_ROOT, "reports"), (f) => f.endsWith(".md")).filter((f) => !f.startsWith(SITE)),
      ...listFilesUnder(join(REPO_ROOT, "spec"), (f) => f.endsWith(".md")),
    ];
    expect(files.length).toBeGreaterThan(8);
    const broken = checkMarkdownLinks(files, REPO_ROOT);
    expect(broken, show(broken)).toEqual([]);
  });
});

describe("the link checker", () => {
  it("finds a missing page, a missing anchor and a missing line, and accepts good links", () => {
    const dir = mkdtempSync(join(tmpdir(), "links-"));
    dirs.push(dir);
    writeFileSync(
      join(dir, "a.html"),
      '<p id="top"><a href="b.html">b</a> <a href="a.html#top">top</a> <a href="a.html#nowhere">x</a> <a href="c.html">c</a> <a href="https://example.org/x">ext</a></p>',
    );
    writeFileSync(join(dir, "b.html"), '<a href="src.ts.html#L2">ok</a><a href="src.ts.html#L9">no</a>');
    writeFileSync(join(dir, "src.ts.html"), '<pre><span id="L1">a</span>\n<span id="L2">b</span></pre>');
    expect(
      checkHtmlLinks(dir)
        .map((b) => `${b.page} ${b.href}`)
        .sort(),
    ).toEqual(["a.html a.html#nowhere", "a.html c.html", "b.html src.ts.html#L9"]);
    writeFileSync(
      join(dir, "m.md"),
      "# Title\n\n## Op `a.b`\n\n[ok](#op-ab) [ok2](#title) [bad](#op-a) `[not](a link)`\n\n```\n[no](nowhere.md)\n```\n",
    );
    expect(checkMarkdownLinks([join(dir, "m.md")], dir).map((b) => b.href)).toEqual(["#op-a"]);
    expect([...markdownAnchors("## A\n## A\n")]).toEqual(["a", "a-1"]);
  });

  it("renders a source page with one anchor per line", () => {
    const page = renderSourcePage("model/x.ts", "const a = 1;\nconst b = a < 2;\n");
    expect(page).toContain('<span id="L2"><span class="ln">2</span>const b = a &lt; 2;</span>');
    expect(page).not.toContain('id="L3"');
    expect(page).toContain('href="../../assets/style.css"');
  });

  it("renders a folder's page: its entries, each source file linked to its page; its digest is its list of entries", () => {
    const page = renderFolderPage("adapters/js/examples", ["a.mjs", "b.d.mts", "sub/"]);
    expect(folderPagePath("adapters/js/examples")).toBe("source/adapters/js/examples/index.html");
    expect(page).toContain(
      '<li><a href="a.mjs.html"><code>a.mjs</code></a></li><li><code>b.d.mts</code></li><li><code>sub/</code></li>',
    );
    expect(page).toContain('href="../../../../assets/style.css"');
    const dir = mkdtempSync(join(REPO_ROOT, ".tmp-site-test-"));
    dirs.push(dir);
    const rel = dir.slice(REPO_ROOT.length + 1);
    writeFileSync(join(dir, "x.ts"), "1");
    const before = digestInputs([rel])[rel];
    writeFileSync(join(dir, "x.ts"), "2");
    expect(digestInputs([rel])[rel], "a folder's digest is of its entries, not their bytes").toBe(before);
    writeFileSync(join(dir, "y.ts"), "");
    expect(digestInputs([rel])[rel], "a new entry changes it").not.toBe(before);
  });

  it("links invariant ids in text, not inside links, code or headings, and not the id the page is about", () => {
    const url = (id: InvariantId): string | null => (id === "I2" ? null : `p-${id}.html`);
    expect(
      linkInvariantIds(
        '<h2 id="x">J-2 here</h2><p>J-1 and <code>S-5</code> and <a href="x">AD-3</a>, I2, not I10</p>',
        url,
      ),
    ).toBe(
      '<h2 id="x">J-2 here</h2><p><a href="p-J-1.html">J-1</a> and <code>S-5</code> and <a href="x">AD-3</a>, I2, not I10</p>',
    );
  });

  it("splits the invariants document at its sections, and says which section is missing or doubled", () => {
    const text = (t: string): CommentDisplayPart => ({ kind: "text", text: t });
    const link: CommentDisplayPart = {
      kind: "relative-link",
      text: "mutants.md",
      target: undefined,
      targetAnchor: undefined,
    };
    const body = INVARIANT_IDS.map((id) => `## ${id}\n\n<a id="${id}"></a>\n\nabout ${id}\n\n`).join("");
    // A section's text can be cut by a link part; the intro ends where the first heading starts.
    const parts = [
      text(`# Title\n\n| [J-1](#j-1) | [S-2](#s-2) |\n\n${body.slice(0, body.indexOf("about S-1"))}`),
      link,
      text(body.slice(body.indexOf("about S-1"))),
    ];
    const { intro, sections } = splitSections(parts, "the document");
    expect(intro).toEqual([text("# Title\n\n| [J-1](#j-1) | [S-2](#s-2) |\n\n")]);
    expect([...sections.keys()]).toEqual([...INVARIANT_IDS]);
    expect(sections.get("J-2")).toEqual([text('## J-2\n\n<a id="J-2"></a>\n\nabout J-2\n\n')]);
    expect(sections.get("S-1")).toEqual([text('## S-1\n\n<a id="S-1"></a>\n\n'), link, text("about S-1\n\n")]);
    expect(() => splitSections([text(body.replace("## I3\n", "## I3x\n"))], "the document")).toThrow(
      'the document has no section "## I3"',
    );
    expect(() => splitSections([text(`${body}## AD-2\n`)], "the document")).toThrow(
      'the document has two sections "## AD-2"',
    );

    // The index: in-page links go to the pages, each keeping its two anchors.
    expect(indexPage(intro)[0]).toEqual(
      text(
        '# Title\n\n| <span id="j-1"></span><span id="J-1"></span>[J-1](invariant-J-1.html) | <span id="s-2"></span><span id="S-2"></span>[S-2](invariant-S-2.html) |\n\n',
      ),
    );
    expect(indexPage(intro)).toHaveLength(2);
    // A link whose text and anchor name different invariants is not the table's: left as it is.
    expect(indexPage([text("[J-1](#j-2)")])[0]).toEqual(text("[J-1](#j-2)"));
    // A page: the id and name as its heading, both anchors, then the previous, the index and the next.
    const index: CommentDisplayPart = {
      kind: "relative-link",
      text: "invariants.md",
      target: undefined,
      targetAnchor: undefined,
    };
    expect(invariantPage("J-2", sections.get("J-2") ?? [], index)).toEqual([
      text('# J-2 Scoped capabilities\n\n<a id="j-2"></a>\n\n<a id="J-2"></a>\n\nabout J-2\n\n'),
      text("\n\n---\n\n← [J-1 Complete at birth (janma: birth)](invariant-J-1.html) · [All 19 invariants]("),
      index,
      text(") · [J-3 Bounded lifetime (ayus: lifespan)](invariant-J-3.html) →\n"),
    ]);
    expect(invariantPage("J-1", sections.get("J-1") ?? [], index)[1]).toEqual(text("\n\n---\n\n[All 19 invariants]("));
    expect(invariantPage("I6", sections.get("I6") ?? [], index).at(-1)).toEqual(text(")\n"));
    expect(() => invariantPage("J-1", sections.get("J-2") ?? [], index)).toThrow(
      'the section of J-1 does not start with its heading "## J-1"',
    );
    expect([
      invariantOfAnchor("ad-3"),
      invariantOfAnchor("AD-3"),
      invariantOfAnchor("ad-31"),
      invariantOfAnchor("fields"),
      invariantOfAnchor(undefined),
    ]).toEqual(["AD-3", "AD-3", undefined, undefined, undefined]);
  });

  it("writes a transcript block one line per request or reply, breakable after commas, and leaves other code alone", () => {
    const html =
      '<pre><code class="text">&gt; {"a":1,"b":2}\n&lt; {"ok":true}\n</code><button>Copy</button></pre><pre><code class="sh">a,b\n</code></pre>';
    expect(readableTranscripts(html)).toBe(
      '<pre class="transcript"><code class="text"><span class="line">&gt; {"a":1,<wbr>"b":2}\n</span><span class="line">&lt; {"ok":true}\n</span></code><button>Copy</button></pre><pre><code class="sh">a,b\n</code></pre>',
    );
  });

  it("relinks a page copied into media/: a link into the site from where it was written, from media/ instead; others untouched", () => {
    const html =
      '<a href="../../../reports/site/documents/invariant-J-1.html">J-1</a> <a href="#cx-1">1</a> <a href="traces/t.json">t</a> <a href="https://x.org/a">x</a> <a href="../../../reports/site/documents/The_19_invariants.html#j-1">old</a>';
    expect(relinkMediaPage(html, "/r/docs/examples/certificate", "/r/reports/site/media", "/r/reports/site")).toBe(
      '<a href="../documents/invariant-J-1.html">J-1</a> <a href="#cx-1">1</a> <a href="traces/t.json">t</a> <a href="https://x.org/a">x</a> <a href="../documents/The_19_invariants.html#j-1">old</a>',
    );
  });
});
