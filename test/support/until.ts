// Waiting in browser tests: poll a condition (sync or async) until it holds, or fail naming it.
// For things no event announces (a record on the emulator, a frame's contents, a buffer's level).

export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
