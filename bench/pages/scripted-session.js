// A scripted CallSessionLike for the long-call benchmark: the element's own rendering and
// scrolling, fed the transcript of a long call (many entries, each interim then final) as fast as
// the benchmark asks, with no media. Installed through VoiceAgentCall.sessionFactory.
const ELEMENT = customElements.get('voice-agent-call');

class ScriptedSession extends EventTarget {
  state = 'idle';
  dialId = null;
  muted = false;
  transcript = [];
  connectedAt = null;
  agentSpeaking = false;
  audioBlocked = false;
  result = null;

  #emit(type, detail) {
    const event = new Event(type, { bubbles: false });
    event.detail = detail;
    this.dispatchEvent(event);
  }
  #setState(state) {
    const previous = this.state;
    this.state = state;
    this.#emit('call-state', { state, previous });
  }
  configure() {}
  setMuted(muted) {
    this.muted = muted;
    this.#emit('call-mute', { muted });
  }
  async unlockAudio() {}
  abandon() {}
  async start() {
    this.transcript = [];
    this.dialId = `scripted-${Date.now()}`;
    this.#setState('starting');
    this.#setState('connecting');
    this.connectedAt = Date.now();
    this.#setState('in-call');
    this.#emit('call-connected', { dialId: this.dialId });
  }
  async hangup() {
    this.#setState('ending');
    this.result = { dialId: this.dialId, reason: 'user-hangup', transcript: this.transcript.slice() };
    this.#setState('ended');
    this.#emit('call-ended', this.result);
  }
  /** Adds or updates one entry in place, as the real transcript does. */
  put(entry) {
    const index = this.transcript.findIndex((existing) => existing.id === entry.id);
    if (index === -1) this.transcript.push(entry);
    else this.transcript[index] = entry;
    this.transcript = this.transcript.slice();
    this.#emit('call-transcript', { entries: this.transcript.slice(), changed: entry });
  }
}

let current = null;
ELEMENT.sessionFactory = () => (current = new ScriptedSession());

/** The session the click made: at once when the element's call chunk had loaded, else with its first call-state. */
function sessionMade() {
  if (current) return Promise.resolve(current);
  return new Promise((resolve) =>
    document.querySelector('voice-agent-call').addEventListener('call-state', () => resolve(current), { once: true }),
  );
}

const LINES = [
  'Thanks for calling. How can I help you today?',
  'I would like to check the status of my order from last week, please.',
  'Of course. Could you tell me the order number or the email address you used?',
  'It is the one ending in four two seven, the blue running shoes in size ten.',
  'I found it. It left our warehouse yesterday and should arrive on Thursday before noon.',
];

/**
 * Streams `count` entries spread over `callMinutes` of call time, one interim and one final update
 * per entry, `stepMs` of real time apart. Resolves when the last one is final.
 */
window.streamTranscript = async (count, callMinutes, stepMs) => {
  const session = await sessionMade();
  const span = (callMinutes * 60000) / count;
  for (let i = 0; i < count; i++) {
    const text = LINES[i % LINES.length];
    const base = {
      id: `e${i}`,
      speaker: i % 2 ? 'HUMAN' : 'AI',
      startTimeMs: Math.round(i * span),
      endTimeMs: Math.round((i + 0.9) * span),
    };
    session.put({ ...base, text: text.slice(0, Math.ceil(text.length / 2)), final: false });
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    session.put({ ...base, text, final: true });
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
};
window.scriptedReady = true;

/**
 * At a real call's pace (`gapMs` apart), adds `count` more entries (interim then final) to the log
 * and times each update from the session event to the element's finished render.
 */
window.pacedUpdates = async (count, gapMs) => {
  const session = await sessionMade();
  const element = document.querySelector('voice-agent-call');
  const durations = [];
  const first = session.transcript.length;
  for (let i = 0; i < count; i++) {
    for (const final of [false, true]) {
      const text = LINES[i % LINES.length];
      const started = performance.now();
      session.put({
        id: `p${first + i}`,
        speaker: i % 2 ? 'HUMAN' : 'AI',
        text: final ? text : text.slice(0, 10),
        final,
      });
      await element.updateComplete;
      durations.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  }
  return durations;
};
