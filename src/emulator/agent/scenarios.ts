// The scenario agents (README: "Recipes: pick the behaviour by the agent id you dial"): the agent id a test dials picks the behaviour. Each scenario
// is a short script over an `AgentContext` that the room implements (voice, ears, hang-up).
import type { SystemResultType } from '../seam.js';

export type ListenResult =
  { kind: 'turn'; durationMs: number } | { kind: 'timeout' } | { kind: 'silence'; silentMs: number };

/** What a scenario can do in the room. Every promise rejects with an AbortError once the room ends. */
export interface AgentContext {
  readonly signal: AbortSignal;
  /** true: the caller came back after a dropped connection (emu-blip); the call goes on. */
  readonly rejoined: boolean;
  /** true: the caller came back after its page went away (`persist`); the demo agent carries on without a second greeting. */
  readonly returned?: boolean;
  /** Speaks a line: real audio, a live transcript (interim → final), the dial's transcript. */
  say(text: string): Promise<void>;
  /** Shows `thinking` for a moment before a reply. */
  think(): Promise<void>;
  /**
   * Waits for the caller's next turn. `timeoutMs`: stop waiting then (a turn under way is cut
   * there and counts). `silenceMs`: give up once the microphone was quiet or muted that long.
   */
  listen(options?: { timeoutMs?: number; silenceMs?: number }): Promise<ListenResult>;
  /**
   * The caller's next keypad digit (`0`-`9`, `*`, `#`, `A`-`D`): one pressed while the agent was
   * busy first, in order, else the next one pressed.
   */
  nextKey(): Promise<string>;
  /** Ends the dial as the agent: `completed` with this result type, then the room closes. */
  hangup(systemResultType: SystemResultType, aiResult?: Record<string, unknown>): void;
  /** Drops the media connection without a goodbye; the room never comes back. */
  drop(): void;
  /** Drops the media connection once without a goodbye; the room takes the caller's rejoin as the same dial. */
  blip(): void;
  /** Leaves the room without a goodbye (the caller gets no LeaveRequest): the dial ends `failed`. */
  leave(): void;
  /** The media server shuts the room down: a LeaveRequest `SERVER_SHUTDOWN`, the dial ends `failed`. */
  shutDown(): void;
}

export interface ScenarioTimings {
  /** emu-silent-user: quiet (or muted) microphone this long ends the call. */
  silenceHangupMs: number;
  /** emu-quick: how long it waits for the caller after its greeting. */
  quickListenMs: number;
  /** emu-drop, emu-blip, emu-agent-leaves, emu-server-leave: the pause after the greeting before the fault. */
  dropAfterGreetingMs: number;
  /** After a transfer: the person's wait before greeting (the line rings), and the quiet that makes them hang up. */
  personAnswerMs: number;
  personSilenceMs: number;
}

export const DEFAULT_SCENARIO_TIMINGS: ScenarioTimings = {
  silenceHangupMs: 3000,
  quickListenMs: 1000,
  dropAfterGreetingMs: 500,
  personAnswerMs: 700,
  personSilenceMs: 20_000,
};

export interface Scenario {
  /** false: the room opens but no agent ever joins. */
  agentJoins: boolean;
  /**
   * false: the agent publishes no `lk.transcription` streams in the room; the GraphQL
   * `watchLiveTranscriptEvents` events are the only live transcript. Default true.
   */
  roomTranscript?: boolean;
  run(agent: AgentContext, timings: ScenarioTimings): Promise<void>;
  /** Lines only this scenario says, made ahead for its calls only (ALL_LINES are made for every call). */
  ownLines?: readonly string[];
}

export const LINES = {
  demoGreeting: 'Hello, this is the demo agent. Say something and I will answer.',
  welcomeBack: 'Welcome back. Go on.',
  demoReplies: ['Thanks, I heard you.', 'Got it. Tell me more.', 'Interesting. Anything else?'],
  quickGreeting: 'Hi, quick test call.',
  quickGoodbye: 'Thanks, goodbye!',
  silentGreeting: 'Hello, are you there?',
  silentReply: 'I hear you.',
  silentGoodbye: 'I cannot hear you. Goodbye.',
  dropGreeting: 'Hello, this line is about to drop.',
  leaveGreeting: 'Hello, I have to go.',
  serverLeaveGreeting: 'Hello, this room is about to close.',
  blipGreeting: 'Hello, this line will drop for a moment.',
  blipBack: 'Sorry, the line dropped. I am back.',
  timeUp: 'Our time is up. Goodbye.',
  keypadGreeting: 'Hello, this is the keypad agent. Please press a key on your keypad.',
  /** Said when `pauseAI(dialId, false)` brings a paused agent back. */
  back: "I'm back.",
} as const;

/**
 * The person a call is transferred to (`hangupCall` with a `transferNumber`), in another voice:
 * greets, answers each turn of the caller, and says goodbye and hangs up after the caller was
 * quiet for `personSilenceMs`; otherwise the call goes on until the caller hangs up (or the time cap).
 */
export const PERSON_LINES = {
  greeting: 'Hi, this is Sam from the support team. How can I help you?',
  replies: ['Sure, I can help with that.', 'Okay, let me check that for you.', 'Alright. Anything else I can do?'],
  goodbye: 'I cannot hear you any more. Thanks for calling, goodbye.',
} as const;

/** The person's side of a transferred call, over the same `AgentContext` (its voice is the person's). */
export async function personScript(person: AgentContext, timings: ScenarioTimings): Promise<void> {
  await person.say(PERSON_LINES.greeting);
  for (let turn = 0; ; turn++) {
    const heard = await person.listen({ silenceMs: timings.personSilenceMs });
    if (heard.kind === 'silence') break;
    if (heard.kind !== 'turn') continue;
    await person.think();
    await person.say(PERSON_LINES.replies[turn % PERSON_LINES.replies.length] ?? PERSON_LINES.replies[0]);
  }
  await person.say(PERSON_LINES.goodbye);
  // The dial's result is TRANSFERRED whoever ends it (dial-lifecycle.ts).
  person.hangup('TRANSFERRED');
}

/** The keypad agent's answer to one key: "You pressed 2.", "You pressed star." */
export function keypadAnswer(digit: string): string {
  const spoken = digit === '*' ? 'star' : digit === '#' ? 'pound' : digit;
  return `You pressed ${spoken}.`;
}

/** The lines every scenario may say, so the voice can be made before it is needed. */
export const ALL_LINES: readonly string[] = Object.values(LINES).flat();

/** Greets, answers each caller turn; ends only at the dial's time cap (TIMEOUT, by the REST half). */
const demo: Scenario = {
  agentJoins: true,
  async run(agent) {
    // A visitor back from another page of the site (`persist`): no second greeting.
    await agent.say(agent.returned ? LINES.welcomeBack : LINES.demoGreeting);
    await answerTurns(agent);
  },
};

async function answerTurns(agent: AgentContext): Promise<never> {
  for (let turn = 0; ; turn++) {
    const heard = await agent.listen();
    if (heard.kind !== 'turn') continue;
    await agent.think();
    await agent.say(LINES.demoReplies[turn % LINES.demoReplies.length] ?? LINES.demoReplies[0]);
  }
}

/** Greets, one exchange (waits about a second for the caller), says goodbye, hangs up: AGENT_HANGUP. */
const quick: Scenario = {
  agentJoins: true,
  async run(agent, timings) {
    await agent.say(LINES.quickGreeting);
    const heard = await agent.listen({ timeoutMs: timings.quickListenMs });
    await agent.say(LINES.quickGoodbye);
    const callerSpoke = heard.kind === 'turn';
    agent.hangup('AGENT_HANGUP', {
      summary: callerSpoke ? 'Short test call; the caller spoke once.' : 'Short test call; the caller did not speak.',
      intent: 'test-call',
      callerSpoke,
    });
  },
};

/** Greets; hangs up once the microphone has been quiet or muted for 3 s: LONG_SILENCE_HANGUP. */
const silentUser: Scenario = {
  agentJoins: true,
  async run(agent, timings) {
    await agent.say(LINES.silentGreeting);
    for (;;) {
      const heard = await agent.listen({ silenceMs: timings.silenceHangupMs });
      if (heard.kind === 'silence') break;
      if (heard.kind === 'turn') await agent.say(LINES.silentReply);
    }
    await agent.say(LINES.silentGoodbye);
    agent.hangup('LONG_SILENCE_HANGUP');
  },
};

/** A scenario that greets, pauses `dropAfterGreetingMs`, then has `fault` happen. */
function greetThen(greeting: string, fault: (agent: AgentContext) => void): Scenario {
  return {
    agentJoins: true,
    async run(agent, timings) {
      await agent.say(greeting);
      await delay(timings.dropAfterGreetingMs, agent.signal);
      fault(agent);
    },
  };
}

/** Greets, then the media connection drops without a goodbye and never comes back: FAILED. */
const drop = greetThen(LINES.dropGreeting, (agent) => agent.drop());

/** emu-blip's first session: greets, then the connection drops once. */
const blipOnce = greetThen(LINES.blipGreeting, (agent) => agent.blip());

/** Greets, then the connection drops once; after the caller's rejoin it says so and goes on like emu-demo. */
const blip: Scenario = {
  agentJoins: true,
  async run(agent, timings) {
    if (agent.rejoined) {
      await agent.say(LINES.blipBack);
      return answerTurns(agent);
    }
    return blipOnce.run(agent, timings);
  },
};

/** Greets, then leaves the room without a goodbye; the service records the dial FAILED. */
const agentLeaves = greetThen(LINES.leaveGreeting, (agent) => agent.leave());

/** Greets, then the media server shuts the room down (LeaveRequest SERVER_SHUTDOWN): FAILED. */
const serverLeave = greetThen(LINES.serverLeaveGreeting, (agent) => agent.shutDown());

/** Greets, asks for a key, and answers each key the caller presses ("You pressed 2."); ends at the time cap. */
const keypad: Scenario = {
  agentJoins: true,
  ownLines: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'].map(keypadAnswer),
  async run(agent) {
    await agent.say(LINES.keypadGreeting);
    for (;;) {
      const digit = await agent.nextKey();
      await agent.think();
      await agent.say(keypadAnswer(digit));
    }
  },
};

/** emu-quick's call without `lk.transcription` in the room: the live transcript comes only over GraphQL. */
const graphqlTranscript: Scenario = { ...quick, roomTranscript: false };

/** The room opens, but no agent ever joins; the widget gives up. */
const noAgent: Scenario = {
  agentJoins: false,
  async run() {},
};

export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  'emu-demo': demo,
  'emu-quick': quick,
  'emu-silent-user': silentUser,
  'emu-drop': drop,
  'emu-no-agent': noAgent,
  'emu-agent-leaves': agentLeaves,
  'emu-server-leave': serverLeave,
  'emu-blip': blip,
  'emu-graphql-transcript': graphqlTranscript,
  'emu-keypad': keypad,
  // emu-demo's call over a link the room grades POOR (room/quality-reports.ts).
  'emu-weak-link': demo,
  // The service refuses its transfers (GraphQL); in the room it is the demo agent.
  'emu-transfer-refused': demo,
  // emu-busy never reaches the room: the REST half ends it at creation and the room refuses it.
  // emu-vonage never gets a LiveKit token (its provider is Vonage), so it never reaches the room.
};

/** The scenario for an agent id; anything unknown behaves like the demo agent. */
export function scenarioFor(agentId: string): Scenario {
  return SCENARIOS[agentId] ?? demo;
}

export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
