/** A loopback TCP port that is free now (free-port.mjs). */
export function freePort(): Promise<number>;
