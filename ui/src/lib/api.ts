/**
 * HTTP client for the API of spec §7 and docs/api.md. Adds the bearer token, counts requests in flight
 * (the progress bar), asks for the password again and retries once when a change needs it (reauth.ts),
 * turns other 401/403 into a session end and other failures into toasts.
 */
import { hasKey, t } from "./i18n.ts";
import { TOKEN_KEY } from "./prefs.ts";
import { REAUTH_KEY, reauthenticate } from "./reauth.ts";
import { createStore } from "./store.ts";
import { toast } from "./toast.ts";

export interface ErrorBody {
  key: string;
  message: string;
  field?: string;
  row?: number;
  retry_after?: number;
  /** what the server adds to the message (e.g. which use holds a port) */
  detail?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
    readonly body: ErrorBody | null,
    /** the whole reply body (some calls add siblings to `error`, e.g. import's `errors`) */
    readonly raw: unknown = null,
  ) {
    super(body?.message ?? statusText);
  }
  /** The server's message in the active language when the catalog knows its key. */
  get text(): string {
    if (this.body && hasKey(this.body.key)) return t(this.body.key);
    return this.body?.message ?? this.statusText;
  }
}

export const inflight = createStore(0);
/** Set to true when the server rejects the token; the app routes to the login page. */
export const sessionLost = createStore(false);

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}
export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

export function apiUrl(path: string): string {
  return new URL(path.replace(/^\//, ""), document.baseURI).toString();
}

export interface CallOptions {
  /** No error toast (spec §8 exempts some calls); the error is still thrown. */
  quiet?: boolean;
  /** Raw body (FormData) instead of JSON. */
  form?: FormData;
  /** set on the one retry after a re-authentication */
  retried?: boolean;
}

export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  opts: CallOptions = {},
): Promise<T> {
  const url = apiUrl(path);
  const headers: Record<string, string> = { Accept: "application/json" };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (opts.form) payload = opts.form;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  inflight.set((n) => n + 1);
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: payload });
  } catch (e) {
    if (!opts.quiet) toast("err", t("err.network"), `${method} ${path}: ${String(e)}`);
    throw new ApiError(0, String(e), path, null);
  } finally {
    inflight.set((n) => n - 1);
  }
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (res.ok) return data as T;
  const errBody = (data as { error?: ErrorBody } | null)?.error ?? null;
  const err = new ApiError(res.status, res.statusText, path, errBody, data);
  if (res.status === 403 && errBody?.key === REAUTH_KEY && !opts.retried) {
    if (await reauthenticate()) return api<T>(method, path, body, { ...opts, retried: true });
    if (!opts.quiet) toast("err", err.text);
    throw err;
  }
  if (
    (res.status === 401 || res.status === 403) &&
    errBody?.key !== REAUTH_KEY &&
    !path.startsWith("/api/_/login")
  ) {
    setToken(null);
    sessionLost.set(true);
    throw err;
  }
  if (!opts.quiet)
    toast("err", err.text, `${method} ${path} · ${res.status} ${res.statusText} · ${errBody?.key ?? ""}`);
  throw err;
}

export const get = <T>(path: string, opts?: CallOptions) => api<T>("GET", path, undefined, opts);
export const post = <T>(path: string, body?: unknown, opts?: CallOptions) =>
  api<T>("POST", path, body ?? {}, opts);
export const del = <T>(path: string, body?: unknown, opts?: CallOptions) =>
  api<T>("DELETE", path, body, opts);
