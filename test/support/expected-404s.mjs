// web-test-runner lists every 404 a test page received as "🚧 404 network requests". The tests
// ask the companion and the emulator for things that do not exist on purpose (an unknown dial, an
// unknown route, a companion that is not there at all (`/nowhere`), a fault proxy cutting a request; the built demo asking for the dev server's agent
// list, which it then does without; the widget's `GET <endpoint>/service` on intent, to the made-up
// endpoints of element tests that never call): those answers are what is tested, not missing
// files, so they stay out of a green run's output. A 404 for anything else (a file the page
// needs) is still listed.
const EXPECTED =
  /^(api\/voice-call(-strict)?\/|__emu(-strict)?\/|__faults?\/|__fault-|__demo\/agents$|nowhere\/)|^[\w/-]*\/service$/;

/** The reporter with the expected 404s taken out of what it reports. */
export function withoutExpected404s(reporter) {
  return {
    ...reporter,
    reportTestFileResults(args) {
      const sessionsForTestFile = args.sessionsForTestFile.map((session) => ({
        ...session,
        request404s: session.request404s.filter((url) => !EXPECTED.test(url)),
      }));
      return reporter.reportTestFileResults?.({ ...args, sessionsForTestFile });
    },
  };
}
