/**
 * Writes the D-045 tokeniser table and its vectors from the runtime's Unicode data:
 *
 *     npx tsx spec/unicode/generate.ts
 *
 * spec/unicode/tokeniser.test.ts renders both again and fails when a committed file differs, so
 * the files stay what this runtime (Node 20 with ICU implementing Unicode 17.0) computes.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { deriveTable } from "./derive.ts";
import { TABLE_PATH, VECTORS_PATH, type TokeniserTable } from "./table.ts";
import { deriveVectors } from "./vectors.ts";

/**
 * JSON with one entry per line inside each member (a range, a mapping, a vector), so a change to
 * the data shows as a change of the lines it touches.
 */
export const renderJson = (value: object): string => {
  const lines = Object.entries(value).map(([k, v]) => {
    if (Array.isArray(v) && v.length > 0)
      return `  ${JSON.stringify(k)}: [\n${v.map((x) => `    ${JSON.stringify(x)}`).join(",\n")}\n  ]`;
    if (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length > 0) {
      return `  ${JSON.stringify(k)}: {\n${Object.entries(v)
        .map(([a, b]) => `    ${JSON.stringify(a)}: ${JSON.stringify(b)}`)
        .join(",\n")}\n  }`;
    }
    return `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`;
  });
  return `{\n${lines.join(",\n")}\n}\n`;
};

export const renderVectorsJson = (vectors: ReturnType<typeof deriveVectors>): string => {
  const groups = vectors.groups.map(
    (g) =>
      `    {\n      "name": ${JSON.stringify(g.name)},\n      "about": ${JSON.stringify(g.about)},\n      "cases": [\n${g.cases.map((c) => `        ${JSON.stringify(c)}`).join(",\n")}\n      ]\n    }`,
  );
  return `{\n  "description": ${JSON.stringify(vectors.description)},\n  "unicodeVersion": ${JSON.stringify(vectors.unicodeVersion)},\n  "groups": [\n${groups.join(",\n")}\n  ],\n  "everyCodePoint": ${JSON.stringify(vectors.everyCodePoint)}\n}\n`;
};

/** Both files' paths and contents, derived afresh. */
export const renderUnicodeFiles = (): { table: TokeniserTable; files: Map<string, string> } => {
  const table = deriveTable();
  return {
    table,
    files: new Map([
      [TABLE_PATH, renderJson(table)],
      [VECTORS_PATH, renderVectorsJson(deriveVectors(table))],
    ]),
  };
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { files } = renderUnicodeFiles();
  for (const [path, content] of files) {
    writeFileSync(path, content);
    console.error(`wrote ${path} (${content.length} bytes)`);
  }
}
