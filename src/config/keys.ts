// Every key of config.json: its schema, its default and what it does. A new setting is one
// entry here (and its flag, if it has one, in commands/register.ts); the file, `fleetcom
// config` and docs/configuration.md (checked by test/docs/docs.test.ts) follow from this list.
import * as z from 'zod';
import { hostProblem } from '../remote/host-name.js';
import { HARNESS_NAMES, type HarnessName } from '../harness/names.js';
import { NOTIFY_DEFAULTS, notifySchema, notifySettings, type NotifySettings } from './notify-schema.js';
import { DEFAULT_WORKTREE_DIR, GROUP_BY, TMUX_KEY, type GroupBy } from './values.js';

export const configKeys = {
  rerunKey: {
    schema: z.string({ error: 'expected a string' }).regex(TMUX_KEY, { error: "expected a tmux key name such as r or C-r, or 'none'" }),
    default: 'r' as string,
    flag: '--rerun-key',
    about: "the prefix-table key that reruns a task ('none': no binding)",
  },
  idleSeconds: {
    schema: z.number({ error: 'expected a number' }).int({ error: 'expected a whole number of seconds' }).min(1, { error: 'expected at least 1' }).max(86_400, { error: 'expected at most 86400 (a day)' }),
    default: 10 as number,
    flag: '--idle-seconds',
    about: 'seconds without output after which a running task shows as idle',
  },
  groupBy: {
    schema: z.enum(GROUP_BY, { error: `expected one of ${GROUP_BY.join(', ')}` }),
    default: 'state' as GroupBy,
    flag: '--group-by',
    about: "the dashboard's grouping at start (s cycles it)",
  },
  nextKey: {
    schema: z.string({ error: 'expected a string' }).regex(TMUX_KEY, { error: "expected a tmux key name such as N or C-n, or 'none'" }),
    default: 'N' as string,
    flag: '--next-key',
    about: "the prefix-table key that goes to the next task needing you ('none': no binding)",
  },
  notifyCommand: {
    schema: z.string({ error: 'expected a string' }).trim().min(1, { error: 'expected a command' }).nullable(),
    default: null as string | null,
    flag: '--notify-command',
    about: 'run by /bin/sh when a task needs you, under the notify rules (FLEETCOM_* variables say which)',
  },
  notify: {
    schema: notifySchema.transform(notifySettings),
    default: NOTIFY_DEFAULTS as NotifySettings,
    about: 'when a task that needs you raises an alert (delaySeconds, cooldownSeconds, whenWatching) and where it goes (targets)',
  },
  hosts: {
    schema: z.array(z.string({ error: 'expected a host name' }).superRefine((host, ctx) => {
      const problem = hostProblem(host);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: `host ${JSON.stringify(host)} is refused: ${problem}` });
    }), { error: 'expected a list of host names' }),
    default: [] as string[],
    flag: '--hosts',
    about: 'the hosts `ls --all-hosts`, `save --all-hosts` and the dashboard reach over ssh',
  },
  sshCommand: {
    schema: words('expected a list of words, the ssh program first, e.g. ["ssh", "-F", "/path/config"]'),
    default: ['ssh'] as string[],
    env: 'FLEETCOM_SSH_COMMAND',
    about: 'the ssh program and options fleetcom runs to reach a host (env: words split on spaces)',
  },
  remoteCommand: {
    schema: words('expected a list of words, e.g. ["fleetcom"] or ["node", "/opt/fleetcom/dist/cli.js"]'),
    default: ['fleetcom'] as string[],
    env: 'FLEETCOM_REMOTE_COMMAND',
    about: "how a host's shell starts fleetcom there (env: words split on spaces)",
  },
  hostTimeoutSeconds: {
    schema: z.number({ error: 'expected a number' }).min(0.5, { error: 'expected at least 0.5' }).max(600, { error: 'expected at most 600' }),
    default: 5 as number,
    env: 'FLEETCOM_HOST_TIMEOUT',
    about: 'seconds a host of --all-hosts (or the dashboard) has to answer before it shows as unreachable',
  },
  homes: {
    schema: z.partialRecord(z.enum(HARNESS_NAMES, { error: `expected an agent: ${HARNESS_NAMES.join(', ')}` }), z.array(
      z.string({ error: 'expected a directory' }).refine((dir) => (dir.startsWith('/') || dir === '~' || dir.startsWith('~/')) && !/\p{Cc}/u.test(dir), {
        error: 'expected an absolute directory or ~/… without control characters',
      }),
      { error: 'expected a list of directories' },
    ), { error: 'expected an object: agent → list of homes, e.g. {"claude": ["~/.claude-work"]}' }),
    default: {} as Partial<Record<HarnessName, string[]>>,
    about: 'more agent homes `history` and `resume` read, besides the default ones and those of tasks and recipes',
  },
  worktreeDir: {
    schema: z.string({ error: 'expected a string' }).trim().min(1, { error: 'expected a path template' }).refine((t) => t.includes('{branch}'), { error: 'expected a template containing {branch}' }),
    default: DEFAULT_WORKTREE_DIR as string,
    about: 'where run --worktree puts a branch\'s worktree: a path template of {repo}, {repo-root} and {branch} (relative: from the repository root)',
  },
  worktreeSetup: {
    schema: z.string({ error: 'expected a string' }).trim().min(1, { error: 'expected a command' }).nullable(),
    default: null as string | null,
    about: 'run by /bin/sh in each new worktree before its task starts (FLEETCOM_REPO_ROOT, FLEETCOM_WORKTREE_PATH, FLEETCOM_BRANCH, FLEETCOM_BASE); a failure stops the task',
  },
  worktreeSetupSeconds: {
    schema: z.number({ error: 'expected a number' }).int({ error: 'expected a whole number of seconds' }).min(1, { error: 'expected at least 1' }).max(3_600, { error: 'expected at most 3600' }),
    default: 600 as number,
    about: "seconds a worktree's setup (worktreeSetup, .fleetcom/worktree-setup, submodules) may take before it is stopped",
  },
  sendMaxBytes: {
    // A request of the control socket is at most 4 MiB, a text JSON-escaped up to six times its size.
    schema: z.number({ error: 'expected a number' }).int({ error: 'expected a whole number of bytes' }).min(1, { error: 'expected at least 1' }).max(512 * 1024, { error: 'expected at most 524288 (512 KiB)' }),
    default: 262_144 as number,
    about: 'the largest message send (and run --prompt) types into a task, in bytes of UTF-8; a longer one is refused',
  },
} as const;

function words(error: string) {
  return z.array(z.string({ error }).min(1, { error }), { error }).min(1, { error });
}

export type ConfigKey = keyof typeof configKeys;
export const CONFIG_KEYS = Object.keys(configKeys) as ConfigKey[];

export interface Settings {
  rerunKey: string;
  idleSeconds: number;
  groupBy: GroupBy;
  nextKey: string;
  notifyCommand: string | null;
  notify: NotifySettings;
  hosts: string[];
  sshCommand: string[];
  remoteCommand: string[];
  hostTimeoutSeconds: number;
  homes: Partial<Record<HarnessName, string[]>>;
  worktreeDir: string;
  worktreeSetup: string | null;
  worktreeSetupSeconds: number;
  sendMaxBytes: number;
}

/** The file's shape: every key optional, no other key allowed (a typo must not pass silently). */
export const configFileSchema = z.strictObject({
  rerunKey: configKeys.rerunKey.schema.optional(),
  idleSeconds: configKeys.idleSeconds.schema.optional(),
  groupBy: configKeys.groupBy.schema.optional(),
  nextKey: configKeys.nextKey.schema.optional(),
  notifyCommand: configKeys.notifyCommand.schema.optional(),
  notify: configKeys.notify.schema.optional(),
  hosts: configKeys.hosts.schema.optional(),
  sshCommand: configKeys.sshCommand.schema.optional(),
  remoteCommand: configKeys.remoteCommand.schema.optional(),
  hostTimeoutSeconds: configKeys.hostTimeoutSeconds.schema.optional(),
  homes: configKeys.homes.schema.optional(),
  worktreeDir: configKeys.worktreeDir.schema.optional(),
  worktreeSetup: configKeys.worktreeSetup.schema.optional(),
  worktreeSetupSeconds: configKeys.worktreeSetupSeconds.schema.optional(),
  sendMaxBytes: configKeys.sendMaxBytes.schema.optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;
