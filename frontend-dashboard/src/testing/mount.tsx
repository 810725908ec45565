import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Provider } from 'react-redux';
import { makeStore } from '../store/store';

/*
 * For tests of components that fetch through the store: `mount` renders a node under a fresh store in an element
 * of its own on the page, `until` lets React and the queries run, `unmountAll` (in afterEach) takes them away.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounted: { container: HTMLDivElement; root: Root }[] = [];

/** `node` under a fresh store (API base ''), rendered into a new element on the page; that element. */
export async function mount(node: ReactNode): Promise<HTMLDivElement> {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push({ container, root });
  await act(async () => root.render(<Provider store={makeStore('')}>{node}</Provider>));
  return container;
}

/** Unmounts and removes everything `mount` rendered. */
export async function unmountAll(): Promise<void> {
  for (const { container, root } of mounted.splice(0)) {
    await act(async () => root.unmount());
    container.remove();
  }
}

/** Lets React and the queries run until `done` holds (fails the test after 2 s, naming `what`). */
export async function until(done: () => boolean, what = 'the card'): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await act(async () => new Promise((r) => setTimeout(r, 10)));
  if (!done()) throw new Error(`${what} never reached the expected state`);
}
