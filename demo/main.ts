// In your app: import 'voice-agent-call/define';
import '../src/define.js';

const EVENTS = ['call-state', 'call-connected', 'call-transcript', 'call-mute', 'call-error', 'call-ended'] as const;
const log = document.querySelector<HTMLOListElement>('#log')!;
const picker = document.querySelector<HTMLSelectElement>('#agent')!;
const inline = document.querySelector<HTMLElement>('#inline-call')!;

// The picker lists the agents the companion knows, labelled from the service's GET /agents
// (read server-side by `npm start`); the static options stay if that is not available.
fetch('/__demo/agents')
  .then((answer) => (answer.ok ? (answer.json() as Promise<{ name: string; label: string }[]>) : []))
  .then((choices) => {
    if (choices.length === 0) return;
    const current = choices.some(({ name }) => name === inline.getAttribute('agent')) ? inline.getAttribute('agent') : choices[0]!.name;
    picker.replaceChildren(...choices.map(({ name, label }) => new Option(label, name, false, name === current)));
    inline.setAttribute('agent', current!);
  })
  .catch(() => undefined);

picker.addEventListener('change', () => inline.setAttribute('agent', picker.value));
document.querySelector('#clear-log')!.addEventListener('click', () => log.replaceChildren());

function describe(target: EventTarget | null): string {
  if (!(target instanceof HTMLElement)) return '?';
  if (target.id === 'inline-call') return 'inline';
  return target.getAttribute('layout') === 'floating' ? 'floating' : 'themed';
}

for (const type of EVENTS) {
  document.addEventListener(type, (event) => {
    const item = document.createElement('li');
    item.dataset.type = type;
    const head = document.createElement('div');
    head.className = 'log-line';
    const name = document.createElement('strong');
    name.textContent = type;
    const who = document.createElement('span');
    who.textContent = `${describe(event.target)} · ${new Date().toLocaleTimeString()}`;
    head.append(name, who);
    const detail = document.createElement('pre');
    detail.textContent = JSON.stringify((event as CustomEvent).detail, null, 2);
    item.append(head, detail);
    log.prepend(item);
    while (log.children.length > 80) log.lastElementChild!.remove();
  });
}
