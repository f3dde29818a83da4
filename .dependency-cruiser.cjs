/**
 * The kit's layering, as rules dependency-cruiser checks (conformance/layers.test.ts runs them in
 * `npm test`; `npx depcruise -c .dependency-cruiser.cjs spec model impl properties conformance
 * reports bench test-support` prints the same).
 *
 * The layers, from the bottom (DEVELOPERS.md "Layers"): spec depends on nothing of ours; model on
 * spec; impl on spec only (never model: the implementation must be independent of the model it is
 * checked against); properties on the three; conformance on all four; reports and bench on
 * everything below them. A module may import its own layer and any layer below it, never one above,
 * and no import circle is allowed anywhere: a circle makes a module's meaning depend on the load
 * order and hides which concept comes first.
 *
 * Tests are held to less: a test may use the kit's test tools from higher layers (the command
 * generators of properties/ drive the model's and the implementation's tests, the runner's wire
 * client drives impl/'s wire tests), so the layer rules read modules only. Two rules still bind
 * tests: impl/ never imports model/ (its tests included: an implementation test that asked the
 * model would check the model against itself), and no test below reports/ imports reports/ or
 * bench/.
 */
const LAYERS = [
  { name: "spec", path: "^spec/", may: [] },
  { name: "model", path: "^model/", may: ["spec"] },
  { name: "impl", path: "^impl/", may: ["spec"] },
  { name: "properties", path: "^properties/", may: ["spec", "model", "impl"] },
  { name: "conformance", path: "^conformance/", may: ["spec", "model", "impl", "properties"] },
  { name: "reports", path: "^reports/", may: ["spec", "model", "impl", "properties", "conformance", "bench"] },
  { name: "bench", path: "^bench/", may: ["spec", "model", "impl", "properties", "conformance"] },
];

/** Test code: test files, and impl/test/'s helpers (the drivers impl's tests share). */
const TEST_CODE = "(\\.test\\.ts$|^impl/test/)";

/**
 * Tests below reports/ that read a reports/ module, each for a reason (never a pattern):
 * - conformance/reporters/reporters.test.ts checks that report.html's links into the docs resolve
 *   (heading anchors of the Markdown pages), with the docs' own link checker, reports/links.ts:
 *   two anchor readers would drift.
 */
const TESTS_READING_REPORTS = ["^conformance/reporters/reporters\\.test\\.ts$"];

const pathOf = (name) => LAYERS.find((l) => l.name === name).path;
const OURS = LAYERS.map((l) => l.name);

/** One rule per layer: what it may not import (every other layer of ours that is not below it). */
const layerRules = LAYERS.map((l) => {
  const forbidden = OURS.filter((o) => o !== l.name && !l.may.includes(o));
  return {
    name: `layer-${l.name}`,
    severity: "error",
    comment: `${l.name}/ may import ${l.may.length === 0 ? "nothing of ours but itself" : `${l.may.join(", ")} and itself`} (DEVELOPERS.md, Layers)`,
    from: { path: l.path, pathNot: TEST_CODE },
    to: { path: forbidden.length === 0 ? "^$" : `(${forbidden.map(pathOf).join("|")})` },
  };
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "no import circle anywhere: a module's meaning must not depend on the load order",
      from: {},
      to: { circular: true },
    },
    {
      name: "impl-never-model",
      severity: "error",
      comment: "the implementation is checked against the model and must not share its code (DEVELOPERS.md, Layers)",
      from: { path: "^impl/" },
      to: { path: "^model/" },
    },
    ...layerRules,
    {
      name: "conformance-core-below",
      severity: "error",
      comment:
        "conformance/core/ is the runner's shared vocabulary (findings, outcomes, the driver's errors, expected replies, the stage catalog): it imports nothing else of conformance/, so every part of the runner reads it without an import running back up (issue 22)",
      from: { path: "^conformance/core/", pathNot: TEST_CODE },
      to: { path: "^conformance/(?!core/)" },
    },
    {
      name: "tests-below-reports",
      severity: "error",
      comment:
        "a test of spec, model, impl, properties or conformance never imports reports/ or bench/ (the evidence and the timings are read by their own tests)",
      from: {
        path: "^(spec|model|impl|properties|conformance)/.*\\.test\\.ts$",
        pathNot: `(${TESTS_READING_REPORTS.join("|")})`,
      },
      to: { path: "^(reports|bench)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|^reports/site/|^dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".mts", ".js", ".mjs", ".json"] },
    // Type-only imports count: a type import is still a dependency of meaning, and the circles
    // issue 22 removed were type imports.
    moduleSystems: ["es6", "cjs"],
  },
};
