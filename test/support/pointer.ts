// The real pointer (web-test-runner's sendMouse): onto the middle of an element, or away to the page's corner.
import { sendMouse } from '@web/test-runner-commands';

/** Moves the pointer onto the middle of `node` (its pointerenter: the element's intent). */
export async function hover(node: HTMLElement): Promise<void> {
  const rect = node.getBoundingClientRect();
  await sendMouse({
    type: 'move',
    position: [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)],
  });
}

/** Moves the pointer away, to the page's top-left corner. */
export function pointerAway(): Promise<unknown> {
  return sendMouse({ type: 'move', position: [0, 0] });
}
