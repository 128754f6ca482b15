// Types of sandbox-env.mjs for the TypeScript tests (the main tsconfig does not check JavaScript).
export function makeSandboxDirs(dir: string): void;
export function sandboxEnv(dir: string, bin: string): Record<string, string>;
