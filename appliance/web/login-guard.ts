import type { AppContext } from "./app-context.ts";
import { ApiError } from "./errors.ts";

/**
 * Refuses with 429 and the seconds to wait while the address (too many failures of its own) or the
 * account (too many wrong passwords from anywhere) is held back; checked before a body is read.
 */
export function refuseWhileThrottled(app: AppContext, address: string): void {
  const wait = app.throttle.retryAfter(address);
  if (wait > 0) throw new ApiError(429, "lang.login.err_throttled", { retry_after: wait });
  const accountWait = app.throttle.accountRetryAfter(address);
  if (accountWait > 0)
    throw new ApiError(429, "lang.login.err_throttled_account", { retry_after: accountWait });
}
