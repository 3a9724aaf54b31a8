// Which Node the package and its development need, as the README's "Which Node" table says: every
// installed package accepts Node 22.22 and 24 (npm is quiet there), and on the floor in `engines`
// only the packages the table names warn.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { present } from '../support/present.js';
import { readDocs } from '../../scripts/docs.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every installed package with an `engines.node`, nested ones included. */
function installed(dir = join(ROOT, 'node_modules'), found: Array<{ name: string; node: string }> = []) {
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (entry.startsWith('@')) {
      installed(path, found);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (existsSync(manifest)) {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; engines?: { node?: string } };
      if (json.engines?.node) found.push({ name: json.name, node: json.engines.node });
    }
    if (existsSync(join(path, 'node_modules'))) installed(join(path, 'node_modules'), found);
  }
  return found;
}

test("the README's Node table holds for what is installed", () => {
  const packages = installed();
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const floor = present(semver.minVersion(pkg.engines.node), 'a lowest Node version in engines').version;
  const refusing = (version: string) =>
    [...new Set(packages.filter((p) => !semver.satisfies(version, p.node)).map((p) => p.name))].sort();

  assert.deepEqual(refusing('22.22.0'), [], 'npm is quiet on Node 22.22');
  assert.deepEqual(refusing('24.0.0'), [], 'npm is quiet on Node 24');
  const readme = readDocs();
  for (const name of refusing(floor)) {
    const named = name === 'machina' || name === 'graphql' || name.startsWith('@web/');
    assert.ok(
      named,
      `${name} declares a Node the engines floor ${floor} does not meet, and the README's table does not name it`,
    );
  }
  assert.match(readme, /machina/);
  assert.match(
    readme,
    new RegExp(`≥ ${floor.replace(/\.0$/, '').replace(/\./g, '\\.')}`),
    'the README states the engines floor',
  );
});
