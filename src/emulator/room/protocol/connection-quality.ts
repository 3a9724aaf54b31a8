// LiveKit's ConnectionQualityUpdate signal message: each participant's grade (POOR, GOOD,
// EXCELLENT, LOST) and score (a MOS-like 1…5), as a LiveKit server sends it to each client. Pure.
import { ConnectionQuality, ConnectionQualityInfo, ConnectionQualityUpdate, SignalResponse } from '@livekit/protocol';

export { ConnectionQuality };

export interface QualityReport {
  participantSid: string;
  quality: ConnectionQuality;
  score: number;
}

export function connectionQualityUpdate(reports: readonly QualityReport[]): SignalResponse {
  return new SignalResponse({
    message: {
      case: 'connectionQuality',
      value: new ConnectionQualityUpdate({ updates: reports.map((report) => new ConnectionQualityInfo(report)) }),
    },
  });
}
