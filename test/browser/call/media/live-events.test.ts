// The service's live transcript events (src/call/media/live-events.ts, watchLiveTranscriptEvents)
// turned into segments of the call's Transcript: in place, late, repeated, beside lk.transcription.
import { expect } from '@open-wc/testing';
import { LiveEventSegments, type ServiceTranscriptEvent } from '../../../../src/call/media/live-events.js';
import { Transcript } from '../../../../src/call/transcript.js';
import { present } from '../../../support/present.js';

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
