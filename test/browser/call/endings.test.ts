// How a call ends (src/call/endings.ts): the end reason a service result names.
import { expect } from '@open-wc/testing';
import { endReasonFromResult } from '../../../src/call/endings.js';

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
