/**
 * Builds the docs site (`npm run docs` runs it after reports/generate.ts): TypeDoc's API docs of the
 * spec, the wire protocol, the model and the implementation's in-process API, together with the
 * kit's Markdown as project documents (the implementer's guide, the invariant pages, the error
 * codes, the kill matrix and the spec's prose), into `reports/site/`. Options are in typedoc.json;
 * this script adds what a plain `typedoc` run lacks:
 *
 * - zod schemas are documented by their fields (reports/schema-docs.ts) with a link to their JSON
 *   Schema, instead of their `ZodObject<…>` type;
 * - the invariant pages are one page per invariant, with an index page (reports/site-invariants.ts),
 *   instead of one page some 100,000 px tall; every mention of an invariant id in a comment or a
 *   document, and every link to `invariants.md#j-1`, goes to the invariant's page;
 * - code blocks stay inside the page (reports/site.css): a transcript line (one JSON request or
 *   reply, often hundreds of characters) wraps at its commas under a hanging indent, other code
 *   keeps its lines and scrolls sideways, and a wide table scrolls inside the column;
 * - the readme's title is dropped on the index page, where TypeDoc already prints the project's name
 *   (no doubled heading), and documents get readable names in the navigation;
 * - links to source files (a test, a model guard, `file.ts#L42`) go to a page of the file with line
 *   anchors under `source/`, instead of a raw copy in `media/`; a link to a folder (the guide's
 *   `adapters/python/examples/`) goes to a page listing its files, which TypeDoc cannot copy;
 * - `reports/site/site-inputs.json` records a digest of every input, so a test can tell a stale site.
 *
 * reports/site.test.ts checks that every link of the site resolves.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import type { z } from "zod";
import {
  Application,
  Comment,
  Converter,
  DeclarationReflection,
  DocumentReflection,
  KindRouter,
  MarkdownEvent,
  normalizePath,
  ProjectReflection,
  ReferenceType,
  ReflectionKind,
  UnknownType,
  type CommentDisplayPart,
  type Context,
  type Reflection,
  type RouterTarget,
} from "typedoc";
import { INVARIANT_IDS, type InvariantId } from "../spec/catalog.ts";
import { invariantSitePage } from "../conformance/reporters/doc-links.ts";
import { REPO_ROOT } from "./paths.ts";
import { describeSchema, describeSchemaMap, type SchemaPart } from "./schema-docs.ts";
import {
  indexPage,
  invariantOfAnchor,
  invariantPage,
  pageTitle,
  redirectScript,
  splitSections,
} from "./site-invariants.ts";

export const SITE_DIR = "reports/site";
export const SITE_INPUTS = `${SITE_DIR}/site-inputs.json`;

/** The names the documents get in the site's navigation, by source file. */
export const DOCUMENT_NAMES: Readonly<Record<string, string>> = {
  "docs/IMPLEMENTING.md": "Implementer's guide",
  "docs/SHARDING.md": "Sharded campaigns",
  "reports/invariants.md": "The 19 invariants",
  "reports/error-codes.md": "Error codes",
  "reports/mutants.md": "Kill matrix",
  "spec/README.md": "Spec: overview",
  "spec/INVARIANTS.md": "Spec: invariant clauses",
  "spec/OPERATIONS.md": "Spec: operations",
  "spec/DECISIONS.md": "Spec: decisions",
  "spec/ENCODING.md": "Spec: encoding and digests",
  "spec/wire/PROTOCOL.md": "Spec: wire protocol",
};

const INVARIANTS_DOC = "reports/invariants.md";
/** The site's own style sheet (TypeDoc's `customCss`), after TypeDoc's. */
const SITE_CSS = "reports/site.css";

/** Every file the site is built from: what typedoc.json names, the sources it documents, this builder. */
export const siteInputs = (): string[] => {
  const walk = (dir: string): string[] =>
    readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? walk(`${dir}/${e.name}`)
        : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")
          ? [`${dir}/${e.name}`]
          : [],
    );
  return [
    "typedoc.json",
    "README.md",
    ...Object.keys(DOCUMENT_NAMES),
    "reports/site.ts",
    "reports/schema-docs.ts",
    "reports/site-invariants.ts",
    SITE_CSS,
    "conformance/reporters/doc-links.ts",
    ...walk("spec"),
    ...walk("model"),
    ...walk("impl").filter((f) => !f.startsWith("impl/test/")),
  ].sort();
};

/** The SHA-256 of each input: of a file's bytes, of a folder's list of entries (a folder page shows that list). */
export const digestInputs = (files: readonly string[]): Record<string, string> =>
  Object.fromEntries(
    files.map((f) => {
      const path = join(REPO_ROOT, f);
      const bytes = statSync(path).isDirectory() ? JSON.stringify(folderEntries(path)) : readFileSync(path);
      return [f, createHash("sha256").update(bytes).digest("hex")];
    }),
  );

// --- zod schemas --------------------------------------------------------------------------------

/** The runtime modules behind the entry points, by TypeDoc module name, to find each schema's value. */
const runtimeModules = async (): Promise<Record<string, Record<string, unknown>>> => ({
  spec: (await import("../spec/index.ts")) as Record<string, unknown>,
  "spec/wire": (await import("../spec/wire/index.ts")) as Record<string, unknown>,
  model: (await import("../model/index.ts")) as Record<string, unknown>,
});

const isZod = (v: unknown): v is z.ZodType =>
  typeof v === "object" && v !== null && "_zod" in v && typeof (v as { safeParse?: unknown }).safeParse === "function";

const isSchemaMap = (v: unknown): v is Record<string, z.ZodType> =>
  typeof v === "object" &&
  v !== null &&
  !isZod(v) &&
  Object.getPrototypeOf(v) === Object.prototype &&
  Object.keys(v).length > 0 &&
  Object.values(v).every(isZod);

const JSON_SCHEMA_DIRS: Readonly<Record<string, string>> = {
  spec: "spec/json-schema",
  "spec/wire": "spec/json-schema/wire",
};

const documentSchemas = (project: ProjectReflection, modules: Record<string, Record<string, unknown>>): void => {
  const byName = (name: string, kind: ReflectionKind): DeclarationReflection | undefined =>
    project
      .getReflectionsByKind(kind)
      .find((r): r is DeclarationReflection => r instanceof DeclarationReflection && r.name === name);
  const toParts = (parts: readonly SchemaPart[]): CommentDisplayPart[] =>
    parts.map((p) => {
      if (p.kind === "text") return { kind: "text", text: p.text };
      const target = byName(p.name, ReflectionKind.TypeAlias) ?? byName(p.name, ReflectionKind.Variable);
      return target === undefined
        ? { kind: "code", text: `\`${p.name}\`` }
        : { kind: "inline-tag", tag: "@link", text: p.name, target };
    });
  const append = (r: Reflection, parts: CommentDisplayPart[]): void => {
    r.comment ??= new Comment([]);
    r.comment.summary.push(
      ...(r.comment.summary.length > 0 ? [{ kind: "text", text: "\n\n" } as const] : []),
      ...parts,
    );
  };
  for (const v of project.getReflectionsByKind(ReflectionKind.Variable)) {
    if (!(v instanceof DeclarationReflection) || v.parent === undefined) continue;
    const value = modules[v.parent.name]?.[v.name];
    if (isSchemaMap(value)) {
      v.type = new UnknownType("{ readonly [name: string]: z.ZodType }");
      delete v.defaultValue;
      append(v, toParts(describeSchemaMap(value)));
      continue;
    }
    if (!isZod(value)) continue;
    const alias = byName(v.name, ReflectionKind.TypeAlias);
    const dir = JSON_SCHEMA_DIRS[v.parent.name];
    const schemaFile = dir === undefined ? null : `${dir}/${v.name}.schema.json`;
    const jsonSchema = (lead: string): CommentDisplayPart[] =>
      schemaFile === null || !existsSync(join(REPO_ROOT, schemaFile))
        ? []
        : [
            { kind: "text", text: `${lead}[` },
            { kind: "code", text: `\`${schemaFile}\`` },
            { kind: "text", text: "](" },
            {
              kind: "relative-link",
              text: schemaFile,
              targetAnchor: undefined,
              target: project.files.registerAbsolute(normalizePath(join(REPO_ROOT, schemaFile))).target,
            },
            { kind: "text", text: ")." },
          ];
    const fields = toParts(describeSchema(value));
    // The constant's type: the schema of its inferred type, not zod's nested generic.
    v.type = ReferenceType.createBrokenReference("z.ZodType", project, "zod");
    if (alias !== undefined) v.type.typeArguments = [ReferenceType.createResolvedReference(alias.name, alias, project)];
    delete v.defaultValue;
    append(v, [
      { kind: "text", text: "A zod schema: `parse` and `safeParse` validate a value against it" },
      ...(alias === undefined
        ? [{ kind: "text", text: "." } as const]
        : [
            { kind: "text", text: "; its type is " } as const,
            { kind: "inline-tag", tag: "@link", text: alias.name, target: alias } as const,
            { kind: "text", text: "." } as const,
          ]),
      ...jsonSchema(" Its JSON Schema, for implementations in other languages: "),
      ...(alias === undefined ? [{ kind: "text", text: "\n\n" } as const, ...fields] : []),
    ]);
    if (alias !== undefined) append(alias, [...fields, ...jsonSchema("\n\nJSON Schema: ")]);
  }
};

// --- Documents and cross-links -------------------------------------------------------------------

const nameDocuments = (project: ProjectReflection): void => {
  for (const doc of project.getReflectionsByKind(ReflectionKind.Document)) {
    const path = project.files.getReflectionPath(doc);
    const rel = path === undefined ? undefined : posix.relative(normalizePath(REPO_ROOT), path);
    const name = rel === undefined ? undefined : DOCUMENT_NAMES[rel];
    if (name !== undefined) doc.name = name;
  }
};

// --- Source pages ---------------------------------------------------------------------------------

/** Files a page links to that are neither documents nor documented modules: shown as source pages. */
const SOURCE_EXTENSIONS = [".ts", ".mjs", ".py", ".json", ".jsonl", ".txt"];

export const sourcePagePath = (file: string): string => `source/${file}.html`;

/** A folder's page: `source/adapters/js/examples/index.html`. */
export const folderPagePath = (dir: string): string => `source/${dir}/index.html`;

/** Python's bytecode caches: written by running the examples, never a source, never linked. */
const CACHE_FOLDERS = new Set(["__pycache__"]);

/** A folder's entries, sorted, folders with a trailing slash (caches left out: a run must not make the site stale). */
const folderEntries = (path: string): string[] =>
  readdirSync(path, { withFileTypes: true })
    .filter((e) => !CACHE_FOLDERS.has(e.name))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();

const isSource = (file: string): boolean => SOURCE_EXTENSIONS.some((e) => file.endsWith(e));

export interface LinkedSources {
  /** Files with a source page, relative to the repository root. */
  readonly files: Set<string>;
  /** Folders with a page listing their entries. */
  readonly folders: Set<string>;
}

/**
 * Rewrites relative links to source files into links to their source pages, in every document, the
 * readme and every comment; returns the files linked (relative to the repository root).
 */
const linkSourcePages = (project: ProjectReflection, site: string): LinkedSources => {
  const files = new Set<string>();
  const folders = new Set<string>();
  const root = normalizePath(REPO_ROOT);
  const siteRoot = normalizePath(site);
  const rewrite = (parts: CommentDisplayPart[], depth: number, base: string): CommentDisplayPart[] =>
    parts.map((p) => {
      if (p.kind !== "relative-link") return p;
      const up = "../".repeat(depth);
      const anchor = p.targetAnchor === undefined ? "" : `#${p.targetAnchor}`;
      // A link into the site itself (the readme's link to the site's index) stays inside the site.
      const written = posix.normalize(posix.join(base, p.text.replace(/#.*$/, "")));
      if (written.startsWith(`${siteRoot}/`))
        return { kind: "text", text: `${up}${posix.relative(siteRoot, written)}${anchor}` };
      if (p.target === undefined) return p;
      const target = project.files.resolve(p.target, project);
      if (typeof target === "string" && existsSync(target) && statSync(target).isDirectory()) {
        const rel = posix.relative(root, normalizePath(target));
        folders.add(rel);
        for (const e of folderEntries(target)) if (isSource(e)) files.add(`${rel}/${e}`);
        return { kind: "text", text: `${up}${folderPagePath(rel)}` };
      }
      if (typeof target !== "string" || !isSource(target) || target.includes("/json-schema/")) return p;
      const rel = posix.relative(root, target);
      files.add(rel);
      return { kind: "text", text: `${up}${sourcePagePath(rel)}${anchor}` };
    });
  if (project.readme !== undefined) project.readme = rewrite(project.readme, 0, root);
  for (const r of Object.values(project.reflections)) {
    if (r instanceof DocumentReflection)
      r.content = rewrite(r.content, 1, posix.dirname(project.files.getReflectionPath(r) ?? `${root}/x`));
    if (r.comment !== undefined) r.comment.summary = rewrite(r.comment.summary, 1, root);
  }
  return { files, folders };
};

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A page showing one source file, each line with its anchor (`#L42`). */
export const renderSourcePage = (file: string, text: string): string => {
  const up = "../".repeat(sourcePagePath(file).split("/").length - 1);
  const lines = text.replace(/\n$/, "").split("\n");
  const width = String(lines.length).length;
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"/><title>${escapeHtml(file)}</title><link rel="stylesheet" href="${up}assets/style.css"/><link rel="stylesheet" href="${up}assets/highlight.css"/>`,
    "<style>pre.src{padding:1em;overflow-x:auto;line-height:1.45}pre.src span.ln{display:inline-block;width:" +
      `${width + 1}` +
      "ch;color:#888;user-select:none}pre.src :target{background:#ffe98a66}</style></head>",
    `<body><div class="container"><p><a href="${up}index.html">Samsara + RIPA verification kit</a> / <code>${escapeHtml(file)}</code> (${lines.length} lines)</p>`,
    `<pre class="src">${lines.map((l, i) => `<span id="L${i + 1}"><span class="ln">${i + 1}</span>${escapeHtml(l)}</span>`).join("\n")}</pre>`,
    "</div></body></html>",
    "",
  ].join("\n");
};

/** A page listing a folder's entries; a source file links to its page (which the site has: linkSourcePages adds them). */
export const renderFolderPage = (dir: string, entries: readonly string[]): string => {
  const page = folderPagePath(dir);
  const up = "../".repeat(page.split("/").length - 1);
  const item = (e: string): string =>
    isSource(e)
      ? `<li><a href="${escapeHtml(posix.relative(posix.dirname(page), sourcePagePath(`${dir}/${e}`)))}"><code>${escapeHtml(e)}</code></a></li>`
      : `<li><code>${escapeHtml(e)}</code></li>`;
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"/><title>${escapeHtml(dir)}/</title><link rel="stylesheet" href="${up}assets/style.css"/></head>`,
    `<body><div class="container"><p><a href="${up}index.html">Samsara + RIPA verification kit</a> / <code>${escapeHtml(dir)}/</code> (${entries.length} entries)</p>`,
    `<ul>${entries.map(item).join("")}</ul>`,
    "</div></body></html>",
    "",
  ].join("\n");
};

const ID_PATTERN = new RegExp(
  `(^|[^A-Za-z0-9-])(${[...INVARIANT_IDS]
    .sort((a, b) => b.length - a.length)
    .map((id) => id.replace("-", "\\-"))
    .join("|")})(?![A-Za-z0-9])`,
  "g",
);

/**
 * Links every invariant id in the text of rendered HTML (not inside links, code, headings or tags)
 * to the URL `urlOf` gives it; an id it gives null for (the page's own) stays text.
 */
export const linkInvariantIds = (html: string, urlOf: (id: InvariantId) => string | null): string => {
  let skip = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((piece) => {
      if (piece.startsWith("<")) {
        if (/^<(a|code|pre|h[1-6])[\s>]/i.test(piece)) skip++;
        else if (/^<\/(a|code|pre|h[1-6])>/i.test(piece)) skip = Math.max(0, skip - 1);
        return piece;
      }
      return skip > 0
        ? piece
        : piece.replace(ID_PATTERN, (m, before: string, id: InvariantId) => {
            const url = urlOf(id);
            return url === null ? m : `${before}<a href="${url}">${id}</a>`;
          });
    })
    .join("");
};

/**
 * Transcripts readable in the page's column: each line of a `text` code block (a `>` request or a
 * `<` reply, one JSON value) becomes a block of its own, so reports/site.css can wrap it under a
 * hanging indent, with a break opportunity after each comma, so it wraps between members rather
 * than inside a string. The text copied from the block is unchanged (`<wbr>` has none).
 */
export const readableTranscripts = (html: string): string =>
  html.replace(/<pre><code class="text">([\s\S]*?)<\/code>/g, (_m, body: string) => {
    const lines = body.replace(/\n$/, "").split("\n");
    return `<pre class="transcript"><code class="text">${lines.map((l) => `<span class="line">${l.replaceAll(",", ",<wbr>")}\n</span>`).join("")}</code>`;
  });

// --- Invariant pages -------------------------------------------------------------------------------

/**
 * Splits the invariants document into the index page and one child document per invariant
 * (reports/site-invariants.ts); returns the child documents with their invariant, which the
 * router names `documents/invariant-J-1.html`.
 */
const makeInvariantPages = (project: ProjectReflection, doc: DocumentReflection): Map<Reflection, InvariantId> => {
  const pages = new Map<Reflection, InvariantId>();
  const { intro, sections } = splitSections(doc.content, INVARIANTS_DOC);
  const file = project.files.registerAbsolute(normalizePath(join(REPO_ROOT, INVARIANTS_DOC)));
  const indexLink: CommentDisplayPart = {
    kind: "relative-link",
    text: "invariants.md",
    targetAnchor: undefined,
    target: file.target,
  };
  doc.content = indexPage(intro);
  for (const id of INVARIANT_IDS) {
    const child = new DocumentReflection(pageTitle(id), doc, invariantPage(id, sections.get(id) ?? [], indexLink), {});
    doc.addChild(child);
    project.registerReflection(child, undefined, undefined);
    pages.set(child, id);
  }
  return pages;
};

/** Rewrites every link to a section of the invariants document (`invariants.md#j-1`) into a link to the invariant's page. */
const linkInvariantPages = (project: ProjectReflection, doc: DocumentReflection): void => {
  const rewrite = (parts: CommentDisplayPart[], depth: number): CommentDisplayPart[] =>
    parts.map((p) => {
      if (p.kind !== "relative-link" || p.target === undefined) return p;
      const id = invariantOfAnchor(p.targetAnchor);
      if (id === undefined || project.files.resolve(p.target, project) !== doc) return p;
      return { kind: "text", text: `${"../".repeat(depth)}${invariantSitePage(id)}` };
    });
  if (project.readme !== undefined) project.readme = rewrite(project.readme, 0);
  for (const r of Object.values(project.reflections)) {
    if (r instanceof DocumentReflection) r.content = rewrite(r.content, 1);
    if (r.comment !== undefined) r.comment.summary = rewrite(r.comment.summary, 1);
  }
};

// --- Media ------------------------------------------------------------------------------------------

/**
 * An HTML file a page links to is copied into `media/` (the sample report.html); its relative links
 * that lead into the site (report.html's links to the invariant pages) are written again from
 * there, so they still resolve. Other relative links are left as written.
 */
export const relinkMediaPage = (html: string, sourceDir: string, mediaDir: string, siteDir: string): string =>
  html.replace(
    /(\s(?:href|src)=")([^"#:]+?)(#[^"]*)?"/g,
    (whole, attr: string, path: string, anchor: string | undefined) => {
      if (path.startsWith("/")) return whole;
      const target = posix.normalize(posix.join(sourceDir, decodeURIComponent(path)));
      if (!target.startsWith(`${siteDir}/`)) return whole;
      return `${attr}${posix.relative(mediaDir, target).split("/").map(encodeURIComponent).join("/")}${anchor ?? ""}"`;
    },
  );

interface MdToken {
  type: string;
  content: string;
  children: MdToken[] | null;
}
interface MdState {
  tokens: MdToken[];
  Token: new (type: string, tag: string, nesting: number) => MdToken;
}
interface MdParser {
  core: { ruler: { push(name: string, rule: (state: MdState) => void): void } };
}

/**
 * TypeDoc derives a heading's anchor from its text without its code spans ("OP-2.1 `janma.birth`"
 * becomes `#op-21`), GitHub from all of it (`#op-21-janmabirth`). Writing a heading's code span as
 * `<code>` around plain text makes TypeDoc's anchor GitHub's, so one link works in both places.
 */
export const headingCodeAsText = (md: MdParser): void => {
  md.core.ruler.push("srk_heading_code_as_text", (state) => {
    state.tokens.forEach((t, i) => {
      const inline = state.tokens[i + 1];
      if (t.type !== "heading_open" || inline?.children === null || inline?.children === undefined) return;
      inline.children = inline.children.flatMap((c) => {
        if (c.type !== "code_inline") return [c];
        const open = new state.Token("html_inline", "", 0);
        open.content = "<code>";
        const body = new state.Token("text", "", 0);
        body.content = c.content;
        const close = new state.Token("html_inline", "", 0);
        close.content = "</code>";
        return [open, body, close];
      });
    });
  });
};

/** Applies relinkMediaPage to each HTML file TypeDoc copied into `media/` (`names`: its name there -> its source file). */
const relinkMedia = (out: string, names: ReadonlyMap<string, string>): void => {
  const site = normalizePath(out);
  for (const [name, source] of names) {
    const page = join(out, "media", name);
    if (!name.endsWith(".html") || !existsSync(page)) continue;
    writeFileSync(
      page,
      relinkMediaPage(readFileSync(page, "utf8"), posix.dirname(normalizePath(source)), `${site}/media`, site),
    );
  }
};

/** The first `<h1>` of the readme (TypeDoc prints the project's name as the index page's title), and its anchor id. */
const TITLE = /^\s*<h1(?:\s+id="([^"]*)")?[^>]*>[\s\S]*?<\/h1>\s*/;

export const buildSite = async (out = join(REPO_ROOT, SITE_DIR)): Promise<void> => {
  const modules = await runtimeModules();
  const app = await Application.bootstrapWithPlugins({
    out,
    router: "srk-site",
    customCss: join(REPO_ROOT, SITE_CSS),
    markdownItLoader: (parser: unknown) => headingCodeAsText(parser as MdParser),
  });
  let invariantsDoc: DocumentReflection | undefined;
  let invariantPages = new Map<Reflection, InvariantId>();
  // TypeDoc's router, but an invariant's page is `documents/invariant-J-1.html` (the name report.html links to).
  app.renderer.defineRouter(
    "srk-site",
    class extends KindRouter {
      protected override getIdealBaseName(target: RouterTarget): string {
        const id = invariantPages.get(target as Reflection);
        return id === undefined
          ? super.getIdealBaseName(target as Reflection)
          : invariantSitePage(id).replace(/\.html$/, "");
      }
    },
  );
  let sources: LinkedSources = { files: new Set(), folders: new Set() };
  let media: string[] = [];
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context: Context) => {
    nameDocuments(context.project);
    documentSchemas(context.project, modules);
    sources = linkSourcePages(context.project, out);
    media = [...context.project.files.getMediaPaths()].map((p) => posix.relative(normalizePath(REPO_ROOT), p));
    invariantsDoc = context.project
      .getReflectionsByKind(ReflectionKind.Document)
      .find((d): d is DocumentReflection => d.name === DOCUMENT_NAMES[INVARIANTS_DOC]);
    if (invariantsDoc === undefined)
      throw new Error(
        `typedoc did not read ${INVARIANTS_DOC} (typedoc.json projectDocuments): the site would have no invariant pages`,
      );
    invariantPages = makeInvariantPages(context.project, invariantsDoc);
    linkInvariantPages(context.project, invariantsDoc);
  });
  app.renderer.on(MarkdownEvent.PARSE, (event: MarkdownEvent) => {
    const page = event.page;
    // The index page prints the project's name as its title, then the readme, whose own title is the same.
    const title =
      page.model instanceof ProjectReflection && event.originalText.trimStart().startsWith("# ")
        ? TITLE.exec(event.parsedText)
        : null;
    if (title !== null) {
      // Drop the doubled title, and its entry in the page's table of contents.
      event.parsedText = event.parsedText.slice(title[0].length);
      const i = page.pageHeadings.findIndex((h) => h.level === 1 && h.link === `#${title[1] ?? ""}`);
      if (i >= 0) page.pageHeadings.splice(i, 1);
    }
    const own = invariantPages.get(page.model as Reflection);
    event.parsedText = readableTranscripts(
      linkInvariantIds(event.parsedText, (id) =>
        id === own ? null : posix.relative(posix.dirname(page.url), invariantSitePage(id)),
      ),
    );
    if (page.model === invariantsDoc) event.parsedText += redirectScript();
  });
  const project = await app.convert();
  if (project === undefined) throw new Error("typedoc could not convert the project");
  app.validate(project);
  if (app.logger.hasErrors()) throw new Error("typedoc reported errors");
  rmSync(out, { recursive: true, force: true });
  await app.generateDocs(project, out);
  relinkMedia(out, project.files.getNameToAbsoluteMap());
  for (const file of sources.files) {
    const page = join(out, sourcePagePath(file));
    mkdirSync(dirname(page), { recursive: true });
    writeFileSync(page, renderSourcePage(file, readFileSync(join(REPO_ROOT, file), "utf8")));
  }
  for (const dir of sources.folders) {
    const page = join(out, folderPagePath(dir));
    mkdirSync(dirname(page), { recursive: true });
    writeFileSync(page, renderFolderPage(dir, folderEntries(join(REPO_ROOT, dir))));
  }
  writeFileSync(
    join(out, "site-inputs.json"),
    `${JSON.stringify(digestInputs([...new Set([...siteInputs(), ...sources.files, ...sources.folders, ...media])].sort()), null, 2)}\n`,
  );
};
