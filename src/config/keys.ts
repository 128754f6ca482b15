// Every key of config.json: its schema, its default and what it does. A new setting is one
// entry here (and its flag, if it has one, in commands/register.ts); the file, `fleetcom
// config` and docs/configuration.md (checked by test/docs/docs.test.ts) follow from this list.
import * as z from 'zod';
import { GROUP_BY, TMUX_KEY, type GroupBy } from './values.js';


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
    about: 'run by /bin/sh when a task starts waiting for you (FLEETCOM_* variables say which)',
  },
} as const;

export type ConfigKey = keyof typeof configKeys;
export const CONFIG_KEYS = Object.keys(configKeys) as ConfigKey[];

export interface Settings {
  rerunKey: string;
  idleSeconds: number;
  groupBy: GroupBy;
  nextKey: string;
  notifyCommand: string | null;
}

/** The file's shape: every key optional, no other key allowed (a typo must not pass silently). */
export const configFileSchema = z.strictObject({
  rerunKey: configKeys.rerunKey.schema.optional(),
  idleSeconds: configKeys.idleSeconds.schema.optional(),
  groupBy: configKeys.groupBy.schema.optional(),
  nextKey: configKeys.nextKey.schema.optional(),
  notifyCommand: configKeys.notifyCommand.schema.optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;
