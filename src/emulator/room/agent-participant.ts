// The scripted agent as a participant of the room: its voice (audio + live transcript + the
// dial's transcript), its ears (caller turns from the microphone level) and its state attribute.
// It is the `AgentContext` the scenario scripts run against; the session owns the connection.
// Like the service's agent as its own browser client drives it, it stays silent until the
// dial's session is started (`startDialSession`): until then it is `initializing`. `pauseAI`
// silences it at once (`idle`, no turns, no words) until it is resumed ("I'm back."). A transfer
// (`hangupCall` with a `transferNumber`) ends the agent's script for good: the same participant
// and track then carry the person the call went to, in another voice, with their own script.
import { randomBytes } from 'node:crypto';
import type { ParticipantInfo } from '@livekit/protocol';
import type { MediaControl, SystemResultType } from '../seam.js';
import { LINES, delay, personScript, scenarioFor, type AgentContext, type ListenResult } from '../agent/scenarios.js';
import { TurnDetector } from '../agent/turn-detector.js';
import type { AgentTimings } from './timings.js';
import { speech, type Voice } from '../agent/voice.js';
import type { Peer } from './media/peer.js';
import { SAMPLE_RATE } from './media/pcm.js';
import { growingPrefixes, transcriptionPackets } from './protocol/data-packets.js';
import { agentInfo, type AgentDescription, type AgentState } from './protocol/responses.js';

/** What the agent needs from the session it is part of. */
export interface AgentSessionPort {
  readonly dialId: string;
  readonly scenario: string;
  readonly control: MediaControl;
  readonly timings: AgentTimings;
  /** The caller came back after a dropped connection (emu-blip). */
  readonly rejoined: boolean;
  /** The caller came back after its page went away (`persist`): the agent carries on. */
  readonly returned?: boolean;
  peer(): Peer | undefined;
  /** Milliseconds since the caller joined: the dial transcript's clock. */
  sinceJoin(): number;
  /** The caller's microphone track sid, once published. */
  micTrackSid(): string | undefined;
  micMuted(): boolean;
  /** Sends a ParticipantUpdate with this info (the session knows the socket). */
  sendUpdate(info: ParticipantInfo): void;
  /** The agent hangs up: the session closes the room. */
  hangup(systemResultType: SystemResultType, aiResult?: Record<string, unknown>): void;
  /** The agent drops the connection: the session vanishes without a goodbye. */
  drop(): void;
  /** The connection drops once; the room takes the caller back as the same dial. */
  blip(): void;
  /** The agent has left the room (the update is sent): the dial ends, the caller stays. */
  left(): void;
  /** The media server closes the room with a LeaveRequest. */
  shutDown(): void;
}

export const AGENT_IDENTITY = 'agent';
/** The participant's name once the call went to a person. */
export const PERSON_NAME = 'Sam (support team)';

/** Keypad digits kept for the agent while it is busy (more are dropped). */
const KEYS_KEPT = 16;

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export class AgentParticipant implements AgentContext {
  readonly description: AgentDescription;
  readonly #port: AgentSessionPort;
  /** The call's: aborted when the call ends. */
  readonly #abort = new AbortController();
  /** The current speaker's script (the agent's, then after a transfer the person's): `signal`. */
  #script = this.#newScript();
  /** Whose voice the lines are in. */
  #voice: Voice = 'agent';
  readonly #turns: TurnDetector;
  /** Whether lines also go out as `lk.transcription` streams (the GraphQL events always do). */
  readonly #roomTranscript: boolean;
  #started = false;
  /** The dial's session was started: the agent has spoken or may speak. */
  #sessionStarted = false;
  /** Set while the agent listens; nobody listens while it talks. */
  #ear: ((turnStarted: boolean) => void) | undefined;
  /** Keypad digits pressed while nobody waited for one, oldest first. */
  readonly #keys: string[] = [];
  /** Set while the script waits for a keypad digit. */
  #keyWaiter: ((digit: string) => void) | undefined;
  /** `pauseAI(dialId, true)` is in force. */
  #paused = false;
  /**
   * Closed from the pause until the agent is back (its "I'm back." said): the script waits at it
   * before each step, and nobody listens meanwhile.
   */
  #gate: { opened: Promise<void>; open(): void } | undefined;

  constructor(port: AgentSessionPort) {
    this.#port = port;
    this.#turns = new TurnDetector(port.timings.turn, performance.now());
    this.#roomTranscript = scenarioFor(port.scenario).roomTranscript ?? true;
    this.description = {
      sid: newId('PA'),
      identity: AGENT_IDENTITY,
      name: `Emulator agent (${port.scenario})`,
      trackSid: newId('TR'),
      state: 'initializing',
      version: 1,
      joinedAtMs: Date.now(),
    };
  }

  get signal(): AbortSignal {
    return this.#script.signal;
  }

  /** A script's controller, aborted with the call. */
  #newScript(): AbortController {
    const script = new AbortController();
    this.#abort.signal.addEventListener('abort', () => script.abort(this.#abort.signal.reason), { once: true });
    return script;
  }

  get rejoined(): boolean {
    return this.#port.rejoined;
  }

  /**
   * Called once the caller can hear and read the agent (the reliable data channel is open); the
   * scenario runs once the dial's session is started too.
   */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const script = this.#script;
    this.#port.control
      .sessionStarted(this.#port.dialId, script.signal)
      .then(() => {
        this.#sessionStarted = true;
        this.#setState(this.#paused ? 'idle' : 'listening');
        return scenarioFor(this.#port.scenario).run(this.#scriptContext(script), this.#port.timings);
      })
      .catch((error: unknown) => {
        if (script.signal.aborted) return;
        process.stderr.write(`voice-agent-emulator: agent ${this.#port.scenario}: ${String(error)}\n`);
      });
  }

  /** Stops the script and cuts off any line being spoken. */
  stop(): void {
    if (!this.#abort.signal.aborted) this.#abort.abort(new DOMException('the call ended', 'AbortError'));
    this.#port.peer()?.stopSpeaking();
  }

  /**
   * A last line after the script stopped (the time cap); resolves when it was said or cut off.
   * An agent whose session never started stays silent.
   */
  async sayLastLine(text: string): Promise<void> {
    if (this.#sessionStarted && !this.#paused) await this.#speak(text);
  }

  /**
   * `pauseAI`. Paused: the line being said stops now, the agent is `idle`, hears no turns and no
   * keys, and its script waits. Resumed: it says "I'm back." and its script goes on.
   */
  pause(paused: boolean): void {
    // The person the call went to is no AI to pause.
    if (paused === this.#paused || this.signal.aborted || this.#voice === 'person') return;
    this.#paused = paused;
    if (paused) {
      if (!this.#gate) {
        let open = () => {};
        const opened = new Promise<void>((resolve) => (open = resolve));
        this.#gate = { opened, open };
      }
      this.#port.peer()?.stopSpeaking();
      if (this.#sessionStarted) this.#setState('idle');
      return;
    }
    void this.#comeBack();
  }

  /**
   * The call went to a person: the agent's script stops (its line cut off, a pause lifted), and
   * after `personAnswerMs` the person, in their own voice and under their own name, runs theirs.
   */
  transfer(): void {
    if (this.#voice === 'person' || this.#abort.signal.aborted) return;
    this.#voice = 'person';
    this.#script.abort(new DOMException('the call was transferred', 'AbortError'));
    this.#port.peer()?.stopSpeaking();
    this.#paused = false;
    const gate = this.#gate;
    this.#gate = undefined;
    gate?.open();
    this.#keys.length = 0;
    const script = (this.#script = this.#newScript());
    const agent = this.description;
    agent.name = PERSON_NAME;
    agent.state = 'idle';
    agent.version++;
    this.#port.sendUpdate(agentInfo(agent));
    const { timings } = this.#port;
    delay(timings.personAnswerMs, script.signal)
      .then(() => personScript(this.#scriptContext(script), timings))
      .catch((error: unknown) => {
        if (script.signal.aborted) return;
        process.stderr.write(`voice-agent-emulator: the person after a transfer: ${String(error)}\n`);
      });
  }

  /**
   * The context one script runs against: every step first and last checks that script's own
   * signal, so the agent's script, cut off by a transfer mid-line, takes no further step while
   * the person's runs on the same participant.
   */
  #scriptContext(script: AbortController): AgentContext {
    const guard = (): void => script.signal.throwIfAborted();
    const step =
      <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        guard();
        const result = await run(...args);
        guard();
        return result;
      };
    const act =
      <A extends unknown[]>(run: (...args: A) => void) =>
      (...args: A): void => {
        guard();
        run(...args);
      };
    return {
      signal: script.signal,
      rejoined: this.rejoined,
      returned: this.#port.returned === true,
      say: step((text: string) => this.say(text)),
      think: step(() => this.think()),
      listen: step((options?: { timeoutMs?: number; silenceMs?: number }) => this.listen(options)),
      nextKey: step(() => this.nextKey()),
      hangup: act((type: SystemResultType, aiResult?: Record<string, unknown>) => this.hangup(type, aiResult)),
      drop: act(() => this.drop()),
      blip: act(() => this.blip()),
      leave: act(() => this.leave()),
      shutDown: act(() => this.shutDown()),
    };
  }

  async #comeBack(): Promise<void> {
    if (this.#sessionStarted) await this.#speak(LINES.back).catch(() => {});
    if (this.#paused) return; // paused again while saying so: the gate stays closed
    const gate = this.#gate;
    this.#gate = undefined;
    gate?.open();
  }

  /** Resolves once the agent is not paused (at once, mostly); rejects when the call ends. */
  async #whilePaused(): Promise<void> {
    while (this.#gate) {
      const { opened } = this.#gate;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(this.signal.reason instanceof Error ? this.signal.reason : new Error('aborted'));
        if (this.signal.aborted) return onAbort();
        this.signal.addEventListener('abort', onAbort, { once: true });
        void opened.then(() => {
          this.signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }

  /** One 10 ms frame of the caller's microphone. */
  micFrame(peak: number): void {
    if (!this.#ear || this.#gate) return;
    const level = this.#port.micMuted() ? 0 : peak;
    this.#ear(this.#turns.frame(level, performance.now()) === 'started');
  }

  /**
   * A keypad digit the caller pressed (a `sipDtmf` DataPacket). Before the session started the
   * agent is not there to hear it; a few are kept while it is busy, the rest dropped.
   */
  keypad(digit: string): void {
    if (!this.#sessionStarted || this.#paused || this.signal.aborted) return;
    const waiter = this.#keyWaiter;
    if (waiter) {
      this.#keyWaiter = undefined;
      waiter(digit);
    } else if (this.#keys.length < KEYS_KEPT) this.#keys.push(digit);
  }

  // ---- AgentContext ----

  async say(text: string): Promise<void> {
    this.signal.throwIfAborted();
    await this.#whilePaused();
    await this.#speak(text, { gated: true });
    this.signal.throwIfAborted();
  }

  async think(): Promise<void> {
    await this.#whilePaused();
    this.#setState('thinking');
    await delay(this.#port.timings.thinkMs, this.signal);
  }

  async listen(options: { timeoutMs?: number; silenceMs?: number } = {}): Promise<ListenResult> {
    this.signal.throwIfAborted();
    await this.#whilePaused();
    this.#setState('listening');
    let startedAt = performance.now();
    let lastTick = startedAt;
    this.#turns.reset(startedAt);
    return new Promise<ListenResult>((resolve, reject) => {
      let segmentId = '';
      let turnStartMs = 0;
      const settle = (result: ListenResult | Error) => {
        clearInterval(clock);
        this.#ear = undefined;
        this.signal.removeEventListener('abort', onAbort);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const onAbort = () => settle(this.signal.reason instanceof Error ? this.signal.reason : new Error('aborted'));
      const turnEnded = (durationMs: number) => {
        const text = `(caller spoke, ${(durationMs / 1000).toFixed(1)} s)`;
        this.#publishCallerLine(segmentId, text, true);
        // The FINAL event comes from the dial's transcript line.
        this.#port.control.addTranscript(this.#port.dialId, {
          text,
          speaker: 'HUMAN',
          startTimeMs: turnStartMs,
          endTimeMs: turnStartMs + Math.round(durationMs),
        });
        settle({ kind: 'turn', durationMs });
      };
      this.#ear = (turnStarted) => {
        if (!turnStarted) return;
        segmentId = newId('SG');
        turnStartMs = this.#port.sinceJoin();
        const text = '(caller speaking…)';
        this.#publishCallerLine(segmentId, text, false);
        this.#port.control.liveTranscript(this.#port.dialId, {
          text,
          speaker: 'HUMAN',
          startTimeMs: turnStartMs,
          endTimeMs: turnStartMs,
        });
      };
      // Turns end on the clock (hangover, maximum length), and muted tracks send no frames at all.
      const clock = setInterval(() => {
        const now = performance.now();
        if (this.#gate) {
          // Paused: no turns, and the waiting (timeout, silence) starts again once it is back.
          startedAt += now - lastTick;
          lastTick = now;
          this.#turns.reset(now);
          return;
        }
        lastTick = now;
        const ended = this.#turns.tick(now);
        if (ended !== undefined) return turnEnded(ended);
        if (options.timeoutMs !== undefined && now - startedAt >= options.timeoutMs) {
          const cut = this.#turns.cut(now);
          return cut !== undefined ? turnEnded(cut) : settle({ kind: 'timeout' });
        }
        const silentMs = this.#turns.silentForMs(now);
        if (options.silenceMs !== undefined && silentMs >= options.silenceMs) settle({ kind: 'silence', silentMs });
      }, 50);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async nextKey(): Promise<string> {
    this.signal.throwIfAborted();
    await this.#whilePaused();
    const queued = this.#keys.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    this.#setState('listening');
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.#keyWaiter = undefined;
        reject(this.signal.reason instanceof Error ? this.signal.reason : new Error('aborted'));
      };
      this.#keyWaiter = (digit) => {
        this.signal.removeEventListener('abort', onAbort);
        resolve(digit);
      };
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  hangup(systemResultType: SystemResultType, aiResult?: Record<string, unknown>): void {
    this.#port.hangup(systemResultType, aiResult);
  }

  drop(): void {
    this.#port.drop();
  }

  blip(): void {
    this.#port.blip();
  }

  leave(): void {
    this.stop();
    const agent = this.description;
    agent.version++;
    this.#port.sendUpdate(agentInfo(agent, { left: true }));
    this.#port.left();
  }

  shutDown(): void {
    this.#port.shutDown();
  }

  // ---- voice ----

  /** `gated`: a script's line, which waits while the agent is paused (its "I'm back." does not). */
  async #speak(text: string, { gated = false } = {}): Promise<void> {
    const peer = this.#port.peer();
    if (!peer) return;
    const samples = await speech(text, this.#voice);
    if (gated) await this.#whilePaused();
    const segmentId = newId('SG');
    const words = growingPrefixes(text);
    const durationMs = (samples.length / SAMPLE_RATE) * 1000;
    const startTimeMs = this.#port.sinceJoin();
    let shown = 0;
    this.#setState('speaking');
    const completed = await peer.play(samples, (playedMs) => {
      // The line appears word by word as it is heard; the last word comes with the final segment.
      const due = Math.min(words.length - 1, Math.floor((playedMs / durationMs) * words.length) + 1);
      const prefix = words[due - 1];
      if (due > shown && prefix !== undefined) {
        shown = due;
        this.#line(segmentId, prefix, startTimeMs, false);
      }
    });
    const spoken = completed ? text : (words[shown - 1] ?? '');
    if (spoken) this.#line(segmentId, spoken, startTimeMs, true);
    this.#setState('listening');
  }

  /** One version of a line the agent says: to the room (`lk.transcription`) and to the dial (LIVE, or FINAL and recorded). */
  #line(segmentId: string, text: string, startTimeMs: number, final: boolean): void {
    this.#publish(segmentId, this.description.trackSid, text, final);
    const line = { text, speaker: 'AI' as const, startTimeMs, endTimeMs: this.#port.sinceJoin() };
    if (final) this.#port.control.addTranscript(this.#port.dialId, line);
    else this.#port.control.liveTranscript(this.#port.dialId, line);
  }

  #publishCallerLine(segmentId: string, text: string, final: boolean): void {
    const trackSid = this.#port.micTrackSid();
    if (trackSid && segmentId) this.#publish(segmentId, trackSid, text, final);
  }

  #publish(segmentId: string, trackSid: string, text: string, final: boolean): void {
    if (!this.#roomTranscript) return;
    const peer = this.#port.peer();
    const packets = transcriptionPackets({
      streamId: newId('TS'),
      segmentId,
      trackSid,
      senderIdentity: AGENT_IDENTITY,
      text,
      final,
      timestampMs: Date.now(),
    });
    for (const packet of packets) peer?.sendData(packet.toBinary());
  }

  #setState(state: AgentState): void {
    const agent = this.description;
    if (agent.state === state || (this.#paused && state !== 'idle')) return;
    agent.state = state;
    agent.version++;
    this.#port.sendUpdate(agentInfo(agent));
  }
}
