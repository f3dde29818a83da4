/**
 * The digest of the normative spec a certificate was issued against: SHA-256 over the sorted
 * normative files (path, a NUL byte, the bytes, a NUL byte each). Certificates of different
 * digests are never merged or compared as if equal.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { KIT_ROOT } from "../kit-root.ts";

/** The normative files: the spec's Markdown and its tables (also as JSON), its JSON Schemas and rules, digest vectors and wire protocol. */
export const NORMATIVE_ROOTS = [
  "spec/INVARIANTS.md",
  "spec/OPERATIONS.md",
  "spec/ENCODING.md",
  "spec/DECISIONS.md",
  "spec/TABLES.md",
  "spec/tables.json",
  "spec/CHECKS.md",
  "spec/checks.json",
  "spec/wire/PROTOCOL.md",
  "spec/json-schema",
  "spec/vectors",
];

const walk = (p: string): string[] =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .sort()
        .flatMap((n) => walk(join(p, n)))
    : [p];

export const specFiles = (root = KIT_ROOT): string[] =>
  NORMATIVE_ROOTS.flatMap((r) => walk(join(root, r)))
    .map((p) => relative(root, p))
    .sort();

export const specDigest = (root = KIT_ROOT): string => {
  const h = createHash("sha256");
  for (const f of specFiles(root)) {
    h.update(f);
    h.update("\0");
    h.update(readFileSync(join(root, f)));
    h.update("\0");
  }
  return `sha256:${h.digest("hex")}`;
};
