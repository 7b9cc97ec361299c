/**
 * Re-authentication (docs/api.md): a call that changes pools, wallets, ratios, the account, tokens,
 * the route, the web port or the release answers 403 `lang.err.reauth` when the password was last
 * entered more than 5 minutes ago. api.ts then awaits `reauthenticate()`, which shows the password
 * dialog (components/ReauthHost.tsx) and resolves true once the server took the password, and
 * retries the call once: no dialog of the console needs to know about it.
 */
import { createStore } from "./store.ts";

export const REAUTH_KEY = "lang.err.reauth";

/** The pending request for the password, shown by ReauthHost; null when none is. */
export const reauthRequest = createStore<{ done: (ok: boolean) => void } | null>(null);

let pending: Promise<boolean> | null = null;

/** Asks for the password once, however many calls are waiting for it at the same time. */
export function reauthenticate(): Promise<boolean> {
  pending ??= new Promise<boolean>((resolve) => {
    reauthRequest.set({
      done: (ok) => {
        reauthRequest.set(null);
        pending = null;
        resolve(ok);
      },
    });
  });
  return pending;
}
