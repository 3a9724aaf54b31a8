// When the call view renders what it was asked to: the transcript lines of a frame together
// (the next frame), and a call's first render once the main thread has nothing queued. In the
// lazy call chunk.

/** A moment the main thread has nothing queued (at most 50 ms away), or the next frame where browsers cannot say (Safari). */
export function idle(): Promise<void> {
  return typeof requestIdleCallback === 'function'
    ? new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 50 }))
    : nextFrame();
}

/** The next frame, or a short timeout where frames do not come (a hidden tab). */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      resolve();
    };
    const timer = setTimeout(done, 100);
    const frame = requestAnimationFrame(done);
  });
}
