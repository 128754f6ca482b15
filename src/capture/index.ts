// Public API of capture: what namespaces hold and the live watcher (where they live: paths.ts).
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
