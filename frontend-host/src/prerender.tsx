import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { Provider } from 'react-redux';
import { StaticRouter } from 'react-router';
import { App } from './App';
import { makeStore } from './store/store';

/**
 * Build time only (scripts/prerender-landing.mjs): the HTML of a page as the browser's first render makes
 * it, from the same components, waiting for its lazy screens. main.tsx hydrates it.
 */
export async function prerender(url: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Provider store={makeStore()}>
        <StaticRouter location={url}>
          <App />
        </StaticRouter>
      </Provider>
    </StrictMode>,
  );
  let html = '';
  for await (const chunk of prelude) html += chunk.toString();
  return html;
}
