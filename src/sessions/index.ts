// Public API of the session files: the recipe format, naming rules, the store, recovery
// snapshots and the listing.
export * from './errors.js';
export * from './recipe.js';
export * from './names.js';
export * from './store.js';
export * from './recovery.js';
export * from './listing.js';
export * from './agent-homes.js';
export * from './read-session.js';
