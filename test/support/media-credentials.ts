// From a dial to its media credentials the way the service's own browser client goes: the
// service's GraphQL endpoint with the dial token, the official operation texts, plain fetch (so
// node and browser tests can share it). Also the other mutations of the official client.

/** The official client's operations (vogent-web-client src/queries.ts), verbatim. */
export const OPERATIONS = {
  BrowserDialToken:
    'mutation BrowserDialToken($input: BrowserDialTokenInput!) { browserDialToken(input: $input) { token iceConfig telephonyProvider url } }',
  StartDialSession: 'mutation StartDialSession($sessionId: ID!) { startDialSession(dialSessionId: $sessionId) }',
  HangupCall:
    'mutation HangupCall($dialId: ID!, $dropVoicemail: Boolean, $transferNumber: String) { hangupCall(dialId: $dialId, dropVoicemail: $dropVoicemail, transferNumber: $transferNumber) }',
  SetPaused:
    'mutation SetPaused($dialId: ID!, $pauseStatus: Boolean!) { pauseAI(dialId: $dialId, pauseStatus: $pauseStatus) { id } }',
  ConnectSession:
    'subscription ConnectSession($sessionId: ID!) { connectSession(sessionId: $sessionId) { messageType content { __typename ... on DialsUpdatedMessage { contactId dials { id status answerType callDispositionId systemResultType toNumber } contactComplete } ... on DialConnectMessage { dialId } ... on SessionUpdatedMessage { dialSession { id status } reason } } } }',
  RefreshTranscript:
    'subscription RefreshTranscript($dialId: ID!) { watchLiveTranscriptEvents(dialId: $dialId) { eventType transcriptLine { role speaker text detailType audioStart audioEnd functionCalls { name arguments } } } }',
} as const;

export type OperationName = keyof typeof OPERATIONS;

export interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export interface MediaCredentials {
  token: string;
  url: string | null;
  telephonyProvider: string;
  iceConfig: string | null;
}

/** POSTs one of the official operations with `Authorization: Bearer <token>`; answers the whole GraphQL answer. */
export async function graphql<T = Record<string, unknown>>(
  graphqlUrl: string,
  token: string,
  operationName: OperationName,
  variables: Record<string, unknown>,
): Promise<GraphqlAnswer<T>> {
  const response = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: OPERATIONS[operationName], operationName, variables }),
  });
  if (response.status !== 200) throw new Error(`${operationName}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as GraphqlAnswer<T>;
}

/** The data of an operation that must succeed. */
async function data<T>(
  graphqlUrl: string,
  token: string,
  operationName: OperationName,
  variables: Record<string, unknown>,
): Promise<T> {
  const answer = await graphql<T>(graphqlUrl, token, operationName, variables);
  if (answer.errors?.length || !answer.data) throw new Error(`${operationName}: ${JSON.stringify(answer.errors)}`);
  return answer.data;
}

/** `browserDialToken(input: {type: DIAL_SESSION, dialSessionId, liveListen: false})`, as the official client sends it. */
export async function mediaCredentials(
  graphqlUrl: string,
  dialToken: string,
  sessionId: string,
): Promise<MediaCredentials> {
  const input = { type: 'DIAL_SESSION', dialSessionId: sessionId, liveListen: false };
  return (await data<{ browserDialToken: MediaCredentials }>(graphqlUrl, dialToken, 'BrowserDialToken', { input }))
    .browserDialToken;
}

/** `startDialSession(dialSessionId)`: the scenario agents speak only after it. */
export async function startDialSession(graphqlUrl: string, dialToken: string, sessionId: string): Promise<boolean> {
  return (await data<{ startDialSession: boolean }>(graphqlUrl, dialToken, 'StartDialSession', { sessionId }))
    .startDialSession;
}

/** The LiveKit token and URL of a dial (throws for another provider). */
export async function livekitCredentials(
  graphqlUrl: string,
  dialToken: string,
  sessionId: string,
): Promise<{ token: string; url: string }> {
  const credentials = await mediaCredentials(graphqlUrl, dialToken, sessionId);
  if (credentials.telephonyProvider !== 'livekit' || credentials.url === null) {
    throw new Error(`the dial's media provider is ${credentials.telephonyProvider}, not livekit`);
  }
  return { token: credentials.token, url: credentials.url };
}
