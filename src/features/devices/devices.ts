// The visitor's microphones and speakers: opening a chosen microphone, routing the agent's voice
// to a chosen speaker where the browser can (`HTMLMediaElement.setSinkId`), and, only when the
// site asks for it (`rememberDevices`), keeping the choice in `localStorage`.
import { MICROPHONE_CONSTRAINTS } from '../../call/gesture.js';

/** The `localStorage` key of the remembered choice (only with `rememberDevices`). */
export const DEVICES_STORAGE_KEY = 'voice-agent-call:devices';

export interface RememberedDevices {
  microphone?: string;
  speaker?: string;
}

/** The browser can send an `<audio>` element's sound to a chosen speaker (most mobile browsers cannot). */
export function canChooseSpeaker(): boolean {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}

/** The microphone `deviceId` names (the browser's default for `''`), with the call's voice processing. */
export async function openMicrophone(deviceId: string): Promise<MediaStreamTrack> {
  const audio = deviceId ? { ...MICROPHONE_CONSTRAINTS, deviceId: { exact: deviceId } } : MICROPHONE_CONSTRAINTS;
  const stream = await navigator.mediaDevices.getUserMedia({ audio });
  const [track, ...extra] = stream.getAudioTracks();
  for (const other of [...extra, ...stream.getVideoTracks()]) other.stop();
  if (!track) throw new DOMException('no microphone track', 'NotFoundError');
  return track;
}

/** The devices of one kind the browser lists now (labels as it gives them; empty where it lists none). */
export async function listDevices(kind: 'audioinput' | 'audiooutput'): Promise<MediaDeviceInfo[]> {
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices.filter((device) => device.kind === kind && device.deviceId !== '');
  } catch {
    return [];
  }
}

/** A device's label as the browser gives it ('' when it is not listed or has none). */
export async function deviceLabel(kind: 'audioinput' | 'audiooutput', deviceId: string): Promise<string> {
  const found = (await listDevices(kind)).find((device) => device.deviceId === deviceId);
  return found?.label ?? '';
}

/** The remembered choice; nothing when storage is unavailable (a sandboxed frame) or holds something else. */
export function readRemembered(): RememberedDevices {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem(DEVICES_STORAGE_KEY) ?? 'null');
    if (typeof stored !== 'object' || stored === null) return {};
    const { microphone, speaker } = stored as Record<string, unknown>;
    return {
      ...(typeof microphone === 'string' ? { microphone } : {}),
      ...(typeof speaker === 'string' ? { speaker } : {}),
    };
  } catch {
    return {};
  }
}

export function remember(devices: RememberedDevices): void {
  try {
    globalThis.localStorage?.setItem(DEVICES_STORAGE_KEY, JSON.stringify(devices));
  } catch {
    // Storage full or blocked: the choice holds for this page only.
  }
}
