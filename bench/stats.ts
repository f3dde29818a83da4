/**
 * The statistics of the benchmark: every figure is the median of several runs with their min and
 * max, and growth is summarised by the slope of a least-squares line through (log N, log time).
 * Pure functions, tested in reports/bench.test.ts.
 */

/** A measured quantity: the median of `runs` samples, with the smallest and largest. */
export interface Figure {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
  readonly unit: string;
}

/** Median of a non-empty list (the mean of the two middle values for an even count). */
export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) throw new Error("median of no samples");
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const hi = s[mid] as number;
  return s.length % 2 === 1 ? hi : ((s[mid - 1] as number) + hi) / 2;
};

export const figure = (samples: readonly number[], unit: string): Figure => {
  if (samples.length === 0) throw new Error(`no samples for a figure in ${unit}`);
  for (const x of samples) if (!Number.isFinite(x)) throw new Error(`a sample in ${unit} is not a finite number: ${x}`);
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), runs: samples.length, unit };
};

/** A rate figure from samples of (count, milliseconds): each sample's count per second. */
export const rateFigure = (samples: readonly { readonly count: number; readonly ms: number }[], unit: string): Figure =>
  figure(
    samples.map((s) => (s.count * 1000) / Math.max(s.ms, 1e-6)),
    unit,
  );

export interface LogLogFit {
  /** The slope of log(y) against log(x): 0 is flat, 1 linear, 2 quadratic. */
  readonly exponent: number;
  /** log10 of y at x = 1 (the intercept). */
  readonly intercept: number;
  /** Coefficient of determination of the fit (1 = the points are on the line). */
  readonly r2: number;
  readonly points: number;
}

/** Least-squares fit of log10(y) = exponent · log10(x) + intercept; needs two distinct x > 0 and y > 0. */
export const fitLogLog = (points: readonly { readonly x: number; readonly y: number }[]): LogLogFit => {
  if (points.length < 2) throw new Error("a log-log fit needs at least two points");
  for (const p of points)
    if (!(p.x > 0 && p.y > 0)) throw new Error(`a log-log fit needs positive values, got (${p.x}, ${p.y})`);
  const lx = points.map((p) => Math.log10(p.x));
  const ly = points.map((p) => Math.log10(p.y));
  const n = points.length;
  const mx = lx.reduce((a, b) => a + b, 0) / n;
  const my = ly.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (lx[i] as number) - mx;
    const dy = (ly[i] as number) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) throw new Error("a log-log fit needs at least two distinct x values");
  const exponent = sxy / sxx;
  const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  return { exponent, intercept: my - exponent * mx, r2, points: n };
};

/** Rounds for display: 3 significant digits, no exponent notation for ordinary magnitudes. */
export const sig = (x: number, digits = 3): string => {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return "0";
  const abs = Math.abs(x);
  if (abs >= 10 ** digits) return Math.round(x).toLocaleString("en-US");
  const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(abs)));
  return x.toFixed(Math.min(decimals, 6));
};

/** `median (min–max)` with the unit, for tables. */
export const showFigure = (f: Figure): string =>
  f.runs === 1 ? `${sig(f.median)} ${f.unit} (1 run)` : `${sig(f.median)} ${f.unit} (${sig(f.min)}–${sig(f.max)})`;
