// upstream-errors.ts on its own: every service error has one answer on the REST dial calls and one
// on the GraphQL step, the visitor sees only the companion's words, the log gets the service's,
// and the README's table is this table.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceError, type ServiceErrorCode } from '../../src/api/service-error.js';
import { HttpError, STATUS_OF } from '../../src/server/errors.js';
import { UPSTREAM_ERRORS, graphqlFailure, upstreamFailure } from '../../src/server/upstream-errors.js';
import { readDocs } from '../../scripts/docs.js';

const CODES = Object.keys(UPSTREAM_ERRORS) as ServiceErrorCode[];

describe('upstream errors: the service error → companion answer table', () => {
  test('covers every service error code, with an answer the companion has a status for', () => {
    assert.equal(CODES.length, 12);
    for (const code of CODES) {
      const row = UPSTREAM_ERRORS[code];
      for (const answer of [row.rest, row.graphql])
        assert.ok(STATUS_OF[answer.code] >= 400, `${code} → ${answer.code}`);
    }
  });

  test('a REST failure answers the row: status, code and the companion message; the service message goes to the reason', () => {
    for (const code of CODES) {
      const error = upstreamFailure(new ServiceError(code, `the service said ${code}`, { status: 500 }), 'read');
      const expected = UPSTREAM_ERRORS[code].rest;
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, expected.code, code);
      assert.equal(error.status, STATUS_OF[expected.code]);
      assert.equal(error.message, expected.message);
      assert.ok(!error.message.includes('the service said'), 'the service message is not shown to the visitor');
      assert.match(error.reason ?? '', new RegExp(`^${code}: the service said ${code}`));
    }
  });

  test('the conflict on a create names the idempotency key; on the dial routes the dial state', () => {
    const conflict = new ServiceError('conflict', 'HTTP 409', { status: 409 });
    assert.match(upstreamFailure(conflict, 'create').message, /Idempotency-Key is already in use/);
    for (const route of ['token', 'read', 'hangup'] as const)
      assert.match(upstreamFailure(conflict, route).message, /already ended/);
  });

  test("the service's Retry-After is passed on clamped to 1–300 s, 30 when it sent none", () => {
    const retryAfter = (seconds: number | null) =>
      upstreamFailure(new ServiceError('rate_limited', 'HTTP 429', { retryAfterSeconds: seconds }), 'create').headers[
        'retry-after'
      ];
    assert.equal(retryAfter(7), '7');
    assert.equal(retryAfter(86_400), '300');
    assert.equal(retryAfter(null), '30');
    assert.deepEqual(upstreamFailure(new ServiceError('server_error', 'HTTP 500'), 'read').headers, {});
  });

  test('hints name the setting to check, in the log only', () => {
    const key = upstreamFailure(new ServiceError('unauthorized', 'HTTP 401'), 'create');
    assert.equal(key.reason, 'unauthorized: HTTP 401 (check VOICE_AGENT_API_KEY)');
    assert.ok(!key.message.includes('VOICE_AGENT'));
    const graphql = graphqlFailure(new ServiceError('network_error', 'unreachable'));
    assert.equal(graphql.reason, 'browserDialToken: network_error: unreachable (check VOICE_AGENT_GRAPHQL_URL)');
  });

  test("the GraphQL step: the service's messages reach the log, never the answer; a timeout is a 504", () => {
    const error = graphqlFailure(
      new ServiceError('graphql_error', '1 GraphQL error(s)', { status: 200, serviceMessages: ['token expired'] }),
    );
    assert.equal(error.code, 'upstream_error');
    assert.equal(error.message, 'the calling service could not handle the request');
    assert.equal(error.reason, 'browserDialToken: graphql_error: 1 GraphQL error(s); the service said: token expired');
    assert.equal(graphqlFailure(new ServiceError('timeout', 'slow')).code, 'upstream_timeout');
  });

  test('anything but a ServiceError is not a service failure: it is rethrown (a bug, answered 500 by the handler)', () => {
    const bug = new TypeError('boom');
    assert.throws(
      () => upstreamFailure(bug, 'read'),
      (error) => error === bug,
    );
    assert.throws(
      () => graphqlFailure(bug),
      (error) => error === bug,
    );
  });
});

describe("the README's error tables", () => {
  const section = (readme: string) => {
    const start = readme.indexOf('### Error codes: the companion and the service');
    assert.ok(start > 0, 'README has the error codes section');
    return readme.slice(start, readme.indexOf('\n### ', start + 1));
  };
  /** The cells of the table row whose first cell starts with `first`. */
  const row = (text: string, first: RegExp): string[] => {
    const line = text.split('\n').find((candidate) => first.test(candidate));
    assert.ok(line, `a row for ${first}`);
    return line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  };

  test('every companion code has its row with its status', async () => {
    const text = section(readDocs());
    for (const [code, status] of Object.entries(STATUS_OF)) {
      const [statusCell] = row(text, new RegExp(`^\\| \\d{3} \\| \`${code}\` \\|`));
      assert.equal(statusCell, String(status), code);
    }
  });

  test('every service code has its row, saying what UPSTREAM_ERRORS says', async () => {
    const text = section(readDocs());
    for (const code of CODES) {
      const [, rest = '', graphql = ''] = row(text, new RegExp(`^\\| \`${code}\``));
      for (const [cell, answer] of [
        [rest, UPSTREAM_ERRORS[code].rest],
        [graphql, UPSTREAM_ERRORS[code].graphql],
      ] as const) {
        assert.ok(cell.startsWith(`${STATUS_OF[answer.code]} \`${answer.code}\``), `${code}: ${cell}`);
        if (answer.hint) assert.ok(cell.includes(answer.hint.replace('check ', 'check `')), `${code}: ${cell}`);
        if (answer.retryAfter) assert.ok(cell.includes('Retry-After'), `${code}: ${cell}`);
      }
    }
  });
});
