import { useEffect, useState } from "preact/hooks";
import { post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";

type PingState = "wait" | "ping" | "ok" | "error";
const COLORS: Record<PingState, string> = {
  wait: "text-mute",
  ping: "text-warn",
  ok: "text-ok",
  error: "text-bad",
};

/** Upstream connection test: wait, ping (in progress), ok, error (spec §4). */
export function PingButton({
  address,
  connType,
  currency,
  disabled = false,
}: {
  address: string;
  connType: number;
  /** the port's coin: the server logs in the way the coin's protocol does */
  currency: string;
  disabled?: boolean;
}) {
  const [state, setState] = useState<PingState>("wait");
  const [ms, setMs] = useState<number | null>(null);
  useEffect(() => setState("wait"), [address, connType, currency]);
  const run = async () => {
    const addr = address.replace(/\s+/g, "").replace(/^[a-z0-9+]+:\/\//i, "");
    if (!addr) return;
    setState("ping");
    try {
      const r = await post<{ status: "ok" | "error"; latency?: number }>(
        "/api/ping",
        { address: addr, conn_type: connType, ...(currency ? { currency } : {}) },
        { quiet: true },
      );
      setMs(r.latency ?? null);
      setState(r.status === "ok" ? "ok" : "error");
    } catch {
      setState("error");
    }
  };
  return (
    <button
      type="button"
      data-ping={state}
      class={`shrink-0 rounded border border-line px-2 text-sm hover:bg-panel2 disabled:opacity-50 ${COLORS[state]}`}
      onClick={run}
      disabled={disabled || state === "ping"}
    >
      {t(`ping.${state}`)}
      {state === "ok" && ms !== null ? ` ${ms} ms` : ""}
    </button>
  );
}
