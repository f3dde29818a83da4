/**
 * Byte scans of a data directory (spec/wire/PROTOCOL.md W-7.2): every file under it, recursively,
 * read whole, searched for a text in the forms an implementation could store it — its UTF-8 bytes
 * and its JSON-escaped form (a string inside a JSON document). Used by the forgetting stage (S-1,
 * S-5).
 */
import { lstatSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface DirFile {
  /** Path relative to the scanned directory. */
  readonly path: string;
  readonly bytes: Buffer;
}

const isGone = (e: unknown): boolean => (e as NodeJS.ErrnoException | null)?.code === "ENOENT";

/**
 * Every regular file under `dir` with its bytes. Symbolic links to files are read (their content
 * is "in a file under the data directory"); links to directories are not followed, so a link
 * cycle cannot trap the scan. A file removed while the scan runs is skipped.
 */
export const filesUnder = (dir: string): DirFile[] => {
  const out: DirFile[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      try {
        const l = lstatSync(p);
        if (l.isDirectory()) walk(p);
        else if (l.isFile() || (l.isSymbolicLink() && statSync(p).isFile()))
          out.push({ path: relative(dir, p), bytes: readFileSync(p) });
      } catch (e) {
        if (!isGone(e)) throw e;
      }
    }
  };
  walk(dir);
  return out;
};

export type Encoding = "utf-8" | "json-escaped";

/** Where a text occurs: which file, in which form. */
export interface Occurrence {
  readonly file: string;
  readonly form: Encoding;
}

/** The byte forms a text is searched in (the JSON-escaped form only when it differs). */
const needles = (text: string): { form: Encoding; bytes: Buffer }[] => {
  const escaped = JSON.stringify(text).slice(1, -1);
  return [
    { form: "utf-8", bytes: Buffer.from(text, "utf8") },
    ...(escaped === text ? [] : [{ form: "json-escaped" as const, bytes: Buffer.from(escaped, "utf8") }]),
  ];
};

/** Every file under `dir` that holds `text`, in either form. */
export const occurrences = (dir: string, text: string): Occurrence[] => {
  if (text === "") throw new Error("runner bug: scanning for the empty text");
  const forms = needles(text);
  return filesUnder(dir).flatMap((f) =>
    forms.filter((n) => f.bytes.includes(n.bytes)).map((n) => ({ file: f.path, form: n.form })),
  );
};

export const describeOccurrences = (text: string, found: readonly Occurrence[]): string =>
  `${JSON.stringify(text)} is in ${found.map((o) => `${o.file} (${o.form})`).join(", ")}`;
