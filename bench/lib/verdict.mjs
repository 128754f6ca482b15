// One figure of a bench file → one row of the table, with its verdict. Every figure has a
// baseline measured in the same run, and every goal is a ratio to it: absolute milliseconds and
// CPU percentages said nothing on a machine whose `node -e 0` takes 86 ms where the goals were
// set at 22 ms (the same build missed every absolute goal there while its ratios held).
//
// A figure: { figure, unit, samples: [numbers], baseline: [numbers] | number, target, note? }
//   target: null (info), or { ratio: X } — the median of the samples over the baseline's
//   median ≤ X — or { ratio: X, of: 'mean' | 'p95' | 'max' }: that statistic of the samples
//   over the baseline's median ≤ X; `base: 'p95'` takes the baseline's p95 instead of its
//   median (a tail against a tail: busy ls p95 against idle ls p95).
// The row: median, mean, p95 (nearest rank), min–max, the baseline (its median, or the
// statistic `base` names), ratio (of the statistic the target judges; the median's without a
// target) and over = median − the baseline's median.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

const round = (value) => (value === null || value === undefined ? null : Math.round(value * 1000) / 1000);
const finite = (values) => values.every((v) => typeof v === 'number' && Number.isFinite(v));
const STATS = ['median', 'mean', 'p95', 'max'];
const BASES = ['median', 'p95'];

/** Throws, naming the figure, for what makes it unusable; the runner counts its file as broken. */
export function checkFigure(f) {
  const name = `figure "${f.figure}"`;
  if (!Array.isArray(f.samples) || f.samples.length === 0) throw new Error(`${name} has no samples`);
  if (!finite(f.samples)) throw new Error(`${name} has a sample that is not a number`);
  const base = Array.isArray(f.baseline) ? f.baseline : [f.baseline];
  if (f.baseline === null || f.baseline === undefined || base.length === 0 || !finite(base)) {
    throw new Error(`${name} has no baseline: every figure is measured against one in the same run (bench/lib/baselines.mjs)`);
  }
  if (median(base) <= 0) throw new Error(`${name} has a baseline of ${median(base)}: a ratio to it means nothing`);
  const t = f.target ?? null;
  if (t === null) return;
  if (typeof t !== 'object' || typeof t.ratio !== 'number' || Object.keys(t).some((k) => !['ratio', 'of', 'base'].includes(k)) || !STATS.includes(t.of ?? 'median') || !BASES.includes(t.base ?? 'median')) {
    throw new Error(`${name} has the target ${JSON.stringify(t)}: a goal is { ratio: X } or { ratio: X, of: 'mean' | 'p95' | 'max', base?: 'p95' }, a ratio to its baseline`);
  }
}

/** The table row of a checked figure; `smoke` drops the verdict (a handful of samples proves nothing). */
export function entryOf(f, smoke) {
  const base = Array.isArray(f.baseline) ? f.baseline : [f.baseline];
  const baseOf = f.target?.base ?? 'median';
  const baseline = baseOf === 'p95' ? percentile(base, 95) : median(base);
  const stats = { median: median(f.samples), mean: f.samples.reduce((a, b) => a + b, 0) / f.samples.length, p95: percentile(f.samples, 95), max: Math.max(...f.samples) };
  const target = smoke ? null : (f.target ?? null);
  const of = target?.of ?? f.target?.of ?? 'median';
  const ratio = stats[of] / baseline;
  return {
    figure: f.figure,
    unit: f.unit ?? 'ms',
    n: f.samples.length,
    median: round(stats.median),
    mean: round(stats.mean),
    p95: round(stats.p95),
    min: round(Math.min(...f.samples)),
    max: round(stats.max),
    baseline: round(baseline),
    baselineN: Array.isArray(f.baseline) ? f.baseline.length : null,
    baselineP95: Array.isArray(f.baseline) ? round(percentile(f.baseline, 95)) : null,
    ratioOf: of,
    ratio: round(ratio),
    over: round(stats.median - median(base)),
    target: target === null ? null : `${of === 'median' ? '' : `${of} `}ratio ≤ ${target.ratio}${baseOf === 'median' ? '' : ` (to its ${baseOf})`}`,
    verdict: target === null ? 'info' : ratio <= target.ratio ? 'pass' : 'FAIL',
    note: f.note ?? null,
  };
}
