// The choosers and screens the loop opens once an action answered: the load chooser, the
// adopt chooser, the history chooser and the finish plan. Pure.
import type { AdoptChoice, FinishShown, HistoryChoice, LoadChoice, Ui } from './model.js';

/** The load chooser, once the loop has listed the sessions. */
export function openLoad(ui: Ui, choices: LoadChoice[]): Ui {
  return { ...ui, mode: { kind: 'load', choices, index: 0 } };
}

/** The adopt chooser, once the loop has listed the agent panes (adoptable ones first). */
export function openAdopt(ui: Ui, choices: AdoptChoice[]): Ui {
  if (choices.length === 0) return { ...ui, status: 'no pane runs an agent started by hand' };
  const sorted = [...choices.filter((c) => c.refused === null), ...choices.filter((c) => c.refused !== null)];
  return { ...ui, status: '', mode: { kind: 'adopt', choices: sorted, index: 0 } };
}

/** The history chooser, once the loop has read the stores. */
export function openHistory(ui: Ui, choices: HistoryChoice[], where: string): Ui {
  if (choices.length === 0) return { ...ui, status: `no past conversation in ${where}` };
  return { ...ui, status: '', mode: { kind: 'history', choices, text: '', index: 0, where } };
}

/** The finish plan of `f`, once the loop has read it: `y` finishes (when it refused nothing), any other key goes back. */
export function openFinish(ui: Ui, shown: FinishShown): Ui {
  return { ...ui, status: '', mode: { kind: 'finish', ...shown } };
}
