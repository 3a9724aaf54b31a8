// The GraphQL endpoint at `{apiUrl}/query`, as the service serves it to browsers: HTTP POST for
// queries and mutations (`Authorization: Bearer <token>`), `graphql-transport-ws` over a
// WebSocket on the same path for subscriptions (`connection_init` payload `{authToken}`), built
// on `graphql` and `graphql-ws`. A token is the workspace API key or a dial token. Every
// operation is logged by type and name (never a token), so one call's sequence reads from the log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  GraphQLError,
  execute,
  getOperationAST,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type OperationDefinitionNode,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { verifyDialToken, type DialTokenKeys } from '../dial-token.js';
import { secretCheck } from '../../shared/secret.js';
import { closeLingeringAfterAnswer, readNodeBody } from '../../shared/capped-body.js';
import { MAX_SUBSCRIPTIONS_PER_SOCKET, parseBounded } from './limits.js';
import {
  createSchema,
  type GraphqlContext,
  type GraphqlErrorCode,
  type GraphqlServices,
  type Principal,
} from './schema.js';

export interface GraphqlEndpointOptions extends GraphqlServices {
  apiKey: string;
  dialTokens: DialTokenKeys;
  maxBodyBytes: number;
  log: (line: string) => void;
}

export interface GraphqlEndpoint {
  /** Answers an HTTP request for `/query` (POST, or a CORS preflight). */
  handleRequest(request: IncomingMessage, response: ServerResponse): void;
  /** Takes a WebSocket upgrade for `/query`. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

const CORS = {
  // The official client runs in any site's pages and sends its token in a header, not a cookie.
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-max-age': '600',
};

const UNAUTHENTICATED =
  'missing or invalid token: send a dial token or the API key as Authorization: Bearer <token> (authToken over WebSocket)';

export function createGraphqlEndpoint(options: GraphqlEndpointOptions): GraphqlEndpoint {
  const schema = createSchema(options);
  const isApiKey = secretCheck(options.apiKey);

  async function authenticate(token: unknown): Promise<Principal | undefined> {
    if (typeof token !== 'string' || token === '') return undefined;
    if (await isApiKey(token)) return { kind: 'workspace' };
    try {
      const claims = await verifyDialToken(options.dialTokens, token);
      return options.dials.has(claims.dialId) ? { kind: 'dial', ...claims } : undefined;
    } catch {
      return undefined;
    }
  }

  function logOperation(
    transport: 'http' | 'ws',
    document: DocumentNode,
    operationName: unknown,
    principal: Principal | undefined,
  ): void {
    const operation = getOperationAST(document, typeof operationName === 'string' ? operationName : undefined);
    options.log(
      `graphql ${transport} ${describe(operation)} ${principal === undefined ? 'refused: no valid token' : `as ${who(principal)}`}`,
    );
  }

  // ── HTTP ──

  function handleRequest(request: IncomingMessage, response: ServerResponse): void {
    answerHttp(request).then(
      ({ status, body, headers }) => send(response, status, body, headers),
      (error: unknown) => {
        options.log(`graphql http internal error: ${String(error)}`);
        send(response, 500, { errors: [{ message: 'internal error' }] });
      },
    );
  }

  async function answerHttp(
    request: IncomingMessage,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    if (request.method !== 'POST') {
      // A preflight or a GET has no body to read: at most a small one is drained, unkept.
      const drained = await readNodeBody(request, 0, options.maxBodyBytes).drained;
      const close = drained ? {} : closeLingeringAfterAnswer(request);
      if (request.method === 'OPTIONS') return { status: 204, body: undefined, headers: close };
      return {
        status: 405,
        body: errors('the GraphQL endpoint takes POST (subscriptions: graphql-transport-ws over WebSocket)'),
        headers: { allow: 'POST, OPTIONS', ...close },
      };
    }
    // A declared body past the limit is refused unread; a streamed one is read no further than it.
    const capped = readNodeBody(request, options.maxBodyBytes);
    const [body, drained] = await Promise.all([capped.body, capped.drained]);
    if (body === null)
      return {
        status: 413,
        body: errors(`the body is larger than ${options.maxBodyBytes} bytes`),
        headers: drained ? {} : closeLingeringAfterAnswer(request),
      };
    let params: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      params = JSON.parse(new TextDecoder().decode(body)) as typeof params;
    } catch {
      return { status: 400, body: errors('the body is not valid JSON') };
    }
    if (params === null || typeof params !== 'object' || typeof params.query !== 'string') {
      return { status: 400, body: errors('the body must be a JSON object with a "query" string') };
    }
    const { variables, operationName } = params;
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables)))
      return { status: 400, body: errors('"variables" must be an object') };
    if (operationName != null && typeof operationName !== 'string')
      return { status: 400, body: errors('"operationName" must be a string') };

    let document: DocumentNode;
    try {
      document = parseBounded(params.query);
    } catch (error) {
      return {
        status: 200,
        body: { errors: [error instanceof GraphQLError ? error : new GraphQLError('syntax error')] },
      };
    }
    const principal = await authenticate(bearer(request.headers.authorization));
    logOperation('http', document, operationName, principal);
    if (!principal) return { status: 200, body: errors(UNAUTHENTICATED, 'UNAUTHENTICATED') };
    const invalid = validate(schema, document);
    if (invalid.length > 0) return { status: 200, body: { errors: invalid } };
    const operation = getOperationAST(document, operationName ?? undefined);
    if (operation?.operation === 'subscription') {
      return {
        status: 200,
        body: errors('subscriptions are served over WebSocket (graphql-transport-ws) at this path'),
      };
    }
    const contextValue: GraphqlContext = { principal };
    const result: ExecutionResult = await execute({
      schema,
      document,
      operationName: operationName ?? undefined,
      variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
      contextValue,
    });
    return { status: 200, body: result };
  }

  // ── WebSocket ──

  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxBodyBytes });
  const server = useServer<Record<string, unknown>, { principal: Principal }>(
    {
      schema,
      async onConnect(ctx) {
        const principal = await authenticate(ctx.connectionParams?.['authToken']);
        if (!principal) {
          options.log('graphql ws connection refused: no valid authToken');
          return false;
        }
        ctx.extra.principal = principal;
        return true;
      },
      context(ctx): GraphqlContext {
        // graphql-ws takes no operation before `onConnect` accepted the connection.
        const { principal } = ctx.extra;
        if (!principal) throw new Error('an operation before the connection was accepted');
        return { principal };
      },
      // Parsed within DOCUMENT_LIMITS and validated here, so graphql-ws runs what was checked.
      onSubscribe(ctx, id, payload) {
        // graphql-ws has already registered this one.
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_SOCKET) {
          options.log(`graphql ws subscription ${id} refused: over ${MAX_SUBSCRIPTIONS_PER_SOCKET} on one connection`);
          return [
            new GraphQLError(
              `at most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions are served on one connection; complete one first`,
            ),
          ];
        }
        let document: DocumentNode;
        try {
          document = parseBounded(payload.query);
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError('syntax error')];
        }
        logOperation('ws', document, payload.operationName, ctx.extra.principal);
        const invalid = validate(schema, document);
        if (invalid.length > 0) return invalid;
        return {
          schema,
          document,
          operationName: payload.operationName ?? undefined,
          variableValues: payload.variables ?? undefined,
        };
      },
    },
    wss,
  );

  return {
    handleRequest,
    handleUpgrade(request, socket, head) {
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
    async close() {
      await server.dispose();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function describe(operation: OperationDefinitionNode | null | undefined): string {
  if (!operation) return 'operation (unidentified)';
  const fields = operation.selectionSet.selections.flatMap((selection) =>
    selection.kind === 'Field' ? [selection.name.value] : [],
  );
  return `${operation.operation} ${operation.name?.value ?? '(anonymous)'} {${fields.join(', ')}}`;
}

function who(principal: Principal): string {
  return principal.kind === 'workspace' ? 'the API key' : `dial ${principal.dialId}`;
}

function bearer(header: string | undefined): string | undefined {
  return /^Bearer (.+)$/i.exec(header ?? '')?.[1]?.trim();
}

function errors(
  message: string,
  code?: GraphqlErrorCode,
): { errors: { message: string; extensions?: { code: GraphqlErrorCode } }[] } {
  return { errors: [code === undefined ? { message } : { message, extensions: { code } }] };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  if (body === undefined) {
    response.writeHead(status, { ...CORS, ...headers });
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...CORS,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}
