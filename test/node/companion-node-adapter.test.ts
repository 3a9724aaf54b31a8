// The Node adapter (src/server/node.ts): how it reads a request's path, host and scheme.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { targetOf } from '../../src/server/node.js';

describe('the Node adapter', () => {
  test("reads a request's path, host and scheme as `new URL(req.url, 'http://' + Host)` does, without parsing the common ones", () => {
    const paths = [
      '/',
      '/dials',
      '/api/voice-call/dials/d-1/token',
      '/dials/a.b:c~d',
      '/a/../dials',
      '/dials/./x',
      '/dials/..',
      '/dials/%2e%2E/x',
      '/%64ials',
      '//evil.example/dials',
      '/\\evil.example/dials',
      '/dials?x=1',
      '/dials#x',
      '/di als',
      '/dials/ü',
      '/dials/{x}',
      'http://other.example/dials',
      '*',
      '',
    ];
    const hosts = [
      undefined,
      '127.0.0.1:8787',
      'LOCALHOST:80',
      '[::1]:8787',
      'a:b:c',
      'exa mple',
      'xn--bcher-kva.example',
      '127.1',
    ];
    for (const url of paths) {
      for (const host of hosts) {
        const req = { url, headers: host === undefined ? {} : { host } } as unknown as IncomingMessage;
        // No Host (HTTP/1.0) reads as localhost; one URL cannot hold is never localhost (issue 30, 2).
        const unparsable = 'unparsable-host.invalid';
        let safeHost = host === undefined ? 'localhost' : /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : unparsable;
        if (!URL.canParse(`http://${safeHost}/`)) safeHost = unparsable;
        let expected: URL;
        try {
          expected = new URL(url, `http://${safeHost}`);
        } catch {
          expected = new URL(`http://${safeHost}/`);
        }
        assert.deepEqual(
          targetOf(req),
          { pathname: expected.pathname, host: expected.host, protocol: expected.protocol },
          `${url} on ${host}`,
        );
      }
    }
  });
});
