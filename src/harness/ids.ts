// The strict id check is the security boundary. Every id that reaches a
// shell string passes through `isValidId`; version and variant are deliberately not checked.
const STRICT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Exactly 36 characters, `-` at 8, 13, 18, 23, lowercase hex elsewhere. */
export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && STRICT_ID.test(value);
}

/**
 * The Unix ms a v7 id was minted at (its first 48 bits: hex chars 0-7 and 9-12), or null when
 * the id fails the strict check or its version character is not `7`.
 */
export function v7TimeMs(id: string): number | null {
  if (!isValidId(id) || id[14] !== '7') return null;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/** Calls an injected id maker and refuses what it returns unless it passes the strict check. */
export function freshId(make: () => string): string {
  const id = make();
  if (!isValidId(id)) throw new Error(`the id maker returned an invalid id: ${JSON.stringify(id)}`);
  return id;
}
