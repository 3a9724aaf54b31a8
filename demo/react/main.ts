// The React page: <VoiceAgentCall> from `voice-agent-call/react` (here from source), with typed
// event props feeding React state. Written with createElement so it needs no JSX setup; in a JSX
// app it reads:
//   <VoiceAgentCall endpoint="/api/voice-call" agent={agent} onCallEnded={(e) => setResult(e.detail)} />
import { Fragment, StrictMode, createElement as h, useEffect, useRef, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { VoiceAgentCall, type CallResult, type CallState, type VoiceAgentCallElement } from '../../src/react.js';
import { SCENARIOS, agentChoices, initialAgent, resultRows, type AgentChoice } from '../scenarios.js';

const SNIPPET = `import { VoiceAgentCall } from 'voice-agent-call/react';

<VoiceAgentCall
  endpoint="/api/voice-call"
  agent={agent}
  onCallState={(e) => setState(e.detail.state)}
  onCallEnded={(e) => setResult(e.detail)}   // e: CallEndedEvent
/>`;

function App(): ReactNode {
  const [choices, setChoices] = useState<ReadonlyArray<AgentChoice>>(SCENARIOS);
  const [agent, setAgent] = useState(() => initialAgent(SCENARIOS));
  useEffect(() => {
    let current = true;
    void agentChoices().then((loaded) => {
      if (!current) return;
      setChoices(loaded);
      setAgent((agent) => (loaded.some(({ name }) => name === agent) ? agent : initialAgent(loaded)));
    });
    return () => {
      current = false;
    };
  }, []);
  const [state, setState] = useState<CallState>('idle');
  const [lines, setLines] = useState(0);
  const [result, setResult] = useState<CallResult | null>(null);
  const [endedCount, setEndedCount] = useState(0);
  const call = useRef<VoiceAgentCallElement>(null);
  const resting = state === 'idle' || state === 'ended';

  return h(
    Fragment,
    null,
    h(
      'section',
      { className: 'hero' },
      h('span', { className: 'framework' }, 'React'),
      h('h1', null, 'The widget as a React component.'),
      h(
        'p',
        null,
        'Typed event props (',
        h('code', null, 'onCallEnded'),
        ', ',
        h('code', null, 'onCallState'),
        ', …) update React state; a ',
        h('code', null, 'ref'),
        ' reaches the element for ',
        h('code', null, 'start()'),
        ' and ',
        h('code', null, 'hangup()'),
        '.',
      ),
      h('pre', { className: 'snippet' }, SNIPPET),
    ),
    h(
      'section',
      { className: 'grid' },
      h(
        'div',
        { className: 'panel' },
        h('h2', null, 'Call'),
        h(
          'label',
          { className: 'picker' },
          'Scenario agent',
          h(
            'select',
            {
              id: 'agent',
              value: agent,
              disabled: !resting,
              onChange: (event: { target: { value: string } }) => setAgent(event.target.value),
            },
            choices.map(({ name, label }) => h('option', { key: name, value: name }, label)),
          ),
        ),
        h(
          VoiceAgentCall,
          {
            ref: call,
            endpoint: '/api/voice-call',
            agent,
            // The call goes on across the demo's pages (a link to the script-tag or Vue page).
            persist: true,
            inputs: { name: 'React demo' },
            onCallState: (event) => setState(event.detail.state),
            onCallTranscript: (event) => setLines(event.detail.entries.length),
            onCallEnded: (event) => {
              setResult(event.detail);
              setEndedCount((count) => count + 1);
            },
          },
          h('span', { slot: 'title' }, 'Acme support (React)'),
        ),
        h(
          'div',
          { className: 'status' },
          h('span', { className: 'chip', 'data-state': state }, 'state ', h('strong', { id: 'react-state' }, state)),
          h('span', { className: 'chip' }, 'transcript lines ', h('strong', null, String(lines))),
          h('span', { className: 'chip' }, 'calls ended ', h('strong', { id: 'ended-count' }, String(endedCount))),
        ),
        h(
          'div',
          { className: 'actions' },
          h('button', { type: 'button', disabled: !resting, onClick: () => void call.current?.start() }, 'ref.start()'),
          h(
            'button',
            { type: 'button', disabled: resting, onClick: () => void call.current?.hangup() },
            'ref.hangup()',
          ),
        ),
      ),
      h(
        'div',
        { className: 'panel' },
        h('h2', null, 'Last result (from onCallEnded)'),
        result
          ? h(
              'div',
              { id: 'result', 'data-reason': result.reason },
              h(
                'dl',
                { className: 'result' },
                resultRows(result).flatMap(([term, value]) => [
                  h('dt', { key: `${term}-t` }, term),
                  h('dd', { key: `${term}-d` }, value),
                ]),
              ),
              h(
                'ol',
                { className: 'lines' },
                result.transcript
                  .filter((entry) => entry.final)
                  .map((entry) =>
                    h(
                      'li',
                      { key: entry.id, 'data-speaker': entry.speaker },
                      h('b', null, entry.speaker === 'AI' ? 'Agent' : 'You'),
                      entry.text,
                    ),
                  ),
              ),
            )
          : h('p', { className: 'empty' }, 'No call has ended yet. Start one on the left.'),
      ),
    ),
  );
}

const app = document.querySelector('#app');
if (!app) throw new Error('the React demo page has no #app');
createRoot(app).render(h(StrictMode, null, h(App)));
