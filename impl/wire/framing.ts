/**
 * JSON Lines framing with a hard line limit (spec/wire/PROTOCOL.md, "Framing"). Bytes beyond
 * MAX_LINE_BYTES are never buffered: an overlong line is counted and discarded up to its `\n`,
 * then reported once, so a hostile peer cannot make the implementation hold unbounded input.
 */
export type Frame = { kind: "line"; bytes: Buffer } | { kind: "too_long"; length: number };

export class LineFramer {
  private parts: Buffer[] = [];
  private size = 0;
  /** Length of the overlong line being discarded, or -1 when not discarding. */
  private discarding = -1;

  constructor(private readonly maxLineBytes: number) {}

  /** Feed a chunk; returns the complete frames it finished, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      this.take(chunk.subarray(start, end));
      if (nl === -1) break;
      frames.push(this.finish());
      start = nl + 1;
    }
    return frames;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.discarding >= 0) {
      this.discarding += piece.length;
      return;
    }
    if (this.size + piece.length > this.maxLineBytes) {
      this.discarding = this.size + piece.length;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  private finish(): Frame {
    if (this.discarding >= 0) {
      const length = this.discarding;
      this.discarding = -1;
      return { kind: "too_long", length };
    }
    const bytes = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return { kind: "line", bytes };
  }

  /** Bytes of an unterminated last line (at end of input), if any. */
  get pending(): number {
    return this.discarding >= 0 ? this.discarding : this.size;
  }
}
