// The companion's config from the environment (src/server/env.ts): every variable, and the refusals.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, companionConfigFromEnv } from '../../src/server/env.js';

describe('config from the environment', () => {
  const base = {
    VOICE_AGENT_API_KEY: 'k',
    VOICE_AGENT_BASE_URL: 'http://127.0.0.1:1',
    VOICE_AGENT_AGENT_ID: 'agent-1',
    COMPANION_SECRET: 's'.repeat(32),
  };

  test('reads every variable', () => {
    const config = companionConfigFromEnv({
      ...base,
      VOICE_AGENT_AGENTS: '{"sales":"agent-2"}',
      VOICE_AGENT_MEDIA_URL: 'ws://127.0.0.1:2',
      VOICE_AGENT_GRAPHQL_URL: 'http://127.0.0.1:3/query',
      COMPANION_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
      COMPANION_ALLOWED_INPUTS: 'name,topic',
      COMPANION_RATE_LIMIT_PER_ADDRESS: '3',
      COMPANION_RATE_LIMIT_TOTAL: '50',
      COMPANION_TRUST_PROXY: '1',
      COMPANION_TIMEOUT_MINUTES: '5',
    });
    assert.deepEqual(config.agents, { default: 'agent-1', sales: 'agent-2' });
    assert.deepEqual(config.allowedOrigins, ['https://a.example', 'https://b.example']);
    assert.deepEqual(config.allowedInputs, ['name', 'topic']);
    assert.deepEqual(config.rateLimit, { perAddress: 3, total: 50 });
    assert.equal(config.trustProxy, true);
    assert.equal(config.timeoutMinutes, 5);
    assert.equal(config.mediaUrl, 'ws://127.0.0.1:2');
    assert.equal(config.graphqlUrl, 'http://127.0.0.1:3/query');
    assert.equal(config.dev, false);
  });

  test('refuses a missing key, base URL, agent or secret (outside development), and bad values', () => {
    for (const missing of ['VOICE_AGENT_API_KEY', 'VOICE_AGENT_BASE_URL', 'VOICE_AGENT_AGENT_ID', 'COMPANION_SECRET']) {
      assert.throws(() => companionConfigFromEnv({ ...base, [missing]: undefined }), ConfigError, missing);
    }
    assert.equal(companionConfigFromEnv({ ...base, COMPANION_SECRET: undefined, NODE_ENV: 'development' }).dev, true);
    assert.throws(() => companionConfigFromEnv({ ...base, VOICE_AGENT_AGENTS: '[1]' }), ConfigError);
    assert.throws(() => companionConfigFromEnv({ ...base, VOICE_AGENT_AGENTS: '{' }), ConfigError);
    assert.throws(() => companionConfigFromEnv({ ...base, COMPANION_RATE_LIMIT_TOTAL: 'lots' }), ConfigError);
    assert.throws(() => companionConfigFromEnv({ ...base, VOICE_AGENT_GRAPHQL_URL: '/query' }), ConfigError);
    // Issue 30, 6: refused at config time, naming the variable and the bound.
    for (const minutes of ['1441', '35792', '0'])
      assert.throws(
        () => companionConfigFromEnv({ ...base, COMPANION_TIMEOUT_MINUTES: minutes }),
        /COMPANION_TIMEOUT_MINUTES must be 1 to 1440/,
      );
  });
});
