// The companion's view of the calling service: the six dial calls it makes, and nothing else of
// the API client (`voice-agent-call/api`), so the handler's bundle holds only these. A
// `ServiceClient` passed in config (tests, a client of your own) replaces it.
import { browserDialToken, createDial, getDial, getDialToken, hangupDial, transferCall } from '../api/dials.js';
import { dialTransport, type CallOptions, type ServiceClientOptions } from '../api/transport.js';
import type {
  BrowserDialTokenOutput,
  CreateDialInput,
  CreateDialOutput,
  DialTokenOutput,
  ServiceDial,
} from '../api/types/dials.js';

export interface ServiceClient {
  createDial(input: CreateDialInput, options?: CallOptions): Promise<CreateDialOutput>;
  getDialToken(dialId: string, options?: CallOptions): Promise<DialTokenOutput>;
  /** The GraphQL mutation `browserDialToken` for the dial session, authorised by the dial token. */
  browserDialToken(dialToken: string, sessionId: string, options?: CallOptions): Promise<BrowserDialTokenOutput>;
  getDial(dialId: string, options?: CallOptions): Promise<ServiceDial>;
  hangupDial(dialId: string, options?: CallOptions): Promise<{ success: boolean }>;
  /**
   * The GraphQL mutation `hangupCall(dialId, transferNumber)`: the live call goes to that number
   * (talk to a person). Optional for a client of your own: without it the transfer route answers 404.
   */
  transferCall?(dialId: string, transferNumber: string, options?: CallOptions): Promise<{ success: boolean }>;
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const transport = dialTransport(options, 'createServiceClient');
  return {
    createDial: (input, callOptions) => createDial(transport, input, callOptions),
    getDialToken: (dialId, callOptions) => getDialToken(transport, dialId, callOptions),
    browserDialToken: (dialToken, sessionId, callOptions) =>
      browserDialToken(transport, dialToken, sessionId, callOptions),
    getDial: (dialId, callOptions) => getDial(transport, dialId, callOptions),
    hangupDial: (dialId, callOptions) => hangupDial(transport, dialId, callOptions),
    transferCall: (dialId, transferNumber, callOptions) => transferCall(transport, dialId, transferNumber, callOptions),
  };
}
