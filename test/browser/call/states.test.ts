// The call's lifecycle as data (src/call/states.ts): the transition table and its refusals.
import { expect } from '@open-wc/testing';
import { IllegalTransitionError } from '../../../src/call/errors.js';
import { TRANSITIONS, canTransition, transition } from '../../../src/call/states.js';
import type { CallState } from '../../../src/call/types.js';

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
