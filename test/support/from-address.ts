/**
 * API calls from a chosen source address: every address of 127.0.0.0/8 is this machine's, so a test
 * can play clients on many addresses (the appliance throttles and counts per address).
 */
import { request } from "node:http";
import type { ApiReply } from "./appliance.ts";

export function callFrom<T = Record<string, unknown>>(
  address: string,
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token = "",
): Promise<ApiReply<T>> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) headers["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers,
        localAddress: address,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as T });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
