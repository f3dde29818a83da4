/**
 * report.html as a person sees it, in a real browser: Debian's Chromium (headless, driven by
 * playwright-core, which never downloads a browser) opens the reports `srk certify` wrote for a
 * passing certification of the kit's implementation, for the same implementation declaring a
 * smaller profile (janma, samskara, advaita: no ripa) and for a failing one (the mutant
 * S-4.replay-claim-miscounts), over file:// with every other request refused. It checks the 19
 * rows, the failing row and its story, the diagrams (only those of the declared families), the
 * filters and the message of an empty one, that nothing is fetched and nothing is logged as an
 * error. It follows each invariant's link to its page of the docs site (reports/site/, which must
 * be built): the page exists, is that invariant's, holds its anchors, and has no horizontal
 * overflow, nor does any code block on it; an old address (`The_19_invariants.html#s-4`) goes on to
 * the page. And it takes the screenshots (report-pass.png, report-diagrams.png,
 * report-fail.png: the viewport, 1280×1100) into a temporary folder, or the folder
 * $SRK_SCREENSHOT_DIR names. It never writes the committed ones under reports/screenshots/:
 * reports/screenshots.ts runs this test with that variable set and copies the pictures there once
 * every test has passed (test-support/screenshots.ts). They are not compared with the committed
 * ones, pixel for pixel: the pages show the run's durations and dates, which differ every run.
 *
 * The browser is Debian's /usr/bin/chromium (or $CHROMIUM_PATH), which `.ci/run` installs when
 * missing. Without it these tests are skipped, with one line saying so and how to install it; under
 * CI=true they fail instead, never skip (test-support/needs.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { XMLParser } from "fast-xml-parser";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { INVARIANTS } from "../../spec/catalog.ts";
import { Certificate } from "../../spec/certificate.ts";
import { CHROMIUM as BROWSER, CHROMIUM_PATH, needs } from "../../test-support/needs.ts";
import {
  COMMITTED_SCREENSHOTS,
  pngSize,
  SCREENSHOT_DIR_ENV,
  SCREENSHOT_FILES,
  VIEWPORT,
} from "../../test-support/screenshots.ts";
import { certify, type CertifyResult } from "../certify.ts";
import { mutantCommandLine } from "../mutants/matrix.ts";
import { JANMA_MACHINE, MIGRATION_MACHINE, type MachineSpec } from "../oracle/transitions.ts";
import { SITE_DIR_IN_KIT } from "./doc-links.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { REPORT_FILES, writeReports } from "./write.ts";

const CHROMIUM = CHROMIUM_PATH;

// Made in beforeAll, which does not run when every test here is skipped (afterAll would not remove it).
let tmp = "";
/** Where the screenshots go: $SRK_SCREENSHOT_DIR (reports/screenshots.ts), else the temporary folder. */
let shots = "";
let browser: Browser | null = null;
let pass: CertifyResult;
let fail: CertifyResult;
/** The kit's implementation declaring janma, samskara and advaita only. */
let noRipa: CertifyResult;

const settings = {
  cwd: REPO_ROOT,
  seed: 1,
  runs: 5,
  timeBudgetMs: 120_000,
  requestTimeoutMs: 15_000,
  startupTimeoutMs: 30_000,
  only: [],
};

/** Without a browser under CI, needs(BROWSER) fails every test here; needBrowser() and open() fail with this message. */
const NO_BROWSER = `no browser at ${CHROMIUM}: this test needs Debian's chromium (apt-get install chromium; .ci/run installs it when missing), or CHROMIUM_PATH set to a Chromium executable`;
const needBrowser = (): void => {
  if (!existsSync(CHROMIUM)) throw new Error(NO_BROWSER);
};

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "srk-browser-"));
  shots = process.env[SCREENSHOT_DIR_ENV] ?? join(tmp, "screenshots");
  mkdirSync(shots, { recursive: true });
  if (!existsSync(CHROMIUM)) return; // under CI each test fails (needs(BROWSER)); without CI they are skipped
  const mutant = MUTANTS.find((m) => m.id === "S-4.replay-claim-miscounts");
  if (mutant === undefined) throw new Error("mutant S-4.replay-claim-miscounts missing from the catalog");
  [pass, fail, noRipa, browser] = await Promise.all([
    certify({
      ...settings,
      commandLine: `${process.execPath} --import tsx impl/main.ts`,
      outDir: join(tmp, "pass"),
      stages: ["golden", "differential"],
    }),
    certify({
      ...settings,
      commandLine: mutantCommandLine(mutant, "reports-browser"),
      outDir: join(tmp, "fail"),
      stages: ["golden"],
    }),
    certify({
      ...settings,
      commandLine: `${process.execPath} --import tsx impl/main.ts --families janma,samskara,advaita`,
      outDir: join(tmp, "no-ripa"),
      stages: ["golden"],
    }),
    chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] }),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
});

interface Opened {
  readonly page: Page;
  readonly problems: string[];
  readonly requests: string[];
}

/** Opens a report over file:// with every other request refused and recorded; console errors and page errors recorded. */
const open = async (htmlPath: string): Promise<Opened> => {
  needBrowser();
  if (browser === null) throw new Error("the browser did not start");
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const problems: string[] = [];
  const requests: string[] = [];
  const url = pathToFileURL(htmlPath).href;
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.route("**/*", async (route) => {
    const u = route.request().url();
    if (u.split("#")[0] === url) return route.continue();
    requests.push(u);
    return route.abort();
  });
  await page.goto(url);
  return { page, problems, requests };
};

/** The docs site's folder: its pages may load their own assets (style sheets, scripts), nothing else. */
const SITE = join(REPO_ROOT, SITE_DIR_IN_KIT);

/**
 * Opens a page of the docs site over file://; requests outside the site's folder are refused and
 * recorded, as are page errors. Console messages are not: over file:// Chromium refuses TypeDoc's
 * icon sprite (`<use href="../assets/icons.svg#…">`, "file: URLs are treated as unique security
 * origins") on every page, which says nothing about the page's content.
 */
const openSite = async (): Promise<Opened & { visit: (url: string) => Promise<number | null> }> => {
  needBrowser();
  if (browser === null) throw new Error("the browser did not start");
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.route("**/*", async (route) => {
    const u = route.request().url();
    if (u.startsWith("file://") && fileURLToPath(u.split("#")[0] ?? "").startsWith(`${SITE}/`)) return route.continue();
    requests.push(u);
    return route.abort();
  });
  const visit = async (url: string): Promise<number | null> => {
    const response = await page.goto(url);
    // TypeDoc's pages show themselves once their script ran (or after half a second).
    await page.waitForFunction("document.body.style.display !== 'none'");
    return response?.status() ?? null;
  };
  return { page, problems, requests, visit };
};

/** The widest thing on a page beyond its viewport: the document itself, or a code block or table in the content. */
const overflow = (page: Page): Promise<{ document: number; viewport: number; blocks: string[] }> =>
  page.evaluate(`(() => {
    const d = document.documentElement;
    const blocks = [...document.querySelectorAll(".tsd-typography pre, .tsd-typography table")]
      .filter((e) => e.getBoundingClientRect().right > d.clientWidth + 0.5)
      .map((e) => e.tagName + " " + Math.round(e.getBoundingClientRect().right));
    return { document: d.scrollWidth, viewport: d.clientWidth, blocks };
  })()`);

const rowCount = (page: Page): Promise<number> => page.locator("#verdict-table tbody tr").count();
const visibleRows = (page: Page): Promise<number> => page.locator("#verdict-table tbody tr:visible").count();

const checkDiagrams = async (
  page: Page,
  c: Certificate,
  machines: readonly MachineSpec[] = [JANMA_MACHINE, MIGRATION_MACHINE],
): Promise<void> => {
  // Exactly the declared families' machines: no figure for another.
  expect(
    await page.locator("figure.diagram").evaluateAll((fs) => fs.map((f) => f.getAttribute("data-machine"))),
  ).toEqual(machines.map((m) => m.machine));
  for (const m of machines) {
    const svg = page.locator(`figure.diagram[data-machine="${m.machine}"] svg`);
    await expect.poll(() => svg.count()).toBe(1);
    const box = await svg.boundingBox();
    expect(box?.width ?? 0, m.machine).toBeGreaterThan(300);
    expect(box?.height ?? 0, m.machine).toBeGreaterThan(60);
    expect(await svg.locator("g.node").count()).toBe(m.states.length);
    for (const s of m.states)
      await expect
        .poll(
          () =>
            svg
              .locator("g.node text")
              .filter({ hasText: new RegExp(`^${s}$`) })
              .count(),
          { message: s },
        )
        .toBe(1);
    // The highlighted edges are exactly the (from, to) pairs the certificate's coverage lists.
    const pairs = new Set(
      (c.coverage?.transitions ?? []).filter((t) => t.machine === m.machine).map((t) => `${t.from}->${t.to}`),
    );
    expect(await svg.locator("g.edge.covered").count(), m.machine).toBe(pairs.size);
    expect(await svg.locator("g.edge").count()).toBeGreaterThanOrEqual(
      new Set(m.edges.map((e) => `${e.from}->${e.to}`)).size,
    );
  }
};

needs(BROWSER).describe("report.html in headless Chromium", () => {
  it("srk certify writes junit.xml, report.md and report.html next to certificate.json", () => {
    needBrowser();
    for (const r of [pass, fail]) {
      const dir = dirname(r.certificatePath);
      for (const f of Object.values(REPORT_FILES)) expect(existsSync(join(dir, f)), f).toBe(true);
      expect(
        Certificate.parse(JSON.parse(readFileSync(r.certificatePath, "utf8"))).coverage?.transitions.length ?? 0,
      ).toBeGreaterThan(0);
    }
    expect(pass.certificate.result).toBe("certified");
    expect(fail.certificate.invariants.find((i) => i.invariant === "S-4")?.verdict).toBe("fail");
    const junit = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@",
      isArray: (n) => ["testsuite", "testcase"].includes(n),
    }).parse(readFileSync(join(dirname(fail.certificatePath), REPORT_FILES.junit), "utf8")) as {
      testsuites: { testsuite: { "@name": string; testcase: Record<string, unknown>[] }[] };
    };
    const golden = junit.testsuites.testsuite.find((s) => s["@name"] === "golden");
    const s4 = golden?.testcase.find((t) => t["@name"] === "S-4");
    expect(String((s4?.["failure"] as Record<string, unknown> | undefined)?.["@message"])).toMatch(
      /^S-4 \(Deterministic replay\) violated at step \d+ of \d+, command samskara\.replay/,
    );
    expect(readFileSync(join(dirname(fail.certificatePath), REPORT_FILES.markdown), "utf8")).toMatch(
      /### 1\. S-4 Deterministic replay — golden\/session-/,
    );
  });

  it("a passing certificate: 19 passing rows, the two diagrams with the covered transitions, the filters", async () => {
    const { page, problems, requests } = await open(join(dirname(pass.certificatePath), REPORT_FILES.html));
    try {
      await expect.poll(() => page.locator("#result").textContent()).toContain("certified");
      expect(await rowCount(page)).toBe(19);
      expect(await page.locator('#verdict-table tbody tr[data-verdict="pass"] .badge.pass').count()).toBe(19);
      expect(await page.locator("#counterexamples").textContent()).toContain("None: no stage found a violation.");
      await checkDiagrams(page, pass.certificate);
      // Seeds, durations, the profile and the spec digest are on the page.
      const run = (await page.locator("#run").textContent()) ?? "";
      for (const s of ["seed", "duration", "janma, samskara, advaita, ripa", pass.certificate.kit.spec_digest])
        expect(run).toContain(s);

      // Filters: by family, then by verdict; the count line follows.
      await page.locator('input[data-filter="family"][value="ripa"]').uncheck();
      expect(await visibleRows(page)).toBe(13);
      await expect.poll(() => page.locator("#shown").textContent()).toBe("13 of 19 invariants shown");
      await page.locator('input[data-filter="family"][value="ripa"]').check();
      const noMatch = page.locator("#no-match");
      expect(await noMatch.isVisible()).toBe(false);
      await page.locator('input[data-filter="verdict"][value="pass"]').uncheck();
      expect(await visibleRows(page)).toBe(0);
      // An empty result says so, instead of a table with a header and no row.
      await expect.poll(() => noMatch.isVisible()).toBe(true);
      expect(await noMatch.textContent()).toMatch(/^No invariant matches this filter/);
      expect(await page.locator("#verdict-table").isVisible()).toBe(false);
      await page.locator('input[data-filter="verdict"][value="pass"]').check();
      expect(await visibleRows(page)).toBe(19);
      expect(await noMatch.isVisible()).toBe(false);
      expect(await page.locator("#verdict-table").isVisible()).toBe(true);

      await page.screenshot({ path: join(shots, "report-pass.png") });
      await page.evaluate('document.getElementById("coverage").scrollIntoView()');
      await page.screenshot({ path: join(shots, "report-diagrams.png") });
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("a failing certificate (mutant S-4.replay-claim-miscounts): the failing row, its story with the difference highlighted, the replay command", async () => {
    const { page, problems, requests } = await open(join(dirname(fail.certificatePath), REPORT_FILES.html));
    try {
      await expect.poll(() => page.locator("#result").textContent()).toContain("violations");
      expect(await rowCount(page)).toBe(19);
      const row = page.locator('#verdict-table tbody tr[data-invariant="S-4"]');
      expect(await row.getAttribute("data-verdict")).toBe("fail");
      expect(await row.locator(".badge").textContent()).toBe("fail");
      expect(await page.locator('#verdict-table tbody tr[data-verdict="fail"]').count()).toBe(1);

      // Following the row's link shows the story.
      await row.locator('a[href="#cx-1"]').click();
      const story = page.locator("#cx-1");
      await expect.poll(() => story.isVisible()).toBe(true);
      const text = (await story.textContent()) ?? "";
      expect(text).toContain("S-4 Deterministic replay");
      expect(text).toMatch(/Step \d+ diverged/);
      const failing = story.locator("li.step.failing");
      expect(await failing.locator("pre.request").textContent()).toContain('"op": "samskara.replay"');
      // The first difference is highlighted on both sides: the claim's version count.
      const marked = async (side: string): Promise<string> =>
        (await failing.locator(`pre.${side} mark.diff`).textContent()) ?? "";
      const ref = fail.certificate.invariants.find((i) => i.invariant === "S-4")?.counterexamples[0];
      const trace = JSON.parse(
        readFileSync(join(dirname(fail.certificatePath), ref?.trace_file ?? "missing"), "utf8"),
      ) as {
        steps: {
          expected: { events: { claim: { versions: number } }[] };
          actual: { events: { claim: { versions: number } }[] };
        }[];
        failing_step: number;
      };
      const step = trace.steps[trace.failing_step];
      expect(await marked("expected")).toBe(String(step?.expected.events[0]?.claim.versions));
      expect(await marked("actual")).toBe(String(step?.actual.events[0]?.claim.versions));
      expect(await marked("expected")).not.toBe(await marked("actual"));
      expect(await failing.locator(".difference").first().textContent()).toMatch(
        /First difference at \$\.events\[0\]\.claim\.versions/,
      );
      expect(await story.locator(".replay pre").textContent()).toBe(ref?.replay);
      await checkDiagrams(page, fail.certificate);

      // What a reviewer looks at first: only the failing row, with its story below.
      await page.locator('input[data-filter="verdict"][value="pass"]').uncheck();
      await page.locator('input[data-filter="verdict"][value="inconclusive"]').uncheck();
      expect(await visibleRows(page)).toBe(1);
      await page.evaluate("window.scrollTo(0, 0)");
      await page.screenshot({ path: join(shots, "report-fail.png") });
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("each invariant links to its page of the docs site: the page exists, is that invariant's, and nothing on it overflows the page", async () => {
    const { page, problems, requests } = await open(join(dirname(pass.certificatePath), REPORT_FILES.html));
    try {
      const links = (
        await page
          .locator("#verdict-table tbody tr td.id a")
          .evaluateAll((as) => as.map((a) => ({ id: a.textContent ?? "", href: a.getAttribute("href") ?? "" })))
      ).map((l) => ({ id: l.id, href: new URL(l.href, page.url()).href }));
      expect(links.map((l) => l.id)).toEqual(INVARIANTS.map((i) => i.id));
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      // A reader's click: the report's page is left for the invariant's page. (TypeDoc's pages log that
      // file:// forbids their icon sprite; that is the site's, over file://, so the report's problems were read above.)
      await page.unroute("**/*");
      await Promise.all([
        page.waitForURL(links[0]?.href ?? ""),
        page.locator('#verdict-table tbody tr[data-invariant="J-1"] td.id a').click(),
      ]);
      await expect.poll(() => page.locator("h1").first().textContent()).toMatch(/^J-1 Complete at birth/);
      const site = await openSite();
      try {
        for (const { id, href } of links) {
          const inv = INVARIANTS.find((i) => i.id === id);
          expect(await site.visit(href), href).toBe(200);
          expect(fileURLToPath(href).startsWith(`${SITE}/documents/`), href).toBe(true);
          expect(await site.page.locator("h1").first().textContent(), href).toBe(`${id} ${inv?.name ?? "?"}`);
          expect(await site.page.locator(`[id="${id}"]`).count(), `${href}: #${id}`).toBe(1);
          expect(await site.page.locator(`[id="${id.toLowerCase()}"]`).count(), `${href}: #${id.toLowerCase()}`).toBe(
            1,
          );
          expect(await site.page.locator(".tsd-typography").textContent(), href).toContain(inv?.statement ?? "?");
          const o = await overflow(site.page);
          expect(o.document, `${href}: the page is wider than the viewport`).toBeLessThanOrEqual(o.viewport);
          expect(o.blocks, `${href}: blocks reaching past the viewport`).toEqual([]);
        }
        // The index page's summary table, once wider than the page, scrolls inside its column.
        expect(await site.visit(pathToFileURL(join(SITE, "documents", "The_19_invariants.html")).href)).toBe(200);
        expect(await site.page.locator(".tsd-typography a[href^='invariant-']").count()).toBeGreaterThanOrEqual(19);
        const index = await overflow(site.page);
        expect(index.document).toBeLessThanOrEqual(index.viewport);
        expect(index.blocks).toEqual([]);
        // Code blocks on an invariant page are monospace and stay within the content column, at a narrow width too.
        await site.visit(links[0]?.href ?? "");
        expect(
          await site.page.evaluate(
            'getComputedStyle(document.querySelector(".tsd-typography pre.transcript")).fontFamily',
          ),
        ).toMatch(/monospace|Menlo|Consolas|Courier/);
        await site.page.setViewportSize({ width: 700, height: 900 });
        const o = await overflow(site.page);
        expect(o.document).toBeLessThanOrEqual(o.viewport);
        expect(o.blocks).toEqual([]);
        expect(site.problems).toEqual([]);
        expect(site.requests, "fetched from outside the site").toEqual([]);
      } finally {
        await site.page.close();
      }
    } finally {
      await page.close();
    }
  });

  it("an old address of an invariant's section, on the former one-page document, goes on to its page", async () => {
    const site = await openSite();
    try {
      await site.page.goto(`${pathToFileURL(join(SITE, "documents", "The_19_invariants.html")).href}#s-4`);
      await site.page.waitForURL(/invariant-S-4\.html$/);
      expect(await site.page.locator("h1").first().textContent()).toBe(
        `S-4 ${INVARIANTS.find((i) => i.id === "S-4")?.name ?? "?"}`,
      );
      expect(site.problems).toEqual([]);
    } finally {
      await site.page.close();
    }
  });

  it("a profile without ripa (janma, samskara, advaita): the Janma lifecycle is drawn, the RIPA migration is not, and the ripa rows are not applicable", async () => {
    expect(noRipa.certificate.implementation.profile?.families).toEqual(["janma", "samskara", "advaita"]);
    const { page, problems, requests } = await open(join(dirname(noRipa.certificatePath), REPORT_FILES.html));
    try {
      expect(await rowCount(page)).toBe(19);
      await checkDiagrams(page, noRipa.certificate, [JANMA_MACHINE]);
      expect(await page.locator('figure.diagram[data-machine="ripa-migration"]').count()).toBe(0);
      expect(await page.locator("#coverage").textContent()).toContain("Not drawn, outside the declared profile: RIPA");
      expect(
        await page.locator('#verdict-table tbody tr[data-family="ripa"][data-verdict="not-applicable"]').count(),
      ).toBe(6);
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("a hostile implementation's strings are shown as text and never run", async () => {
    const evil = `<img src="x.png" onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    const c = structuredClone(fail.certificate);
    c.implementation.name = evil;
    c.stages = c.stages.map((s) => ({
      ...s,
      reason: evil,
      findings: s.findings.map((f) => ({ ...f, summary: evil })),
    }));
    const dir = join(tmp, "hostile");
    mkdirSync(dir, { recursive: true });
    const certificatePath = join(dir, "certificate.json");
    writeFileSync(certificatePath, JSON.stringify(c));
    const files = await writeReports({ certificate: c, certificatePath });
    const { page, problems, requests } = await open(files.html);
    try {
      expect(await page.locator("h1").textContent()).toBe(
        `srk certify — ${evil} ${c.implementation.version ?? ""}`.trim(),
      );
      expect(await page.evaluate("typeof window.__pwned")).toBe("undefined");
      expect(await page.locator("body img").count()).toBe(0);
      expect(await rowCount(page)).toBe(19);
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("the screenshots are taken at the viewport's size, outside the committed folder, and the committed ones are the same pictures' size", () => {
    needBrowser();
    expect(
      shots.startsWith(join(REPO_ROOT, COMMITTED_SCREENSHOTS)),
      `the test writes its screenshots to ${shots}, not to ${COMMITTED_SCREENSHOTS}/`,
    ).toBe(false);
    for (const f of SCREENSHOT_FILES) {
      expect(pngSize(join(shots, f)), f).toEqual(VIEWPORT);
      expect(pngSize(join(REPO_ROOT, COMMITTED_SCREENSHOTS, f)), `${COMMITTED_SCREENSHOTS}/${f}`).toEqual(VIEWPORT);
    }
  });
});
