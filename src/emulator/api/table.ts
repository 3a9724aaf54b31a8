// One resource's rows in the store, by id, in insertion order (which is also the listing order).
// Every resource has the same shape, so a missing one is always a 404 `no such <what>`.
import { notFound } from './errors.js';

export class Table<Row> {
  readonly #rows = new Map<string, Row>();
  /** What the rows are, for the 404: `no such ${what}`. */
  readonly what: string;

  constructor(what: string, rows: Iterable<readonly [string, Row]> = []) {
    this.what = what;
    for (const [id, row] of rows) this.#rows.set(id, row);
  }

  get(id: string): Row | undefined {
    return this.#rows.get(id);
  }

  has(id: string): boolean {
    return this.#rows.has(id);
  }

  /** The row, or a 404 naming what was not found. */
  require(id: string): Row {
    const row = this.#rows.get(id);
    if (row === undefined) throw notFound(`no such ${this.what}`);
    return row;
  }

  /** A copy of the row to answer with (callers may not change the stored one), or a 404. */
  copy(id: string): Row {
    return structuredClone(this.require(id));
  }

  set(id: string, row: Row): Row {
    this.#rows.set(id, row);
    return row;
  }

  delete(id: string): boolean {
    return this.#rows.delete(id);
  }

  /** Every row, in insertion order. */
  values(): Row[] {
    return [...this.#rows.values()];
  }

  find(predicate: (row: Row) => boolean): Row | undefined {
    for (const row of this.#rows.values()) if (predicate(row)) return row;
    return undefined;
  }
}
