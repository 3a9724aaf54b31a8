// The service's GraphQL browser protocol, as far as its own web client uses it
// (research/service-graphql.md): exactly that SDL subset, with resolvers over the dial lifecycle (api/dial-lifecycle.ts).
// Built with `graphql` itself; the transports (HTTP POST, graphql-transport-ws) live in endpoint.ts.
import { randomBytes } from 'node:crypto';
import {
  GraphQLError,
  buildSchema,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { EMU_TRANSFER_REFUSED, telephonyProviderOf } from '../api/agents.js';
import { isTerminal, type DialLifecycle } from '../api/dial-lifecycle.js';
import type { DialRecord } from '../api/records.js';
import type { DialStatus, TranscriptLine } from '../seam.js';
import { EventStream } from './event-stream.js';

/**
 * The subset of the service's schema the emulator serves. `Query.emulator` is the emulator's own:
 * GraphQL requires a query root and the browser protocol uses none of the service's queries.
 */
export const SDL = /* GraphQL */ `
type Query {
  emulator: String!
}
type Mutation {
  browserDialToken(input: BrowserDialTokenInput!): BrowserDialTokenRes!
  startDialSession(dialSessionId: ID!): Boolean!
  hangupCall(dialId: ID!, dropVoicemail: Boolean, transferNumber: String): Boolean!
  pauseAI(dialId: ID!, pauseStatus: Boolean!): Dial!
}
type Subscription {
  connectSession(sessionId: ID!): SessionMessage!
  watchLiveTranscriptEvents(dialId: ID!): LiveTranscriptEvent!
}

input BrowserDialTokenInput {
  type: BrowserDialTokenType!
  dialSessionId: ID
  liveListen: Boolean
  telephonyProvider: String
  workspaceId: ID
}
enum BrowserDialTokenType { DIAL_SESSION LIVE_LISTEN }
type BrowserDialTokenRes { token: String!  telephonyProvider: String!  url: String  iceConfig: String }

type SessionMessage { messageType: SessionMessageType!  content: SessionMessageContent }
enum SessionMessageType { CONTACT_COMPLETE DIAL_CONNECT GLOBAL_CALL_CONNECT SESSION_CONTACT_UPDATE SESSION_UPDATE }
union SessionMessageContent = ContactCompleteMessage | DialConnectMessage | DialsUpdatedMessage | SessionUpdatedMessage
type ContactCompleteMessage { contactId: ID! }
type DialConnectMessage { contactId: ID  dialId: ID! }
type DialsUpdatedMessage { contactId: ID  dials: [Dial!]!  contactComplete: Boolean! }
type SessionUpdatedMessage { dialSession: DialSession  reason: DialSessionUpdateReason }
enum DialSessionUpdateReason { BROWSER_DISCONNECT MANUAL PASS_COMPLETE }
type DialSession { id: ID!  status: DialSessionStatus!  telephonyProvider: String! }
enum DialSessionStatus { ACTIVE COMPLETE INITIALIZED PAUSED }

type Dial {
  id: ID!
  status: String!
  answerType: AnswerType!
  callDispositionId: ID
  systemResultType: SystemResultType
  toNumber: String!
}
enum AnswerType { HUMAN MACHINE OTHER UNKNOWN }
enum SystemResultType { AGENT_HANGUP BUSY CANCELLED COUNTERPARTY_HANGUP DIAL_TREE_FOUND DNC_SKIPPED
  FAILED LONG_SILENCE_HANGUP NO_ANSWER NUMBER_SKIPPED RATE_LIMITED TIMEOUT TRANSFERRED USER_HANGUP
  VOICEMAIL_DETECTED_HANGUP VOICEMAIL_LEFT VOICEMAIL_NOT_LEFT }

type LiveTranscriptEvent { eventType: LiveTranscriptEventType!  transcriptLine: TranscriptLine }
enum LiveTranscriptEventType { FINAL LIVE }
type TranscriptLine {
  role: TranscriptLineRole!
  text: String!
  audioStart: Int!
  audioEnd: Int!
  speaker: String! @deprecated(reason: "Use role instead")
  detailType: String @deprecated(reason: "Use role instead")
  functionCalls: [FunctionCallRes!]
  playId: String
}
enum TranscriptLineRole { AI FUNCTION_RESULT HUMAN IVR NODE_TRANSITION }
type FunctionCallRes { id: ID!  name: String!  arguments: String! }
`;

/** An E.164 phone number, as the emulator checks a `transferNumber`. */
const E164 = /^\+[1-9][0-9]{1,14}$/;

/** Who a request speaks for: the workspace (the API key) or one dial (its dial token). */
export type Principal = { kind: 'workspace' } | { kind: 'dial'; dialId: string; sessionId: string };

export interface GraphqlContext {
  principal: Principal;
}

export interface GraphqlServices {
  /** The store's dial lifecycle: what every operation reads and drives. */
  dials: DialLifecycle;
  /** The media room's URL, answered as `url` for a LiveKit dial. */
  mediaUrl(): string;
  /** A LiveKit participant token for the dial's room. */
  issueMediaToken(dialId: string): Promise<string>;
  /** `iceConfig` of a LiveKit `browserDialToken` answer. */
  iceConfig: string | null;
}

export interface GraphqlDial {
  id: string;
  status: DialStatus;
  answerType: 'HUMAN' | 'UNKNOWN';
  callDispositionId: null;
  systemResultType: string | null;
  toNumber: string;
}

export interface SessionMessage {
  messageType: 'GLOBAL_CALL_CONNECT' | 'SESSION_CONTACT_UPDATE';
  content: {
    __typename: 'DialsUpdatedMessage';
    contactId: null;
    dials: GraphqlDial[];
    contactComplete: boolean;
  } | null;
}

export interface LiveTranscriptEvent {
  eventType: 'LIVE' | 'FINAL';
  transcriptLine: {
    role: 'AI' | 'HUMAN';
    text: string;
    audioStart: number;
    audioEnd: number;
    speaker: string;
    detailType: string | null;
    functionCalls: null;
    playId: null;
  };
}

/** A root field of the SDL, to attach its resolver to; throws when the SDL lacks it. */
function field(type: GraphQLObjectType | null | undefined, name: string): GraphQLField<unknown, GraphqlContext, never> {
  const found = type?.getFields()[name];
  if (!found) throw new Error(`the schema has no root field ${name}`);
  return found;
}

/** The `extensions.code` of the endpoint's errors. */
export type GraphqlErrorCode = 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'BAD_USER_INPUT' | 'FAILED_PRECONDITION';

function fail(message: string, code: GraphqlErrorCode): never {
  throw new GraphQLError(message, { extensions: { code } });
}

/** A browser dial has no number: the schema's `toNumber: String!` gets "". It is answered once someone is on it. */
export function graphqlDial(record: DialRecord): GraphqlDial {
  return {
    id: record.id,
    status: record.status,
    answerType: record.startedAt !== null ? 'HUMAN' : 'UNKNOWN',
    callDispositionId: null,
    systemResultType: record.systemResultType,
    toNumber: record.toNumber ?? '',
  };
}

function transcriptEvent(eventType: 'LIVE' | 'FINAL', line: TranscriptLine): LiveTranscriptEvent {
  return {
    eventType,
    transcriptLine: {
      role: line.speaker,
      text: line.text,
      audioStart: Math.round(line.startTimeMs),
      audioEnd: Math.round(line.endTimeMs),
      speaker: line.speaker,
      detailType: line.detailType ?? null,
      functionCalls: null,
      playId: null,
    },
  };
}

export function createSchema(services: GraphqlServices): GraphQLSchema {
  const { dials } = services;
  const schema = buildSchema(SDL);

  /** A dial token reaches only its own dial: another dial is refused whether it exists or not. */
  function authorizeDial(principal: Principal, dialId: string): void {
    if (principal.kind === 'dial' && principal.dialId !== dialId)
      fail('this token does not authorise that dial', 'FORBIDDEN');
    if (!dials.has(dialId)) fail('no such dial', 'NOT_FOUND');
  }

  function authorizeSession(principal: Principal, sessionId: string): string {
    if (principal.kind === 'dial' && principal.sessionId !== sessionId)
      fail('this token does not authorise that dial session', 'FORBIDDEN');
    const dialId = dials.dialForSession(sessionId);
    if (dialId === undefined) fail('no such dial session', 'NOT_FOUND');
    return dialId;
  }

  function sessionOf(dialId: string) {
    const session = dials.session(dialId);
    if (!session) fail('no such dial', 'NOT_FOUND');
    return session;
  }

  function dialOf(dialId: string): GraphqlDial {
    const record = dials.record(dialId);
    if (!record) fail('no such dial', 'NOT_FOUND');
    return graphqlDial(record);
  }

  // `never`: each resolver names the arguments its field declares (graphql validated them against the SDL).
  type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, never>;
  const mutations: Record<string, Resolver> = {
    async browserDialToken(
      _root,
      { input }: { input: { type: string; dialSessionId?: string | null; liveListen?: boolean | null } },
      { principal },
    ) {
      if (input.type !== 'DIAL_SESSION' || input.liveListen === true)
        fail('the emulator offers only DIAL_SESSION tokens without liveListen', 'BAD_USER_INPUT');
      if (input.dialSessionId == null) fail('dialSessionId is required for a DIAL_SESSION token', 'BAD_USER_INPUT');
      const dialId = authorizeSession(principal, input.dialSessionId);
      const session = sessionOf(dialId);
      if (isTerminal(session.status)) fail(`the dial has already ended (${session.status})`, 'FAILED_PRECONDITION');
      const provider = telephonyProviderOf(session.scenario);
      dials.tokenIssued(dialId);
      if (provider === 'vonage') {
        // A stand-in for a Vonage session token: it opens nothing here.
        return {
          token: `emu-vonage-${randomBytes(16).toString('hex')}`,
          telephonyProvider: provider,
          url: null,
          iceConfig: null,
        };
      }
      return {
        token: await services.issueMediaToken(dialId),
        telephonyProvider: provider,
        url: services.mediaUrl(),
        iceConfig: services.iceConfig,
      };
    },
    startDialSession(_root, { dialSessionId }: { dialSessionId: string }, { principal }) {
      return dials.startSession(authorizeSession(principal, dialSessionId));
    },
    hangupCall(_root, { dialId, transferNumber }: { dialId: string; transferNumber?: string | null }, { principal }) {
      authorizeDial(principal, dialId);
      // Answered once the room has let go of the call (see DialLifecycle.hangup).
      if (transferNumber == null) return dials.hangup(dialId).then(() => true);
      // A transfer (the emulator's rules: the service's are not known; docs/emulator.md).
      if (!E164.test(transferNumber))
        fail('transferNumber must be a phone number in E.164 form, e.g. +14155550123', 'BAD_USER_INPUT');
      const session = sessionOf(dialId);
      if (session.status !== 'in-progress')
        fail(`only a call in progress can be transferred (the dial is ${session.status})`, 'FAILED_PRECONDITION');
      if (dials.transferred(dialId)) fail('the call was transferred already', 'FAILED_PRECONDITION');
      if (session.scenario === EMU_TRANSFER_REFUSED)
        fail('this call cannot be transferred (emu-transfer-refused)', 'FAILED_PRECONDITION');
      dials.transfer(dialId, transferNumber);
      return true;
    },
    pauseAI(_root, { dialId, pauseStatus }: { dialId: string; pauseStatus: boolean }, { principal }) {
      authorizeDial(principal, dialId);
      const { status } = sessionOf(dialId);
      if (isTerminal(status)) fail(`the dial has already ended (${status})`, 'FAILED_PRECONDITION');
      dials.setAiPaused(dialId, pauseStatus);
      return dialOf(dialId);
    },
  };

  const subscriptions: Record<string, Resolver> = {
    /**
     * SESSION_CONTACT_UPDATE with the dial's status at once (so a subscriber knows where the dial
     * stands and that it is subscribed), then on every status change (the terminal one ends the
     * stream); GLOBAL_CALL_CONNECT once both the subscription is open and the browser is in the room.
     */
    connectSession(_root, { sessionId }: { sessionId: string }, { principal }) {
      const dialId = authorizeSession(principal, sessionId);
      const stream = new EventStream<SessionMessage>(() => unwatch());
      let connected = false;
      const connect = () => {
        if (connected || !dials.hasBrowserJoined(dialId)) return;
        connected = true;
        stream.push({ messageType: 'GLOBAL_CALL_CONNECT', content: null });
      };
      const contactUpdate = () => {
        const dial = dialOf(dialId);
        const complete = isTerminal(dial.status);
        stream.push({
          messageType: 'SESSION_CONTACT_UPDATE',
          content: { __typename: 'DialsUpdatedMessage', contactId: null, dials: [dial], contactComplete: complete },
        });
        if (complete) stream.end();
      };
      const unwatch = dials.watch(dialId, (update) => {
        if (update.kind === 'status') contactUpdate();
        else if (update.kind === 'joined') connect();
      });
      contactUpdate();
      connect();
      return stream;
    },
    /** Every line the agent says and every caller turn it detects: LIVE while under way, then FINAL. */
    watchLiveTranscriptEvents(_root, { dialId }: { dialId: string }, { principal }) {
      authorizeDial(principal, dialId);
      const stream = new EventStream<LiveTranscriptEvent>(() => unwatch());
      const unwatch = dials.watch(dialId, (update) => {
        if (update.kind === 'transcript') stream.push(transcriptEvent(update.eventType, update.line));
        else if (update.kind === 'status' && isTerminal(sessionOf(dialId).status)) stream.end();
      });
      if (isTerminal(sessionOf(dialId).status)) stream.end();
      return stream;
    },
  };

  for (const [name, resolve] of Object.entries(mutations)) field(schema.getMutationType(), name).resolve = resolve;
  for (const [name, subscribe] of Object.entries(subscriptions)) {
    const subscription = field(schema.getSubscriptionType(), name);
    subscription.subscribe = subscribe;
    subscription.resolve = (event: unknown) => event;
  }
  field(schema.getQueryType(), 'emulator').resolve = () => 'voice-agent-emulator';
  return schema;
}
