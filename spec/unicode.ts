/**
 * The Unicode version whose character data the D-010 tokeniser uses (D-045, spec review G-10):
 * NFKC, default lower-casing and the General_Category sets L, M and N all change between Unicode
 * versions for newly assigned characters, and with them the S-1 leakage verdict.
 *
 * 17.0 is what the kit's runtime supplies: Node 20.20.2 is built with ICU 78.2, which implements
 * Unicode 17.0 (`process.versions.unicode`). model/samskara/unicode-version.test.ts fails on a
 * runtime with other data, where the kit's own verdicts would silently change.
 *
 * The data itself is normative in spec/unicode/tokeniser-17.0.json (derived from this runtime by
 * spec/unicode/generate.ts, which refuses to run on another version), so an implementation in any
 * language can read it instead of its own runtime's, older, Unicode data.
 */
export const UNICODE_VERSION = "17.0";
