// The scripted agents and their ears and voice, without WebRTC: turn detection on microphone
// levels, PCM handling, espeak-ng speech, and each scenario's script against a fake room.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_TURN_OPTIONS, TurnDetector } from '../../src/emulator/agent/turn-detector.js';
import { speech } from '../../src/emulator/agent/voice.js';
import {
  DEFAULT_SCENARIO_TIMINGS,
  LINES,
  scenarioFor,
  type AgentContext,
  type ListenResult,
} from '../../src/emulator/agent/scenarios.js';
import {
  FRAME_SAMPLES,
  framesDue,
  parseWav,
  peakLevel,
  toFrames,
  toMono48k,
  toneFor,
  trimSilence,
} from '../../src/emulator/room/media/pcm.js';
import type { SystemResultType } from '../../src/emulator/seam.js';

describe('turn detection', () => {
  const options = { voiceThreshold: 0.02, hangoverMs: 500, maxTurnMs: 2000 };

  test('a turn starts on voice and ends after the hangover, lasting to its last voiced frame', () => {
    const turns = new TurnDetector(options, 0);
    assert.equal(turns.frame(0.001, 0), undefined, 'quiet is not a turn');
    assert.equal(turns.frame(0.3, 100), 'started');
    for (let t = 110; t < 1500; t += 10) assert.equal(turns.frame(0.3, t), undefined);
    assert.equal(turns.tick(1700), undefined, 'still within the hangover');
    assert.equal(turns.tick(2000), 1400);
    assert.equal(turns.inTurn, false);
  });

  test('continuous voice (Chromium fake microphone) is cut into turns of the maximum length', () => {
    const turns = new TurnDetector(options, 0);
    turns.frame(0.3, 0);
    for (let t = 10; t < 2000; t += 10) turns.frame(0.3, t);
    assert.equal(turns.tick(2000), 2000);
    assert.equal(turns.frame(0.3, 2010), 'started', 'the next turn begins at once');
  });

  test('silence counts from the last voice, or from when listening began', () => {
    const turns = new TurnDetector(options, 0);
    turns.reset(1000);
    assert.equal(turns.silentForMs(4000), 3000, 'no frames at all (muted track) is silence');
    turns.frame(0.3, 4000);
    assert.equal(turns.silentForMs(4100), 0, 'not silent during a turn');
    turns.tick(4600);
    assert.equal(turns.silentForMs(7000), 3000);
  });

  test('a turn under way can be cut where the listener stops waiting', () => {
    const turns = new TurnDetector(DEFAULT_TURN_OPTIONS, 0);
    turns.frame(0.5, 200);
    assert.equal(turns.cut(1000), 800);
    assert.equal(turns.cut(1100), undefined);
  });
});

describe('PCM', () => {
  function wav(sampleRate: number, channels: number, samples: number[]): Uint8Array {
    const data = Buffer.alloc(samples.length * 2);
    samples.forEach((sample, index) => data.writeInt16LE(sample, index * 2));
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + data.length, 4);
    header.write('WAVE', 8);
    header.write('fmt ', 12);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(channels, 22);
    header.writeUInt32LE(sampleRate, 24);
    header.writeUInt32LE(sampleRate * channels * 2, 28);
    header.writeUInt16LE(channels * 2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36);
    header.writeUInt32LE(data.length, 40);
    return new Uint8Array(Buffer.concat([header, data]));
  }

  test('espeak-ng-style WAV (22050 Hz mono) becomes 48 kHz mono of the same length in time', () => {
    const pcm = parseWav(
      wav(
        22050,
        1,
        Array.from({ length: 22050 }, (_, i) => (i % 100) * 100),
      ),
    );
    assert.equal(pcm.sampleRate, 22050);
    const resampled = toMono48k(pcm);
    assert.ok(Math.abs(resampled.length - 48000) <= 3, `about one second: ${resampled.length}`);
  });

  test('stereo is mixed down', () => {
    const resampled = toMono48k(parseWav(wav(48000, 2, [1000, 3000, -2000, 0])));
    assert.deepEqual([...resampled], [2000, -1000]);
  });

  test('not a WAV is refused', () => {
    assert.throws(() => parseWav(new Uint8Array(40)), /RIFF/);
  });

  test('frames are exactly 10 ms; the last one is padded', () => {
    const frames = toFrames(new Int16Array(FRAME_SAMPLES * 2 + 5).fill(7));
    assert.equal(frames.length, 3);
    assert.ok(frames.every((frame) => frame.length === FRAME_SAMPLES));
    assert.equal(frames[2]?.[4], 7);
    assert.equal(frames[2]?.[5], 0);
  });

  test('the frame pump catches up after a late timer, without drifting or bursting', () => {
    assert.equal(framesDue(0, 0, 0), 1);
    assert.equal(framesDue(0, 35, 1), 3, 'a timer 25 ms late sends what is due');
    assert.equal(framesDue(0, 35, 4), 0);
    assert.equal(framesDue(0, 5000, 4), 10, 'a long stall is capped');
  });

  test('leading and trailing quiet is trimmed, with a little padding', () => {
    const samples = new Int16Array(48000);
    samples.fill(10000, 24000, 24480);
    const trimmed = trimSilence(samples, 0.01, 10);
    assert.equal(trimmed.length, 480 + 2 * 480);
    assert.equal(peakLevel(trimmed), 10000 / 32768);
  });

  test('the tone fallback is audible and lasts with the words', () => {
    const tone = toneFor('one two three');
    assert.ok(peakLevel(tone) > 0.2);
    assert.ok(tone.length > 48000 * 0.6);
  });
});

describe('the voice', () => {
  test('a line is spoken as audible 48 kHz audio of plausible length, made once', async () => {
    const first = speech('Thanks, I heard you.');
    const samples = await first;
    assert.equal(speech('Thanks, I heard you.'), first, 'cached per process');
    const seconds = samples.length / 48000;
    assert.ok(seconds > 0.5 && seconds < 3, `${seconds} s`);
    assert.ok(peakLevel(samples) > 0.1, 'audible');
  });
});

/** A room stand-in that records what the scenario did; listen() answers from a script. */
class FakeRoom implements AgentContext {
  readonly #abort = new AbortController();
  readonly said: string[] = [];
  readonly log: string[] = [];
  hungUp: { type: SystemResultType; aiResult?: Record<string, unknown> } | undefined;
  dropped = false;
  listens: Array<{ timeoutMs?: number; silenceMs?: number }> = [];
  #answers: ListenResult[];
  readonly rejoined: boolean;

  #keys: string[];

  constructor(answers: ListenResult[], options: { rejoined?: boolean; keys?: string[] } = {}) {
    this.#answers = answers;
    this.#keys = options.keys ?? [];
    this.rejoined = options.rejoined ?? false;
  }
  get signal() {
    return this.#abort.signal;
  }
  async say(text: string) {
    this.signal.throwIfAborted();
    this.said.push(text);
    this.log.push(`say:${text}`);
  }
  async think() {
    this.log.push('think');
  }
  async listen(options: { timeoutMs?: number; silenceMs?: number } = {}) {
    this.signal.throwIfAborted();
    this.listens.push(options);
    const next = this.#answers.shift();
    if (!next) {
      // The script ran out: the call ends from outside (hang-up, time cap).
      this.#abort.abort(new DOMException('ended', 'AbortError'));
      throw this.signal.reason;
    }
    this.log.push(`heard:${next.kind}`);
    return next;
  }
  async nextKey() {
    this.signal.throwIfAborted();
    const next = this.#keys.shift();
    if (next === undefined) {
      this.#abort.abort(new DOMException('ended', 'AbortError'));
      throw this.signal.reason;
    }
    this.log.push(`key:${next}`);
    return next;
  }
  hangup(type: SystemResultType, aiResult?: Record<string, unknown>) {
    this.hungUp = { type, aiResult };
    this.log.push(`hangup:${type}`);
  }
  drop() {
    this.dropped = true;
    this.log.push('drop');
  }
  blip() {
    this.log.push('blip');
  }
  leave() {
    this.log.push('leave');
  }
  shutDown() {
    this.log.push('shutDown');
  }
}

const fast = { ...DEFAULT_SCENARIO_TIMINGS, dropAfterGreetingMs: 5 };

describe('scenarios', () => {
  test('emu-demo greets and answers each caller turn, never hanging up by itself', async () => {
    const room = new FakeRoom([
      { kind: 'turn', durationMs: 1400 },
      { kind: 'turn', durationMs: 2000 },
    ]);
    await assert.rejects(scenarioFor('emu-demo').run(room, fast), { name: 'AbortError' });
    assert.deepEqual(room.log, [
      `say:${LINES.demoGreeting}`,
      'heard:turn',
      'think',
      `say:${LINES.demoReplies[0]}`,
      'heard:turn',
      'think',
      `say:${LINES.demoReplies[1]}`,
    ]);
    assert.equal(room.hungUp, undefined);
  });

  test('emu-quick waits about a second for the caller, says goodbye and hangs up with an aiResult', async () => {
    const room = new FakeRoom([{ kind: 'timeout' }]);
    await scenarioFor('emu-quick').run(room, fast);
    assert.deepEqual(room.listens, [{ timeoutMs: 1000 }]);
    assert.deepEqual(room.said, [LINES.quickGreeting, LINES.quickGoodbye]);
    assert.equal(room.hungUp?.type, 'AGENT_HANGUP');
    assert.equal(room.hungUp?.aiResult?.['callerSpoke'], false);
    assert.equal(typeof room.hungUp?.aiResult?.['summary'], 'string');
  });

  test('emu-silent-user answers speech, then hangs up after 3 s of silence', async () => {
    const room = new FakeRoom([
      { kind: 'turn', durationMs: 900 },
      { kind: 'silence', silentMs: 3000 },
    ]);
    await scenarioFor('emu-silent-user').run(room, fast);
    assert.ok(room.listens.every((options) => options.silenceMs === 3000));
    assert.deepEqual(room.said, [LINES.silentGreeting, LINES.silentReply, LINES.silentGoodbye]);
    assert.equal(room.hungUp?.type, 'LONG_SILENCE_HANGUP');
  });

  test('emu-drop greets, then drops without a goodbye', async () => {
    const room = new FakeRoom([]);
    await scenarioFor('emu-drop').run(room, fast);
    assert.deepEqual(room.log, [`say:${LINES.dropGreeting}`, 'drop']);
    assert.equal(room.hungUp, undefined);
  });

  test('emu-blip greets and drops once; after the rejoin it says it is back and answers turns like the demo', async () => {
    const first = new FakeRoom([]);
    await scenarioFor('emu-blip').run(first, fast);
    assert.deepEqual(first.log, [`say:${LINES.blipGreeting}`, 'blip']);
    const back = new FakeRoom([{ kind: 'turn', durationMs: 1000 }], { rejoined: true });
    await assert.rejects(scenarioFor('emu-blip').run(back, fast), { name: 'AbortError' });
    assert.deepEqual(back.log, [`say:${LINES.blipBack}`, 'heard:turn', 'think', `say:${LINES.demoReplies[0]}`]);
    assert.equal(back.hungUp, undefined);
  });

  test('emu-agent-leaves and emu-server-leave greet, then leave or close the room without a goodbye', async () => {
    const leaves = new FakeRoom([]);
    await scenarioFor('emu-agent-leaves').run(leaves, fast);
    assert.deepEqual(leaves.log, [`say:${LINES.leaveGreeting}`, 'leave']);
    const closes = new FakeRoom([]);
    await scenarioFor('emu-server-leave').run(closes, fast);
    assert.deepEqual(closes.log, [`say:${LINES.serverLeaveGreeting}`, 'shutDown']);
  });

  test('emu-keypad greets, asks for a key, and answers each key in its next line', async () => {
    const room = new FakeRoom([], { keys: ['2', '*', '#', '0'] });
    await assert.rejects(scenarioFor('emu-keypad').run(room, fast), { name: 'AbortError' });
    assert.deepEqual(room.log, [
      `say:${LINES.keypadGreeting}`,
      'key:2',
      'think',
      'say:You pressed 2.',
      'key:*',
      'think',
      'say:You pressed star.',
      'key:#',
      'think',
      'say:You pressed pound.',
      'key:0',
      'think',
      'say:You pressed 0.',
    ]);
    assert.deepEqual(room.listens, [], 'it answers keys, not speech');
    assert.equal(room.hungUp, undefined);
  });

  test('emu-no-agent has no agent in the room; unknown agents behave like the demo', () => {
    assert.equal(scenarioFor('emu-no-agent').agentJoins, false);
    assert.equal(scenarioFor('some-other-agent'), scenarioFor('emu-demo'));
  });
});
