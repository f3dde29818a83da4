/**
 * The D-010 leakage tokeniser (S-1) for implementations in JavaScript, computed from the kit's
 * normative Unicode 17.0 table (spec/unicode/tokeniser-17.0.json, D-045) and nothing else: plain
 * Node, no dependency, and no String.prototype.normalize, toLowerCase or \p{} property escape, so
 * the tokens are the kit's on any runtime, whatever Unicode version its ICU implements.
 *
 *     import { loadTokeniser } from "./tokeniser.mjs";
 *     const { tokens } = loadTokeniser();          // or loadTokeniser("/path/to/tokeniser-17.0.json")
 *     tokens("ΟΔΥΣΣΕΥΣ, the traveler_profile")     // ["οδυσσευς", "the", "traveler", "profile"]
 *
 * The table is found at the path given; else at $SRK_SPEC_DIR/unicode/tokeniser-17.0.json; else in
 * the kit this file sits in (adapters/js → spec/unicode). The steps below are the table's
 * `algorithm`, in order. Run as a program it reads a JSON array of strings on stdin and writes the
 * JSON array of their token lists (`node tokeniser.mjs tokens`), or prints the digest of the
 * vectors' `everyCodePoint` (`node tokeniser.mjs digest`).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const TABLE_FILE = "tokeniser-17.0.json";
const SIZE = 0x110000;
const TOKEN = 1;
const CASED = 2;
const IGNORABLE = 4;

/** @param {string | undefined} path */
export const tablePath = (path) => {
  if (path !== undefined) return path;
  const dir = process.env["SRK_SPEC_DIR"];
  if (dir) return join(dir, "unicode", TABLE_FILE);
  return fileURLToPath(new URL(`../../spec/unicode/${TABLE_FILE}`, import.meta.url));
};

const HEX = /^(?:[0-9A-F]{4,5}|10[0-9A-F]{4})$/;
/** @param {unknown} hex @param {string} where */
const cpOf = (hex, where) => {
  if (typeof hex !== "string" || !HEX.test(hex))
    throw new Error(`${where}: ${JSON.stringify(hex)} is not a code point in uppercase hex of 4 to 6 digits`);
  return Number.parseInt(hex, 16);
};
/** @param {unknown} text @param {string} where */
const seqOf = (text, where) => {
  if (typeof text !== "string" || text === "") throw new Error(`${where}: not a sequence of code points`);
  return text.split(" ").map((h, i) => cpOf(h, `${where}[${i}]`));
};
/** @param {unknown} list @param {string} where @param {(a: number, b: number) => void} each */
const forRanges = (list, where, each) => {
  if (!Array.isArray(list)) throw new Error(`${where}: not an array of ranges`);
  list.forEach((r, i) => {
    const parts = typeof r === "string" ? r.split("..") : [];
    if (parts.length < 1 || parts.length > 2)
      throw new Error(`${where}[${i}]: ${JSON.stringify(r)} is not a range "first..last"`);
    const a = cpOf(parts[0], `${where}[${i}]`);
    const b = parts.length === 2 ? cpOf(parts[1], `${where}[${i}]`) : a;
    if (b < a) throw new Error(`${where}[${i}]: range ${r} ends before it starts`);
    each(a, b);
  });
};
/** @param {unknown} v @param {string} where @returns {[string, string][]} */
const entriesOf = (v, where) => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error(`${where}: not an object`);
  return Object.entries(v);
};
/** @param {number[]} cps */
const stringOf = (cps) => {
  let s = "";
  for (let i = 0; i < cps.length; i += 4096) s += String.fromCodePoint(...cps.slice(i, i + 4096));
  return s;
};

/**
 * The tokeniser of one table (its parsed JSON). Errors name the member that is malformed.
 * @param {any} table
 */
export const createTokeniser = (table, where = "tokeniser table") => {
  if (typeof table !== "object" || table === null) throw new Error(`${where}: not a JSON object`);
  const flags = new Uint8Array(SIZE);
  /** @param {unknown} list @param {number} flag @param {string} name */
  const mark = (list, flag, name) =>
    forRanges(list, `${where}.${name}`, (a, b) => {
      for (let c = a; c <= b; c++) flags[c] |= flag;
    });
  mark(table.tokenCharacters, TOKEN, "tokenCharacters");
  const sigma = table.finalSigma ?? {};
  mark(sigma.cased, CASED, "finalSigma.cased");
  mark(sigma.caseIgnorable, IGNORABLE, "finalSigma.caseIgnorable");
  const capital = cpOf(sigma.capital, `${where}.finalSigma.capital`);
  const finalForm = cpOf(sigma.final, `${where}.finalSigma.final`);

  const rank = new Uint8Array(SIZE);
  if (!Array.isArray(table.combiningClassRanks)) throw new Error(`${where}.combiningClassRanks: not an array`);
  table.combiningClassRanks.forEach((/** @type {unknown} */ group, /** @type {number} */ i) =>
    forRanges(group, `${where}.combiningClassRanks[${i}]`, (a, b) => {
      for (let c = a; c <= b; c++) rank[c] = i + 1;
    }),
  );
  /** @param {string} name */
  const mapOf = (name) =>
    new Map(
      entriesOf(table[name], `${where}.${name}`).map(([k, v]) => [
        cpOf(k, `${where}.${name} key`),
        seqOf(v, `${where}.${name}.${k}`),
      ]),
    );
  const decompositions = mapOf("decompositions");
  const lowercase = mapOf("lowercase");
  /** @type {Map<number, number>} */
  const compositions = new Map();
  for (const [pair, c] of entriesOf(table.compositions, `${where}.compositions`)) {
    const ab = seqOf(pair, `${where}.compositions key`);
    if (ab.length !== 2) throw new Error(`${where}.compositions: key "${pair}" is not two code points`);
    compositions.set(ab[0] * SIZE + ab[1], cpOf(c, `${where}.compositions.${pair}`));
  }
  const h = table.hangul ?? {};
  const [sBase, lBase, vBase, tBase] = ["SBase", "LBase", "VBase", "TBase"].map((k) =>
    cpOf(h[k], `${where}.hangul.${k}`),
  );
  const [lCount, vCount, tCount] = ["LCount", "VCount", "TCount"].map((k) => {
    if (!Number.isSafeInteger(h[k]) || h[k] <= 0) throw new Error(`${where}.hangul.${k}: not a positive integer`);
    return /** @type {number} */ (h[k]);
  });
  const nCount = vCount * tCount;
  const sCount = lCount * nCount;

  /** Step 1. @param {number[]} cps */
  const decompose = (cps) => {
    /** @type {number[]} */
    const out = [];
    for (const cp of cps) {
      if (cp >= sBase && cp < sBase + sCount) {
        const i = cp - sBase;
        out.push(lBase + Math.floor(i / nCount), vBase + Math.floor((i % nCount) / tCount));
        if (i % tCount !== 0) out.push(tBase + (i % tCount));
      } else {
        const d = decompositions.get(cp);
        if (d === undefined) out.push(cp);
        else out.push(...d);
      }
    }
    return out;
  };
  /** Step 2: a stable insertion sort of each run of non-starters. @param {number[]} cps */
  const reorder = (cps) => {
    for (let i = 1; i < cps.length; i++) {
      const c = cps[i];
      const k = rank[c];
      if (k === 0) continue;
      let j = i;
      while (j > 0 && rank[cps[j - 1]] > k) {
        cps[j] = cps[j - 1];
        j--;
      }
      cps[j] = c;
    }
    return cps;
  };
  /** @param {number} a @param {number} b */
  const compose = (a, b) => {
    const c = compositions.get(a * SIZE + b);
    if (c !== undefined) return c;
    if (a >= lBase && a < lBase + lCount && b >= vBase && b < vBase + vCount)
      return sBase + ((a - lBase) * vCount + (b - vBase)) * tCount;
    if (a >= sBase && a < sBase + sCount && (a - sBase) % tCount === 0 && b > tBase && b < tBase + tCount)
      return a + (b - tBase);
    return undefined;
  };
  /** Step 3. @param {number[]} cps */
  const composeAll = (cps) => {
    /** @type {number[]} */
    const out = [];
    let starter = -1;
    let lastRank = -1;
    for (const c of cps) {
      const k = rank[c];
      const composite = starter >= 0 && (lastRank === 0 || lastRank < k) ? compose(out[starter], c) : undefined;
      if (composite !== undefined) {
        out[starter] = composite;
        continue;
      }
      if (k === 0) starter = out.length;
      lastRank = k;
      out.push(c);
    }
    return out;
  };
  /** @param {number[]} cps @param {number} i */
  const finalSigmaAt = (cps, i) => {
    let j = i - 1;
    while (j >= 0 && (flags[cps[j]] & IGNORABLE) !== 0) j--;
    if (j < 0 || (flags[cps[j]] & CASED) === 0) return false;
    let k = i + 1;
    while (k < cps.length && (flags[cps[k]] & IGNORABLE) !== 0) k++;
    return k === cps.length || (flags[cps[k]] & CASED) === 0;
  };
  /** Step 4. @param {number[]} cps */
  const lowerAll = (cps) => {
    /** @type {number[]} */
    const out = [];
    cps.forEach((cp, i) => {
      if (cp === capital && finalSigmaAt(cps, i)) out.push(finalForm);
      else {
        const l = lowercase.get(cp);
        if (l === undefined) out.push(cp);
        else out.push(...l);
      }
    });
    return out;
  };
  /** @param {string} text */
  const codePoints = (text) => Array.from(text, (c) => /** @type {number} */ (c.codePointAt(0)));
  /** @param {string} text */
  const nfkcOf = (text) => composeAll(reorder(decompose(codePoints(text))));

  return {
    /** NFKC (steps 1 to 3). @param {string} text */
    nfkc: (text) => stringOf(nfkcOf(text)),
    /** NFKC, then default lower-casing with the final-sigma condition (steps 1 to 4). @param {string} text */
    normalise: (text) => stringOf(lowerAll(nfkcOf(text))),
    /** The D-010 tokens (steps 1 to 5). @param {string} text @returns {string[]} */
    tokens: (text) => {
      /** @type {string[]} */
      const out = [];
      /** @type {number[]} */
      let run = [];
      for (const cp of lowerAll(nfkcOf(text))) {
        if ((flags[cp] & TOKEN) !== 0) run.push(cp);
        else if (run.length > 0) {
          out.push(stringOf(run));
          run = [];
        }
      }
      if (run.length > 0) out.push(stringOf(run));
      return out;
    },
  };
};

/** Reads the table (see tablePath) and returns its tokeniser. @param {string} [path] */
export const loadTokeniser = (path) => {
  const file = tablePath(path);
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(
      `the tokeniser table was not found at ${file} (pass its path, or set SRK_SPEC_DIR to the kit's spec folder): ${/** @type {Error} */ (e).message}`,
    );
  }
  return createTokeniser(JSON.parse(text), file);
};

/**
 * The vectors' everyCodePoint digest: for each scalar value in order, its hex, a tab before each
 * token of the one-code-point string, a line feed; SHA-256 of the UTF-8 bytes.
 * @param {(text: string) => string[]} tokens
 */
export const everyCodePointDigest = (tokens) => {
  const hash = createHash("sha256");
  let codePoints = 0;
  let chunk = "";
  for (let cp = 0; cp < SIZE; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    chunk += `${cp.toString(16).toUpperCase().padStart(4, "0")}${tokens(String.fromCodePoint(cp))
      .map((t) => `\t${t}`)
      .join("")}\n`;
    codePoints++;
    if (chunk.length > 65536) {
      hash.update(chunk, "utf8");
      chunk = "";
    }
  }
  hash.update(chunk, "utf8");
  return { codePoints, sha256: hash.digest("hex") };
};

const main = () => {
  const [command, path] = process.argv.slice(2);
  const { tokens } = loadTokeniser(path);
  if (command === "digest") {
    process.stdout.write(`${JSON.stringify(everyCodePointDigest(tokens))}\n`);
    return 0;
  }
  if (command === "tokens") {
    const input = JSON.parse(readFileSync(0, "utf8"));
    if (!Array.isArray(input) || !input.every((s) => typeof s === "string"))
      throw new Error("stdin: expected a JSON array of strings");
    process.stdout.write(`${JSON.stringify(input.map(tokens))}\n`);
    return 0;
  }
  process.stderr.write(
    "usage: node tokeniser.mjs tokens|digest [table.json]  (tokens: a JSON array of strings on stdin)\n",
  );
  return 64;
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
