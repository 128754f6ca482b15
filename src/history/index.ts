// Every past conversation of every agent: read from each agent's own store through its
// harness, cached by file, scoped to directories, with who holds each one now.
export { HistoryCache } from './cache.js';
export { parseCache } from './cache-format.js';
export { collect } from './collect.js';
export { gatherHistory, historyCacheFile, type GatherInput, type Gathered } from './gather.js';
export { heldBy, holderCheck, type FleetTask } from './held.js';
export { configuredHomes, homesOf } from './homes.js';
export { historyLine, skippedSummary, snippetLine } from './format.js';
export { parseWorktrees, scopeDirs } from './scope.js';
export { searchFound, type SearchEvent } from './search.js';
export type * from './types.js';
export { fleetTasks, fleetViewOf, NO_FLEET, type FleetView } from './fleet-view.js';
export { readHistory } from './read.js';
export { matching, planResume, resumeEnv, type ResumePlan } from './resume-plan.js';
