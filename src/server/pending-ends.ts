// Pending ends: the dials whose browser left (`POST /dials/:id/leave`, a page with `persist` going
// away) and that the companion hangs up unless the browser rejoins (the token route) within the
// grace. In this process's memory (a timer per dial) by default, or in Redis
// (`createRedisPendingEnds`) when several instances share the work: a sorted set of due ends that
// every instance polls, each due entry claimed with ZREM, so exactly one instance ends it, whichever
// is alive then. The dial's `timeoutMinutes` cap stays the backstop for anything that slips through.
//
// A leave is a beacon, and a beacon may arrive after the next page's rejoin. A rejoin names the
// leave it follows (its `leftAt`), which is remembered for a while: a leave of that time or
// earlier, arriving late, schedules nothing.
import type { CompanionLogger } from './log.js';

/** What ends a dial that is due (the handler's: the service's hang-up). */
export type EndDial = (dialId: string) => Promise<void>;

export interface PendingEnds {
  /**
   * Ends `dialId` at `dueAtMs` unless `clear` comes first; a second call moves the time. False,
   * scheduling nothing, when a rejoin after the leave of `leftAt` was seen already.
   */
  schedule(dialId: string, dueAtMs: number, leftAt?: number): Promise<boolean>;
  /**
   * Forgets the pending end of `dialId` (the browser came back); true when there was one.
   * `resumeOf`: the `leftAt` of the leave this rejoin follows, remembered for `keepMs`.
   */
  clear(dialId: string, resumeOf?: number, keepMs?: number): Promise<boolean>;
  /** Starts ending due dials with `end` (the handler calls it once). Returns the stop. */
  start(end: EndDial): () => void;
}

const unref = (timer: ReturnType<typeof setTimeout>) => {
  // Node: bookkeeping must not keep a process alive that is otherwise done. Workers have no unref.
  (timer as { unref?: () => void }).unref?.();
  return timer;
};

/**
 * Pending ends as timers in this process: for one instance (the memory store). An instance that
 * stops loses them; the dial's time cap then ends the dial.
 */
export function createMemoryPendingEnds(now: () => number = Date.now): PendingEnds {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** dial id → the latest leave a rejoin followed, and its forgetting timer. */
  const resumed = new Map<string, { leftAt: number; timer: ReturnType<typeof setTimeout> }>();
  let end: EndDial | null = null;
  const fire = (dialId: string) => {
    timers.delete(dialId);
    void end?.(dialId);
  };
  return {
    schedule(dialId, dueAtMs, leftAt) {
      const rejoined = resumed.get(dialId);
      if (rejoined && leftAt !== undefined && leftAt <= rejoined.leftAt) return Promise.resolve(false);
      const earlier = timers.get(dialId);
      if (earlier !== undefined) clearTimeout(earlier);
      // Not unref'd: a pending end is work the process still owes (a hang-up that saves money).
      timers.set(
        dialId,
        setTimeout(() => fire(dialId), Math.max(0, dueAtMs - now())),
      );
      return Promise.resolve(true);
    },
    clear(dialId, resumeOf, keepMs = 60_000) {
      const earlierMark = resumed.get(dialId);
      if (resumeOf !== undefined && !(earlierMark && earlierMark.leftAt >= resumeOf)) {
        if (earlierMark) clearTimeout(earlierMark.timer);
        resumed.set(dialId, { leftAt: resumeOf, timer: unref(setTimeout(() => resumed.delete(dialId), keepMs)) });
      }
      const timer = timers.get(dialId);
      if (timer === undefined) return Promise.resolve(false);
      clearTimeout(timer);
      timers.delete(dialId);
      return Promise.resolve(true);
    },
    start(endDial) {
      end = endDial;
      return () => {
        end = null;
        for (const timer of timers.values()) clearTimeout(timer);
        timers.clear();
        for (const { timer } of resumed.values()) clearTimeout(timer);
        resumed.clear();
      };
    },
  };
}

/** The few ioredis commands the Redis store uses (an ioredis `Redis` client has them). */
export interface PendingEndsRedis {
  zrem(key: string, member: string): Promise<number>;
  zrangebyscore(
    key: string,
    min: number | string,
    max: number | string,
    limit: 'LIMIT',
    offset: number,
    count: number,
  ): Promise<string[]>;
  eval(script: string, numkeys: number, ...args: Array<string | number>): Promise<unknown>;
}

export interface RedisPendingEndsOptions {
  /** How often each instance looks for due ends, default 1000 ms. */
  pollMs?: number;
  /** The sorted set's key, default `voice-agent-call:pending-ends` (rejoin marks: `<key>:resumed:<dialId>`). */
  key?: string;
  /** Receives a line when a poll fails (the store unreachable) and when it works again. */
  logger?: CompanionLogger | false;
  /** Clock, for tests. */
  now?: () => number;
}

/** Most due ends one instance claims per poll. */
const CLAIM_BATCH = 20;

/** ZADD unless a rejoin after this leave was marked (KEYS: set, mark; ARGV: due, dial id, leftAt or ''). */
const SCHEDULE = `local mark = redis.call('GET', KEYS[2])
if mark and ARGV[3] ~= '' and tonumber(mark) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/** Marks the rejoin (a later leave only) and ZREMs (KEYS: set, mark; ARGV: dial id, resumeOf or '', keep ms). */
const CLEAR = `if ARGV[2] ~= '' then
  local mark = redis.call('GET', KEYS[2])
  if not mark or tonumber(mark) < tonumber(ARGV[2]) then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) end
end
return redis.call('ZREM', KEYS[1], ARGV[1])`;

/**
 * Pending ends in Redis, shared by every instance: a leave adds `dialId` to a sorted set scored by
 * its due time, a rejoin removes it, and every instance polls `ZRANGEBYSCORE key -inf now`; of the
 * instances that see a due entry, only the one whose `ZREM` removes it (Redis answers 1 to exactly
 * one) ends the dial. An instance that dies after taking a leave leaves its entry to the others.
 * The leave and the rejoin are each one script, so a late leave cannot slip between a rejoin's
 * mark and its removal.
 */
export function createRedisPendingEnds(
  client: PendingEndsRedis,
  options: RedisPendingEndsOptions = {},
): PendingEnds & { close(): void } {
  const key = options.key ?? 'voice-agent-call:pending-ends';
  const markOf = (dialId: string) => `${key}:resumed:${dialId}`;
  const pollMs = options.pollMs ?? 1000;
  if (!(pollMs >= 10)) throw new RangeError('createRedisPendingEnds: pollMs must be at least 10');
  const now = options.now ?? Date.now;
  const log = options.logger || (() => {});
  let failing = false;
  const note = (ok: boolean, error?: unknown) => {
    if (ok === !failing) return;
    failing = !ok;
    log({
      time: new Date(now()).toISOString(),
      level: ok ? 'info' : 'error',
      ...(ok
        ? {}
        : { code: 'pending_ends_store_unreachable', reason: error instanceof Error ? error.name : 'unknown' }),
      message: ok
        ? 'the pending-ends store (Redis) answers again'
        : 'the pending-ends store (Redis) is unreachable: dials whose visitor left are ended when it is back, or by their time cap',
    });
  };

  async function poll(end: EndDial): Promise<void> {
    let due: string[];
    try {
      due = await client.zrangebyscore(key, '-inf', now(), 'LIMIT', 0, CLAIM_BATCH);
      note(true);
    } catch (error) {
      note(false, error);
      return;
    }
    for (const dialId of due) {
      let claimed = 0;
      try {
        claimed = await client.zrem(key, dialId);
      } catch (error) {
        note(false, error);
        return;
      }
      if (claimed === 1) await end(dialId);
    }
  }

  let stop = () => {};
  return {
    async schedule(dialId, dueAtMs, leftAt) {
      const answer = await client.eval(SCHEDULE, 2, key, markOf(dialId), dueAtMs, dialId, leftAt ?? '');
      return Number(answer) === 1;
    },
    async clear(dialId, resumeOf, keepMs = 60_000) {
      const answer = await client.eval(CLEAR, 2, key, markOf(dialId), dialId, resumeOf ?? '', Math.ceil(keepMs));
      return Number(answer) === 1;
    },
    start(end) {
      let stopped = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const loop = () => {
        timer = unref(
          setTimeout(() => {
            void poll(end).finally(() => {
              if (!stopped) loop();
            });
          }, pollMs),
        );
      };
      loop();
      stop = () => {
        stopped = true;
        if (timer !== undefined) clearTimeout(timer);
      };
      return stop;
    },
    /** Stops polling (before the client is disconnected). */
    close: () => stop(),
  };
}
