/**
 * The health check of a release that has just started: its own `GET /healthz` must answer
 * `{"ok":true,"version":<the version we switched to>}`. The address comes from the program's
 * start-up line `listening on http(s)://HOST:PORT`, so a changed web port or HTTPS needs no setting.
 */
const LISTENING = /listening on (https?):\/\/(\[[^\]]+\]|[^\s:/]+):(\d+)/;

/** The base URL to probe, from one line of the program's output, or null when it is not that line. */
export function healthBase(line: string): string | null {
  const m = LISTENING.exec(line);
  if (!m) return null;
  const wildcard = m[2] === "0.0.0.0" || m[2] === "[::]" || m[2] === "::";
  return `${m[1]}://${wildcard ? "127.0.0.1" : m[2]}:${m[3]}`;
}

/** One probe; false on any failure. The appliance's own certificate is self-signed by design. */
export async function probeHealth(base: string, version: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(`${base}/healthz`, {
      signal: AbortSignal.timeout(timeoutMs),
      tls: { rejectUnauthorized: false },
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { ok?: unknown; version?: unknown };
    return body.ok === true && body.version === version;
  } catch {
    return false;
  }
}
