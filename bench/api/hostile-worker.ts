/**
 * The hostile side of hostile-latency.ts, on a thread of its own so that building its requests
 * never delays the miners' load generator: loops of one kind of hostile request against the
 * appliance until told to stop, counting the answers by status.
 */
import { declaredRangeBomb } from "../../test/support/xlsx-bomb.ts";

export type HostileKind =
  | "xlsx range bomb"
  | "8 MiB public body"
  | "nested-array body"
  | "captcha flood"
  | "wrong logins";

export interface HostileOrder {
  base: string;
  token: string;
  kinds: HostileKind[];
  /** requests in flight per kind */
  concurrency: number;
}

declare const self: Worker;

const bomb = declaredRangeBomb("A1:XFD1048576");
const bigBody = "[".repeat(8 * 1024 * 1024);
const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;

function request(o: HostileOrder, kind: HostileKind): Promise<Response> {
  const auth = { authorization: `Bearer ${o.token}` };
  switch (kind) {
    case "xlsx range bomb": {
      const form = new FormData();
      form.set("file", new Blob([bomb]), "bomb.xlsx");
      return fetch(`${o.base}/api/ports/import`, { method: "POST", headers: auth, body: form });
    }
    case "8 MiB public body":
      return fetch(`${o.base}/api/_/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: bigBody,
      });
    case "nested-array body":
      return fetch(`${o.base}/api/port/new`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: nested,
      });
    case "captcha flood":
      return fetch(`${o.base}/api/_/captcha`);
    case "wrong logins":
      return fetch(`${o.base}/api/_/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin", password: "AAAA", captcha_id: "x", captcha: "1234" }),
      });
  }
}

let running = true;
self.onmessage = async (e: MessageEvent<HostileOrder | "stop">) => {
  if (e.data === "stop") {
    running = false;
    return;
  }
  const o = e.data;
  const counts: Record<string, number> = {};
  const loop = async (kind: HostileKind) => {
    while (running) {
      let key: string;
      try {
        const res = await request(o, kind);
        await res.arrayBuffer();
        key = `${kind} ${res.status}`;
      } catch {
        // the server may cut an oversize body short: that is an answer too
        key = `${kind} closed`;
      }
      counts[key] = (counts[key] ?? 0) + 1;
    }
  };
  await Promise.all(o.kinds.flatMap((k) => Array.from({ length: o.concurrency }, () => loop(k))));
  self.postMessage(counts);
};
