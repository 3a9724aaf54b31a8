// What the React and Vue pages share: the scenario agents and how a result is summarised.
import type { CallResult } from '../../src/index.js';

export const SCENARIOS: ReadonlyArray<readonly [id: string, label: string]> = [
  ['emu-demo', 'answers each turn (talk to it)'],
  ['emu-quick', 'one exchange, then hangs up'],
  ['emu-silent-user', 'hangs up after 3 s of silence / mute'],
  ['emu-drop', 'the connection drops'],
  ['emu-no-agent', 'no agent ever joins'],
  ['emu-busy', 'the service is at capacity'],
];

/** `?agent=emu-quick` picks the scenario (links and tests use it); emu-demo otherwise. */
export function initialAgent(): string {
  const asked = new URLSearchParams(location.search).get('agent');
  return SCENARIOS.some(([id]) => id === asked) ? asked! : 'emu-demo';
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
