/** Types of tokeniser.mjs: the D-010 tokeniser read from the D-045 Unicode 17.0 table. */
export declare const TABLE_FILE: string;
/** The table's path: the one given, else $SRK_SPEC_DIR/unicode/tokeniser-17.0.json, else the kit's. */
export declare const tablePath: (path: string | undefined) => string;
export interface Tokeniser {
  /** NFKC (the table's steps 1 to 3). */
  readonly nfkc: (text: string) => string;
  /** NFKC, then default lower-casing with the final-sigma condition (steps 1 to 4). */
  readonly normalise: (text: string) => string;
  /** The D-010 tokens (steps 1 to 5). */
  readonly tokens: (text: string) => string[];
}
/** The tokeniser of a parsed table; `where` names the table in error messages. */
export declare const createTokeniser: (table: unknown, where?: string) => Tokeniser;
export declare const loadTokeniser: (path?: string) => Tokeniser;
/** The vectors' everyCodePoint digest of a tokens function. */
export declare const everyCodePointDigest: (tokens: (text: string) => string[]) => {
  codePoints: number;
  sha256: string;
};
