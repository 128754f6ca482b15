// Types of session-members.mjs for the TypeScript tests (the main tsconfig does not check JavaScript).
export function sessionMembers(tree: ReadonlyMap<number, { pid: number; sid: number; state: string }> | null, leaders: readonly number[]): number[];
