// Public API of capture: where namespaces live, what they hold, and the live watcher.
export { captureRoot, cacheDir, fnv1a64, type CaptureRootInput, type Env } from './root.js';
export {
  CAPTURE_RESTART_BYTES,
  CLAUDE_SETTINGS,
  CLAUDE_SETTINGS_FILE,
  CLAUDE_SETTINGS_MODE,
  CODEX_NOTIFY_FILE,
  CODEX_NOTIFY_MODE,
  CODEX_NOTIFY_SCRIPT,
} from './assets.js';
export { capturePath, eventsPath, parseCaptureName, parseEventsName } from './capture-names.js';
export {
  CaptureSetupError,
  deleteCaptureFile,
  installNamespace,
  removeNamespace,
  type InstallOptions,
  type Namespace,
} from './namespace.js';
export {
  watchCaptures,
  type CaptureEvent,
  type CaptureWatcher,
  type CheckReason,
  type RunLookup,
  type WatchCapturesOptions,
} from './watcher.js';
export { EVENTS_READ_LIMIT, EventsReader, type EventsBatch } from './events.js';
