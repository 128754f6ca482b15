// Public API of capture: what namespaces hold and the live watcher (where they live: paths.ts).
export * from './assets.js';
export * from './capture-names.js';
export * from './namespace.js';
export * from './watcher.js';
export * from './events.js';
