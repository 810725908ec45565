/**
 * A readable reference page for an OpenAPI 3.1 document, rendered on the server: plain HTML with
 * <details> for the schemas, no script and nothing from a CDN (the CSP allows neither, and the page
 * must work offline like the rest of the product).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function isObj(value: Json | undefined): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema as JSON, with $refs turned into links to the component below. */
function schemaBlock(schema: Json | undefined): string {
  if (schema === undefined) return '';
  const text = escapeHtml(JSON.stringify(schema, null, 2)).replace(
    /&quot;#\/components\/schemas\/([A-Za-z0-9_.-]+)&quot;/g,
    (_m, name: string) => `&quot;<a href="#schema-${name}">#/components/schemas/${name}</a>&quot;`,
  );
  return `<pre>${text}</pre>`;
}

function contentBlock(content: Json | undefined): string {
  if (!isObj(content)) return '';
  return Object.entries(content)
    .map(([type, media]) => `<div class="media"><code>${escapeHtml(type)}</code>${schemaBlock(isObj(media) ? media.schema : undefined)}</div>`)
    .join('');
}

function operationBlock(method: string, path: string, op: Obj): string {
  const anchor = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
  const parts: string[] = [];
  if (typeof op.description === 'string') parts.push(`<p>${escapeHtml(op.description)}</p>`);
  const params = Array.isArray(op.parameters) ? op.parameters.filter(isObj) : [];
  if (params.length) {
    parts.push(
      '<h4>Parameters</h4><ul>' +
        params
          .map((p) => `<li><code>${escapeHtml(String(p.name))}</code> in ${escapeHtml(String(p.in))}${p.required ? ' (required)' : ''}${typeof p.description === 'string' ? `: ${escapeHtml(p.description)}` : ''}</li>`)
          .join('') +
        '</ul>',
    );
  }
  if (isObj(op.requestBody)) parts.push(`<h4>Request body</h4>${contentBlock(op.requestBody.content)}`);
  if (isObj(op.responses)) {
    parts.push(
      '<h4>Responses</h4>' +
        Object.entries(op.responses)
          .map(([status, res]) => {
            const r = isObj(res) ? res : {};
            return `<details><summary><b>${escapeHtml(status)}</b> ${escapeHtml(String(r.description ?? ''))}</summary>${contentBlock(r.content)}</details>`;
          })
          .join(''),
    );
  }
  return `<section id="${anchor}"><h3><span class="m m-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> ${escapeHtml(String(op.summary ?? ''))}</h3>${parts.join('')}</section>`;
}

function pathsBlock(paths: Json | undefined): string {
  if (!isObj(paths)) return '';
  return Object.entries(paths)
    .flatMap(([path, item]) => (isObj(item) ? METHODS.filter((m) => isObj(item[m])).map((m) => operationBlock(m, path, item[m] as Obj)) : []))
    .join('');
}

export function renderApiReference(document: Obj, specUrl: string): string {
  const info = isObj(document.info) ? document.info : {};
  const title = escapeHtml(String(info.title ?? 'API'));
  const components = isObj(document.components) && isObj(document.components.schemas) ? document.components.schemas : {};
  const schemas = Object.entries(components)
    .map(([name, schema]) => `<details id="schema-${escapeHtml(name)}"><summary><code>${escapeHtml(name)}</code></summary>${schemaBlock(schema)}</details>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>${title} — API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:0 auto;padding:1.5rem;color:#1a1a1a;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e8e8e8;background:#141414}pre{background:#1f1f1f!important}a{color:#8ab4ff}}
section{border-top:1px solid #8884;padding:.5rem 0}h3{font-size:1rem;margin:.5rem 0}
pre{background:#f5f5f5;padding:.75rem;overflow:auto;font-size:13px;border-radius:4px}
.m{display:inline-block;min-width:4.2rem;text-align:center;border-radius:4px;color:#fff;font-size:12px;padding:1px 4px}
.m-get{background:#1f6f43}.m-post{background:#1d4ed8}.m-put{background:#9a5b00}.m-patch{background:#7c3aed}.m-delete{background:#b91c1c}
</style></head><body>
<h1>${title} <small>${escapeHtml(String(info.version ?? ''))}</small></h1>
<p>${escapeHtml(String(info.description ?? ''))}</p>
<p>Machine-readable: <a href="${escapeHtml(specUrl)}">${escapeHtml(specUrl)}</a> (OpenAPI ${escapeHtml(String(document.openapi ?? ''))}).</p>
<h2>Routes</h2>${pathsBlock(document.paths)}
<h2>Webhooks</h2>${pathsBlock(document.webhooks)}
<h2>Schemas</h2>${schemas}
</body></html>`;
}
