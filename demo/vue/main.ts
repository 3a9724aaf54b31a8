// The Vue page: <voice-agent-call> in a Vue template with `@call-ended` handlers typed by the
// element's event classes. Vue is told the tag is a custom element (`isVoiceAgentCallTag`); in an
// app with single-file components that goes in vite.config.ts instead:
//   vue({ template: { compilerOptions: { isCustomElement: isVoiceAgentCallTag } } })
// This page compiles its template in the browser, so it uses Vue's full build.
import { computed, createApp, onMounted, ref } from 'vue/dist/vue.esm-bundler.js';
import '../../src/define.js'; // in your app: import 'voice-agent-call/define';
import { isVoiceAgentCallTag } from '../../src/vue.js'; // 'voice-agent-call/vue' (also the template types)
import type { CallEndedEvent, CallStateEvent, CallTranscriptEvent } from '../../src/index.js';
import type { CallResult, CallState } from '../../src/index.js';
import { SCENARIOS, agentChoices, initialAgent, resultRows, type AgentChoice } from '../scenarios.js';

const SNIPPET = `<voice-agent-call endpoint="/api/voice-call" :agent="agent"
  @call-state="onState" @call-ended="onEnded" />

const onEnded = (event: CallEndedEvent) => { result.value = event.detail };`;

const app = createApp({
  setup() {
    const choices = ref<ReadonlyArray<AgentChoice>>(SCENARIOS);
    const agent = ref(initialAgent(SCENARIOS));
    onMounted(async () => {
      const loaded = await agentChoices();
      choices.value = loaded;
      if (!loaded.some(({ name }) => name === agent.value)) agent.value = initialAgent(loaded);
    });
    const state = ref<CallState>('idle');
    const lines = ref(0);
    const result = ref<CallResult | null>(null);
    const endedCount = ref(0);
    const resting = computed(() => state.value === 'idle' || state.value === 'ended');
    const rows = computed(() => (result.value ? resultRows(result.value) : []));
    const finalLines = computed(() => result.value?.transcript.filter((entry) => entry.final) ?? []);
    return {
      choices,
      SNIPPET,
      agent,
      state,
      lines,
      result,
      endedCount,
      resting,
      rows,
      finalLines,
      inputs: { name: 'Vue demo' },
      onState: (event: CallStateEvent) => {
        state.value = event.detail.state;
      },
      onTranscript: (event: CallTranscriptEvent) => {
        lines.value = event.detail.entries.length;
      },
      onEnded: (event: CallEndedEvent) => {
        result.value = event.detail;
        endedCount.value += 1;
      },
    };
  },
  template: `
    <section class="hero">
      <span class="framework">Vue</span>
      <h1>The widget in a Vue template.</h1>
      <p>
        <code>@call-ended</code>, <code>@call-state</code> and the other events reach typed handlers;
        <code>:agent</code> and <code>:inputs</code> bind as properties.
        <code>import 'voice-agent-call/vue'</code> gives Volar the element's props and events.
      </p>
      <pre class="snippet">{{ SNIPPET }}</pre>
    </section>
    <section class="grid">
      <div class="panel">
        <h2>Call</h2>
        <label class="picker">
          Scenario agent
          <select id="agent" v-model="agent" :disabled="!resting">
            <option v-for="choice in choices" :key="choice.name" :value="choice.name">{{ choice.label }}</option>
          </select>
        </label>
        <voice-agent-call
          ref="call"
          endpoint="/api/voice-call"
          persist
          :agent="agent"
          :inputs="inputs"
          @call-state="onState"
          @call-transcript="onTranscript"
          @call-ended="onEnded"
        >
          <span slot="title">Acme support (Vue)</span>
        </voice-agent-call>
        <div class="status">
          <span class="chip" :data-state="state">state <strong id="vue-state">{{ state }}</strong></span>
          <span class="chip">transcript lines <strong>{{ lines }}</strong></span>
          <span class="chip">calls ended <strong id="ended-count">{{ endedCount }}</strong></span>
        </div>
        <div class="actions">
          <button type="button" :disabled="!resting" @click="$refs.call.start()">ref.start()</button>
          <button type="button" :disabled="resting" @click="$refs.call.hangup()">ref.hangup()</button>
        </div>
      </div>
      <div class="panel">
        <h2>Last result (from @call-ended)</h2>
        <div v-if="result" id="result" :data-reason="result.reason">
          <dl class="result">
            <template v-for="[term, value] in rows" :key="term"><dt>{{ term }}</dt><dd>{{ value }}</dd></template>
          </dl>
          <ol class="lines">
            <li v-for="entry in finalLines" :key="entry.id" :data-speaker="entry.speaker"><b>{{ entry.speaker === 'AI' ? 'Agent' : 'You' }}</b>{{ entry.text }}</li>
          </ol>
        </div>
        <p v-else class="empty">No call has ended yet. Start one on the left.</p>
      </div>
    </section>`,
});
app.config.compilerOptions.isCustomElement = isVoiceAgentCallTag;
app.mount('#app');
