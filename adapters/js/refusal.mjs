/**
 * What a handler throws to reject a request: an operation rejection of W-3.2, e.g.
 *
 *   throw new Refusal("ADVAITA_IDENTITY_NOT_SINGLE", "AD-1", `root ${root} was already used`, ["root"]);
 *   throw new Refusal("NOT_FOUND", null, "no such agent");
 *   throw new Refusal("TICK_REGRESSED");            // the invariant taken from TAB-3 (here null)
 *
 * `code` must be an operation code of the error-code table (TAB-3 of spec/TABLES.md, kind
 * "operation"), and `invariant` the invariant that table gives it (omit it to have it filled in).
 * The adapter checks both when it writes the reply; a mismatch is a bug of the handler and is
 * answered INTERNAL, naming it. A refusal is definite (W-3.2: a rejected command writes nothing,
 * D-027). `message` is free text; `path` (member names and indices, relative to the command or
 * query) is informative (D-032).
 */
export class Refusal extends Error {
  /**
   * @param {string} code
   * @param {string | null} [invariant]
   * @param {string} [message]
   * @param {(string | number)[]} [path]
   */
  constructor(code, invariant, message, path) {
    super(message ?? code);
    if (typeof code !== "string")
      throw new TypeError(`Refusal: the code must be a string, got ${JSON.stringify(code)}`);
    if (invariant !== undefined && invariant !== null && typeof invariant !== "string")
      throw new TypeError(`Refusal: the invariant must be a string, null or omitted, got ${JSON.stringify(invariant)}`);
    if (
      path !== undefined &&
      !(Array.isArray(path) && path.every((p) => typeof p === "string" || Number.isInteger(p)))
    ) {
      throw new TypeError(
        `Refusal: the path must be an array of member names and indices, got ${JSON.stringify(path)}`,
      );
    }
    this.name = "Refusal";
    this.code = code;
    /** undefined: take the table's. */
    this.invariant = invariant;
    this.path = path;
  }
}
