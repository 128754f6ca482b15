// What a real client is given to start offline against the mock, shared by the suite's worlds
// (world.ts) and the probes' lab (probes/lab.ts): text only, no vitest, no files written.
import { MOCK_MODEL } from '../mock-api.js';

/** claude's `.claude.json`: onboarding done and the project trusted. */
export function claudeSeedConfig(project: string): string {
  return `${JSON.stringify({ hasCompletedOnboarding: true, projects: { [project]: { hasTrustDialogAccepted: true } } }, null, 2)}\n`;
}

/** codex's config.toml lines: `topLevel` first, then the mock as its provider and the project trusted. */
export function codexMockToml(apiUrl: string, project: string, topLevel: string[] = []): string[] {
  return [
    ...topLevel,
    `model = "${MOCK_MODEL}"`,
    'model_provider = "mock"',
    '',
    '[model_providers.mock]',
    'name = "fleetcom mock"',
    `base_url = "${apiUrl}/v1"`,
    'wire_api = "responses"',
    '',
    `[projects.${JSON.stringify(project)}]`,
    'trust_level = "trusted"',
    '',
  ];
}

/** The environment that points claude, gemini and opencode at the mock and past their network and trust prompts. */
export function mockClientEnv(apiUrl: string): Record<string, string> {
  return {
    // claude reads these two (ANTHROPIC_API_KEY would raise an approval dialog instead).
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_AUTH_TOKEN: 'fleetcom-mock-token',
    // gemini: the mock as its API, an API key, the workspace trusted (else exit 55).
    GOOGLE_GEMINI_BASE_URL: apiUrl,
    GEMINI_API_KEY: 'fleetcom-mock-key',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    // opencode: no models list from the network.
    OPENCODE_DISABLE_MODELS_FETCH: '1',
  };
}
