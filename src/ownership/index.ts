// Who holds a conversation: the agents' own traces of running sessions, read from disk and
// /proc. Above the harness (which it uses for store paths), below fleet and commands.
export { conversationLiveness, describePlace, sharedOpenFiles, type LivenessOptions } from './liveness.js';
export { readClaudeRegistry, registryDir, type RegistryRead, type RegistryRecord } from './claude-registry.js';
export { environOf, hasProcTree, isRunning, parentPid, PROC_ROOT, processIds, startTicks, tmuxPlaceOf, type Liveness, type ProcessPlace } from './proc.js';
export {
  childrenOf, descendantsOf, openFilesOf, processFacts, processTree, subtreeOf, treeProcess, type ProcessFacts, type TreeProcess,
} from './process-tree.js';
export { fleetHolderOf, holderText, type FleetHolder } from './fleet-holders.js';
export { conversationHolders, type Holders } from './holders.js';
