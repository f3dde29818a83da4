// The Node version check srk makes before loading anything else: an install on an older Node
// (npm only warns about `engines`) gets one line saying what is needed, not a syntax error deep
// in a dependency.
export const MIN_NODE_MAJOR = 20;

/** null when `version` (e.g. "20.20.2" or "v18.19.0") is new enough, else the one line to print. */
export const engineProblem = (version, min = MIN_NODE_MAJOR) => {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1] ?? Number.NaN);
  if (Number.isInteger(major) && major >= min) return null;
  return `srk: needs Node.js ${min} or later (package.json "engines"); this is Node.js ${version}`;
};
