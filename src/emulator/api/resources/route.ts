// What a resource route sees: its path parameters, the query and the parsed JSON body (POST and
// PUT only; undefined when empty). The server does auth, body limits and the JSON answer.
export interface ResourceRequest {
  params: string[];
  query: URLSearchParams;
  body: unknown;
}

export type ResourceHandler = (request: ResourceRequest) => unknown;

export interface ResourceRoute {
  pattern: RegExp;
  methods: Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', ResourceHandler>>;
}

export const nowIso = (): string => new Date().toISOString();
