// Each row of the feature registry (src/features/registry.ts) is chunks of its own in the CDN
// build: one for its view part (`<name>-part`), one for its session side, each loaded lazily, and
// none of their modules inside the idle entry or the call chunk (a static import of a feature's
// module from the call code would pull it in there, and this fails).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cdnSizes, featureChunk, moduleShares } from '../../scripts/build-sizes.js';
import { FEATURE_ROWS } from '../../src/features/registry.js';

test("each registry row's part and session side are lazy chunks of their own, outside the idle entry and the call chunk", () => {
  const sizes = cdnSizes();
  const lazy = sizes.lazy.map((size) => size.file);
  const modulesOf = (file: string): string[] =>
    (moduleShares(file, Number.POSITIVE_INFINITY) ?? assert.fail(`${file} has no source map`)).map(
      (share) => share.module,
    );
  const call = lazy.find((file) => file.startsWith('chunks/in-call-')) ?? assert.fail('no call chunk');
  const eager = new Set([...modulesOf(call), ...sizes.initial.flatMap((size) => modulesOf(size.file))]);
  assert.ok(eager.has('src/call/call-session.ts'), 'the call chunk holds the session (the walk reads its map)');

  for (const [name, row] of FEATURE_ROWS) {
    const chunks = lazy.filter((file) => featureChunk(file)?.name === name);
    const sides = chunks.map((file) => featureChunk(file)?.side).sort();
    const expected = [...(row.part ? ['part'] : []), ...(row.session ? ['session'] : [])].sort();
    assert.deepEqual(sides, expected, `${name}: one lazy chunk per side (${chunks.join(', ')})`);
    assert.ok(
      sizes.initial.every((size) => featureChunk(size.file) === undefined),
      `${name}: nothing of it loads with the script tag`,
    );
    for (const file of chunks) {
      const own = modulesOf(file).filter((module) => module.startsWith(`src/features/${name}/`));
      assert.ok(own.length > 0, `${file} holds ${name}'s own code`);
      for (const module of own)
        assert.ok(!eager.has(module), `${module} (${file}) is also inside the idle entry or the call chunk`);
    }
  }
});
