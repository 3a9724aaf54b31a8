// Reaching into an element's shadow DOM from a browser test. The helpers that give one node throw,
// naming what they looked for, so a missing part fails with its name rather than "cannot read
// properties of null" a few lines later.

const partSelector = (name: string) => `[part~="${name}"]`;

/** The element's open shadow root; throws when it has none (not upgraded, or not rendered yet). */
export function shadow(el: Element): ShadowRoot {
  const root = el.shadowRoot;
  if (!root) throw new Error(`<${el.localName}> has no open shadow root`);
  return root;
}

/** The first node under `root` (a document, an element, a shadow root) that matches `selector`; throws when none does. */
export function find<T extends Element = HTMLElement>(root: ParentNode, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}

/** The first node in the element's shadow root that matches `selector`; throws when none does. */
export function query<T extends Element = HTMLElement>(el: Element, selector: string): T {
  const found = shadow(el).querySelector<T>(selector);
  if (!found) throw new Error(`<${el.localName}> renders no ${selector}`);
  return found;
}

/** Every node in the element's shadow root that matches `selector`, in document order. */
export function queryAll<T extends Element = HTMLElement>(el: Element, selector: string): T[] {
  return [...shadow(el).querySelectorAll<T>(selector)];
}

/** The node carrying part `name`; throws naming the part when the element does not render it. */
export function part<T extends HTMLElement = HTMLElement>(el: Element, name: string): T {
  const found = findPart<T>(el, name);
  if (!found) throw new Error(`<${el.localName}> renders no part "${name}" (state ${el.getAttribute('state')})`);
  return found;
}

/** The node carrying part `name`, or null: for a test that checks the part is absent. */
export function findPart<T extends HTMLElement = HTMLElement>(el: Element, name: string): T | null {
  return shadow(el).querySelector<T>(partSelector(name));
}

/** Every node carrying part `name`, in document order. */
export function parts<T extends HTMLElement = HTMLElement>(el: Element, name: string): T[] {
  return queryAll<T>(el, partSelector(name));
}

/** The text of part `name` with its whitespace collapsed, or '' when the part is absent. */
export function text(el: Element, name: string): string {
  return (findPart(el, name)?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
