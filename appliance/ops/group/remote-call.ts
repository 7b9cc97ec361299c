/**
 * One API call on a remote instance under group control: https only, to a remote whose certificate
 * the operator pinned, over a connection that presented exactly that certificate.
 */
import type { RemoteClient } from "../../store/remote-clients.ts";
import type { MessageKey } from "../../web/messages.ts";
import { PinError, pinnedFetch } from "./pinned-tls.ts";

/** Header another instance sends with this instance's group-control token. */
export const API_TOKEN_HEADER = "x-api-token";
export const REMOTE_TIMEOUT_MS = 4000;

/** Why a remote was not called or did not answer, as a catalogue key and a detail for the operator. */
export class RemoteCallError extends Error {
  constructor(
    readonly key: MessageKey,
    detail: string,
    /** the fingerprint the remote presented instead of the pinned one */
    readonly presented = "",
  ) {
    super(detail);
  }
}

export function isHttps(address: string): boolean {
  return /^https:\/\//i.test(address);
}

export async function callRemote(
  c: RemoteClient,
  method: string,
  path: string,
  body?: string,
  timeoutMs = REMOTE_TIMEOUT_MS,
): Promise<Response> {
  if (!isHttps(c.address)) throw new RemoteCallError("lang.remote.err_https", c.address);
  if (!c.fingerprint) throw new RemoteCallError("lang.remote.err_unpinned", c.address);
  const url = `${c.address}/api/${path.replace(/^\/+/, "")}`;
  try {
    return await pinnedFetch(
      c,
      url,
      { method, headers: { [API_TOKEN_HEADER]: c.token, "content-type": "application/json" }, body },
      timeoutMs,
    );
  } catch (err) {
    if (err instanceof PinError) {
      if (err.reason === "https") throw new RemoteCallError("lang.remote.err_https", c.address);
      throw new RemoteCallError("lang.remote.err_fingerprint", err.message, err.presented);
    }
    throw new RemoteCallError("lang.remote.err_fetch", err instanceof Error ? err.message : String(err));
  }
}

/** GET of a JSON answer; anything but 2xx is an error with its status. */
export async function getRemoteJson(c: RemoteClient, path: string, timeoutMs?: number): Promise<unknown> {
  const res = await callRemote(c, "GET", path, undefined, timeoutMs);
  if (!res.ok) throw new RemoteCallError("lang.remote.err_fetch", `HTTP ${res.status}`);
  return res.json();
}
