/**
 * Rejections as exceptions: an operation handler runs its checks in the order of
 * spec/OPERATIONS.md and throws at the first one that fails (D-032). Handlers check everything
 * before they mutate anything, so a thrown rejection leaves the state untouched (OP-0.3).
 */
import { errorCodeOf, type GenericErrorCode, type InvariantId } from "../../spec/index.ts";

export type RejectionPath = readonly (string | number)[];

export class Rejection extends Error {
  override readonly name = "Rejection";
  constructor(
    readonly code: string,
    readonly invariant: InvariantId | null,
    message: string,
    readonly path?: RejectionPath,
  ) {
    super(message);
  }

  /** The plain data shape of spec/errors.ts `RejectionSchema`. */
  toData(): { code: string; invariant: InvariantId | null; message: string; path?: (string | number)[] } {
    return this.path === undefined
      ? { code: this.code, invariant: this.invariant, message: this.message }
      : { code: this.code, invariant: this.invariant, message: this.message, path: [...this.path] };
  }
}

/** Reject to protect an invariant: the code is that invariant's catalog code. */
export const violates = (inv: InvariantId, message: string, path?: RejectionPath): never => {
  throw new Rejection(errorCodeOf(inv), inv, message, path);
};

/** Reject with a generic code (protects no invariant). */
export const refuse = (code: GenericErrorCode, message: string, path?: RejectionPath): never => {
  throw new Rejection(code, null, message, path);
};
