// A call's own copy of the session's options, taken when it starts, with the defaults filled in
// (README: "Using the call logic without the element" lists them).
import type { CallSessionOptions } from './types.js';

export type CallOptions = CallSessionOptions &
  Required<
    Pick<
      CallSessionOptions,
      | 'transcript'
      | 'agentTimeoutMs'
      | 'liveTranscriptGraceMs'
      | 'pollIntervalMs'
      | 'resultTimeoutMs'
      | 'requestTimeoutMs'
      | 'audioContainer'
    >
  >;

export function callOptions(options: CallSessionOptions): CallOptions {
  return {
    ...options,
    transcript: options.transcript ?? 'live',
    agentTimeoutMs: options.agentTimeoutMs ?? 15000,
    liveTranscriptGraceMs: options.liveTranscriptGraceMs ?? 4000,
    pollIntervalMs: options.pollIntervalMs ?? 2000,
    resultTimeoutMs: options.resultTimeoutMs ?? 5000,
    requestTimeoutMs: options.requestTimeoutMs ?? 10000,
    audioContainer: options.audioContainer ?? document.body,
  };
}
