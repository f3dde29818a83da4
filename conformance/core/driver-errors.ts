/**
 * What driving an implementation can throw: it cannot be driven (exit, hang), its program cannot
 * start at all, or it broke the wire protocol. The driver (driver/target.ts, the transport) throws
 * them and the stages, certify, replay and `srk golden` catch them, so they live below both.
 */

/** Thrown inside a stage when the implementation cannot be driven (exit, hang): the stage is inconclusive. */
export class Undrivable extends Error {
  override readonly name: string = "Undrivable";
}

/**
 * The program of the command line could not be started at all (no such program or file, not
 * executable): an Undrivable inside a campaign, and a usage error (exit 64) at the first start,
 * where it can only be a mistake in `--impl` (Target.openFirst).
 */
export class CannotStart extends Undrivable {
  override readonly name = "CannotStart";
  constructor(
    message: string,
    readonly program: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Thrown inside a stage when the implementation broke the wire protocol: the stage fails. */
export class WireBreak extends Error {
  override readonly name = "WireBreak";
  constructor(
    readonly rule: string,
    message: string,
    readonly raw: string,
  ) {
    super(message);
  }
}
