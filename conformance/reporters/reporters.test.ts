/**
 * The reports as files: junit.xml parsed back (suites = stages, cases = invariants, failure and
 * skipped counts = the certificate's), report.md's table and stories, report.html self-contained
 * and escaped, the diagrams, and the transition coverage the stages record. No process is started
 * here (the certificate is the spec's example); browser.test.ts certifies for real and opens the page.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, describe, expect, it } from "vitest";
import { INVARIANTS, INVARIANT_IDS } from "../../spec/catalog.ts";
import { Certificate } from "../../spec/certificate.ts";
import { certificate as exampleCertificate, portableTrace } from "../../spec/examples.ts";
import { goldenSteps } from "../stages/golden.ts";
import { STAGE_CONCERNS } from "../verdicts/decide.ts";
import {
  CoverageBook,
  JANMA_MACHINE,
  MIGRATION_MACHINE,
  sessionTransitions,
  type CoverageStep,
} from "../oracle/transitions.ts";
import { markdownAnchors } from "../../reports/links.ts";
import { KIT_ROOT } from "../kit-root.ts";
import { decidedBy, loadReportInput, oneLineMeaning } from "./common.ts";
import { firstDifferenceOf } from "../../properties/json-diff.ts";
import {
  clauseAnchors,
  INVARIANT_CLAUSES,
  invariantDocLinks,
  invariantSitePage,
  SITE_DIR_IN_KIT,
} from "./doc-links.ts";
import { cspHash, esc, jsonHtml, profileMachines, renderDiagrams, renderHtml } from "./html.ts";
import { machineDot, renderDiagram } from "./html-diagrams.ts";
import { mdBlock, mdCode } from "./markdown.ts";
import { REPORT_FILES, writeReports } from "./write.ts";
import { renderSummary } from "../cli/summary.ts";

const tmp = mkdtempSync(join(tmpdir(), "srk-reports-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes a certificate (and the example's trace) to a fresh folder and the three reports next to it. */
const written = async (
  name: string,
  c: Certificate,
): Promise<{ dir: string; junit: string; md: string; html: string }> => {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "traces"), { recursive: true });
  writeFileSync(join(dir, "traces/differential-J-1-1.json"), JSON.stringify(portableTrace));
  const certificatePath = join(dir, "certificate.json");
  writeFileSync(certificatePath, JSON.stringify(c));
  const files = await writeReports({ certificate: c, certificatePath });
  expect(files.junit).toBe(join(dir, REPORT_FILES.junit));
  return {
    dir,
    junit: readFileSync(files.junit, "utf8"),
    md: readFileSync(files.markdown, "utf8"),
    html: readFileSync(files.html, "utf8"),
  };
};

const example = (): Certificate => Certificate.parse(structuredClone(exampleCertificate));

type XmlNode = Record<string, unknown>;
const list = (x: unknown): XmlNode[] => (x === undefined ? [] : Array.isArray(x) ? (x as XmlNode[]) : [x as XmlNode]);
const parseJunit = (xml: string): { root: XmlNode; suites: XmlNode[] } => {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    isArray: (n) => ["testsuite", "testcase", "property"].includes(n),
  }).parse(xml) as XmlNode;
  const root = doc["testsuites"] as XmlNode;
  return { root, suites: list(root["testsuite"]) };
};
const has = (tc: XmlNode, k: string): boolean => k in tc;

describe("junit.xml", () => {
  it("one suite per stage with one case per invariant it concerns, then the 19 verdicts; counts match the certificate", async () => {
    const c = example();
    const { junit } = await written("junit", c);
    const { root, suites } = parseJunit(junit);
    expect(suites.map((s) => s["@name"])).toEqual([...c.stages.map((s) => s.stage), "verdicts"]);
    let total = 0;
    for (const s of suites) {
      const cases = list(s["testcase"]);
      total += cases.length;
      // The suite's counters are those of its cases (what every JUnit consumer sums).
      expect(Number(s["@tests"])).toBe(cases.length);
      expect(Number(s["@failures"])).toBe(cases.filter((x) => has(x, "failure")).length);
      expect(Number(s["@skipped"])).toBe(cases.filter((x) => has(x, "skipped")).length);
      expect(Number(s["@errors"])).toBe(cases.filter((x) => has(x, "error")).length);
      const stage = c.stages.find((x) => x.stage === s["@name"]);
      if (stage === undefined) continue;
      const expectedNames = [
        ...STAGE_CONCERNS[stage.stage],
        ...(STAGE_CONCERNS[stage.stage].length === 0 ? ["wire protocol"] : []),
      ];
      expect(
        cases.map((x) => x["@name"]),
        stage.stage,
      ).toEqual(expectedNames);
      expect(Number(s["@time"])).toBeCloseTo(stage.duration_ms / 1000, 3);
    }
    expect(Number(root["@tests"])).toBe(total);

    const by = (suite: string): XmlNode[] => list(suites.find((s) => s["@name"] === suite)?.["testcase"]);
    // The differential stage found J-1: its only failure, with the step, expected and actual.
    const diff = by("differential");
    const failed = diff.filter((x) => has(x, "failure"));
    expect(failed.map((x) => x["@name"])).toEqual(["J-1"]);
    const failure = failed[0]?.["failure"] as XmlNode;
    expect(failure["@message"]).toBe(
      "J-1 (Complete at birth (janma: birth)) violated at step 3 of 3, command janma.birth (c3): at $.ok expected false, actual true",
    );
    expect(String(failure["#text"])).toContain("replay: npx srk replay");
    expect(String(failure["#text"])).toContain(`expected: ${JSON.stringify(portableTrace.steps[2]?.expected)}`);
    // ripa is outside the profile: skipped in every stage that concerns it, and in the verdicts.
    expect(diff.filter((x) => has(x, "skipped")).map((x) => x["@name"])).toEqual(["I1", "I2", "I3", "I4", "I5", "I6"]);
    // The golden stage was not applicable: every case skipped.
    expect(by("golden").every((x) => has(x, "skipped"))).toBe(true);
    // The verdicts suite: 19 cases, failures = fail, skipped = not-applicable, errors = inconclusive.
    const verdicts = by("verdicts");
    expect(verdicts).toHaveLength(19);
    const count = (v: string): number => c.invariants.filter((i) => i.verdict === v).length;
    expect(verdicts.filter((x) => has(x, "failure"))).toHaveLength(count("fail"));
    expect(verdicts.filter((x) => has(x, "skipped"))).toHaveLength(count("not-applicable"));
    expect(verdicts.filter((x) => has(x, "error"))).toHaveLength(count("inconclusive"));
  });

  it("an inconclusive stage is an error, an expected failure (baseline) is skipped, never a failure", async () => {
    const c = example();
    c.invariants = c.invariants.map((i) => (i.invariant === "J-1" ? { ...i, expected_failure: true } : i));
    c.stages = c.stages.map((s) =>
      s.stage === "crash" ? { ...s, verdict: "inconclusive", reason: "the time budget ended before this stage" } : s,
    );
    const { suites } = parseJunit((await written("junit-baseline", c)).junit);
    const by = (suite: string): XmlNode[] => list(suites.find((s) => s["@name"] === suite)?.["testcase"]);
    expect(by("differential").filter((x) => has(x, "failure"))).toHaveLength(0);
    expect(by("verdicts").filter((x) => has(x, "failure"))).toHaveLength(0);
    const j1 = by("verdicts").find((x) => String(x["@name"]).startsWith("J-1 "));
    expect(j1 !== undefined && has(j1, "skipped")).toBe(true);
    expect(String(j1?.["system-out"])).toMatch(/^expected failure \(listed in the baseline\): J-1/);
    const crash = by("crash");
    expect(crash.filter((x) => has(x, "error")).map((x) => x["@name"])).toEqual([
      "J-1",
      "J-2",
      "J-3",
      "J-4",
      "S-1",
      "S-2",
      "S-3",
      "S-4",
      "S-5",
      "AD-1",
      "AD-2",
      "AD-3",
      "AD-4",
    ]);
  });
});

describe("report.md", () => {
  it("the result, the 19-row verdict table, and the counterexample as a story with its replay command", async () => {
    const c = example();
    const { md } = await written("md", c);
    expect(md).toMatch(/^# srk certify — agentd 0\.4\.2\n/);
    expect(md).toContain("**Result: violations (exit 1)**: 1 invariant fails (J-1), 1 stage fails (differential: ");
    expect(md).toContain(
      "Counts: invariants: 12 pass, 1 fail, 6 not applicable, 0 not selected, 0 inconclusive; stages: 6 pass, 1 fail, 0 inconclusive, 1 not applicable.",
    );
    const rows = md.split("\n").filter((l) => /^\| (J-|S-|AD-|I)\d/.test(l));
    expect(rows).toHaveLength(19);
    expect(rows.every((r) => r.split(/(?<!\\)\|/).length === 12)).toBe(true); // 10 columns, no broken row
    expect(rows[0]).toContain("| **fail** |");
    // The last column says what decided each verdict, as report.html does: a pass is not its witness count.
    const last = (r: string): string => (r.split(/(?<!\\)\|/)[10] ?? "").trim();
    expect(last(rows[0] ?? "")).toMatch(/^the differential stage found it: /);
    const s4 = rows.find((r) => r.startsWith("| S-4 |")) ?? "";
    expect(last(s4)).toBe("witnessed, never violated in the exhaustive, differential, algebra and crash stages");
    for (const r of rows.filter((x) => x.includes("| pass |"))) expect(last(r)).not.toMatch(/\d/);
    expect(md).toContain("| what decided it |");
    expect(md).toContain("### 1. J-1 Complete at birth (janma: birth) — differential/step");
    expect(md).toContain("2. Step 2, `command janma.conceive (c2)`: accepted: instance.conceived, as expected.");
    expect(md).toContain(
      "3. **Step 3, `command janma.birth (c3)`: the model expected rejected with JANMA\\_INCOMPLETE\\_AT\\_BIRTH (J-1); the implementation answered accepted: instance.born.**",
    );
    expect(md).toContain("First difference at `$.ok`: expected `false`, actual `true`.");
    expect(md).toContain(
      "```sh\nnpx srk replay certificates/agentd/traces/differential-J-1-1.json --impl 'python3 -m agentd --wire'\n```",
    );
    expect(md).toContain("Janma lifecycle of an instance (OP-2): 5 of 10 transitions driven.");
  });

  it("code spans and blocks survive backticks and pipes", () => {
    expect(mdCode("a|b")).toBe("`a\\|b`");
    expect(mdCode("x `y` z")).toBe("``x `y` z``");
    expect(mdBlock("```\nhi")).toBe("````\n```\nhi\n````");
  });
});

describe("report.html", () => {
  it("is self-contained: no external script, stylesheet, image, font or URL; its one script is allowed by hash", async () => {
    const { html } = await written("html", example());
    expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/<img\b/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/https?:\/\//i);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${cspHash(scripts[0]?.[1] ?? "")}`);
    expect((html.match(/<tr data-invariant=/g) ?? []).length).toBe(19);
    // The profile declares janma, samskara, advaita: the Janma lifecycle only, never the RIPA migration.
    expect((html.match(/<svg /g) ?? []).length).toBe(1);
    expect(html).toContain('<figure class="diagram" data-machine="janma">');
    expect(html).not.toContain('data-machine="ripa-migration"');
  });

  it("escapes every string of a hostile certificate", async () => {
    const c = example();
    const evil = `<script>alert("pwned")</script><img src=x onerror=alert(1)>`;
    c.implementation.name = evil;
    c.implementation.command_line = `impl --x '"><script>alert(2)</script>`;
    c.invariants = c.invariants.map((i) => ({ ...i, reason: `${i.reason} ${evil}` }));
    c.stages = c.stages.map((s) => ({
      ...s,
      notes: [evil],
      findings: s.findings.map((f) => ({ ...f, summary: evil, check: evil })),
    }));
    c.harness_faults = [evil];
    const { html, md } = await written("hostile", c);
    expect(html.match(/<script/gi)).toHaveLength(1); // the page's own, and nothing else
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    // Raw HTML in Markdown renders; inside code blocks and spans it is shown literally.
    const outsideCode = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "").replace(/(`+)[^`\n]*?\1/g, "");
    expect(outsideCode).toContain("&lt;script&gt;");
    expect(outsideCode).not.toMatch(/<script|<img/i);
    expect(md.split("\n").filter((l) => /^\| (J-|S-|AD-|I)\d/.test(l))).toHaveLength(19);
  });

  it("the first difference is highlighted in the expected and the actual reply", () => {
    const expected = { ok: false, error: { code: "X", invariant: "J-1", definite: true } };
    const actual = { ok: false, error: { code: "Y<b>", invariant: "J-1", definite: true } };
    const p = firstDifferenceOf(expected, actual)?.path ?? null;
    expect(p).toEqual(["error", "code"]);
    expect(jsonHtml(actual, p)).toContain(
      `<span class="k">&quot;code&quot;</span>: <mark class="diff"><span class="string">&quot;Y&lt;b&gt;&quot;</span></mark>`,
    );
    // A key missing on one side: the deepest existing ancestor is marked.
    expect(firstDifferenceOf({ ok: true, events: [], result: 1 }, { ok: true, events: [] })?.path).toEqual(["result"]);
    expect(jsonHtml({ ok: true, events: [] }, ["result"])).toMatch(/^<mark class="diff">\{/);
    expect(firstDifferenceOf([1, 2], [1, 2, 3])?.path).toEqual([2]);
    expect(firstDifferenceOf({ a: [1] }, { a: [1] })).toBeNull();
    expect(esc(`<a href="x">'&`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;");
  });
});

describe("report.html: links to the docs, meanings, what decided each verdict, diagrams of the profile, an empty filter", () => {
  /** A kit folder with the clauses file, and the docs site's pages of `withPages` only. */
  const fakeKit = (name: string, withPages: readonly string[], clauses = true): string => {
    const kit = join(tmp, name);
    mkdirSync(join(kit, SITE_DIR_IN_KIT, "documents"), { recursive: true });
    if (clauses) {
      mkdirSync(join(kit, "spec"), { recursive: true });
      writeFileSync(join(kit, INVARIANT_CLAUSES), readFileSync(join(KIT_ROOT, INVARIANT_CLAUSES), "utf8"));
    }
    for (const id of withPages)
      writeFileSync(join(kit, SITE_DIR_IN_KIT, invariantSitePage(id as never)), "<h1>page</h1>");
    return kit;
  };
  const rowOf = (html: string, id: string): string =>
    new RegExp(`<tr data-invariant="${id}"[^>]*>[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";
  const hrefOf = (row: string): string | null => /<td class="id"><a href="([^"]*)"/.exec(row)?.[1] ?? null;

  it("links each invariant to its page of the docs site when the kit has it, else to its clause in spec/INVARIANTS.md, else not at all; every link resolves from the report's folder", async () => {
    const kit = fakeKit("kit-mixed", ["J-1", "AD-3"]);
    const reportDir = join(tmp, "elsewhere", "out");
    mkdirSync(reportDir, { recursive: true });
    const c = example();
    const html = renderHtml(loadReportInput(c, join(reportDir, "certificate.json"), kit), await renderDiagrams(c));
    const clausesMd = readFileSync(join(kit, INVARIANT_CLAUSES), "utf8");
    const githubAnchors = markdownAnchors(clausesMd);
    for (const id of INVARIANT_IDS) {
      const href = hrefOf(rowOf(html, id));
      expect(href, id).not.toBeNull();
      const [path, anchor] = (href ?? "").split("#");
      const target = resolve(reportDir, decodeURIComponent(path ?? ""));
      expect(existsSync(target), `${id}: ${href}`).toBe(true);
      if (id === "J-1" || id === "AD-3") {
        expect(target).toBe(join(kit, SITE_DIR_IN_KIT, invariantSitePage(id)));
        expect(anchor).toBeUndefined();
      } else {
        expect(target).toBe(join(kit, INVARIANT_CLAUSES));
        // The anchor GitHub gives the clause's heading (the link checker's rule, reports/links.ts), and it is this invariant's heading.
        expect(githubAnchors.has(anchor ?? ""), `${id}: #${anchor}`).toBe(true);
        expect(
          anchor?.startsWith(`inv-${id.toLowerCase()}-`) || anchor === `inv-${id.toLowerCase()}`,
          `${id}: #${anchor}`,
        ).toBe(true);
      }
    }
    expect(html).not.toMatch(/https?:\/\//i);
    // A kit folder without either: the id is shown, not linked.
    const bare = fakeKit("kit-bare", [], false);
    const none = renderHtml(loadReportInput(c, join(reportDir, "certificate.json"), bare), await renderDiagrams(c));
    expect(hrefOf(rowOf(none, "J-1"))).toBeNull();
    expect(rowOf(none, "J-1")).toContain('<td class="id"><b>J-1</b></td>');
    expect(Object.values(invariantDocLinks(reportDir, bare)).every((d) => d === null)).toBe(true);
  });

  it("in this clone, every invariant links to its built page of the docs site", () => {
    const links = invariantDocLinks(join(tmp, "report-here"));
    for (const id of INVARIANT_IDS) {
      const page = join(KIT_ROOT, SITE_DIR_IN_KIT, invariantSitePage(id));
      expect(existsSync(page), `${page}: run npx tsx reports/build-site.ts`).toBe(true);
      expect(links[id]?.where).toBe("site");
      expect(resolve(join(tmp, "report-here"), links[id]?.href ?? "")).toBe(page);
    }
  });

  it("finds every clause's heading anchor in spec/INVARIANTS.md, and none that is not there", () => {
    const anchors = clauseAnchors(readFileSync(join(KIT_ROOT, INVARIANT_CLAUSES), "utf8"));
    expect(Object.keys(anchors).sort()).toEqual([...INVARIANT_IDS].sort());
    expect(anchors["J-1"]).toBe("inv-j-1-complete-at-birth-janma-birth");
    expect(anchors["I4"]).toBe("inv-i4-continuation-authority");
    expect(clauseAnchors("## INV-J-9 Nothing\n## INV-AD-2 Projection statelessness\n")).toEqual({
      "AD-2": "inv-ad-2-projection-statelessness",
    });
  });

  it("shows each invariant's name and its statement's first clause in one line, the whole statement on hover", async () => {
    const { html } = await written("meaning", example());
    // The rule: the statement up to its first colon, semicolon or full stop.
    expect(oneLineMeaning("J-4")).toBe(
      "Withdrawal, voluntary or forced, MUST lead to exactly one distillation obligation.",
    );
    expect(oneLineMeaning("J-2")).toBe(
      "An act MUST use a tool that was bound at birth and a capability that the tool declares and the manifest grants.",
    );
    expect(oneLineMeaning("I4")).toBe("At most one execution MAY hold continuation authority.");
    for (const inv of INVARIANTS) {
      const row = rowOf(html, inv.id);
      expect(inv.statement.startsWith(oneLineMeaning(inv.id).slice(0, -1)), inv.id).toBe(true);
      expect(row).toContain(
        `<td class="meaning">${esc(inv.name)}<span class="stmt" title="${esc(inv.statement)}">${esc(oneLineMeaning(inv.id))}</span></td>`,
      );
    }
  });

  it("the reason column says what decided each verdict, and a pass's reason is not its witness count", async () => {
    const c = example();
    const { html } = await written("decided", c);
    const reason = (id: string): string => (/<td class="reason">([^<]*)/.exec(rowOf(html, id))?.[1] ?? "").trimEnd();
    // fail: the stage and the finding.
    expect(reason("J-1")).toBe(esc(`the differential stage found it: ${c.invariants[0]?.reason ?? ""}`));
    // pass: the stages that check it and ran (golden was not applicable; handshake and wire check no invariant).
    expect(reason("S-4")).toBe("witnessed, never violated in the exhaustive, differential, algebra and crash stages");
    expect(reason("S-1")).toBe(
      "witnessed, never violated in the exhaustive, differential, crash and forgetting stages",
    );
    expect(reason("J-2")).toBe("witnessed, never violated in the exhaustive, differential and crash stages");
    for (const v of c.invariants.filter((i) => i.verdict === "pass")) expect(reason(v.invariant)).not.toMatch(/\d/);
    // not-applicable: the certificate's reason as it is.
    const i1 = c.invariants.find((i) => i.invariant === "I1");
    expect(i1?.verdict).toBe("not-applicable");
    expect(reason("I1")).toBe(esc(i1?.reason ?? "?"));
    // An expected failure says so; a passing baseline entry is stale.
    expect(decidedBy(c, { ...c.invariants[0]!, expected_failure: true })).toMatch(
      / \(an expected failure: listed in the baseline\)$/,
    );
    expect(decidedBy(c, { ...c.invariants[1]!, expected_failure: true })).toMatch(
      / \(listed in the baseline as an expected failure: a stale entry\)$/,
    );
    // inconclusive: the stage that could not finish, as decided.
    expect(
      decidedBy(c, {
        ...c.invariants[1]!,
        verdict: "inconclusive",
        reason: "stage crash could not finish: the time budget ended",
      }),
    ).toBe("stage crash could not finish: the time budget ended");
  });

  it("draws the state machines of the declared profile's families only, and says which it leaves out and why", async () => {
    const withFamilies = (families: string[] | null): Certificate => {
      const c = example();
      c.implementation.profile = families === null ? null : { families: families as never, crash_hook: true };
      return c;
    };
    const machines = (c: Certificate): string[] => profileMachines(c).map((m) => m.machine);
    expect(machines(withFamilies(["janma", "samskara", "advaita", "ripa"]))).toEqual(["janma", "ripa-migration"]);
    expect(machines(withFamilies(["ripa"]))).toEqual(["ripa-migration"]);
    expect(machines(withFamilies(["samskara", "advaita"]))).toEqual([]);
    expect(machines(withFamilies(null))).toEqual([]);
    const store = await written("no-machine", withFamilies(["samskara", "advaita"]));
    expect(store.html).not.toContain("<figure");
    expect(store.html).toContain(
      "No state machine is drawn: the declared profile (samskara, advaita) has none. Not drawn, outside the declared profile: ",
    );
    expect(store.html).toContain("(needs janma)");
    expect(store.html).toContain("(needs ripa)");
    const ripa = await written("ripa-machine", withFamilies(["ripa"]));
    expect(ripa.html.match(/<figure class="diagram" data-machine="([^"]+)"/g) ?? []).toEqual([
      '<figure class="diagram" data-machine="ripa-migration"',
    ]);
    const undriven = await written("undriven-machine", withFamilies(null));
    expect(undriven.html).toContain("No state machine is drawn: no handshake succeeded, so no profile was declared.");
  });

  it("an empty filter result has its message, shown by the page's script when no row is visible", async () => {
    const { html } = await written("empty-filter", example());
    expect(html).toContain('<p id="no-match" hidden>No invariant matches this filter');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(script).toContain("none.hidden = n !== 0");
    expect(script).toContain("table.hidden = n === 0");
  });
});

describe("state-machine coverage", () => {
  const cmd = (op: string, extra: Record<string, unknown>, expected: unknown): CoverageStep => ({
    request: { type: "command", id: op, command: { op, agent: "A", ...extra } },
    expected,
  });
  const ok = (...types: string[]): unknown => ({
    ok: true,
    events: types.map((t) => ({ type: t, instance_id: "i1" })),
  });

  it("derives Janma transitions from the model's events per instance, and migration phases per agent", () => {
    const steps = [
      cmd("janma.conceive", { instance_id: "i1" }, ok("instance.conceived")),
      cmd("janma.birth", { instance_id: "i1" }, ok("instance.born")),
      cmd("janma.act", { instance_id: "i1" }, ok("instance.acted")),
      cmd("janma.act", { instance_id: "i1" }, ok("instance.acted", "instance.withdrawn")),
      cmd(
        "janma.dissolve",
        { instance_id: "i1" },
        { ok: false, error: { code: "JANMA_SINGLE_DISTILLATION", invariant: "J-4", definite: true } },
      ),
      cmd("janma.expire", { instance_id: "i1" }, ok()),
      cmd("ripa.migration_fence", {}, { ok: true, events: [] }),
      cmd("ripa.migration_checkpoint", {}, { ok: true, events: [] }),
      cmd("ripa.migration_cancel", {}, { ok: true, events: [] }),
      cmd("ripa.migration_fence", {}, { ok: true, events: [] }),
      { request: { type: "query", id: "q", query: { name: "world" } }, expected: { ok: true, events: [], result: {} } },
    ];
    expect(sessionTransitions(steps)).toEqual([
      { machine: "janma", from: "avyakrta", to: "conceived", op: "janma.conceive" },
      { machine: "janma", from: "conceived", to: "ready", op: "janma.birth" },
      { machine: "janma", from: "ready", to: "active", op: "janma.act" },
      { machine: "janma", from: "active", to: "active", op: "janma.act" },
      { machine: "janma", from: "active", to: "withdrawn", op: "janma.act" },
      { machine: "ripa-migration", from: "idle", to: "fenced", op: "ripa.migration_fence" },
      { machine: "ripa-migration", from: "fenced", to: "checkpointed", op: "ripa.migration_checkpoint" },
      { machine: "ripa-migration", from: "checkpointed", to: "cancelled", op: "ripa.migration_cancel" },
      { machine: "ripa-migration", from: "idle", to: "fenced", op: "ripa.migration_fence" },
    ]);
    const book = new CoverageBook();
    book.recordSession(steps);
    book.recordSession(steps.slice(0, 2));
    const t = book.transitions();
    expect(t[0]).toEqual({ machine: "janma", from: "avyakrta", to: "conceived", op: "janma.conceive", count: 2 });
    expect(t.find((x) => x.to === "fenced")?.count).toBe(2);
    expect(Certificate.shape.coverage.parse({ transitions: t })).toEqual({ transitions: t });
  });

  it("every transition a golden session drives is one the machines list", () => {
    const listed = (m: typeof JANMA_MACHINE, from: string, to: string, op: string): boolean =>
      m.edges.some((e) => e.from === from && e.to === to && e.ops.includes(op));
    const all = ["session-1", "session-2", "session-3-store"].flatMap((g) => sessionTransitions(goldenSteps(g)));
    expect(all.length).toBeGreaterThan(100);
    for (const t of all)
      expect(
        listed(t.machine === "janma" ? JANMA_MACHINE : MIGRATION_MACHINE, t.from, t.to, t.op),
        JSON.stringify(t),
      ).toBe(true);
    expect(new Set(all.map((t) => t.machine))).toEqual(new Set(["janma", "ripa-migration"]));
  });

  it("the diagram highlights the covered edges with their counts and escapes what the certificate names", async () => {
    const covered = [
      { machine: "janma" as const, from: "conceived" as const, to: "ready" as const, op: "janma.birth", count: 7 },
      { machine: "janma" as const, from: "ready" as const, to: "dissolved" as const, op: `x"<b>\\N`, count: 1 },
    ];
    expect(machineDot(JANMA_MACHINE, covered)).toContain(`label="x\\"<b>\\\\N ×1"`);
    const d = await renderDiagram(JANMA_MACHINE, covered);
    expect(d.error).toBeNull();
    const svg = d.svg ?? "";
    expect(svg).toMatch(/^<svg role="img"/);
    expect((svg.match(/class="node /g) ?? []).length).toBe(JANMA_MACHINE.states.length);
    expect((svg.match(/class="edge covered"/g) ?? []).length).toBe(1);
    expect((svg.match(/class="edge covered unlisted"/g) ?? []).length).toBe(1);
    expect((svg.match(/class="edge uncovered"/g) ?? []).length).toBe(JANMA_MACHINE.edges.length - 1);
    expect(svg).toContain("birth ×7");
    expect(svg).not.toContain("<b>");
    expect(svg).toContain("x&quot;&lt;b&gt;\\N ×1");
  });
});

describe("the result line and the counts never contradict the verdicts (issue 20)", () => {
  /** The example with every failure removed: 13 pass, 6 not applicable, no finding. */
  const clean = (): Certificate => {
    const c = example();
    for (const v of c.invariants)
      if (v.verdict === "fail")
        Object.assign(v, { verdict: "pass", reason: "1 witness(es), no violation", counterexamples: [] });
    for (const s of c.stages) if (s.verdict === "fail") Object.assign(s, { verdict: "pass", findings: [] });
    return Object.assign(c, {
      result: "certified",
      exit_code: 0,
      baseline: { ...c.baseline, unexpected_failures: [] },
    });
  };
  const W3 = "W-3: an unknown request type got no error reply";
  const stageFails = (): Certificate => {
    const c = clean();
    const wire = c.stages.find((s) => s.stage === "wire");
    if (wire === undefined) throw new Error("no wire stage");
    Object.assign(wire, {
      verdict: "fail",
      reason: W3,
      findings: [
        { invariant: null, stage: "wire", check: "wire/W-3", summary: W3, steps: 0, trace_file: null, replay: null },
      ],
    });
    // The rule (D-036): a failure of the wire protocol not in the baseline is a violation, whatever the invariants say.
    return Object.assign(c, {
      result: "violations",
      exit_code: 1,
      baseline: { ...c.baseline, unexpected_failures: ["wire"] },
    });
  };
  const stageInconclusive = (): Certificate => {
    const c = clean();
    Object.assign(c.stages.find((s) => s.stage === "wire") ?? {}, {
      verdict: "inconclusive",
      reason: "the time budget ended before this stage",
    });
    // The rule: an inconclusive stage keeps a run from certified, even one that concerns no invariant.
    return Object.assign(c, { result: "inconclusive", exit_code: 2 });
  };
  const all = async (name: string, c: Certificate): Promise<[string, string, string]> => {
    const w = await written(name, Certificate.parse(c));
    const summary = renderSummary(c, join(w.dir, "certificate.json"));
    return [summary, w.md, w.html];
  };

  it("a failed stage and no failed invariant: violations (exit 1) with 0 invariants fail, 1 stage fails, in every report", async () => {
    const c = stageFails();
    expect(c.invariants.filter((i) => i.verdict === "fail")).toHaveLength(0);
    const [summary, md, html] = await all("stage-fails", c);
    const line = `violations (exit 1): 0 invariants fail, 1 stage fails (wire: ${W3})`;
    expect(summary).toContain(`\nresult: ${line}\n`);
    expect(md).toContain(`**Result: violations (exit 1)**: 0 invariants fail, 1 stage fails (wire: ${W3})`);
    expect(html).toContain(`<b>violations</b> (exit 1): 0 invariants fail, 1 stage fails (wire: ${W3})</p>`);
    const counts =
      "invariants: 13 pass, 0 fail, 6 not applicable, 0 not selected, 0 inconclusive; stages: 6 pass, 1 fail, 0 inconclusive, 1 not applicable";
    for (const r of [summary, md, html]) expect(r).toContain(counts);
  });

  it("an inconclusive stage and no inconclusive invariant: inconclusive (exit 2) with 0 invariants inconclusive, 1 stage inconclusive", async () => {
    const c = stageInconclusive();
    expect(c.invariants.filter((i) => i.verdict === "inconclusive")).toHaveLength(0);
    const [summary, md, html] = await all("stage-inconclusive", c);
    const why = "0 invariants inconclusive, 1 stage inconclusive (wire: the time budget ended before this stage)";
    expect(summary).toContain(`\nresult: inconclusive (exit 2): ${why}\n`);
    expect(md).toContain(`**Result: inconclusive (exit 2)**: ${why}`);
    expect(html).toContain(`<b>inconclusive</b> (exit 2): ${why}</p>`);
    for (const r of [summary, md, html])
      expect(r).toContain("stages: 6 pass, 0 fail, 1 inconclusive, 1 not applicable");
  });

  it("a clean certificate: certified (exit 0), every applicable invariant passes, no stage fails", async () => {
    const [summary, md, html] = await all("clean", clean());
    expect(summary).toContain("\nresult: certified (exit 0): 13 invariants pass, no stage fails or is inconclusive\n");
    expect(md).toContain("**Result: certified (exit 0)**: 13 invariants pass, no stage fails or is inconclusive");
    expect(html).toContain("<b>certified</b> (exit 0): 13 invariants pass, no stage fails or is inconclusive</p>");
  });

  it("a certificate whose recorded result is not what its verdicts give says so instead of agreeing with either", async () => {
    const c = Object.assign(stageFails(), { result: "certified", exit_code: 0 });
    const [summary, md] = await all("contradiction", c);
    expect(summary).toContain(
      `result: certified (exit 0) as recorded, but this certificate's own verdicts give violations (exit 1): 0 invariants fail, 1 stage fails (wire: ${W3})`,
    );
    expect(md).toContain(
      "**Result: certified (exit 0)** as recorded, but this certificate's own verdicts give violations (exit 1)",
    );
  });

  it("--only: the others are not-selected in every report (never not applicable), and JUnit skips them", async () => {
    const c = clean();
    for (const v of c.invariants)
      if (v.invariant !== "J-1") Object.assign(v, { verdict: "not-selected", reason: "not selected: --only J-1" });
    c.settings.only = ["J-1"];
    const [summary, md, html] = await all("only", c);
    for (const r of [summary, md])
      expect(r).toContain("invariants: 1 pass, 0 fail, 0 not applicable, 18 not selected, 0 inconclusive");
    expect(html).toContain('value="not-selected" checked> not-selected (18)');
    expect(html.match(/data-verdict="not-selected"/g)).toHaveLength(18);
    expect(html).not.toContain('data-verdict="not-applicable"');
    const { suites } = parseJunit(readFileSync(join(tmp, "only", "junit.xml"), "utf8"));
    const verdicts = list(suites.find((x) => x["@name"] === "verdicts")?.["testcase"]);
    expect(verdicts.filter((x) => has(x, "skipped"))).toHaveLength(18);
  });
});
