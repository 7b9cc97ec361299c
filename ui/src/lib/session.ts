/** Session-wide data: who is logged in, the currency config, the server start time. */
import { get } from "./api.ts";
import type { CurrencyConfig } from "./coins.ts";
import { createStore } from "./store.ts";

export interface SessionInfo {
  username: string;
  default_password: boolean;
  route_set: boolean;
}

export const session = createStore<SessionInfo | null>(null);
export const currency = createStore<CurrencyConfig>({});
export const startTime = createStore<number>(0);

export async function loadSession(): Promise<void> {
  session.set(await get<SessionInfo>("/api/_/session"));
}

/** The navigation guard of spec §2: currency config when BTC is missing, and the start time. */
export async function beforeNavigate(): Promise<void> {
  const jobs: Promise<unknown>[] = [];
  if (!currency.get().BTC)
    jobs.push(
      get<{ config: CurrencyConfig } | CurrencyConfig>("/api/currency/config").then((c) =>
        currency.set(
          ("config" in c && typeof c.config === "object"
            ? (c.config as CurrencyConfig)
            : (c as CurrencyConfig)) ?? {},
        ),
      ),
    );
  jobs.push(
    get<{ start: string; uptime_seconds: number }>("/api/sys/starttime", { quiet: true })
      .then((v) => startTime.set(Date.parse(v.start) || 0))
      .catch(() => undefined),
  );
  await Promise.allSettled(jobs);
}
