/**
 * The data directory the runner gives the implementation (W-1.1): `--data-dir DIR` (or
 * `--data-dir=DIR`) on the command line, which is what srk appends, or else the IMPL_DATA_DIR
 * environment variable. All durable state lives under it (W-7).
 */

/**
 * @param {string[]} [argv] the arguments after the script (default: process.argv.slice(2))
 * @param {Record<string, string | undefined>} [env]
 * @returns {string}
 */
export const dataDir = (argv = process.argv.slice(2), env = process.env) => {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--data-dir") {
      const v = argv[i + 1];
      if (v === undefined || v === "") throw new Error("--data-dir needs a directory after it");
      return v;
    }
    if (a.startsWith("--data-dir=")) {
      const v = a.slice("--data-dir=".length);
      if (v === "") throw new Error("--data-dir= needs a directory");
      return v;
    }
  }
  const v = env.IMPL_DATA_DIR;
  if (v !== undefined && v !== "") return v;
  throw new Error(
    "no data directory: srk starts the implementation with --data-dir DIR appended (W-1.1); or set IMPL_DATA_DIR",
  );
};
