// What the test runner cannot do in the browser at hand, as its config tells the page in a
// `<meta name="test-runner-lacks" content="...">` (web-test-runner.webkit.config.mjs: WebDriver has
// no command to emulate media features). A test that needs one is skipped there, never elsewhere,
// with the reason in its title: the closing counts (closing-counts.mjs) print every skipped test.

/** A runner command a config can declare missing. */
export type RunnerCommand = 'emulate-media';

export function runnerLacks(command: RunnerCommand): boolean {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="test-runner-lacks"]');
  return (meta?.content.split(/\s+/) ?? []).includes(command);
}

/** Skips the running test where the runner lacks `command`, saying why. */
export function skipWhereRunnerLacks(context: Mocha.Context, command: RunnerCommand, reason: string): void {
  if (!runnerLacks(command)) return;
  if (context.test) context.test.title += ` (${reason})`;
  context.skip();
}
