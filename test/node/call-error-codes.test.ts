// The widget's error codes (src/call/error-codes.ts) against the companion's own (src/server/errors.ts,
// which browser code may not import) and against the README's "Error codes" tables: a code added
// or dropped on either side, or a status changed, fails here or in `npm run typecheck`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  setupFailure,
  type CompanionErrorCode,
  type CompanionFailureCode,
  type CompanionRefusalCode,
  type WidgetErrorCode,
} from '../../src/call/error-codes.js';
import { CallError, CompanionError } from '../../src/call/errors.js';
import { STATUS_OF, type CompanionErrorCode as ServerErrorCode } from '../../src/server/errors.js';
import { readDocs } from '../../scripts/docs.js';

/** Every code but `client_closed` reaches a reader: nobody reads that answer. */
type AnsweredCode = Exclude<ServerErrorCode, 'client_closed'>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while the widget and the companion name the same codes. */
export const SAME_CODES: Same<CompanionErrorCode, AnsweredCode> = true;

/** The widget's groups of the companion's codes, as values (the compiler wants each code of a group once). */
const REFUSALS: Record<CompanionRefusalCode, true> = {
  duplicate_request: true,
  host_not_allowed: true,
  invalid_handle: true,
  invalid_request: true,
  method_not_allowed: true,
  not_found: true,
  origin_not_allowed: true,
  payload_too_large: true,
};
const FAILURES: Record<CompanionFailureCode, true> = {
  internal_error: true,
  unsupported_media_provider: true,
  upstream_error: true,
  upstream_timeout: true,
};

/** The companion's codes a reader can get, with their statuses. */
const ANSWERED = Object.entries(STATUS_OF).filter(([code]) => code !== 'client_closed');

/** The widget's own codes, each once (the compiler wants every one of `WidgetErrorCode`). */
const WIDGET_CODES: Record<Exclude<WidgetErrorCode, `http_${number}`>, true> = {
  unsupported_browser: true,
  call_in_progress: true,
  microphone_denied: true,
  microphone_unavailable: true,
  network_error: true,
  request_timeout: true,
  invalid_response: true,
  media_failed: true,
  session_start_failed: true,
  network_lost: true,
  load_failed: true,
  hold_failed: true,
  device_failed: true,
  transfer_failed: true,
};

/** The rows of the README table whose header row starts with `| ${firstHeader} |`. */
function readmeTable(firstHeader: string): string[][] {
  const lines = readDocs().split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${firstHeader} |`));
  assert.notEqual(start, -1, `README has a table headed "${firstHeader}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replace(/^`|`$/g, '')),
    );
  }
  return rows;
}

test("the widget's groups of the companion's codes match the statuses the companion answers them with", () => {
  for (const [code, status] of ANSWERED) {
    const group = Object.hasOwn(REFUSALS, code) ? 'refusal' : Object.hasOwn(FAILURES, code) ? 'failure' : code;
    const expected = status === 429 ? 'rate_limited' : status >= 500 ? 'failure' : 'refusal';
    assert.equal(group, expected, `${code} (${status})`);
  }
});

test('a companion error answer ends busy for a 429, setup-failed otherwise; worth another call for 429 and 5xx', () => {
  for (const [code, status] of ANSWERED) {
    const { reason, error } = setupFailure(new CompanionError(code as CompanionErrorCode, 'the message', { status }));
    assert.deepEqual(error, { code, message: 'the message', recoverable: status === 429 || status >= 500 }, code);
    assert.equal(reason, status === 429 ? 'busy' : 'setup-failed', code);
  }
  assert.equal(setupFailure(new CompanionError('http_503', 'x', { status: 503 })).error.recoverable, true);
  assert.deepEqual(setupFailure(new CompanionError('network_error', 'x')).error, {
    code: 'network_error',
    message: 'x',
    recoverable: true,
  });
  assert.deepEqual(setupFailure(new CallError('media_failed', 'x')), {
    reason: 'setup-failed',
    error: { code: 'media_failed', message: 'x', recoverable: true },
  });
  assert.deepEqual(setupFailure(new TypeError('a bug')), {
    reason: 'setup-failed',
    error: { code: 'internal_error', message: 'a bug', recoverable: true },
  });
});

test("the README's companion table is the companion's codes, with the widget's outcome of each", () => {
  const rows = readmeTable('companion code');
  assert.deepEqual(
    rows,
    ANSWERED.map(([code, status]) => [
      code,
      String(status),
      code,
      status === 429 ? 'busy' : 'setup-failed',
      status === 429 || status >= 500 ? 'yes' : 'no',
    ]),
  );
});

test("the README's table of the widget's codes names each of them, and the companion's internal_error", () => {
  const codes = readmeTable('code').map((row) => row[0]);
  assert.deepEqual(codes.sort(), [...Object.keys(WIDGET_CODES), 'http_<status>', 'internal_error'].sort());
});
