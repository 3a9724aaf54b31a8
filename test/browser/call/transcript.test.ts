// The call's transcript (src/call/transcript.ts): interim and final lines, both live sources, the
// polled service lines merged in, and the transcript a call ends with.
import { expect } from '@open-wc/testing';
import { Transcript } from '../../../src/call/transcript.js';
import { present } from '../../support/present.js';

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
