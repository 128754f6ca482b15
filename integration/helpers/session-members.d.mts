// Types of session-members.mjs for the TypeScript tests (the main tsconfig does not check JavaScript).
export function sessionMembers(leaders: readonly number[]): number[];
