/**
 * The part of OData 4's URL conventions the demo MLS serves (and RESO clients send): `$filter` with
 * eq/ne/gt/ge/lt/le, and/or/not, parentheses, tolower/toupper, string, number, boolean, null and
 * DateTimeOffset literals; `$orderby`; `$top`, `$skip`, `$count`, `$select`, `$expand`. Parsed into a
 * small tree, then written as SQL over the demo tables (odata-sql.ts): nothing is evaluated in memory, so a
 * feed of 50,000 listings answers like a real server.
 */

export type Literal =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'datetime'; value: string };

export type Operand = { kind: 'field'; name: string } | { kind: 'call'; fn: 'tolower' | 'toupper'; arg: Operand } | Literal;

export type ComparisonOp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

export type FilterNode =
  | { kind: 'compare'; op: ComparisonOp; left: Operand; right: Operand }
  | { kind: 'and' | 'or'; items: FilterNode[] }
  | { kind: 'not'; item: FilterNode };

export interface OrderBy {
  field: string;
  desc: boolean;
}

/** A query the client got wrong: the server answers 400 with this message, as OData servers do. */
export class ODataQueryError extends Error {
  override readonly name = 'ODataQueryError';
}

type Token =
  | { t: 'ident'; v: string }
  | { t: 'string'; v: string }
  | { t: 'number'; v: number }
  | { t: 'datetime'; v: string }
  | { t: '(' }
  | { t: ')' }
  | { t: ',' };

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})/;
const DATE = /^\d{4}-\d{2}-\d{2}(?![\dT:])/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      out.push({ t: c });
      i++;
      continue;
    }
    if (c === "'") {
      // OData string literal: a quote inside is doubled.
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new ODataQueryError('$filter: a string literal is not closed');
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
      out.push({ t: 'string', v: value });
      continue;
    }
    const rest = text.slice(i);
    const dt = DATETIME.exec(rest) ?? DATE.exec(rest);
    if (dt) {
      if (Number.isNaN(Date.parse(dt[0]))) throw new ODataQueryError(`$filter: ${dt[0]} is not a date`);
      out.push({ t: 'datetime', v: dt[0] });
      i += dt[0].length;
      continue;
    }
    const num = NUMBER.exec(rest);
    if (num) {
      out.push({ t: 'number', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = IDENT.exec(rest);
    if (id) {
      out.push({ t: 'ident', v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new ODataQueryError(`$filter: unexpected "${c}" at ${i}`);
  }
  return out;
}

const COMPARISONS = new Set<ComparisonOp>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const MAX_FILTER_LENGTH = 4000;
const MAX_DEPTH = 20;

/** Parse a `$filter` expression. */
export function parseFilter(text: string): FilterNode {
  if (text.length > MAX_FILTER_LENGTH) throw new ODataQueryError('$filter: too long');
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (word: string) => {
    const tok = peek();
    return tok?.t === 'ident' && tok.v === word;
  };
  const expect = (t: '(' | ')') => {
    if (peek()?.t !== t) throw new ODataQueryError(`$filter: "${t}" expected`);
    pos++;
  };

  function operand(depth: number): Operand {
    if (depth > MAX_DEPTH) throw new ODataQueryError('$filter: nested too deeply');
    const tok = tokens[pos++];
    if (!tok) throw new ODataQueryError('$filter: ends too early');
    switch (tok.t) {
      case 'string':
        return { kind: 'string', value: tok.v };
      case 'number':
        return { kind: 'number', value: tok.v };
      case 'datetime':
        return { kind: 'datetime', value: tok.v };
      case 'ident': {
        if (tok.v === 'true' || tok.v === 'false') return { kind: 'boolean', value: tok.v === 'true' };
        if (tok.v === 'null') return { kind: 'null' };
        if (peek()?.t === '(') {
          if (tok.v !== 'tolower' && tok.v !== 'toupper') throw new ODataQueryError(`$filter: the function ${tok.v} is not supported`);
          pos++;
          const arg = operand(depth + 1);
          expect(')');
          return { kind: 'call', fn: tok.v, arg };
        }
        return { kind: 'field', name: tok.v };
      }
      default:
        throw new ODataQueryError('$filter: a value or a field name is expected');
    }
  }

  function primary(depth: number): FilterNode {
    if (depth > MAX_DEPTH) throw new ODataQueryError('$filter: nested too deeply');
    if (isWord('not')) {
      pos++;
      return { kind: 'not', item: primary(depth + 1) };
    }
    if (peek()?.t === '(') {
      pos++;
      const inner = or(depth + 1);
      expect(')');
      return inner;
    }
    const left = operand(depth);
    const op = peek();
    if (op?.t !== 'ident' || !COMPARISONS.has(op.v as ComparisonOp)) throw new ODataQueryError('$filter: a comparison (eq, ne, gt, ge, lt, le) is expected');
    pos++;
    const right = operand(depth);
    return { kind: 'compare', op: op.v as ComparisonOp, left, right };
  }

  function and(depth: number): FilterNode {
    const items = [primary(depth)];
    while (isWord('and')) {
      pos++;
      items.push(primary(depth));
    }
    return items.length === 1 ? items[0] : { kind: 'and', items };
  }

  function or(depth: number): FilterNode {
    const items = [and(depth)];
    while (isWord('or')) {
      pos++;
      items.push(and(depth));
    }
    return items.length === 1 ? items[0] : { kind: 'or', items };
  }

  const tree = or(0);
  if (pos !== tokens.length) throw new ODataQueryError('$filter: unexpected text after the expression');
  return tree;
}

/** Parse `$orderby`: `Field [asc|desc], …`. */
export function parseOrderBy(text: string): OrderBy[] {
  const out: OrderBy[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?\s*$/.exec(part);
    if (!m) throw new ODataQueryError(`$orderby: "${part.trim()}" is not a field with asc or desc`);
    out.push({ field: m[1], desc: m[2] === 'desc' });
  }
  if (out.length > 5) throw new ODataQueryError('$orderby: at most 5 fields');
  return out;
}

/** A non-negative integer query option ($top, $skip), or undefined when absent. */
export function parseCount(name: string, text: string | null): number | undefined {
  if (text === null) return undefined;
  if (!/^\d{1,9}$/.test(text.trim())) throw new ODataQueryError(`${name}: a non-negative integer is expected`);
  return Number(text.trim());
}

/** `$select`: field names. */
export function parseSelect(text: string): string[] {
  const fields = text.split(',').map((f) => f.trim());
  if (fields.some((f) => !IDENT.test(f) || IDENT.exec(f)![0] !== f)) throw new ODataQueryError('$select: field names separated by commas are expected');
  return fields;
}
