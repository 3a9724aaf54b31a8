// What the three demo pages (script tag, React, Vue) and `npm start` share: the scenario agents,
// how the page picks one, and how a result is summarised. One list, so no page lists fewer.
import type { CallResult } from '../src/index.js';

export interface AgentChoice {
  /** The agent name the page sends (the companion maps it to an agent id). */
  name: string;
  label: string;
}

/** The emulator's scenario agents `npm start` maps by name (README: "Recipes"): every one (test/node/demo-scenarios.test.ts). */
export const SCENARIOS: ReadonlyArray<AgentChoice> = [
  { name: 'emu-demo', label: 'emu-demo: answers each turn (talk to it)' },
  { name: 'emu-quick', label: 'emu-quick: one exchange, then hangs up' },
  { name: 'emu-silent-user', label: 'emu-silent-user: hangs up after 3 s of silence or mute' },
  { name: 'emu-drop', label: 'emu-drop: the connection drops' },
  { name: 'emu-blip', label: 'emu-blip: the connection drops once and comes back' },
  { name: 'emu-no-agent', label: 'emu-no-agent: no agent ever joins' },
  { name: 'emu-busy', label: 'emu-busy: the service is at capacity' },
  { name: 'emu-agent-leaves', label: 'emu-agent-leaves: the agent leaves without a goodbye' },
  { name: 'emu-server-leave', label: 'emu-server-leave: the media server closes the room' },
  { name: 'emu-keypad', label: 'emu-keypad: answers each keypad key you press' },
  { name: 'emu-graphql-transcript', label: 'emu-graphql-transcript: live transcript over GraphQL only' },
  { name: 'emu-vonage', label: 'emu-vonage: Vonage media, which the widget cannot join' },
  { name: 'emu-weak-link', label: 'emu-weak-link: the room grades your connection poor' },
  { name: 'emu-transfer-refused', label: 'emu-transfer-refused: the service refuses to transfer the call' },
];

/**
 * The companion's agent names (`VOICE_AGENT_AGENTS`) the service knows, labelled with the service's
 * agent names. `default` is an alias: when another name maps to the same agent, only that one is
 * offered (two identical entries read as a bug).
 */
export function offeredAgents(names: Record<string, string>, labels: ReadonlyMap<string, string>): AgentChoice[] {
  const offered = new Set<string>();
  return Object.entries(names)
    .sort(([a], [b]) => Number(a === 'default') - Number(b === 'default'))
    .filter(([, id]) => labels.has(id) && !offered.has(id) && offered.add(id))
    .map(([name, id]) => ({ name, label: `${name}: ${labels.get(id)}` }));
}

/**
 * The agents to offer: with the real service, the companion's names labelled from its
 * `GET /agents` (read server-side by `npm start` at /__demo/agents); with the emulator (or a built
 * page, which has no dev server), the scenarios.
 */
export async function agentChoices(): Promise<AgentChoice[]> {
  try {
    const answer = await fetch('/__demo/agents');
    const choices = answer.ok ? ((await answer.json()) as AgentChoice[]) : [];
    return choices.length > 0 ? choices : [...SCENARIOS];
  } catch {
    return [...SCENARIOS];
  }
}

/** `?agent=emu-quick` picks the agent (links and tests use it) when the page offers it; else the first. */
export function initialAgent(choices: ReadonlyArray<AgentChoice> = SCENARIOS): string {
  const asked = new URLSearchParams(location.search).get('agent');
  return choices.find(({ name }) => name === asked)?.name ?? choices[0]?.name ?? 'default';
}

export function resultRows(result: CallResult): Array<[term: string, value: string]> {
  const rows: Array<[string, string]> = [
    ['reason', result.reason],
    ['dial', result.dialId ?? '—'],
  ];
  if (result.status) rows.push(['status', result.status]);
  if (result.systemResultType) rows.push(['result type', result.systemResultType]);
  if (typeof result.durationSeconds === 'number') rows.push(['duration', `${result.durationSeconds} s`]);
  if (result.error) rows.push(['error', `${result.error.code}: ${result.error.message}`]);
  if (result.aiResult !== undefined) rows.push(['AI result', JSON.stringify(result.aiResult)]);
  return rows;
}
