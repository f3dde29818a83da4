/** Types of spec-copy.mjs (the generated copy of the kit's JSON data). */
export const COPY_DIR: string;
export const COPIED: readonly string[];
export const DEFAULT_KIT_ROOT: string;
export function specCopyDifferences(kitRoot?: string, copyDir?: string): string[];
export function writeSpecCopy(kitRoot?: string, copyDir?: string): string[];
