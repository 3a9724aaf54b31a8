// In your app: import 'voice-agent-call/define';
import '../src/define.js';
// Every event the element fires on the page, from the one list (names only: no call code loads with it).
import { PUBLIC_CALL_EVENTS } from '../src/call/event-names.js';
import { SCENARIOS, agentChoices, initialAgent, type AgentChoice } from './scenarios.js';

/** The log keeps this many entries; transcript entries go first, so no state change is lost. */
const LOG_LIMIT = 120;
/** The page's element for `selector` (index.html has each one this script uses). */
function element<T extends Element>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`the demo page has no ${selector}`);
  return found;
}

const log = element<HTMLOListElement>('#log');
const picker = element<HTMLSelectElement>('#agent');
const inline = element<HTMLElement>('#inline-call');

function offer(choices: ReadonlyArray<AgentChoice>): void {
  const current = initialAgent(choices);
  picker.replaceChildren(...choices.map(({ name, label }) => new Option(label, name, false, name === current)));
  inline.setAttribute('agent', current);
}

// The scenarios at once (and `?agent=`), then the real service's agents if `npm start` has them.
offer(SCENARIOS);
void agentChoices().then((choices) => {
  if (choices.some(({ name }, i) => name !== SCENARIOS[i]?.name) || choices.length !== SCENARIOS.length) offer(choices);
});

picker.addEventListener('change', () => inline.setAttribute('agent', picker.value));
element('#clear-log').addEventListener('click', () => log.replaceChildren());

function describe(target: EventTarget | null): string {
  if (!(target instanceof HTMLElement)) return '?';
  if (target.id === 'inline-call') return 'inline';
  return target.getAttribute('layout') === 'floating' ? 'floating' : 'themed';
}

/** A transcript line's entry is updated in place as the line grows: one entry per line, not per word. */
const lineEntries = new Map<string, HTMLLIElement>();

function render(item: HTMLLIElement, type: string, who: string, detail: unknown): void {
  const head = document.createElement('div');
  head.className = 'log-line';
  const name = document.createElement('strong');
  name.textContent = type;
  const when = document.createElement('span');
  // The time the entry began (a transcript line keeps the time it started as it grows), so the
  // log, newest first, reads in order.
  item.dataset.since ??= new Date().toLocaleTimeString();
  when.textContent = `${who} · ${item.dataset.since}`;
  head.append(name, when);
  const body = document.createElement('pre');
  body.textContent = JSON.stringify(detail, null, 2);
  item.replaceChildren(head, body);
}

function trim(): void {
  while (log.children.length > LOG_LIMIT) {
    const oldest = [...log.children].reverse();
    const victim = oldest.find((item) => (item as HTMLElement).dataset.type === 'call-transcript') ?? oldest[0];
    if (!victim) return;
    lineEntries.forEach((entry, key) => entry === victim && lineEntries.delete(key));
    victim.remove();
  }
}

for (const type of PUBLIC_CALL_EVENTS) {
  document.addEventListener(type, (event) => {
    const who = describe(event.target);
    let detail = (event as CustomEvent).detail as Record<string, unknown>;
    let item: HTMLLIElement | undefined;
    if (type === 'call-transcript') {
      // The line that changed, not the whole transcript again.
      const changed = detail.changed as { id: string };
      detail = { changed };
      const key = `${who}:${changed.id}`;
      item = lineEntries.get(key);
      if (!item) lineEntries.set(key, (item = document.createElement('li')));
    }
    item ??= document.createElement('li');
    item.dataset.type = type;
    render(item, type, who, detail);
    if (!item.isConnected) log.prepend(item);
    if (type === 'call-state' && (detail as { state?: string }).state === 'starting') {
      // A new call: its lines get new entries even if an id repeats.
      for (const key of [...lineEntries.keys()]) if (key.startsWith(`${who}:`)) lineEntries.delete(key);
    }
    trim();
  });
}
