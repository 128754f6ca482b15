// fleetcom's tmux layer — the only code that spawns tmux (child_process.spawn with argv arrays,
// never a shell; runner.ts says why not execa).
//
//   const runner = new TmuxRunner({ env: process.env });          // server of $TMUX
//   const runner = new TmuxRunner({ socketPath, env, configFile }); // a chosen server (-S)
//   const tmux = createTmux(runner);                                // TmuxOps: every operation bound
//   await tmux.assertVersion();                                     // TmuxMissingError / TmuxTooOldError
//
// Runner: run(args, {path}) → stdout (an argv element exactly ';' separates commands);
//   runSequence([[…], […]], {path}) → one invocation, every argument literal; interactive(args)
//   → exit status with the caller's terminal (attach-session). Every call passes `-u` so
//   tmux prints non-ASCII and control characters as they are. `path` sets PATH of that tmux
//   process, which tmux 3.3a gives to a new window/pane (`-e PATH=` is ignored). One
//   invocation carries at most 16 KiB of commands (tmux refuses more and runs none): queries
//   per pane go through batch.ts, which cuts them into invocations that fit.
// Errors (all `exitCode = 1`): TmuxError {subcommand, stderr, tmuxExitCode, noServer},
//   TmuxMissingError, TmuxTooOldError.
// Operations (TmuxOps; free functions of the same names take the runner first):
//   version() / assertVersion()                      → {raw, major, minor}
//   newSession({name, cwd, argv, env?, path?, width?, height?}) → '$N' (always detached)
//   sessionId(name) → '$N' | null · hasSession(name) · killServer() (no server: fine)
//   displayMessage(target, format) → expanded string
//   newWindow({session, name, cwd, env?, argv, path?, windowOptions?, windowHooks?})
//       → {windowId, paneId, panePid}; options and hooks are set in the same invocation as
//       new-window, so they are in place even for a command that exits at once (`false`)
//   respawnPane({paneId, cwd, env?, argv, path?, clearHistory?}) → {panePid, paneTty} of the new
//       process, read in the same invocation   (respawn-pane -k)
//   killWindow(t) · killWindows(targets) (batched; one gone is skipped) · selectWindow(t) · renameWindow(t, name)
//   listPanes(session) → PaneRecord[] {paneId, windowId, windowIndex, windowName, sessionId,
//       paneDead (only once tmux has reaped the process), paneExited (3.3a's raw #{pane_dead}:
//       pty closed, maybe not reaped), paneDeadStatus (null alive or signal death),
//       paneDeadSignal, paneDeadTime, panePid, windowActivity (s),
//       fleetcomTask, fleetcomRun, fleetcomSocket}; a query's separator is fresh per call, so
//       a name or option holding U+241E (or a whole forged record) stays in its own field
//   livePanePids(paneIds) → Map paneId → pid of each pane alive now, read by pane id
//   reapChildren(): `run-shell -b true`. tmux 3.3a misses a SIGCHLD now and then (~1 in 12
//       fast exits here): the pane stays exited-but-not-dead and pane-died does NOT fire until
//       another child of the server exits. listPanes calls this itself when it sees such a
//       pane, so a periodic listPanes (reconciliation) is what guarantees every exit is seen.
//   capturePane(paneId, {history}) → text (-J, trailing spaces and blank lines trimmed)
//   clearHistory(paneId)
//   setWindowOption / unsetWindowOption(t, name[, value]) · setSessionOption(s, name, value)
//   setServerOption / unsetServerOption / showServerOption(name) → string | null
//   setHook(session, hook, command) / unsetHook(session, hook)      (session hooks only!)
//   setWindowHook(window, hook, command) / unsetWindowHook(window, hook)
//       pane-died is a WINDOW hook in tmux 3.3a: `set-hook -t <session> pane-died` silently
//       lands on the session's current window; install it per task window (windowHooks)
//   bindKey(table, key, command) / unbindKey(table, key) / listKey(table, key) → command | null
//   showGlobalEnvironment() → Record<string, string>
// Several reads in one tmux call (queries.ts): runQueries(runner, [panesQuery(null),
//   serverOptionQuery(name), windowOptionQuery(name, chars), textQuery(argv)…]) → each one's
//   parsed output, cut at a fresh marker line; only for commands that cannot fail.
// Text arguments: names and cwd are stored exactly as given (escapeFormat undoes the format
// expansion tmux applies to `-n`, `-c` and rename-window; `#{window_name}` reads the name back
// unchanged). The status line draws `##` as `#` and `#[…]` as a style: pass
// escapeStyle(label) as the name to have it shown literally. Option values are never expanded;
// hook and binding commands are tmux command strings and run in the SERVER's environment.
export * from './errors.js';
export * from './format.js';
export * from './runner.js';
export * from './operations.js';
export * from './queries.js';
