// Following the transcript log: it stays scrolled to the newest line until the visitor scrolls up;
// then the lines being read stay put, and "Jump to latest" appears once new lines arrive. Only
// the newest lines are in the DOM (a window that slides while following); "Show earlier lines"
// reveals more above without moving what is on screen. In the lazy call chunk; the view renders
// the log and wires its scroll and buttons to this controller.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { TranscriptEntry } from '../call/types.js';

/** How many of the newest transcript lines are in the DOM; "Show earlier" reveals this many more. */
const TRANSCRIPT_WINDOW = 100;

export interface TranscriptFollowHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export interface TranscriptFollowHooks {
  /** The entries being rendered. */
  entries(): TranscriptEntry[];
  /** Renders soon: the visitor scrolled or clicked. */
  invalidate(): void;
}

export class TranscriptFollow implements ReactiveController {
  readonly #host: TranscriptFollowHost;
  readonly #hooks: TranscriptFollowHooks;
  #stuckToBottom = true;
  /** New lines arrived while the visitor was scrolled up. */
  #unseen = false;
  /** Index of the first rendered entry, and how many of the newest entries to render while following. */
  #firstShown = 0;
  #windowSize = TRANSCRIPT_WINDOW;
  /** The entries and log the log was last scrolled to the end for. */
  #followed: { entries: TranscriptEntry[]; log: HTMLElement } | null = null;

  constructor(host: TranscriptFollowHost, hooks: TranscriptFollowHooks) {
    this.#host = host;
    this.#hooks = hooks;
    host.addController(this);
  }

  /** Index of the first entry to render (the ones before it are behind "Show earlier lines"). */
  get firstShown(): number {
    return this.#firstShown;
  }

  /** "Jump to latest" is shown: scrolled up, with lines below not seen yet. */
  get showJump(): boolean {
    return this.#unseen && !this.#stuckToBottom;
  }

  /** A new call: follow the end again, with the first window. */
  reset(): void {
    this.#stuckToBottom = true;
    this.#unseen = false;
    this.#firstShown = 0;
    this.#windowSize = TRANSCRIPT_WINDOW;
  }

  /** Transcript lines arrived (or changed). */
  linesArrived(): void {
    if (!this.#stuckToBottom) this.#setUnseen(true);
  }

  hostUpdate(): void {
    // Following the end, the window slides with the newest lines; scrolled up, it stays put so
    // the lines being read do not move.
    const newest = Math.max(0, this.#hooks.entries().length - this.#windowSize);
    this.#firstShown = this.#stuckToBottom ? newest : Math.min(this.#firstShown, newest);
  }

  hostUpdated(): void {
    const log = this.#log();
    const entries = this.#hooks.entries();
    // Only a change to the log scrolls it (reading scrollHeight costs a layout; the timer ticks every second).
    if (log && this.#stuckToBottom && (this.#followed?.entries !== entries || this.#followed.log !== log)) {
      log.scrollTop = log.scrollHeight;
      this.#followed = { entries, log };
    }
  }

  #log(): HTMLElement | null {
    return this.#host.renderRoot.querySelector<HTMLElement>('.transcript');
  }

  #setUnseen(unseen: boolean): void {
    if (unseen === this.#unseen) return;
    this.#unseen = unseen;
    this.#hooks.invalidate();
  }

  /** The log's `scroll` listener. */
  readonly onScroll = (event: Event): void => {
    const log = event.currentTarget as HTMLElement;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    if (atBottom !== this.#stuckToBottom) {
      this.#stuckToBottom = atBottom;
      this.#hooks.invalidate();
    }
    if (atBottom) this.#setUnseen(false);
  };

  /**
   * "Show earlier lines": reveals older lines above, keeping the lines in view where they are, and
   * moves focus to the log (whose arrow keys scroll through them; the button is the next Tab stop).
   * Focus does not stay on the button: it now sits above the revealed lines, and WebKit keeps a
   * focused element in view when the lines around it change, which took the reader back to the top.
   */
  readonly onEarlier = async (): Promise<void> => {
    const log = this.#log();
    if (!log) return;
    log.focus({ preventScroll: true });
    // The first line shown stays where it is on screen (whatever the browser's scroll anchoring
    // did). Layout positions, not on-screen boxes: a line still sliding in (its entry animation is a
    // transform) would otherwise move the correction by a few pixels.
    const anchor = log.querySelector<HTMLElement>('.entry');
    const anchorTop = anchor ? anchor.offsetTop - log.scrollTop : 0;
    this.#firstShown = Math.max(0, this.#firstShown - TRANSCRIPT_WINDOW);
    this.#windowSize = this.#hooks.entries().length - this.#firstShown;
    this.#hooks.invalidate();
    await this.#host.updateComplete;
    if (anchor) log.scrollTop = anchor.offsetTop - anchorTop;
  };

  /** "Jump to latest": back to the newest line, following again. */
  readonly onJump = (): void => {
    this.#stuckToBottom = true;
    this.#setUnseen(false);
    this.#hooks.invalidate();
    const log = this.#log();
    if (log) log.scrollTop = log.scrollHeight;
    log?.focus();
  };
}
