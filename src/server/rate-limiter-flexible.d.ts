// rate-limiter-flexible's main entry also loads its cluster limiter, which needs `node:cluster`;
// rate-limit.ts imports the two limiters it uses by file so the handler still bundles for Workers.
// The package types only its main entry: these point the file imports at those types.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  import { RateLimiterMemory } from 'rate-limiter-flexible';
  export default RateLimiterMemory;
}

declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  import { RateLimiterRedis } from 'rate-limiter-flexible';
  export default RateLimiterRedis;
}
