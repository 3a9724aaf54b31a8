// What a resource route sees: its path parameters, the query, a request header and the parsed
// body: JSON (undefined when empty), `FormData` for a multipart route, none for a route that
// ignores it. The server does auth, body limits and the answer: JSON, or the bytes of a `BinaryAnswer`.
import type { Table } from '../table.js';

export interface ResourceRequest {
  /** The route pattern's groups, decoded; `param` reads one. */
  params: string[];
  /** The pattern's `index`th group (the server gives one per group). */
  param(index: number): string;
  /** A request header's value (the first, when it was sent more than once). */
  header(name: string): string | undefined;
  /** The request path (decoded ids not applied): a listing's identity for its cursors. */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export type ResourceHandler = (request: ResourceRequest) => unknown;

export interface ResourceRoute {
  pattern: RegExp;
  methods: Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', ResourceHandler>>;
  /**
   * How a POST or PUT body is read: `json` (default); `multipart` (`multipart/form-data`, handed
   * over as `FormData`); `none` (drained unread, as GET and DELETE bodies always are).
   */
  bodyType?: 'json' | 'multipart' | 'none';
}

/** An answer that is not JSON (synthesized audio). */
export class BinaryAnswer {
  readonly contentType: string;
  readonly bytes: Uint8Array;

  constructor(contentType: string, bytes: Uint8Array) {
    this.contentType = contentType;
    this.bytes = bytes;
  }
}

export const nowIso = (): string => new Date().toISOString();

/**
 * The handlers most resources share: `create` stores `build(body)`, `read` answers the record
 * whose id is the path's last group, `update` stores `build(body, that record)`. Each answers a
 * copy. `tableOf` picks the table (a prompt's depends on its agent, the path's first group).
 */
export function recordHandlers<Row extends { id: string }>(
  tableOf: (request: ResourceRequest) => Table<Row>,
  build: (body: unknown, existing?: Row) => Row,
): { create: ResourceHandler; read: ResourceHandler; update: ResourceHandler } {
  const save = (table: Table<Row>, row: Row) => structuredClone(table.set(row.id, row));
  const lastParam = (request: ResourceRequest) => request.param(request.params.length - 1);
  return {
    create: (request) => save(tableOf(request), build(request.body)),
    read: (request) => tableOf(request).copy(lastParam(request)),
    update: (request) => {
      const table = tableOf(request);
      return save(table, build(request.body, table.require(lastParam(request))));
    },
  };
}
