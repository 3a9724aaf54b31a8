// A page of its own in an iframe (built demo pages, the CSP page), allowed the microphone and
// autoplay like a top-level page the visitor clicked in.

export function loadFrame(src: string, size: { width: number; height: number }): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.allow = 'microphone; autoplay';
  frame.style.width = `${size.width}px`;
  frame.style.height = `${size.height}px`;
  const loaded = new Promise<HTMLIFrameElement>((resolve) =>
    frame.addEventListener('load', () => resolve(frame), { once: true }),
  );
  frame.src = src;
  document.body.append(frame);
  return loaded;
}

/** The frame's window; throws when it has none (the frame is not in a document). */
export function frameWindow(frame: HTMLIFrameElement): Window {
  const win = frame.contentWindow;
  if (!win) throw new Error(`the frame ${frame.src} has no window`);
  return win;
}

/** The frame's document; throws when the test cannot reach it (not loaded, or another origin). */
export function frameDocument(frame: HTMLIFrameElement): Document {
  const doc = frame.contentDocument;
  if (!doc) throw new Error(`the frame ${frame.src} has no document the test can reach`);
  return doc;
}
