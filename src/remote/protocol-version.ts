// The version of what one fleetcom asks another over ssh; its own file, without imports,
// because the entry (cli.ts) checks it on every remote-invoked start.

/**
 * Bumped whenever what one fleetcom asks another over ssh changes: the remote words, the JSON
 * of `ls --json` and `save --stdout`, `load -` and `doctor -` reading a recipe on stdin.
 */
export const REMOTE_PROTOCOL = 1;
/** The option that opens every remote command line; a fleetcom that does not know it is older. */
export const REMOTE_PROTOCOL_OPTION = '--remote-protocol';
