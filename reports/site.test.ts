/**
 * The docs site (reports/site/, built by `npm run docs`) is committed: it must be current, and every
 * link in it must resolve — to an existing page or file, and to an existing anchor — as must every
 * link of the Markdown pages (README, the guide, the generated reports, the spec's prose).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INVARIANT_IDS } from "../spec/catalog.ts";
import { checkHtmlLinks, checkMarkdownLinks, countHtmlLinks, listFilesUnder, markdownAnchors } from "./links.ts";
import { REPO_ROOT } from "./paths.ts";
import { digestInputs, linkInvariantIds, renderSourcePage, siteInputs, SITE_DIR, SITE_INPUTS } from "./site.ts";

const SITE = join(REPO_ROOT, SITE_DIR);
const read = (f: string): string => readFileSync(join(SITE, f), "utf8");
const show = (xs: readonly { page: string; href: string; why: string }[]): string => xs.slice(0, 20).map((b) => `${b.page}: ${b.href} (${b.why})`).join("\n");

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

  it("has the guide, the invariant pages (an anchor per invariant), the error codes, the kill matrix and the spec's prose", () => {
    const docs = listFilesUnder(join(SITE, "documents"), (f) => f.endsWith(".html")).map((f) => f.slice(SITE.length + 1));
    for (const d of ["Implementer_s_guide", "The_19_invariants", "Error_codes", "Kill_matrix", "Spec__operations", "Spec__wire_protocol", "Spec__decisions"]) expect(docs).toContain(`documents/${d}.html`);
    const inv = read("documents/The_19_invariants.html");
    for (const id of INVARIANT_IDS) {
      expect(inv).toContain(`id="${id.toLowerCase()}"`);
      expect(inv).toContain(`id="${id}"`);
    }
  });

  it("cross-links by invariant id: the spec's prose and the API docs link each id to its section", () => {
    expect(read("documents/Spec__operations.html")).toContain('<a href="The_19_invariants.html#j-4">J-4</a>');
    expect(read("index.html")).toContain('<a href="documents/The_19_invariants.html#ad-3">AD-3</a>');
    const api = listFilesUnder(join(SITE, "variables"), (f) => f.endsWith(".html")).map((f) => readFileSync(f, "utf8")).join("\n");
    expect(api).toMatch(/<a href="\.\.\/documents\/The_19_invariants\.html#(?:j|s|ad|i)-?\d">/);
  });

  it("shows one title per page (no doubled heading)", () => {
    for (const page of ["index.html", "documents/The_19_invariants.html", "documents/Implementer_s_guide.html", "documents/Spec__wire_protocol.html"]) {
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
    const inv = read("documents/The_19_invariants.html");
    const m = /href="\.\.\/source\/(model\/predicates\.ts)\.html#L(\d+)"/.exec(inv);
    expect(m).not.toBeNull();
    expect(read(`source/${m?.[1] ?? ""}.html`)).toContain(`id="L${m?.[2] ?? ""}"`);
  });
});

describe("links of the Markdown pages", () => {
  it("every relative link of README, the guide, the generated reports and the spec's prose resolves", () => {
    const files = [
      join(REPO_ROOT, "README.md"),
      ...listFilesUnder(join(REPO_ROOT, "docs"), (f) => f.endsWith(".md")),
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
    writeFileSync(join(dir, "a.html"), '<p id="top"><a href="b.html">b</a> <a href="a.html#top">top</a> <a href="a.html#nowhere">x</a> <a href="c.html">c</a> <a href="https://example.org/x">ext</a></p>');
    writeFileSync(join(dir, "b.html"), '<a href="src.ts.html#L2">ok</a><a href="src.ts.html#L9">no</a>');
    writeFileSync(join(dir, "src.ts.html"), '<pre><span id="L1">a</span>\n<span id="L2">b</span></pre>');
    expect(checkHtmlLinks(dir).map((b) => `${b.page} ${b.href}`).sort()).toEqual(["a.html a.html#nowhere", "a.html c.html", "b.html src.ts.html#L9"]);
    writeFileSync(join(dir, "m.md"), "# Title\n\n## Op `a.b`\n\n[ok](#op-ab) [ok2](#title) [bad](#op-a) `[not](a link)`\n\n```\n[no](nowhere.md)\n```\n");
    expect(checkMarkdownLinks([join(dir, "m.md")], dir).map((b) => b.href)).toEqual(["#op-a"]);
    expect([...markdownAnchors("## A\n## A\n")]).toEqual(["a", "a-1"]);
  });

  it("renders a source page with one anchor per line", () => {
    const page = renderSourcePage("model/x.ts", "const a = 1;\nconst b = a < 2;\n");
    expect(page).toContain('<span id="L2"><span class="ln">2</span>const b = a &lt; 2;</span>');
    expect(page).not.toContain('id="L3"');
    expect(page).toContain('href="../../assets/style.css"');
  });

  it("links invariant ids in text, not inside links or code", () => {
    expect(linkInvariantIds('<p>J-1 and <code>S-5</code> and <a href="x">AD-3</a>, not I10</p>', "inv.html"))
      .toBe('<p><a href="inv.html#j-1">J-1</a> and <code>S-5</code> and <a href="x">AD-3</a>, not I10</p>');
  });
});
