// The room's connection-quality updates, as a LiveKit server sends them: every
// `qualityIntervalMs` (LiveKit's connectionQualityUpdateInterval, 5 s), the grade of the caller
// and of the agent it subscribes to. On loopback every link is EXCELLENT; `emu-weak-link` grades
// the caller POOR (score 2, below LiveKit's GOOD threshold of 3.5), the way a lossy uplink would.
import { ConnectionQuality, connectionQualityUpdate, type QualityReport } from './protocol/connection-quality.js';
import type { SignalResponse } from '@livekit/protocol';

/** The agent whose caller's connection the room grades poor. */
export const WEAK_LINK_AGENT = 'emu-weak-link';

const EXCELLENT = { quality: ConnectionQuality.EXCELLENT, score: 4.5 };
const POOR = { quality: ConnectionQuality.POOR, score: 2 };

export interface QualityReporterOptions {
  intervalMs: number;
  scenario: string;
  callerSid: string;
  agentSid: string | undefined;
  send(response: SignalResponse): void;
}

/** Starts the reports; returns the function that stops them. */
export function startQualityReports(options: QualityReporterOptions): () => void {
  const caller = options.scenario === WEAK_LINK_AGENT ? POOR : EXCELLENT;
  const timer = setInterval(() => {
    const reports: QualityReport[] = [{ participantSid: options.callerSid, ...caller }];
    if (options.agentSid) reports.push({ participantSid: options.agentSid, ...EXCELLENT });
    options.send(connectionQualityUpdate(reports));
  }, options.intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
