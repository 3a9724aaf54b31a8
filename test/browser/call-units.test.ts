import { expect } from '@open-wc/testing';
import { IllegalTransitionError } from '../../src/call/errors.js';
import { endReasonFromResult } from '../../src/call/endings.js';
import { CallEndedEvent, CallStateEvent } from '../../src/call/events.js';
import { TRANSITIONS, canTransition, transition } from '../../src/call/states.js';
import { LiveEventSegments, type ServiceTranscriptEvent } from '../../src/call/media/live-events.js';
import { Transcript } from '../../src/call/transcript.js';
import type { CallState } from '../../src/call/types.js';
import { present } from '../support/present.js';

const ALL: CallState[] = ['idle', 'starting', 'connecting', 'in-call', 'reconnecting', 'ending', 'ended'];

describe('call state table', () => {
  it('allows exactly the documented path and its loops', () => {
    const allowed = ALL.flatMap((from) => ALL.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`));
    expect(allowed.sort()).to.deep.equal(
      [
        'idle>starting',
        'starting>connecting',
        'starting>ending',
        'connecting>in-call',
        'connecting>ending',
        'in-call>reconnecting',
        'in-call>ending',
        'reconnecting>in-call',
        'reconnecting>ending',
        'ending>ended',
        'ended>starting',
      ].sort(),
    );
  });

  it('throws on every transition not in the table', () => {
    let illegal = 0;
    for (const from of ALL) {
      for (const to of ALL) {
        if (TRANSITIONS[from].includes(to)) {
          expect(transition(from, to)).to.equal(to);
        } else {
          expect(() => transition(from, to)).to.throw(IllegalTransitionError, `${from} -> ${to}`);
          illegal++;
        }
      }
    }
    expect(illegal).to.equal(49 - 11);
  });
});

describe('call events', () => {
  it('bubble, cross shadow roots and carry detail', () => {
    const host = document.createElement('div');
    const root = host.attachShadow({ mode: 'open' });
    const inner = document.createElement('span');
    root.append(inner);
    document.body.append(host);
    const seen: string[] = [];
    document.addEventListener('call-state', (event) => seen.push(event.detail.state), { once: true });
    inner.dispatchEvent(new CallStateEvent({ state: 'starting', previous: 'idle' }));
    host.remove();
    expect(seen).to.deep.equal(['starting']);
    const ended = new CallEndedEvent({ dialId: null, reason: 'busy', transcript: [] });
    expect(ended.type).to.equal('call-ended');
    expect(ended.bubbles && ended.composed).to.equal(true);
  });
});

describe('end reasons from the service result', () => {
  it('maps every systemResultType', () => {
    const cases: Array<[string | null, string, string]> = [
      ['AGENT_HANGUP', 'completed', 'agent-hangup'],
      ['USER_HANGUP', 'completed', 'user-hangup'],
      ['TIMEOUT', 'completed', 'timeout'],
      ['LONG_SILENCE_HANGUP', 'completed', 'silence'],
      ['TRANSFERRED', 'completed', 'transferred'],
      ['RATE_LIMITED', 'failed', 'busy'],
      ['BUSY', 'busy', 'busy'],
      ['CANCELLED', 'canceled', 'cancelled'],
      ['FAILED', 'failed', 'failed'],
      ['NO_ANSWER', 'no-answer', 'agent-unavailable'],
      ['SOMETHING_NEW', 'completed', 'failed'],
      [null, 'canceled', 'cancelled'],
    ];
    for (const [type, status, reason] of cases)
      expect(endReasonFromResult(type, status), String(type)).to.equal(reason);
  });
});

describe('Transcript', () => {
  it('updates an interim entry in place until final, then ignores stale interims', () => {
    const t = new Transcript();
    const first = present(t.applySegment({ segmentId: 's1', speaker: 'AI', text: 'Hel', final: false }), 'the entry');
    const grown = t.applySegment({ segmentId: 's1', speaker: 'AI', text: 'Hello there', final: false });
    const final = t.applySegment({ segmentId: 's1', speaker: 'AI', text: 'Hello there.', final: true });
    expect([grown?.id, final?.id]).to.deep.equal([first.id, first.id]);
    expect(t.applySegment({ segmentId: 's1', speaker: 'AI', text: 'Hello', final: false })).to.equal(null);
    expect(t.applySegment({ segmentId: 's1', speaker: 'AI', text: 'Hello there.', final: true })).to.equal(null);
    expect(t.entries).to.deep.equal([{ id: first.id, speaker: 'AI', text: 'Hello there.', final: true }]);
  });

  it('keeps arrival order across speakers and never duplicates', () => {
    const t = new Transcript();
    t.applySegment({ segmentId: 'a', speaker: 'AI', text: 'Hi, how can I help?', final: true });
    t.applySegment({ segmentId: 'h', speaker: 'HUMAN', text: '(caller', final: false });
    t.applySegment({ segmentId: 'b', speaker: 'AI', text: 'Sure', final: false });
    t.applySegment({ segmentId: 'h', speaker: 'HUMAN', text: '(caller spoke, 1.4 s)', final: true });
    expect(t.entries.map((e) => [e.speaker, e.text, e.final])).to.deep.equal([
      ['AI', 'Hi, how can I help?', true],
      ['HUMAN', '(caller spoke, 1.4 s)', true],
      ['AI', 'Sure', false],
    ]);
    expect(new Set(t.entries.map((e) => e.id)).size).to.equal(3);
  });

  it('merges polled service lines with live entries by speaker and words, idempotently', () => {
    const t = new Transcript();
    const live = present(
      t.applySegment({ segmentId: 'a', speaker: 'AI', text: 'Hello, I am the demo', final: false }),
      'the entry',
    );
    const lines = [
      { speaker: 'AI', text: 'Hello, I am the demo agent.', startTimeMs: 100, endTimeMs: 1900 },
      { speaker: 'HUMAN', text: '(caller spoke, 1.2 s)', startTimeMs: 2500, endTimeMs: 3700 },
    ];
    const changed = t.mergeService(lines);
    expect(changed.map((e) => e.text)).to.deep.equal(['Hello, I am the demo agent.', '(caller spoke, 1.2 s)']);
    expect(t.entries[0]).to.deep.equal({
      id: live.id,
      speaker: 'AI',
      text: 'Hello, I am the demo agent.',
      final: true,
      startTimeMs: 100,
      endTimeMs: 1900,
    });
    expect(t.mergeService(lines)).to.deep.equal([]);
    expect(
      t
        .mergeService([...lines, { speaker: 'AI', text: 'Goodbye.', startTimeMs: 4000, endTimeMs: 4800 }])
        .map((e) => e.text),
    ).to.deep.equal(['Goodbye.']);
    expect(t.size).to.equal(3);
    // A live final for a line the poll already brought binds to it instead of adding a copy.
    expect(t.applySegment({ segmentId: 'z', speaker: 'AI', text: 'Goodbye', final: false })).to.equal(null);
    expect(t.size).to.equal(3);
  });

  it('places service-only lines by start time', () => {
    const t = new Transcript();
    t.mergeService([
      { speaker: 'AI', text: 'one', startTimeMs: 0 },
      { speaker: 'AI', text: 'three', startTimeMs: 3000 },
    ]);
    t.mergeService([
      { speaker: 'AI', text: 'one', startTimeMs: 0 },
      { speaker: 'AI', text: 'three', startTimeMs: 3000 },
      { speaker: 'HUMAN', text: 'two', startTimeMs: 1500 },
    ]);
    expect(t.entries.map((e) => e.text)).to.deep.equal(['one', 'two', 'three']);
  });

  it('ends with the service lines as the reference, else the live entries', () => {
    const t = new Transcript();
    const live = present(t.applySegment({ segmentId: 'a', speaker: 'AI', text: 'Hi', final: true }), 'the entry');
    expect(t.result(null)).to.deep.equal([{ id: live.id, speaker: 'AI', text: 'Hi', final: true }]);
    const result = t.result([
      { speaker: 'AI', text: 'Hi!', startTimeMs: 10, endTimeMs: 500 },
      { speaker: 'HUMAN', text: '(caller spoke, 1.0 s)', startTimeMs: 900, endTimeMs: 1900 },
    ]);
    expect(result.map((e) => [e.id === live.id, e.speaker, e.text, e.final])).to.deep.equal([
      [true, 'AI', 'Hi!', true],
      [false, 'HUMAN', '(caller spoke, 1.0 s)', true],
    ]);
  });

  it('ends with no interim line: live lines still interim are kept as last heard, final; the service leaves out one it lacks', () => {
    const t = new Transcript();
    const hi = present(t.applySegment({ segmentId: 'a', speaker: 'AI', text: 'Hi', final: true }), 'the entry');
    const cut = present(
      t.applySegment({ segmentId: 'h', speaker: 'HUMAN', text: 'I would like to', final: false }),
      'the entry',
    );
    expect(t.result(null)).to.deep.equal([
      { id: hi.id, speaker: 'AI', text: 'Hi', final: true },
      { id: cut.id, speaker: 'HUMAN', text: 'I would like to', final: true },
    ]);
    expect(t.result([]).every((entry) => entry.final)).to.equal(true);
    const withService = t.result([{ speaker: 'AI', text: 'Hi', startTimeMs: 0, endTimeMs: 400 }]);
    expect(withService.map((entry) => [entry.text, entry.final])).to.deep.equal([['Hi', true]]);
  });
});

describe('Transcript: the service live events (watchLiveTranscriptEvents, through LiveEventSegments)', () => {
  /** A call's Transcript fed with service events the way the media chunk feeds it. */
  const feed = () => {
    const t = new Transcript();
    const events = new LiveEventSegments();
    const apply = (event: ServiceTranscriptEvent) => {
      const segment = events.toSegment(event);
      return segment ? t.applySegment(segment) : null;
    };
    return { t, events, apply };
  };
  const live = (role: string, text: string, startTimeMs: number, endTimeMs?: number) => ({
    final: false,
    role,
    text,
    startTimeMs,
    ...(endTimeMs === undefined ? {} : { endTimeMs }),
  });
  const final = (role: string, text: string, startTimeMs: number, endTimeMs?: number) => ({
    ...live(role, text, startTimeMs, endTimeMs),
    final: true,
  });

  it('shows a LIVE line in place until its FINAL, with one id', () => {
    const { t, apply } = feed();
    const first = present(apply(live('AI', 'Hello', 0)), 'the entry');
    expect(apply(live('AI', 'Hello, I am', 0))?.id).to.equal(first.id);
    const closed = present(apply(final('AI', 'Hello, I am the agent.', 0, 1800)), 'the entry');
    expect(closed).to.deep.equal({
      id: first.id,
      speaker: 'AI',
      text: 'Hello, I am the agent.',
      final: true,
      startTimeMs: 0,
      endTimeMs: 1800,
    });
    expect(t.hasLiveSegments).to.equal(true);
    expect(t.size).to.equal(1);
  });

  it('a repeated FINAL, or a LIVE that arrives after its FINAL, changes nothing', () => {
    const { t, apply } = feed();
    apply(final('AI', 'Hello there.', 0, 900));
    expect(apply(final('AI', 'Hello there.', 0, 900))).to.equal(null);
    expect(apply(live('AI', 'Hello', 0))).to.equal(null);
    expect(apply(final('AI', 'Hello there.', 0, 900))).to.equal(null);
    expect(t.entries.map((e) => [e.text, e.final])).to.deep.equal([['Hello there.', true]]);
  });

  it('places a FINAL that arrives late by its start time; the next LIVE line is not taken over', () => {
    const { t, apply } = feed();
    apply(live('AI', 'First thing', 0));
    apply(final('HUMAN', '(caller spoke, 1.0 s)', 2000, 3000));
    // Out of order: the agent's next utterance goes live before its previous one is final.
    const next = present(apply(live('AI', 'Second', 4000)), 'the entry');
    const late = present(apply(final('AI', 'First thing, said.', 0, 1500)), 'the entry');
    expect(late.id).to.not.equal(next.id);
    expect(apply(final('AI', 'Second thing.', 4000, 5000))?.id).to.equal(next.id);
    expect(t.entries.map((e) => [e.speaker, e.text, e.final])).to.deep.equal([
      ['AI', 'First thing, said.', true],
      ['HUMAN', '(caller spoke, 1.0 s)', true],
      ['AI', 'Second thing.', true],
    ]);
    // A FINAL whose LIVE never came, earlier than everything, goes first.
    apply(final('HUMAN', '(caller spoke, 0.2 s)', -500, -300));
    expect(t.entries[0]?.text).to.equal('(caller spoke, 0.2 s)');
    expect(new Set(t.entries.map((e) => e.id)).size).to.equal(t.size);
  });

  it('the same utterance from lk.transcription and from the live events is one entry, whichever comes first', () => {
    const { t, apply } = feed();
    const segment = present(
      t.applySegment({ segmentId: 'seg-1', speaker: 'AI', text: 'Hello, how', final: false }),
      'the entry',
    );
    expect(apply(live('AI', 'Hello, how can', 0))?.id).to.equal(segment.id);
    t.applySegment({ segmentId: 'seg-1', speaker: 'AI', text: 'Hello, how can I help?', final: true });
    expect(apply(live('AI', 'Hello, how can I', 0))).to.equal(null, 'a LIVE event does not reopen the final line');
    apply(final('AI', 'Hello, how can I help?', 0, 2000));
    // The other way round: the event first, then the room's segments.
    const event = present(apply(live('HUMAN', '(caller', 3000)), 'the entry');
    expect(t.applySegment({ segmentId: 'seg-2', speaker: 'HUMAN', text: '(caller spoke', final: false })?.id).to.equal(
      event.id,
    );
    apply(final('HUMAN', '(caller spoke, 1.1 s)', 3000, 4100));
    expect(
      t.applySegment({ segmentId: 'seg-2', speaker: 'HUMAN', text: '(caller spoke, 1.1 s)', final: true }),
    ).to.equal(null);
    expect(t.entries.map((e) => [e.id, e.speaker, e.text, e.final])).to.deep.equal([
      [segment.id, 'AI', 'Hello, how can I help?', true],
      [event.id, 'HUMAN', '(caller spoke, 1.1 s)', true],
    ]);
  });

  it('polled lines bind to the entries the live events made', () => {
    const { t, apply } = feed();
    const a = present(apply(final('AI', 'Hello.', 100, 900)), 'the entry');
    const h = present(apply(final('HUMAN', '(caller spoke, 1.0 s)', 1500, 2500)), 'the entry');
    expect(
      t.mergeService([
        { speaker: 'AI', text: 'Hello.', startTimeMs: 100, endTimeMs: 900 },
        { speaker: 'HUMAN', text: '(caller spoke, 1.0 s)', startTimeMs: 1500, endTimeMs: 2500 },
      ]),
    ).to.deep.equal([]);
    expect(t.entries.map((e) => e.id)).to.deep.equal([a.id, h.id]);
  });

  it('FUNCTION_RESULT, IVR and NODE_TRANSITION lines are not speech: kept aside once each', () => {
    const { t, apply, events } = feed();
    expect(
      apply({
        ...final('FUNCTION_RESULT', '{"booked":true}', 500, 600),
        functionCalls: [{ name: 'book', arguments: '{}' }],
      }),
    ).to.equal(null);
    apply(final('FUNCTION_RESULT', '{"booked":true}', 500, 600));
    apply(live('IVR', 'press one', 700));
    apply(final('NODE_TRANSITION', 'greeting -> booking', 800, 800));
    apply(final('SOMETHING_NEW', 'ignored', 900, 900));
    expect(t.size).to.equal(0);
    expect(events.nonSpeechLines).to.deep.equal([
      {
        role: 'FUNCTION_RESULT',
        text: '{"booked":true}',
        startTimeMs: 500,
        endTimeMs: 600,
        functionCalls: [{ name: 'book', arguments: '{}' }],
      },
      { role: 'NODE_TRANSITION', text: 'greeting -> booking', startTimeMs: 800, endTimeMs: 800 },
    ]);
  });
});
