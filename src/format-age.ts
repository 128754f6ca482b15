// How long ago, in at most four cells: `5s`, `3m`, `36h`, `4d`. Shared by the dashboard's rows
// and `fleetcom sessions`, so an age reads the same on both.

/** Hours up to two days (`36h` says more than `1d`); a negative age (clock skew) is `0s`. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}
