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
