// What a resource route sees: its path parameters, the query and the parsed body (POST and PUT
// only): JSON (undefined when empty), or `FormData` for a multipart route. The server does auth,
// body limits and the answer: JSON, or the bytes of a `BinaryAnswer`.
export interface ResourceRequest {
  params: string[];
  /** The request path (decoded ids not applied): a listing's identity for its cursors. */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export type ResourceHandler = (request: ResourceRequest) => unknown;

export interface ResourceRoute {
  pattern: RegExp;
  methods: Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', ResourceHandler>>;
  /** `multipart`: the body is `multipart/form-data`, handed over as `FormData`. Default `json`. */
  bodyType?: 'json' | 'multipart';
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
