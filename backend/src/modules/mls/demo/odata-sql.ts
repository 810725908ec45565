import type { Knex } from 'knex';
import { ODataQueryError, type FilterNode, type Literal, type Operand, type OrderBy } from './odata-query';

/**
 * OData queries as SQL over a demo table: a few fields are real (indexed) columns, every other field is
 * read from the record's jsonb. Values are always bound parameters, never spliced into the text.
 */
export interface ResourceTable {
  table: string;
  /** The field that names one entity (`Property('KEY')`). */
  keyField: string;
  /** Fields stored as columns: their SQL and how they compare. */
  columns: Record<string, { sql: string; type: 'text' | 'timestamp' }>;
}

interface Sql {
  sql: string;
  bindings: Knex.Value[];
}

type Typed = Sql & { type: 'text' | 'timestamp' | 'json'; /** For json fields: the field read as text. */ text?: string };

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

function field(def: ResourceTable, name: string): Typed {
  const col = def.columns[name];
  if (col) return { sql: col.sql, bindings: [], type: col.type };
  // Field names are identifiers (the parser's IDENT), safe as a quoted jsonb key.
  if (!FIELD.test(name)) throw new ODataQueryError(`unknown field ${name}`);
  return { sql: `record->'${name}'`, text: `record->>'${name}'`, bindings: [], type: 'json' };
}

function isLiteral(o: Operand): o is Literal {
  return o.kind !== 'field' && o.kind !== 'call';
}

/** A field (or function of one) as SQL; json fields are read as text when compared with text. */
function operandSql(def: ResourceTable, o: Operand, against: Literal): Typed {
  if (o.kind === 'call') {
    const inner = operandSql(def, o.arg, { kind: 'string', value: '' });
    return { sql: `${o.fn === 'tolower' ? 'lower' : 'upper'}(${inner.sql})`, bindings: inner.bindings, type: 'text' };
  }
  if (o.kind !== 'field') throw new ODataQueryError('comparing two values: one side must be a field');
  const f = field(def, o.name);
  if (f.type !== 'json') return f;
  switch (against.kind) {
    case 'string':
    case 'datetime':
      return { sql: `(${f.text})`, bindings: [], type: 'text' };
    case 'number':
      return { sql: `(case when jsonb_typeof(${f.sql}) = 'number' then (${f.sql})::text::numeric end)`, bindings: [], type: 'text' };
    default:
      return f;
  }
}

const SQL_OP = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

function literalSql(lit: Literal, type: Typed['type']): Sql {
  switch (lit.kind) {
    case 'string':
      return { sql: '?', bindings: [lit.value] };
    case 'number':
      return { sql: '?::numeric', bindings: [lit.value] };
    case 'datetime':
      return type === 'timestamp' ? { sql: '?::timestamptz', bindings: [lit.value] } : { sql: '?', bindings: [lit.value] };
    case 'boolean':
      return { sql: '?::jsonb', bindings: [JSON.stringify(lit.value)] };
    case 'null':
      return { sql: 'null', bindings: [] };
  }
}

function compare(def: ResourceTable, node: Extract<FilterNode, { kind: 'compare' }>): Sql {
  let { left, right, op } = node;
  if (isLiteral(left) && !isLiteral(right)) {
    // `5 lt X` is `X gt 5`.
    [left, right] = [right, left];
    op = ({ eq: 'eq', ne: 'ne', gt: 'lt', ge: 'le', lt: 'gt', le: 'ge' } as const)[op];
  }
  if (!isLiteral(right)) throw new ODataQueryError('comparing two fields is not supported');
  const lhs = operandSql(def, left, right);
  if (right.kind === 'null') {
    if (op !== 'eq' && op !== 'ne') throw new ODataQueryError('null compares only with eq or ne');
    const isNull = lhs.type === 'json' ? `(${lhs.sql} is null or jsonb_typeof(${lhs.sql}) = 'null')` : `${lhs.sql} is null`;
    return { sql: op === 'eq' ? isNull : `not ${isNull}`, bindings: lhs.bindings };
  }
  if (right.kind === 'boolean') {
    if (op !== 'eq' && op !== 'ne') throw new ODataQueryError('true and false compare only with eq or ne');
    const rhs = literalSql(right, lhs.type);
    // `MlgCanView eq true`: a record without the field is not true; `ne true` includes it.
    const eq = `coalesce(${lhs.sql} = ${rhs.sql}, false)`;
    return { sql: op === 'eq' ? eq : `not ${eq}`, bindings: [...lhs.bindings, ...rhs.bindings] };
  }
  const rhs = literalSql(right, lhs.type);
  return { sql: `${lhs.sql} ${SQL_OP[op]} ${rhs.sql}`, bindings: [...lhs.bindings, ...rhs.bindings] };
}

/**
 * RESO replication's keyset, `A gt x or (A eq x and B gt y)` on two columns, is written as the row
 * comparison `(A, B) > (x, y)`, which PostgreSQL answers from the (A, B) index in order: a page of a
 * 50,000-listing feed reads its own rows, not every row after the watermark.
 */
function keysetAsRow(def: ResourceTable, node: Extract<FilterNode, { items: FilterNode[] }>): Sql | null {
  if (node.items.length !== 2) return null;
  const [first, second] = node.items;
  if (first.kind !== 'compare' || first.op !== 'gt' || second.kind !== 'and' || second.items.length !== 2) return null;
  const eq = second.items.find((n) => n.kind === 'compare' && n.op === 'eq');
  const gt = second.items.find((n) => n.kind === 'compare' && n.op === 'gt');
  if (!eq || !gt || eq.kind !== 'compare' || gt.kind !== 'compare') return null;
  const a = first.left;
  const x = first.right;
  if (a.kind !== 'field' || !isLiteral(x)) return null;
  if (eq.left.kind !== 'field' || eq.left.name !== a.name || !isLiteral(eq.right) || JSON.stringify(eq.right) !== JSON.stringify(x)) return null;
  const b = gt.left;
  const y = gt.right;
  if (b.kind !== 'field' || !isLiteral(y) || !def.columns[a.name] || !def.columns[b.name]) return null;
  const colA = field(def, a.name);
  const colB = field(def, b.name);
  const litA = literalSql(x, colA.type);
  const litB = literalSql(y, colB.type);
  return { sql: `(${colA.sql}, ${colB.sql}) > (${litA.sql}, ${litB.sql})`, bindings: [...litA.bindings, ...litB.bindings] };
}

export function filterSql(def: ResourceTable, node: FilterNode): Sql {
  switch (node.kind) {
    case 'compare':
      return compare(def, node);
    case 'not': {
      const inner = filterSql(def, node.item);
      return { sql: `not (${inner.sql})`, bindings: inner.bindings };
    }
    case 'and':
    case 'or': {
      if (node.kind === 'or') {
        const row = keysetAsRow(def, node);
        if (row) return row;
      }
      const parts = node.items.map((n) => filterSql(def, n));
      return { sql: `(${parts.map((p) => p.sql).join(` ${node.kind} `)})`, bindings: parts.flatMap((p) => p.bindings) };
    }
  }
}

export function orderBySql(def: ResourceTable, orderBy: OrderBy[]): string {
  return orderBy
    .map((o) => {
      const f = field(def, o.field);
      const expr = f.type === 'json' ? `(${f.text})` : f.sql;
      return `${expr} ${o.desc ? 'desc' : 'asc'}`;
    })
    .join(', ');
}
