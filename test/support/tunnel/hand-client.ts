/**
 * A tunnel client written by hand from docs/rms-tunnel.md, over the tests' WebCrypto KENC client, for
 * tests that play a client of an earlier version: it opens one stream and logs its miner in. What the
 * port sends it is read off the relay with the tests' own reader.
 */
import { concat, WebKencClient } from "../kenc/web-kenc.ts";
import { dataFrame, hello, openFrame, record } from "./hand-frames.ts";
import type { TcpRelay } from "./tcp-relay.ts";
import { readDownRecords, type WireRecord } from "./tunnel-reader.ts";

const SALT = new TextEncoder().encode("pithead-rms-v1");

/** subscribe and authorize as worker `user` */
export const loginLines = (user: string) =>
  `{"id":1,"method":"mining.subscribe","params":["${user}/1.0"]}\n{"id":2,"method":"mining.authorize","params":["wal.${user}","x"]}\n`;

export interface HandClientOptions {
  /** the tunnel hello's version */
  version: number;
  /** the KENC link's version (the WebCrypto client's own by default) */
  kenc?: number;
  /** the worker that logs in on stream 1 */
  user?: string;
  /** resume this tunnel instead of opening one: nothing is sent after the hello */
  tunnel?: Uint8Array;
}

export async function handTunnelClient(
  cleanup: Array<() => Promise<void> | void>,
  port: number,
  key: string,
  o: HandClientOptions,
): Promise<WebKencClient> {
  const peer = await WebKencClient.connect(port, key, SALT, o.kenc);
  cleanup.push(() => peer.end());
  peer.write(record(0, hello(o.version, o.tunnel)));
  if (o.tunnel === undefined)
    peer.write(record(0, concat(openFrame(), dataFrame(1, loginLines(o.user ?? `v${o.version}`)))));
  return peer;
}

/** The records the port sent on the relay's first connection, read again until `done` (polled every 50 ms). */
export async function downRecordsUntil(
  relay: TcpRelay,
  key: string,
  done: (records: WireRecord[]) => boolean,
  what: string,
  tries = 200,
): Promise<WireRecord[]> {
  for (let i = 0; ; i++) {
    const link = relay.connections[0] ?? { up: [], down: [] };
    const records = await readDownRecords(key, link.up, link.down);
    if (done(records)) return records;
    if (i === tries) throw new Error(`${what} did not happen`);
    await Bun.sleep(50);
  }
}
