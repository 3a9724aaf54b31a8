// The `fallback` attribute's link (call chunk): another way to reach the site, shown instead of
// "Try again" when the visitor's browser cannot place voice calls; only with a safe scheme.
import { html, nothing, type TemplateResult } from 'lit';
import type { VoiceAgentCallStrings } from './strings.js';

/** Schemes a `fallback` link may use: a page, a phone number, an email or a text message; never `javascript:`. */
const FALLBACK_SCHEMES = new Set(['https:', 'http:', 'tel:', 'mailto:', 'sms:']);

/** The `fallback` attribute as a URL (relative to the page), or null when unset, malformed or of another scheme. */
function safeFallback(href: string | undefined): URL | null {
  if (!href) return null;
  try {
    const url = new URL(href, document.baseURI);
    return FALLBACK_SCHEMES.has(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/** A `tel:` link's number as written (`%20` a space); as it stands when it is not valid percent-encoding. */
function phoneNumber(link: URL): string {
  try {
    return decodeURIComponent(link.pathname);
  } catch {
    return link.pathname;
  }
}

/** The link, or nothing when `href` is unset or not of a safe scheme. */
export function fallbackLink(s: VoiceAgentCallStrings, href: string | undefined): TemplateResult | typeof nothing {
  const link = safeFallback(href);
  if (!link) return nothing;
  const label = link.protocol === 'tel:' ? `${s.fallbackPhone} ${phoneNumber(link)}` : s.fallbackLink;
  return html`<a class="control call" part="fallback-link" href=${link.href} data-primary>${label}</a>`;
}
