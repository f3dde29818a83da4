/**
 * JSON Lines framing with the 1 MiB bound (spec/wire/PROTOCOL.md W-1.2, W-1.4, W-1.7).
 *
 * Bytes are split at `\n` (0x0A) only. A line longer than MAX_LINE_BYTES (every byte before the
 * `\n` counts, a trailing `\r` included) is never buffered: its bytes are counted and dropped up to
 * its `\n`, and it becomes one `too_long` frame, so a hostile peer cannot make the process hold
 * unbounded input. Nothing here decodes text: UTF-8 is checked after framing (W-4 row 2), so an
 * over-long line that is also invalid UTF-8 is still LINE_TOO_LONG (row 1 first).
 */

/** W-1.4: the longest line, in bytes, not counting its `\n`. */
export const MAX_LINE_BYTES = 1_048_576;

export class LineFramer {
  /** @param {number} [maxLineBytes] */
  constructor(maxLineBytes = MAX_LINE_BYTES) {
    this.max = maxLineBytes;
    /** @type {Buffer[]} */
    this.parts = [];
    this.size = 0;
    /** Bytes of the over-long line being dropped, or -1 while not dropping. */
    this.dropping = -1;
  }

  /**
   * Feeds one chunk of input; returns the frames it completed, in order:
   * `{ kind: "line", bytes }` (without the `\n`) or `{ kind: "too_long", length }`.
   * @param {Uint8Array} chunk
   */
  push(chunk) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const frames = [];
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(0x0a, start);
      this.take(buf.subarray(start, nl === -1 ? buf.length : nl));
      if (nl === -1) return frames;
      frames.push(this.finish());
      start = nl + 1;
    }
  }

  /** Bytes of the unterminated line held so far (W-1.7: ignored at end of input). */
  get pending() {
    return this.dropping >= 0 ? this.dropping : this.size;
  }

  /** @param {Buffer} piece */
  take(piece) {
    if (piece.length === 0) return;
    if (this.dropping >= 0) {
      this.dropping += piece.length;
    } else if (this.size + piece.length > this.max) {
      this.dropping = this.size + piece.length;
      this.parts = [];
      this.size = 0;
    } else {
      // A copy: the caller may reuse the chunk's memory after push returns.
      this.parts.push(Buffer.from(piece));
      this.size += piece.length;
    }
  }

  finish() {
    if (this.dropping >= 0) {
      const length = this.dropping;
      this.dropping = -1;
      return { kind: "too_long", length };
    }
    const bytes = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return { kind: "line", bytes };
  }
}
