// Poll a predicate until it yields a value; never a fixed sleep (style.md, libtmux retry_until).
//
//   const text = await waitFor(() => capture(pane).then((t) => t.includes('ready') && t), { what: 'ready marker' });
export { waitFor, type WaitForOptions } from '../../test/helpers/wait-for.js';
