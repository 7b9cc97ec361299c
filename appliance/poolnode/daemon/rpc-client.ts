/**
 * JSON-RPC 1.0 over HTTP to a Bitcoin-family coin daemon (bitcoind, litecoind and their forks), with
 * Bun's fetch. Credentials are the daemon's cookie file or rpcuser/rpcpassword. The cookie is re-read
 * after a 401 because the daemon writes a fresh one at every start: a pool that outlives a daemon
 * restart must not keep sending the old one.
 */
import { readFile } from "node:fs/promises";

export type DaemonCredentials = { cookieFile: string } | { user: string; password: string };

export interface DaemonEndpoint {
  /** e.g. http://127.0.0.1:9332/ */
  url: string;
  credentials: DaemonCredentials;
  /** per call; getblocktemplate on a busy mainnet node can take seconds */
  timeoutMs?: number;
}

/** An error the daemon answered (its code and message), or a transport failure (code null). */
export class DaemonRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | null,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

/** The daemon's codes we act on (bitcoin/src/rpc/protocol.h). */
export const RpcCode = {
  IN_WARMUP: -28,
  CLIENT_NOT_CONNECTED: -9,
  CLIENT_IN_INITIAL_DOWNLOAD: -10,
  WALLET_ERROR: -4,
  INVALID_ADDRESS_OR_KEY: -5,
} as const;

interface RpcReply {
  result?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
}

export class DaemonRpc {
  private authorization: string | null = null;
  private nextId = 1;

  constructor(private readonly endpoint: DaemonEndpoint) {}

  async call(method: string, params: unknown[] = []): Promise<unknown> {
    let response = await this.post(method, params, await this.auth(method, false));
    if (response.status === 401 && "cookieFile" in this.endpoint.credentials)
      response = await this.post(method, params, await this.auth(method, true));
    if (response.status === 401) throw new DaemonRpcError(method, null, "credentials refused (401)");
    // The daemon answers RPC errors with 404/500 and a JSON body, so the body decides, not the status.
    const text = await response.text();
    let reply: RpcReply;
    try {
      reply = JSON.parse(text) as RpcReply;
    } catch {
      throw new DaemonRpcError(method, null, `HTTP ${response.status}: ${text.slice(0, 200)}`);
    }
    if (reply.error) {
      const code = typeof reply.error.code === "number" ? reply.error.code : null;
      throw new DaemonRpcError(method, code, String(reply.error.message ?? "error"));
    }
    return reply.result ?? null;
  }

  private async post(method: string, params: unknown[], authorization: string): Promise<Response> {
    try {
      return await fetch(this.endpoint.url, {
        method: "POST",
        // No kept-alive connection: the daemon waits for open HTTP connections at shutdown (30 s), and
        // one local request per call costs nothing next to the call itself.
        headers: { "content-type": "application/json", authorization, connection: "close" },
        body: JSON.stringify({ jsonrpc: "1.0", id: this.nextId++, method, params }),
        signal: AbortSignal.timeout(this.endpoint.timeoutMs ?? 30_000),
      });
    } catch (e) {
      throw new DaemonRpcError(method, null, e instanceof Error ? e.message : String(e));
    }
  }

  private async auth(method: string, refresh: boolean): Promise<string> {
    if (this.authorization !== null && !refresh) return this.authorization;
    const c = this.endpoint.credentials;
    let pair: string;
    if ("cookieFile" in c) {
      try {
        pair = (await readFile(c.cookieFile, "utf8")).trim();
      } catch (e) {
        throw new DaemonRpcError(method, null, `cookie file: ${e instanceof Error ? e.message : String(e)}`);
      }
    } else pair = `${c.user}:${c.password}`;
    this.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    return this.authorization;
  }
}
