// `api.dials`: the dial calls (dials.ts at the top of the client, shared with the companion), with
// ids checked and the record typed as the seed documents it.
import * as calls from '../dials.js';
import { segment, type RequestOptions } from '../resource.js';
import type { DialTransport } from '../transport.js';
import type {
  BrowserDialTokenOutput,
  CreateDialOutput,
  CreateDialRequest,
  Dial,
  DialTokenOutput,
} from '../types/dials.js';

/** A dial id checked as a path segment (non-empty); the dial calls encode it themselves. */
function dialId(value: string): string {
  segment(value);
  return value;
}

export class DialsResource {
  readonly #transport: DialTransport;

  constructor(transport: DialTransport) {
    this.#transport = transport;
  }

  /** `POST /dials`: a browser dial (`browserCall: true`) or a phone dial (`toNumber`, `fromNumberId`). */
  create(input: CreateDialRequest, options?: RequestOptions): Promise<CreateDialOutput> {
    return calls.createDial(this.#transport, input, options);
  }

  /** `POST /dials/{id}/token`: a fresh dial token, which authorises the GraphQL API for this dial only. */
  token(id: string, options?: RequestOptions): Promise<DialTokenOutput> {
    return calls.getDialToken(this.#transport, dialId(id), options);
  }

  /** The GraphQL mutation `browserDialToken`: the media credentials of a dial session, authorised by its dial token. */
  browserDialToken(dialToken: string, sessionId: string, options?: RequestOptions): Promise<BrowserDialTokenOutput> {
    return calls.browserDialToken(this.#transport, dialToken, sessionId, options);
  }

  /** `GET /dials/{id}`. */
  async get(id: string, options?: RequestOptions): Promise<Dial> {
    // Checked for a `status`; the rest is the record as the service sent it.
    return (await calls.getDial(this.#transport, dialId(id), options)) as Dial;
  }

  /** `POST /dials/{id}/hangup`. */
  hangup(id: string, options?: RequestOptions): Promise<{ success: boolean }> {
    return calls.hangupDial(this.#transport, dialId(id), options);
  }
}
