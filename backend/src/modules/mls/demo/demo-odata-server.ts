import type { Knex } from 'knex';
import type { Db } from '../../../platform/db/knex';
import { ODataQueryError, parseCount, parseFilter, parseOrderBy, parseSelect } from './odata-query';
import { filterSql, orderBySql, type ResourceTable } from './odata-sql';

/**
 * The demo MLS's RESO Web API: `Property`, `Member` and `Property('KEY')` over the demo tables, with the
 * query options a RESO client sends. It answers as a real server does, limits included: at most
 * `maxPageSize` records a page (more come through `@odata.nextLink`, by `$skip`), `$skip` refused past
 * `maxSkip`, 400 with an OData error body for a query it cannot read, 404 for an unknown entity. The RESO
 * provider reaches it through an in-process fetch (no socket), or over HTTP at /demo-mls/odata/….
 */
export interface DemoServerLimits {
  maxPageSize: number;
  maxSkip: number;
}

export const DEMO_SERVER_LIMITS: DemoServerLimits = { maxPageSize: 500, maxSkip: 10_000 };

/** The demo's service root, as the records' @odata.context and nextLinks name it. */
export const DEMO_ODATA_BASE = 'https://demo-mls.invalid/odata/';

const PROPERTY: ResourceTable = {
  table: 'demo_mls_properties',
  keyField: 'ListingKey',
  columns: {
    ListingKey: { sql: 'listing_key', type: 'text' },
    ModificationTimestamp: { sql: 'modification_timestamp', type: 'timestamp' },
    ListAgentMlsId: { sql: 'list_agent_mls_id', type: 'text' },
    StandardStatus: { sql: 'standard_status', type: 'text' },
  },
};

const MEMBER: ResourceTable = {
  table: 'demo_mls_members',
  keyField: 'MemberMlsId',
  columns: { MemberMlsId: { sql: 'member_mls_id', type: 'text' } },
};

const RESOURCES: Record<string, ResourceTable> = { Property: PROPERTY, Member: MEMBER };

/** The record as sent: the stored one with its ModificationTimestamp (ISO, milliseconds, UTC), Media only when expanded. */
function recordSql(def: ResourceTable, expandMedia: boolean): string {
  if (def !== PROPERTY) return 'record';
  const stamped = `record || jsonb_build_object('ModificationTimestamp', to_char(modification_timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
  return expandMedia ? `(${stamped})` : `((${stamped}) - 'Media')`;
}

const json = (status: number, body: unknown | string) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; odata.metadata=minimal' } });

const odataError = (status: number, message: string) => json(status, { error: { code: String(status), message } });

const ENTITY = /^([A-Za-z]+)\('((?:[^']|'')*)'\)$/;

export function createDemoODataServer(db: Db | Knex, limits: DemoServerLimits = DEMO_SERVER_LIMITS) {
  async function collection(def: ResourceTable, resource: string, url: URL): Promise<Response> {
    const params = url.searchParams;
    const filterText = params.get('$filter');
    const filter = filterText ? filterSql(def, parseFilter(filterText)) : null;
    const orderBy = params.get('$orderby') ? orderBySql(def, parseOrderBy(params.get('$orderby')!)) : `${def.columns[def.keyField].sql} asc`;
    const top = parseCount('$top', params.get('$top'));
    const skip = parseCount('$skip', params.get('$skip')) ?? 0;
    if (skip > limits.maxSkip) return odataError(400, `$skip is limited to ${limits.maxSkip}: page by the keyset (ModificationTimestamp, ListingKey) instead`);
    const select = params.get('$select') ? parseSelect(params.get('$select')!) : null;
    const expandMedia = (params.get('$expand') ?? '').split(',').some((e) => e.trim() === 'Media');
    const wantCount = params.get('$count') === 'true';

    const pageSize = Math.min(top ?? limits.maxPageSize, limits.maxPageSize);
    let record = recordSql(def, expandMedia);
    const bindings: Knex.Value[] = [];
    if (select) {
      record = `(select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) from jsonb_each(${record}) where key = any(?::text[]))`;
      bindings.push(select);
    }
    const where = filter ? `where ${filter.sql}` : '';
    // One row more than the page says whether another page follows.
    const rows = (await db.raw(`select (${record})::text as r from ${def.table} ${where} order by ${orderBy} limit ? offset ?`, [
      ...bindings,
      ...(filter?.bindings ?? []),
      pageSize + 1,
      skip,
    ])) as { rows: { r: string }[] };
    const more = rows.rows.length > pageSize;
    const page = more ? rows.rows.slice(0, pageSize) : rows.rows;
    // $top limits the whole answer; the server splits it into pages of at most maxPageSize.
    const remaining = top === undefined ? undefined : top - page.length;
    let nextLink: string | null = null;
    if (more && (remaining === undefined || remaining > 0)) {
      const next = new URL(url.toString());
      next.searchParams.set('$skip', String(skip + page.length));
      if (remaining !== undefined) next.searchParams.set('$top', String(remaining));
      next.searchParams.delete('$count');
      nextLink = next.toString().replace(/\+/g, '%20');
    }
    let count: number | null = null;
    if (wantCount) {
      const counted = (await db.raw(`select count(*)::int as n from ${def.table} ${where}`, filter?.bindings ?? [])) as { rows: { n: number }[] };
      count = counted.rows[0].n;
    }
    const head = `{"@odata.context":${JSON.stringify(`${DEMO_ODATA_BASE}$metadata#${resource}`)}${count === null ? '' : `,"@odata.count":${count}`}`;
    return json(200, `${head},"value":[${page.map((p) => p.r).join(',')}]${nextLink ? `,"@odata.nextLink":${JSON.stringify(nextLink)}` : ''}}`);
  }

  async function entity(def: ResourceTable, resource: string, key: string, url: URL): Promise<Response> {
    const expandMedia = (url.searchParams.get('$expand') ?? '').split(',').some((e) => e.trim() === 'Media');
    const row = (await db.raw(`select (${recordSql(def, expandMedia)})::text as r from ${def.table} where ${def.columns[def.keyField].sql} = ?`, [key])) as {
      rows: { r: string }[];
    };
    if (!row.rows[0]) return odataError(404, `No ${resource} with the key '${key}'`);
    const body = row.rows[0].r;
    return json(200, `{"@odata.context":${JSON.stringify(`${DEMO_ODATA_BASE}$metadata#${resource}/$entity`)},${body.slice(1)}`);
  }

  /** Answer one GET the way the demo MLS's Web API would. */
  async function handle(url: URL): Promise<Response> {
    let last: string;
    try {
      last = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
    } catch {
      // A malformed percent-encoding (e.g. %ED%A0%80): the client's mistake, answered as OData answers a bad request.
      return odataError(400, 'The resource path is not valid percent-encoded UTF-8');
    }
    try {
      const one = ENTITY.exec(last);
      if (one) {
        const def = RESOURCES[one[1]];
        if (!def) return odataError(404, `No resource ${one[1]}`);
        return await entity(def, one[1], one[2].replace(/''/g, "'"), url);
      }
      const def = RESOURCES[last];
      if (!def) return odataError(404, `No resource ${last}`);
      return await collection(def, last, url);
    } catch (err) {
      if (err instanceof ODataQueryError) return odataError(400, err.message);
      throw err;
    }
  }

  /** A fetch for the RESO provider: the same requests it sends to any MLS, answered in this process. */
  const fetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    if ((init.method ?? 'GET').toUpperCase() !== 'GET') return odataError(405, 'The demo MLS is read-only');
    return handle(new URL(input.toString()));
  };

  return { handle, fetch };
}
