// The remote command line. ssh joins the words after the host with spaces into one string that
// the remote user's login shell parses again, so each word is single-quoted POSIX-style here
// and the remote shell gives the remote fleetcom exactly the words this side meant, whatever
// they hold (`$(…)`, quotes, `;`, newlines). The login shell must be a POSIX one (sh, bash,
// dash, zsh); fish and csh read backslashes or `!` inside single quotes (docs/hosts.md).
import { quoteShell } from '../harness/quote.js';
import { REMOTE_PROTOCOL, REMOTE_PROTOCOL_OPTION } from './protocol-version.js';

export { REMOTE_PROTOCOL, REMOTE_PROTOCOL_OPTION } from './protocol-version.js';

/** One string for ssh: the remote fleetcom, the protocol it must speak, the command's words. */
export function remoteCommandLine(remoteCommand: readonly string[], words: readonly string[]): string {
  return [...remoteCommand, REMOTE_PROTOCOL_OPTION, String(REMOTE_PROTOCOL), ...words].map(quoteShell).join(' ');
}
