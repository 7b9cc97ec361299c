/**
 * The Kaspa family in the family benchmarks: bridge-protocol miners (u64 notify form) against the
 * Kaspa test pool with `trustShares`. A share is [user, jobId, full nonce]: the miner's prefix from
 * mining.set_extranonce, then its counter in the bytes the prefix leaves, so every share is unique
 * without hashing.
 */
import { TestKaspaPool } from "../../test/support/kaspa/test-pool.ts";
import type { MinerProtocol, ProtoMiner, WireMessage } from "./family-fleet.ts";
import type { FamilyKit } from "./family-kit.ts";

const params = (msg: WireMessage): unknown[] => (Array.isArray(msg.params) ? msg.params : []);

const bridge: MinerProtocol = {
  hello: (m) =>
    `{"id":1,"method":"mining.subscribe","params":["bench/1.0","EthereumStratum/1.0.0"]}\n` +
    `{"id":2,"method":"mining.extranonce.subscribe","params":[]}\n` +
    `{"id":3,"method":"mining.authorize","params":["${m.user}","x"]}\n`,
  onMessage(m: ProtoMiner, msg: WireMessage): void {
    const p = params(msg);
    if (msg.method === "mining.set_extranonce") m.state.extranonce = String(p[0]);
    else if (msg.method === "mining.set_difficulty") {
      m.difficulty = Number(p[0]);
      m.nextShareAt = 0;
    } else if (msg.method === "mining.notify") {
      m.state.jobId = String(p[0]);
      m.ready = true;
    }
  },
  share(m: ProtoMiner, id: number): string {
    const prefix = m.state.extranonce ?? "";
    const digits = 16 - prefix.length;
    const nonce = prefix + m.counter.toString(16).padStart(digits, "0").slice(-digits);
    return `{"id":${id},"method":"mining.submit","params":["${m.user}","${m.state.jobId}","${nonce}"]}\n`;
  },
};

export const KASPA_KIT: FamilyKit = {
  family: "kaspa",
  label: "Kaspa (bridge-protocol miners, u64 notify form)",
  currency: "KAS",
  category: "kheavyhash",
  difficulty: 1,
  protocol: bridge,
  startPool: async ({ difficulty, jobIntervalMs }) =>
    TestKaspaPool.start({ trustShares: true, difficulty, jobIntervalMs }),
};
