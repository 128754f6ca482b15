// fleetcom's tmux layer — the only code that spawns tmux (execa, argv arrays, never a shell).
//
//   const runner = new TmuxRunner({ env: process.env });          // server of $TMUX
//   const runner = new TmuxRunner({ socketPath, env, configFile }); // a chosen server (-S)
//   const tmux = createTmux(runner);                                // TmuxOps, for deps.tmux
//   await tmux.assertVersion();                                     // TmuxMissingError / TmuxTooOldError
//
// Runner: run(args, {path}) → stdout (an argv element exactly ';' separates commands);
//   runSequence([[…], […]], {path}) → one invocation, every argument literal; interactive(args)
//   → exit status with the caller's terminal (attach-session). Every call passes `-u` so
//   tmux prints non-ASCII and control characters as they are. `path` sets PATH of that tmux
//   process, which tmux 3.3a gives to a new window/pane (`-e PATH=` is ignored).
// Errors (all `exitCode = 1`): TmuxError {subcommand, stderr, tmuxExitCode, noServer},
//   TmuxMissingError, TmuxTooOldError.
// Operations (TmuxOps; free functions of the same names take the runner first):
//   version() / assertVersion()                      → {raw, major, minor}
//   newSession({name, cwd, argv, env?, path?, width?, height?}) → '$N' (always detached)
//   sessionId(name) → '$N' | null · hasSession(name) · killServer() (no server: fine)
//   displayMessage(target, format) → expanded string
//   newWindow({session, name, cwd, env?, argv, path?, windowOptions?}) → {windowId, paneId, panePid}
//       window options are set in the same invocation as new-window (safe for `false`)
//   respawnPane({paneId, cwd, env?, argv, path?, clearHistory?})   (respawn-pane -k)
//   killWindow(t) · selectWindow(t) · renameWindow(t, name)
//   listPanes(session) → PaneRecord[] {paneId, windowId, windowIndex, windowName, sessionId,
//       paneDead, paneDeadStatus (null alive or signal death), panePid, windowActivity (s),
//       fleetcomTask, fleetcomRun, fleetcomSocket}
//   capturePane(paneId, {history}) → text (-J, trailing spaces and blank lines trimmed)
//   clearHistory(paneId)
//   setWindowOption / unsetWindowOption(t, name[, value]) · setSessionOption(s, name, value)
//   setServerOption / unsetServerOption / showServerOption(name) → string | null
//   setHook(session, hook, command) / unsetHook(session, hook)
//   bindKey(table, key, command) / unbindKey(table, key) / listKey(table, key) → command | null
//   showGlobalEnvironment() → Record<string, string>
// Text arguments: names and cwd are stored verbatim (this layer doubles `#`, which tmux would
// expand in `-n`, `-c` and rename-window); option values are never expanded; hook and binding
// commands are tmux command strings and run in the SERVER's environment.
export * from './errors.js';
export * from './format.js';
export * from './runner.js';
export * from './operations.js';
