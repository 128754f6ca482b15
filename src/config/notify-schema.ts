// config.json `notify`: when a task that needs the user raises an alert (the rules) and where
// the alert goes (the targets). Every target is checked here, so a typo refuses the whole file
// before a fleet starts with an alert nobody would ever receive.
import * as z from 'zod';

const seconds = (max: number) =>
  z.number({ error: 'expected a number of seconds' }).min(0, { error: 'expected 0 or more' }).max(max, { error: `expected at most ${max}` });

const timeoutSeconds = z.number({ error: 'expected a number of seconds' }).gt(0, { error: 'expected more than 0' }).max(600, { error: 'expected at most 600' });

const httpUrl = z.string({ error: 'expected an http(s) URL' }).superRefine((text, ctx) => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(text)} is not a URL` });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: `${JSON.stringify(text)} is not an http(s) URL` });
});

const headers = z.record(
  z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { error: 'expected an HTTP header name' }),
  z.string({ error: 'expected a header value (a string)' }).refine((v) => !/[\r\n]/.test(v), { error: 'a header value cannot hold a line break' }),
  { error: 'expected an object of header names to values' },
);

const argv = z.array(z.string({ error: 'expected a list of words' }).min(1, { error: 'an empty word' }), { error: 'expected a list of words, the program first' })
  .min(1, { error: 'expected at least the program' });

const target = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('command'), argv, timeoutSeconds: timeoutSeconds.optional() }),
  z.strictObject({ type: z.literal('webhook'), url: httpUrl, headers: headers.optional(), timeoutSeconds: timeoutSeconds.optional() }),
  z.strictObject({ type: z.literal('ntfy'), url: httpUrl, token: z.string({ error: 'expected a token (a string)' }).min(1).optional(), timeoutSeconds: timeoutSeconds.optional() }),
  z.strictObject({ type: z.literal('desktop'), timeoutSeconds: timeoutSeconds.optional() }),
  z.strictObject({ type: z.literal('terminal'), osc: z.union([z.literal(9), z.literal(777)], { error: 'expected 9 or 777' }).optional() }),
], { error: 'expected a target whose type is one of command, webhook, ntfy, desktop, terminal' });

export type NotifyTarget = z.infer<typeof target>;

export const notifySchema = z.strictObject({
  delaySeconds: seconds(3600).optional(),
  cooldownSeconds: seconds(86_400).optional(),
  whenWatching: z.boolean({ error: 'expected true or false' }).optional(),
  targets: z.array(target, { error: 'expected a list of targets' }).optional(),
}, { error: 'expected an object: delaySeconds, cooldownSeconds, whenWatching, targets' });

export interface NotifySettings {
  delaySeconds: number;
  cooldownSeconds: number;
  whenWatching: boolean;
  targets: NotifyTarget[];
}

export const NOTIFY_DEFAULTS: NotifySettings = { delaySeconds: 5, cooldownSeconds: 60, whenWatching: false, targets: [] };

/** The file's `notify` with every default filled in. */
export function notifySettings(given: z.infer<typeof notifySchema> | undefined): NotifySettings {
  return { ...NOTIFY_DEFAULTS, ...given, targets: given?.targets ?? [] };
}
