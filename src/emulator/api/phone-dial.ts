// Phone dials (a `toNumber`, no browser): the same statuses as a browser dial, without media.
// They ring after `phoneRingMs`, are answered after another `phoneRingMs`, and the agent hangs up
// after `phoneTalkMs` (completed / AGENT_HANGUP), unless the time cap, a hangup, the number called
// (PHONE_OUTCOMES, by the last four digits) or the scenario (emu-no-agent: no-answer; emu-drop:
// failed / FAILED; emu-silent-user: LONG_SILENCE_HANGUP; emu-busy: failed / RATE_LIMITED, at
// creation) ends it first.
import type { DialEnd, DialStatus, TranscriptLine } from '../seam.js';
import { EMU_DROP, EMU_NO_AGENT, EMU_QUICK, EMU_SILENT_USER } from './agents.js';
import type { DialState } from './dial-state.js';

/**
 * The emulator's own rule (the seed has none): how a phone dial ends by the last four digits of
 * the number it calls. `busy`, `no-answer` and `failed` end it before it is answered; the others
 * after it is answered, at the agent's usual hang-up time.
 */
export const PHONE_OUTCOMES: Readonly<Record<string, DialEnd & { answered: boolean; line: string }>> = {
  '0486': { status: 'busy', systemResultType: 'BUSY', answered: false, line: '' },
  '0408': { status: 'no-answer', systemResultType: 'NO_ANSWER', answered: false, line: '' },
  '0503': { status: 'failed', systemResultType: 'FAILED', answered: false, line: '' },
  '0601': {
    status: 'completed',
    systemResultType: 'VOICEMAIL_DETECTED_HANGUP',
    answered: true,
    line: '(voicemail greeting: please leave a message after the tone)',
  },
  '0602': {
    status: 'completed',
    systemResultType: 'COUNTERPARTY_HANGUP',
    answered: true,
    line: '(the callee hung up)',
  },
  '0603': {
    status: 'completed',
    systemResultType: 'TRANSFERRED',
    answered: true,
    line: 'Let me transfer you to a colleague.',
  },
};

function phoneOutcome(toNumber: string | null): (typeof PHONE_OUTCOMES)[string] | undefined {
  return toNumber === null ? undefined : PHONE_OUTCOMES[toNumber.slice(-4)];
}

/** What a phone dial's steps do to it, through the lifecycle (dial-lifecycle.ts). */
export interface PhoneSteps {
  readonly ringMs: number;
  readonly talkMs: number;
  /** How long the dial may last, in ms (its `maxDurationSeconds`, at the lifecycle's `minuteMs`). */
  capMs(dial: DialState): number;
  /** Runs `step` after `ms`, in place of the dial's one timer. */
  schedule(dial: DialState, ms: number, step: () => void): void;
  /** Ends the dial after `ms`, in place of its one timer. */
  arm(dial: DialState, ms: number, end: DialEnd): void;
  setStatus(dial: DialState, status: DialStatus): void;
  recordLine(dial: DialState, line: TranscriptLine): void;
  setAiResult(dialId: string, aiResult: Record<string, unknown>): void;
  end(dialId: string, end: DialEnd): void;
}

/** A new phone dial rings (or is refused by its number) after `ringMs`. */
export function ringPhone(dial: DialState, steps: PhoneSteps): void {
  const { ringMs } = steps;
  steps.schedule(dial, ringMs, () => {
    if (dial.status !== 'queued') return;
    const outcome = phoneOutcome(dial.input.toNumber);
    // A busy line or a failed call never rings.
    if (outcome && !outcome.answered && outcome.status !== 'no-answer') {
      steps.end(dial.id, { status: outcome.status, systemResultType: outcome.systemResultType });
      return;
    }
    steps.setStatus(dial, 'ringing');
    if (dial.scenario === EMU_NO_AGENT || outcome?.status === 'no-answer') {
      steps.arm(dial, ringMs, { status: 'no-answer', systemResultType: 'NO_ANSWER' });
      return;
    }
    steps.schedule(dial, ringMs, () => answerPhone(dial, steps));
  });
}

function answerPhone(dial: DialState, steps: PhoneSteps): void {
  if (dial.status !== 'ringing') return;
  dial.startedAt = Date.now();
  steps.setStatus(dial, 'in-progress');
  const { talkMs } = steps;
  const line = (speaker: 'AI' | 'HUMAN', text: string, startTimeMs: number, endTimeMs: number) =>
    steps.recordLine(dial, { speaker, text, detailType: null, startTimeMs, endTimeMs });
  line('AI', 'Hello, this is the emulator calling. This phone call has no audio.', 0, Math.min(1500, talkMs));
  line('HUMAN', '(emulated phone call: no media)', Math.min(1500, talkMs), Math.min(2000, talkMs));
  const capMs = steps.capMs(dial);
  const outcome = phoneOutcome(dial.input.toNumber);
  if (capMs <= talkMs) {
    steps.arm(dial, capMs, { status: 'completed', systemResultType: 'TIMEOUT' });
  } else if (outcome) {
    steps.schedule(dial, talkMs, () => {
      line(outcome.systemResultType === 'TRANSFERRED' ? 'AI' : 'HUMAN', outcome.line, talkMs, talkMs);
      steps.end(dial.id, { status: outcome.status, systemResultType: outcome.systemResultType });
    });
  } else if (dial.scenario === EMU_DROP) {
    steps.arm(dial, talkMs, { status: 'failed', systemResultType: 'FAILED' });
  } else if (dial.scenario === EMU_SILENT_USER) {
    // A phone dial has no audio: the callee is silent, and this agent hangs up on silence.
    steps.arm(dial, talkMs, { status: 'completed', systemResultType: 'LONG_SILENCE_HANGUP' });
  } else {
    steps.schedule(dial, talkMs, () => {
      if (dial.scenario === EMU_QUICK)
        steps.setAiResult(dial.id, { summary: 'An emulated phone call: the agent greeted and hung up.' });
      line('AI', 'Goodbye!', talkMs, talkMs);
      steps.end(dial.id, { status: 'completed', systemResultType: 'AGENT_HANGUP' });
    });
  }
}
